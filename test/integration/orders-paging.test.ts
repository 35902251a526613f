import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { createClient } from '../../src/client/index.js';
import { orderPages } from '../../src/services/orders/order-listing.js';
import { clientFor, cliEnv } from '../helpers/sandbox.js';

/** `store orders list --all` on a store of 1,000 orders: 200 per request, rows streamed, header once. */

const ORDERS = 1000;
let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let ids: number[];
let variantId: number;

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'empty', rate: 'off', host: '127.0.0.1', port: 0 });
  const api = clientFor(sandbox);
  const product = await api.post('/products', { name: 'Camisa', sku: 'CAM-1', price: '10.00', stock: ORDERS * 2 });
  expect(product.status).toBe(201);
  variantId = product.body.variants[0].id as number;
  const created: number[] = [];
  // A few at a time: the sandbox is in this process, so this is quick without hammering one core.
  for (let i = 0; i < ORDERS; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        api.post('/orders', { customer: { name: `Buyer ${i + j}` }, products: [{ variant_id: variantId, quantity: 1 }] }),
      ),
    );
    for (const res of batch) {
      expect(res.status).toBe(201);
      created.push(res.body.id);
    }
  }
  ids = created;
  env = cliEnv(sandbox, 'orders-paging');
});
afterAll(() => sandbox?.close());

/** The order-list requests in the --debug lines. */
function listRequests(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /^→ GET \S+\/orders\?/.test(line));
}

describe('store orders list --all', () => {
  it('sends ceil(1000/200) = 5 list requests and prints every order once, header once', async () => {
    const r = await runInProcess(['orders', 'list', '--all', '--csv', '--debug'], { env });
    expect(r.code).toBe(0);
    const requests = listRequests(r.stderr);
    expect(requests).toHaveLength(Math.ceil(ORDERS / 200));
    expect(requests.every((line) => line.includes('per_page=200'))).toBe(true);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('id,'))).toHaveLength(1);
    const listed = lines.slice(1).map((l) => Number(l.split(',')[0]));
    expect(listed).toHaveLength(ORDERS);
    expect(new Set(listed)).toEqual(new Set(ids));
  });

  it('prints the rows of each page before it asks for the next one', async () => {
    // A proxy in front of the sandbox holds each later page until the rows of the pages before it are on
    // stdout: a command that printed only at the end would show nothing while it waits.
    let printed = '';
    const held: { page: number; linesShown: number }[] = [];
    const linesShown = () => printed.split('\n').length - 1;
    const proxy = createServer((req, res) => {
      void (async () => {
        const url = new URL(req.url!, sandbox.apiUrl);
        const page = Number(url.searchParams.get('page') ?? 1);
        if (url.pathname.endsWith('/orders') && page > 1) {
          const wanted = 1 + (page - 1) * 200;
          // Bounded, so a command that does not stream fails the assertion below instead of hanging.
          for (let i = 0; i < 500 && linesShown() < wanted; i++) await new Promise((r) => setTimeout(r, 20));
          held.push({ page, linesShown: linesShown() });
        }
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host')) as Record<string, string>;
        const upstream = await fetch(new URL(req.url!, sandbox.apiUrl), { method: req.method, headers });
        const out: Record<string, string> = {};
        upstream.headers.forEach((value, key) => {
          if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(key)) out[key] = value.replaceAll(sandbox.apiUrl, proxyUrl);
        });
        res.writeHead(upstream.status, out).end(await upstream.text());
      })();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const r = await runInProcess(['orders', 'list', '--all'], { env: { ...env, STORE_API_URL: proxyUrl }, onStdout: (text) => (printed = text) });
      expect(r.code).toBe(0);
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(ORDERS + 1);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
    expect(held.map((h) => h.page)).toEqual([2, 3, 4, 5]);
    for (const { page, linesShown: shown } of held) expect(shown).toBeGreaterThanOrEqual(1 + (page - 1) * 200);
  });

  it('TSV streams the same way; --limit 250 needs two requests', async () => {
    const tsv = await runInProcess(['orders', 'list', '--all'], { env });
    expect(tsv.code).toBe(0);
    const lines = tsv.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id\tnumber\tstatus\tpayment_status\tshipping_status\tcreated_at\tcustomer\ttotal\tcurrency');
    expect(lines).toHaveLength(ORDERS + 1);

    const limited = await runInProcess(['orders', 'list', '--limit', '250', '--json', '--debug'], { env });
    expect(limited.code).toBe(0);
    expect(listRequests(limited.stderr)).toHaveLength(2);
    expect(JSON.parse(limited.stdout)).toHaveLength(250);
  });

  it('lists each order once when new orders arrive between pages (newest first shifts the pages)', async () => {
    const client = createClient({
      apiUrl: sandbox.apiUrl,
      storeId: sandbox.storeId,
      token: sandbox.accessToken,
      appName: sandbox.appName,
      appId: sandbox.clientId,
    });
    const api = clientFor(sandbox);
    for (const options of [{ all: true }, { limit: 450 }]) {
      const listed: number[] = [];
      let pages = 0;
      for await (const page of orderPages(client, { filters: {}, notes: [] }, options)) {
        listed.push(...page.items.map((o) => o.id));
        if (pages++ === 0) {
          // Three new orders while the listing is between pages.
          for (let i = 0; i < 3; i++) {
            expect((await api.post('/orders', { customer: { name: 'Late' }, products: [{ variant_id: variantId, quantity: 1 }] })).status).toBe(201);
          }
        }
      }
      expect(new Set(listed).size).toBe(listed.length);
      if (options.all) expect(listed).toHaveLength(ORDERS);
      else expect(listed).toHaveLength(450);
    }
  });
});
