import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { type ShippingStore, type ShippingStoreOrder, startShippingStore } from '../helpers/shipping-store-server.js';
import { serverEnv } from '../helpers/server-env.js';

/**
 * Issue 29's "Done when" against a store written from platform.md §10 alone (test/helpers/shipping-store-server.ts),
 * not the sandbox: the order day of an order with two shipments, the moves refused before any request, and the
 * 500-row shipments file at the documented minimum of requests, resumed exactly after SIGKILL.
 */

let store: ShippingStore;
let dir: string;

beforeAll(async () => {
  store = await startShippingStore();
  dir = mkdtempSync(join(tmpdir(), 'store-shipping-independent-'));
});
afterAll(() => store?.close());

function envFor(name: string): NodeJS.ProcessEnv {
  return serverEnv(store, mkdtempSync(join(dir, `${name}-`)));
}

const taken = () => store.requests.splice(0, store.requests.length);
const writes = () => taken().filter((r) => r.method !== 'GET');

describe('the order day against an independent store', () => {
  it('two shipments packed, shipped with tracking and delivered: partially_packed → packed → partially_fulfilled → fulfilled, and orders get shows it', async () => {
    const env = envFor('day');
    const order = store.addOrder({ shipments: ['ship', 'ship'] });
    const seen: string[] = [];
    const status = async () => {
      const shown = await runInProcess(['orders', 'get', String(order.id), '--json'], { env });
      expect(shown.code, shown.stderr).toBe(0);
      seen.push((JSON.parse(shown.stdout) as { order: { shipping_status: string } }).order.shipping_status);
    };
    taken();
    const first = await runInProcess(['orders', 'pack', String(order.number), '--fulfillment-order', '1'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(taken().map((r) => `${r.method} ${r.path}`)).toEqual([`GET /orders/${order.number}`, 'GET /orders', `PATCH /orders/${order.id}/fulfillment-orders/${order.fos[0]!.id}`]);
    await status();
    expect((await runInProcess(['orders', 'pack', String(order.id)], { env })).code).toBe(0);
    await status();
    const one = await runInProcess(['orders', 'ship', String(order.id), '--fulfillment-order', '1', '--tracking', 'BR123456789AA', '--tracking-url', 'https://track.example/BR123456789AA'], { env });
    expect(one.code, one.stderr).toBe(0);
    expect(order.fos[0]!.tracking_info).toEqual({ code: 'BR123456789AA', url: 'https://track.example/BR123456789AA', notify_customer: false });
    await status();
    expect((await runInProcess(['orders', 'ship', String(order.id), '--tracking', 'BR987654321AA'], { env })).code).toBe(0);
    await status();
    expect(seen).toEqual(['partially_packed', 'packed', 'partially_fulfilled', 'fulfilled']);

    taken();
    const delivered = await runInProcess(['orders', 'deliver', String(order.id), '--at', '2026-11-22T10:00:00-03:00'], { env });
    expect(delivered.code, delivered.stderr).toBe(0);
    // Delivery by the documented delivered tracking event, one per shipment.
    expect(writes().map((r) => `${r.method} ${r.path.replace(/fulfillment-orders\/\w+/, 'fulfillment-orders/…')}`)).toEqual([
      `POST /orders/${order.id}/fulfillment-orders/…/tracking-events`,
      `POST /orders/${order.id}/fulfillment-orders/…/tracking-events`,
    ]);
    expect(order.fos.map((f) => [f.status, Date.parse(f.fulfilled_at!)])).toEqual([
      ['DELIVERED', Date.parse('2026-11-22T13:00:00Z')],
      ['DELIVERED', Date.parse('2026-11-22T13:00:00Z')],
    ]);
    const shown = await runInProcess(['orders', 'get', String(order.id)], { env });
    expect(shown.stdout).toMatch(/shipping\s+fulfilled/);
    expect(shown.stdout).toContain('BR123456789AA');
    expect(shown.stdout).toContain('BR987654321AA');
    expect(shown.stdout.match(/DELIVERED/g)).toHaveLength(2);
  });

  it('a tracking event on an unpacked shipment, and delivering a pickup shipment by dispatch, are refused before any request that writes', async () => {
    const env = envFor('refused');
    const order = store.addOrder({ shipments: ['ship'] });
    taken();
    const event = await runInProcess(['fulfillment-orders', 'tracking', 'add', String(order.id), order.fos[0]!.id, '--status', 'in_transit'], { env });
    expect(event.code).toBe(2);
    expect(event.stderr).toContain('is UNPACKED: tracking events start once it is DISPATCHED');
    expect(writes()).toEqual([]);

    const pickup = store.addOrder({ shipments: ['pickup'] });
    const ship = await runInProcess(['orders', 'ship', String(pickup.id), '--tracking', 'BR1'], { env });
    expect(ship.code).toBe(2);
    expect(ship.stderr).toContain('(UNPACKED) cannot be dispatched: a pickup shipment is collected, never dispatched');
    expect(writes()).toEqual([]);
    expect(pickup.fos[0]!.status).toBe('UNPACKED');
  });
});

describe('a 500-row shipments file against an independent store', () => {
  /** 497 orders to dispatch, a pickup order, a number nobody has, an order sent already with the row's code. */
  function shipmentsFile(name: string): { path: string; good: ShippingStoreOrder[]; pickup: ShippingStoreOrder } {
    const good = Array.from({ length: 497 }, () => store.addOrder());
    const pickup = store.addOrder({ shipments: ['pickup'] });
    const sent = store.addOrder();
    Object.assign(sent.fos[0]!, { status: 'DISPATCHED', tracking_info: { code: `PRE-${sent.number}`, url: null, notify_customer: false } });
    const rows = ['order,fulfillment_order,tracking_code,tracking_url,notify'];
    good.forEach((o, i) => rows.push(`${i % 2 ? o.number : o.id},${i % 3 === 0 ? '1' : ''},BR${o.number}AA,,${i % 7 === 0 ? 'yes' : ''}`));
    rows.splice(101, 0, `${pickup.id},,BR-PICKUP,,`);
    rows.splice(301, 0, '99999,,BR-NOBODY,,');
    rows.push(`${sent.number},,PRE-${sent.number},,`);
    const path = join(dir, name);
    writeFileSync(path, `${rows.join('\n')}\n`);
    return { path, good, pickup };
  }
  const counts = (list: { method: string; path: string }[]) => ({
    lists: list.filter((r) => r.method === 'GET' && r.path === '/orders').length,
    singles: list.filter((r) => r.method === 'GET' && r.path !== '/orders').length,
    patches: list.filter((r) => r.method === 'PATCH').length,
  });

  it('dry-runs and applies at the documented minimum, reports the two bad rows, and resumes exactly after SIGKILL', async () => {
    // Every open order of the store so far is shipped or set aside, so the file's orders are the open unsent ones.
    for (const o of store.orders) o.status = 'closed';
    const { path, good, pickup } = shipmentsFile('shipments.csv');
    const env = envFor('file');
    // 498 open unsent orders: 3 pages of the unpacked list, 1 of the (empty) unfulfilled one; the order sent
    // already and the bad number, each given by number: its 404 as an id, then the q search (2 + 2).
    taken();
    const dry = await runInProcess(['orders', 'ship', '--file', path, '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(3);
    expect(counts(taken())).toEqual({ lists: 4 + 2, singles: 2, patches: 0 });
    expect(dry.stdout).toContain('497 to ship, 1 already shipped, 2 failed');

    const child = spawn(process.execPath, [BIN, 'orders', 'ship', '--file', path], { env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: 'ignore' });
    const killAt = setInterval(() => {
      if (store.requests.filter((r) => r.method === 'PATCH').length >= 150) child.kill('SIGKILL');
    }, 1);
    expect(await new Promise((resolve) => child.on('close', (_code, signal) => resolve(signal)))).toBe('SIGKILL');
    clearInterval(killAt);
    const dispatched = good.filter((o) => o.fos[0]!.status === 'DISPATCHED').length;
    expect(dispatched).toBeGreaterThanOrEqual(150);
    expect(dispatched).toBeLessThan(497);

    taken();
    const report = join(dir, 'failed.csv');
    const resumed = await runInProcess(['orders', 'ship', '--file', path, '--resume', '--report', report], { env });
    expect(resumed.code, resumed.stderr).toBe(3);
    expect(counts(taken()).patches).toBe(497 - dispatched);
    expect(good.every((o) => o.fos[0]!.status === 'DISPATCHED' && o.fos[0]!.tracking_info!.code === `BR${o.number}AA`)).toBe(true);
    expect(good.every((o) => o.fos[0]!.status_history.filter((h) => h.to_status === 'DISPATCHED').length === 1)).toBe(true);
    expect(pickup.fos[0]!.status).toBe('UNPACKED');
    const lines = readFileSync(report, 'utf8').trim().split('\n');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 1)[0])).toEqual([String(pickup.id), '99999']);
  }, 120_000);
});

describe('the customer against an independent store (platform.md §11)', () => {
  it('customers get ana@example.com shows her and only her orders, newest first, in two requests; customers list --search finds her', async () => {
    const env = envFor('customers');
    const other = store.addCustomer({ name: 'Bruno Lima', email: 'bruno@example.com' });
    const ana = store.customers.find((c) => c.email === 'ana@example.com')!;
    store.addOrder({ customerId: other.id });
    const hers = [store.addOrder({ customerId: ana.id }), store.addOrder({ customerId: ana.id })];
    taken();
    // The email as a person types it: the lookup is whole and case-blind, whatever the store's q matches besides.
    const r = await runInProcess(['customers', 'get', 'Ana@Example.com', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const details = JSON.parse(r.stdout) as { customer: { id: number; name: string }; orders: { id: number }[]; orders_total: number };
    expect(details.customer).toMatchObject({ id: ana.id, name: 'Ana Souza' });
    const expected = store.orders.filter((o) => o.customer_id === ana.id).map((o) => o.id);
    // Her newest 10 (the default of --orders), the two just added first; the file's other tests gave her more.
    expect(details.orders.map((o) => o.id)).toEqual(expected.slice(0, 10));
    expect(details.orders.slice(0, 2).map((o) => o.id)).toEqual(hers.map((o) => o.id).reverse());
    expect(details.orders_total).toBe(expected.length);
    const asked = taken();
    expect(asked.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /customers', 'GET /orders']);
    expect(asked[1]!.query.get('customer_ids')).toBe(String(ana.id));

    const shown = await runInProcess(['customers', 'get', String(ana.id)], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Ana Souza');
    for (const id of expected.slice(0, 10)) expect(shown.stdout).toContain(String(id));

    const found = await runInProcess(['customers', 'list', '--search', 'bruno', '--json'], { env });
    expect(found.code, found.stderr).toBe(0);
    expect((JSON.parse(found.stdout) as { id: number }[]).map((c) => c.id)).toEqual([other.id]);
    const none = await runInProcess(['customers', 'get', 'nadie@example.com'], { env });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No customer of the store has the email nadie@example.com.');
  });
});
