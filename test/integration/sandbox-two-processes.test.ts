import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

/**
 * Issue 3: two CLI processes on the `sandbox` profile at once see one store — a webhook registered by one is
 * delivered for an order created by the other, signed with the sandbox app's client secret.
 */
const root = mkdtempSync(join(tmpdir(), 'store-two-'));
const env = {
  XDG_CONFIG_HOME: join(root, 'config'),
  XDG_STATE_HOME: join(root, 'state'),
  XDG_DATA_HOME: join(root, 'data'),
};

interface Delivery {
  body: string;
  signature: string | undefined;
}

function startReceiver(): Promise<{ server: Server; url: string; deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      deliveries.push({ body, signature: req.headers['x-linkedstore-hmac-sha256'] as string | undefined });
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, deliveries })),
  );
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('two CLI processes on the sandbox profile', () => {
  afterAll(async () => {
    await runCli(['sandbox', 'stop'], { env });
  });

  it('share one store: a webhook registered by one is delivered for an order created by the other', async () => {
    const receiver = await startReceiver();
    try {
      // Both start at once, with no sandbox running yet: they must end up on one server.
      const [a, b] = await Promise.all([
        runCli(['api', 'GET', '/store', '--profile', 'sandbox'], { env }),
        runCli(['api', 'GET', '/products', '-F', 'per_page=50', '--profile', 'sandbox'], { env }),
      ]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      const shared = JSON.parse(readFileSync(join(env.XDG_STATE_HOME, 'store', 'sandbox.json'), 'utf8'));
      expect(JSON.parse(a.stdout).id).toBe(shared.store_id);

      const hook = await runCli(
        ['api', 'POST', '/webhooks', '-f', 'event=order/created', '-f', `url=${receiver.url}`, '--profile', 'sandbox'],
        { env },
      );
      expect(hook.code, hook.stderr).toBe(0);

      const products = JSON.parse(b.stdout) as { variants: { id: number; stock: number | null }[] }[];
      const variant = products.flatMap((p) => p.variants).find((v) => (v.stock ?? 0) > 0)!;
      const order = await runCli(
        ['api', 'POST', '/orders', '-F', `products[][variant_id]=${variant.id}`, '-F', 'products[][quantity]=1', '--profile', 'sandbox',
          '-f', 'customer[name]=Ana', '-f', 'customer[email]=ana@example.com'],
        { env },
      );
      expect(order.code, order.stderr).toBe(0);
      const created = JSON.parse(order.stdout) as { id: number };

      const delivery = await until('the order/created delivery', () =>
        receiver.deliveries.find((d) => JSON.parse(d.body).id === created.id),
      );
      expect(JSON.parse(delivery.body)).toEqual({ store_id: shared.store_id, event: 'order/created', id: created.id });
      expect(delivery.signature).toBe(createHmac('sha256', shared.client_secret).update(delivery.body).digest('hex'));
    } finally {
      receiver.server.close();
    }
  });
});
