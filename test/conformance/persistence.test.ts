import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { clientFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { createLocation, createOrder, createSimpleProduct, tempStateDir } from './support.js';

/** DESIGN.md §6: journal + snapshot, replayed on start; no committed change lost when stopped or killed. */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/run.js');
const SERVE_BUILT = join(ROOT, 'dist/commands/sandbox/serve.js');

describe('DESIGN.md §6 persistence', () => {
  it('§6: start with a state dir, write, close, start again → the data, the app and the token are there', async () => {
    const dir = tempStateDir();
    const first = await startTestSandbox({ stateDir: dir });
    await createLocation(first, 'Kept');
    const { product, variant } = await createSimpleProduct(first, { stock: 5 });
    const order = (await createOrder(first, [{ variant_id: variant.id, quantity: 2 }])).body;
    await first.put(`/orders/${order.id}`, { owner_note: 'persisted' });
    const identity = { storeId: first.sandbox.storeId, token: first.sandbox.accessToken, clientId: first.sandbox.clientId, secret: first.sandbox.clientSecret };
    await first.close();

    const second = await startTestSandbox({ stateDir: dir });
    try {
      expect(second.sandbox.storeId).toBe(identity.storeId);
      expect(second.sandbox.accessToken).toBe(identity.token);
      expect(second.sandbox.clientId).toBe(identity.clientId);
      expect(second.sandbox.clientSecret).toBe(identity.secret);
      const got = await second.get(`/orders/${order.id}`);
      expect(got.status).toBe(200);
      expect(got.body.owner_note).toBe('persisted');
      expect((await second.get(`/products/${product.id}/variants/${variant.id}`)).body.stock).toBe(3);
      // counters continue: the next order number follows the persisted one
      const next = (await createOrder(second, [{ variant_id: variant.id, quantity: 1 }])).body;
      expect(next.number).toBe(order.number + 1);
      expect(next.id).not.toBe(order.id);
    } finally {
      await second.close();
    }
  });

  it('§6: --seed only applies to an empty state (a restart with seed demo keeps the empty store as it was)', async () => {
    const dir = tempStateDir();
    const first = await startTestSandbox({ stateDir: dir, seed: 'empty' });
    await first.post('/categories', { name: 'Only one' });
    await first.close();
    const second = await startTestSandbox({ stateDir: dir, seed: 'demo' });
    try {
      const cats = await second.get('/categories');
      expect(cats.body.map((c: any) => Object.values(c.name)[0])).toEqual(['Only one']);
    } finally {
      await second.close();
    }
  });

  it('§6: deletes are persisted too', async () => {
    const dir = tempStateDir();
    const first = await startTestSandbox({ stateDir: dir });
    const a = (await first.post('/categories', { name: 'A' })).body;
    const b = (await first.post('/categories', { name: 'B' })).body;
    await first.del(`/categories/${a.id}`);
    await first.close();
    const second = await startTestSandbox({ stateDir: dir });
    try {
      expect((await second.get('/categories')).body.map((c: any) => c.id)).toEqual([b.id]);
    } finally {
      await second.close();
    }
  });
});

describe('DESIGN.md §6 crash safety (SIGKILL of a real server process)', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('§6: SIGKILL while a client writes, restart on the same dir → loads, and every write answered 2xx is present', async () => {
    expect(existsSync(SERVE_BUILT), 'build first: npx tsc -p tsconfig.build.json && npx oclif manifest').toBe(true);
    const dir = tempStateDir();
    const proc = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--state', dir, '--seed', 'empty', '--rate', 'off', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    child = proc;
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      proc.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      proc.stderr!.on('data', (d) => (err += d));
      proc.on('exit', (code) => reject(new Error(`serve exited (${code}): ${err}`)));
    });
    const info = JSON.parse(line);
    expect(info).toEqual({
      api_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      auth_url: expect.any(String),
      store_id: expect.any(Number),
      app_name: expect.any(String),
      client_id: expect.any(String),
      client_secret: expect.any(String),
      access_token: expect.any(String),
      pid: proc.pid,
    });
    const remote: TestSandbox = clientFor({
      apiUrl: info.api_url,
      authUrl: info.auth_url,
      storeId: info.store_id,
      appName: info.app_name,
      clientId: info.client_id,
      clientSecret: info.client_secret,
      accessToken: info.access_token,
      pid: info.pid,
      close: async () => undefined,
    } as any);

    await createLocation(remote, 'Main');
    const { product, variant } = await createSimpleProduct(remote, { stock: 10_000 });

    // Four writers in parallel, two of categories and two of orders (an order and its stock decrement are one
    // journal entry); the process is killed once 40 writes were acknowledged, with others in flight.
    const acknowledged: number[] = [];
    const acknowledgedOrders: number[] = [];
    let killed = false;
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        try {
          if (w < 2) {
            const res = await remote.post('/categories', { name: `w${w}-${i}` });
            if (res.status === 200 || res.status === 201) acknowledged.push(res.body.id);
          } else {
            const res = await createOrder(remote, [{ variant_id: variant.id, quantity: 1 }]);
            if (res.status === 201) acknowledgedOrders.push(res.body.id);
          }
        } catch {
          // connection refused or reset by the kill: not acknowledged
        }
        if (acknowledged.length + acknowledgedOrders.length >= 40 && !killed) {
          killed = true;
          proc.kill('SIGKILL');
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(writer));
    await new Promise<void>((resolve) => (proc.exitCode !== null || proc.signalCode !== null ? resolve() : proc.once('exit', () => resolve())));
    expect(proc.signalCode).toBe('SIGKILL');

    const restarted = await startTestSandbox({ stateDir: dir });
    try {
      expect(restarted.sandbox.accessToken).toBe(info.access_token);
      const all = await restarted.get('/categories', { query: { per_page: 200 } });
      expect(all.status).toBe(200);
      const ids = new Set<number>(all.body.map((c: any) => c.id));
      const missing = acknowledged.filter((id) => !ids.has(id));
      expect(missing).toEqual([]);
      // Every acknowledged order is there, and the stock is exactly what the orders present took: no torn entry.
      const orders = await restarted.get('/orders', { query: { per_page: 200 } });
      const orderIds = new Set<number>(orders.body.map((o: any) => o.id));
      expect(acknowledgedOrders.filter((id) => !orderIds.has(id))).toEqual([]);
      const stock = (await restarted.get(`/products/${product.id}/variants/${variant.id}`)).body.stock;
      expect(stock).toBe(10_000 - Number(orders.headers.get('x-total-count')));
      // and it still accepts writes after the replay
      expect([200, 201]).toContain((await restarted.post('/categories', { name: 'after restart' })).status);
    } finally {
      await restarted.close();
    }
  });
});
