import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LargeOrder, type LargeStore, startLargeStore } from '../helpers/large-store-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { serverEnv } from '../helpers/server-env.js';

/**
 * Issue 21, "Done when": against a store written independently from the platform's documents
 * (test/helpers/large-store-server.ts) with more than 10,000 orders, `orders list --all --json` and `orders export`
 * return every order exactly once and every line item, no request is refused for the cap, and the counts match
 * the server's. Also: orders created while the CLI reads, more than 10,000 orders in one second, and every filter.
 */

const ORDERS = 12_100;

function envFor(store: LargeStore): NodeJS.ProcessEnv {
  return serverEnv(store, mkdtempSync(join(tmpdir(), 'store-large-')));
}

function expectEachOnceNewestFirst(listed: { id: number; created_at: string }[], expected: LargeOrder[]): void {
  const ids = listed.map((o) => o.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBe(expected.length);
  expect(new Set(ids)).toEqual(new Set(expected.map((o) => o.id)));
  const times = listed.map((o) => Date.parse(o.created_at.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')));
  for (let i = 1; i < times.length; i++) expect(times[i]!).toBeLessThanOrEqual(times[i - 1]!);
}

describe('a store of 12,100 orders served as the platform documents (cap of 10,000 per query)', () => {
  let store: LargeStore;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    store = await startLargeStore({ orders: ORDERS });
    env = envFor(store);
  });
  afterAll(() => store?.close());

  it('orders list --all --json prints every order once, newest first, no request refused, in the minimum of requests', async () => {
    store.requests.length = 0;
    const r = await runInProcess(['orders', 'list', '--all', '--json'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.stdout) as { id: number; created_at: string }[];
    expectEachOnceNewestFirst(listed, store.orders);
    expect(store.requests.every((q) => q.status === 200)).toBe(true);
    // ceil(12,100 / 200) = 61 pages; the second window starts with the boundary second again: at most 2 more.
    expect(store.requests.length).toBeGreaterThanOrEqual(61);
    expect(store.requests.length).toBeLessThanOrEqual(63);
    expect(store.requests.every((q) => q.query.per_page === '200')).toBe(true);
  });

  it('orders export writes one row per line item of every order, the counts matching the server', async () => {
    store.requests.length = 0;
    const dir = mkdtempSync(join(tmpdir(), 'store-large-export-'));
    const file = join(dir, 'orders.csv');
    const r = await runInProcess(['orders', 'export', file], { env });
    expect(r.code).toBe(0);
    const lines = store.orders.reduce((sum, o) => sum + o.products.length, 0);
    expect(r.stderr).toContain(`Exported ${ORDERS.toLocaleString('en-US').replace(/,/g, '')} orders (${lines} rows)`);
    const rows = parse(readFileSync(file, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.length).toBe(lines);
    const byOrder = new Map<string, Record<string, string>[]>();
    for (const row of rows) byOrder.set(row.order_id!, [...(byOrder.get(row.order_id!) ?? []), row]);
    expect(byOrder.size).toBe(ORDERS);
    for (const order of store.orders) {
      const got = byOrder.get(String(order.id))!;
      expect(got.map((row) => row.line_id)).toEqual(order.products.map((p) => String(p.id)));
      expect(got.map((row) => row.line_quantity)).toEqual(order.products.map((p) => String(p.quantity)));
      expect(got[0]).toMatchObject({
        order_number: String(order.number),
        customer_email: order.customer.email,
        total: order.total,
        shipping_cost: order.shipping_cost_customer,
        line_sku: order.products[0]!.sku ?? '',
      });
    }
    expect(store.requests.every((q) => q.status === 200)).toBe(true);
  });

  it('orders export --ndjson: the same rows, one object per line', async () => {
    const r = await runInProcess(['orders', 'export', '--ndjson', '--created-after', '90d'], { env });
    expect(r.code).toBe(0);
    const since = Date.now() - 90 * 86_400_000;
    const expected = store.orders.filter((o) => Date.parse(o.created_at.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) >= since - 1000);
    const rows = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, string>);
    expect(new Set(rows.map((row) => row.order_id))).toEqual(new Set(expected.map((o) => String(o.id))));
    expect(rows.length).toBe(expected.reduce((sum, o) => sum + o.products.length, 0));
  });
});

describe('orders created while the CLI reads', () => {
  it('are left out of the windows already chosen: every order of the start once, none twice', async () => {
    const store = await startLargeStore({ orders: 10_400 });
    try {
      const before = [...store.orders];
      let n = 0;
      // An order every third list request, newest first: each one pushes the pages down.
      store.onList = () => {
        if (++n % 3 === 0) store.addOrder();
      };
      const r = await runInProcess(['orders', 'list', '--all', '--json', 'id,created_at'], { env: envFor(store) });
      expect(r.code).toBe(0);
      const listed = JSON.parse(r.stdout) as { id: number; created_at: string }[];
      const ids = listed.map((o) => o.id);
      expect(new Set(ids).size).toBe(ids.length);
      const listedIds = new Set(ids);
      expect(before.every((o) => listedIds.has(o.id))).toBe(true);
      expect(store.requests.every((q) => q.status === 200)).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('orders that leave the filter while the CLI reads (issue 31)', () => {
  it('orders export --status closed: 60 closed orders of the first page reopened before the second hide no order that stayed closed', async () => {
    const store = await startLargeStore({ orders: 3_000 });
    try {
      const closed = store.orders.filter((o) => o.status === 'closed');
      expect(closed.length).toBeGreaterThan(400);
      const reopened = new Set(closed.slice(0, 60).map((o) => o.id));
      let n = 0;
      store.onList = () => {
        if (++n === 2) for (const o of store.orders) if (reopened.has(o.id)) o.status = 'open';
      };
      const r = await runInProcess(['orders', 'export', '--status', 'closed', '--ndjson', '-'], { env: envFor(store) });
      expect(r.code, r.stderr).toBe(0);
      const exported = new Set(r.stdout.trim().split('\n').map((line) => Number((JSON.parse(line) as { order_id: string }).order_id)));
      expect(closed.filter((o) => !reopened.has(o.id) && !exported.has(o.id)).map((o) => o.id)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('more than 10,000 orders created within one second', () => {
  it('are read by splitting that second by status: every order once', async () => {
    const store = await startLargeStore({ orders: 600, burst: 10_300 });
    try {
      const r = await runInProcess(['orders', 'list', '--all', '--json', 'id,created_at'], { env: envFor(store) });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expectEachOnceNewestFirst(JSON.parse(r.stdout), store.orders);
      expect(store.requests.every((q) => q.status === 200)).toBe(true);
      expect(store.requests.some((q) => q.status === 200 && q.query.status === 'cancelled')).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('every filter of GET /orders, against the independent server', () => {
  let store: LargeStore;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    store = await startLargeStore({ orders: 1500 });
    env = envFor(store);
  });
  afterAll(() => store?.close());

  const listIds = async (args: string[]) => {
    const r = await runInProcess(['orders', 'list', '--all', '--json', 'id', ...args], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return (JSON.parse(r.stdout) as { id: number }[]).map((o) => o.id);
  };
  const idsOf = (pick: (o: LargeOrder) => boolean) => store.orders.filter(pick).map((o) => o.id);
  const at = (text: string) => Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));

  it('--search finds by email, by name (any case) and by number', async () => {
    const order = store.orders[17]!;
    expect(await listIds(['--search', order.customer.email])).toEqual(idsOf((o) => o.customer.email === order.customer.email));
    expect(await listIds(['--search', 'IÑAKI'])).toEqual(idsOf((o) => o.customer.name.toLowerCase().includes('iñaki')));
    expect(await listIds(['--search', `#${order.number}`])).toEqual([order.id]);
  });

  it('--updated-after/--updated-before, --total-min/--total-max', async () => {
    const from = store.orders[300]!.updated_at;
    const to = store.orders[40]!.updated_at;
    const [min, max] = [Math.min(at(from), at(to)), Math.max(at(from), at(to))];
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(await listIds(['--updated-after', iso(min), '--updated-before', iso(max)])).toEqual(idsOf((o) => at(o.updated_at) >= min && at(o.updated_at) <= max));
    expect(await listIds(['--total-min', '3000', '--total-max', '4000,50'])).toEqual(idsOf((o) => Number(o.total) >= 3000 && Number(o.total) <= 4000.5));
  });

  it('--customer, --channel, --payment-method, --payment-provider, --since-id', async () => {
    const customers = [store.orders[3]!.customer.id, store.orders[9]!.customer.id];
    expect(await listIds(['--customer', String(customers[0]), '--customer', String(customers[1])])).toEqual(idsOf((o) => customers.includes(o.customer.id)));
    expect(await listIds(['--channel', 'pos,meli'])).toEqual(idsOf((o) => o.storefront === 'pos' || o.storefront === 'meli'));
    expect(await listIds(['--payment-method', 'credit_card', '--payment-provider', 'pagonube'])).toEqual(
      idsOf((o) => o.payment_details.method === 'credit_card' && o.gateway === 'pagonube'),
    );
    const since = store.orders[700]!.id;
    expect(await listIds(['--since-id', String(since), '--status', 'closed'])).toEqual(idsOf((o) => o.id > since && o.status === 'closed'));
  });

  it('refuses a bad filter value before any request, naming the flag', async () => {
    store.requests.length = 0;
    for (const [args, message] of [
      [['--total-min', '12.345'], /^Error: --total-min "12.345" has 3 decimals/],
      [['--customer', 'ana'], /^Error: --customer "ana" is neither a customer id/],
      [['--updated-after', 'last tuesday'], /^Error: --updated-after "last tuesday" is not a date/],
      [['--since-id', 'x'], /^Error: --since-id "x" is not an order id/],
      [['--total-min', '10', '--total-max', '5'], /^Error: --total-min \(10.00\) is more than --total-max \(5.00\)/],
      [['--page', '51', '--per-page', '200'], /^Error: --page 51 starts past the 10,000th order, and the store serves only the first 10,000 results of a query; use --all/],
    ] as const) {
      const r = await runInProcess(['orders', 'list', ...args], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(store.requests.length).toBe(0);
  });
});
