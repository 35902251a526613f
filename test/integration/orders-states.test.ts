import { describe, expect, it } from 'vitest';
import { useCliSandbox } from '../helpers/cli-sandbox.js';

/**
 * Issue 29, "the morning check still needs the flag vocabulary": `orders list --to-ship` (open, paid, not every
 * shipment dispatched: two queries, merged newest first), `--shipping-status` taking the nine record values of
 * platform.md §10 (mapped to the documented filter, the finer ones picked here), and the three state flags
 * pointing to the flag that means a value given to the wrong one.
 */

const t = useCliSandbox('orders-states');

interface OrderJson {
  id: number;
  status: string;
  payment_status: string;
  shipping_status: string;
}

/** Shipping states of an order every shipment of which is dispatched (platform.md §10, every name records use). */
const SENT = ['fulfilled', 'shipped', 'delivered'];

const store = (...args: string[]) => t.run(...args);

/** Every order the API lists for a query (the demo store has fewer than 200). */
async function listed(query: Record<string, string> = {}): Promise<OrderJson[]> {
  const res = await t.api.get<OrderJson[]>('/orders', { query: { ...query, per_page: 200 } });
  if (res.status === 404) return [];
  expect(res.status).toBe(200);
  return res.body;
}

const ids = (stdout: string) => (JSON.parse(stdout) as { id: number }[]).map((o) => o.id);

describe('orders list --to-ship', () => {
  it('lists the open, paid orders not yet sent, newest first, in two queries', async () => {
    const expected = (await listed()).filter((o) => o.status === 'open' && o.payment_status === 'paid' && !SENT.includes(o.shipping_status));
    expect(expected.length).toBeGreaterThan(1);
    const r = await store('orders', 'list', '--to-ship', '--all', '--json', 'id');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(ids(r.stdout)).toEqual(expected.map((o) => o.id));
    expect(r.requests.map((q) => [q.path, q.query.get('status'), q.query.get('payment_status'), q.query.get('shipping_status')]).sort()).toEqual([
      ['/orders', 'open', 'paid', 'unfulfilled'],
      ['/orders', 'open', 'paid', 'unpacked'],
    ]);
  });

  it('--limit takes the newest across both queries, and says how many there are', async () => {
    const expected = (await listed({ status: 'open', payment_status: 'paid' })).filter((o) => !SENT.includes(o.shipping_status));
    const r = await store('orders', 'list', '--to-ship', '--limit', '3');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').slice(1).map((line) => Number(line.split('\t')[0]))).toEqual(expected.slice(0, 3).map((o) => o.id));
    expect(r.stderr).toBe(`The first 3 of ${expected.length} orders; --limit N or --all for more.\n`);
    expect(r.requests).toHaveLength(2);
  });

  it('refuses what it does not go with, before any request', async () => {
    for (const [args, says] of [
      [['--shipping-status', 'unpacked'], '--to-ship lists the open, paid orders not yet sent; it does not go with --shipping-status unpacked.'],
      [['--payment-status', 'pending'], '--to-ship lists the open, paid orders not yet sent; it does not go with --payment-status pending.'],
      [['--page', '2'], '--to-ship asks two queries, whose pages are not pages of one list; use --limit N or --all.'],
    ] as const) {
      const r = await store('orders', 'list', '--to-ship', ...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`Error: ${says}\n`);
      expect(r.requests).toEqual([]);
    }
  });
});

describe('orders list --shipping-status takes the nine values of platform.md §10', () => {
  it('unshipped and shipped ask the documented unfulfilled and fulfilled', async () => {
    for (const [given, asked] of [
      ['unshipped', 'unfulfilled'],
      ['shipped', 'fulfilled'],
      ['unpacked', 'unpacked'],
    ]) {
      const r = await store('orders', 'list', '--shipping-status', given!, '--all', '--json', 'id');
      expect(r.code).toBe(0);
      expect(r.requests.map((q) => q.query.get('shipping_status'))).toEqual([asked]);
      expect(ids(r.stdout)).toEqual((await listed({ shipping_status: asked! })).map((o) => o.id));
    }
  });

  it('packed, partially_packed, partially_fulfilled and delivered are picked from the documented query', async () => {
    for (const [given, asked] of [
      ['packed', 'unfulfilled'],
      ['partially_packed', 'unfulfilled'],
      ['partially_fulfilled', 'unfulfilled'],
      ['delivered', 'fulfilled'],
    ]) {
      const r = await store('orders', 'list', '--shipping-status', given!, '--all', '--json', 'id,shipping_status');
      expect(r.code).toBe(0);
      expect(r.requests.map((q) => q.query.get('shipping_status'))).toEqual([asked]);
      const orders = JSON.parse(r.stdout) as OrderJson[];
      expect(orders.map((o) => o.id)).toEqual((await listed({ shipping_status: asked! })).filter((o) => o.shipping_status === given).map((o) => o.id));
    }
  });
});

describe('a state given to the wrong flag points to the one that means it, before any request', () => {
  it.each([
    [['--status', 'pending'], "--status pending: an order's status is open, closed or cancelled; pending is a payment status, so use --payment-status pending."],
    [['--status', 'authorized'], "--status authorized: an order's status is open, closed or cancelled; authorized is a payment status, so use --payment-status authorized."],
    [
      ['--status', 'unfulfilled'],
      "--status unfulfilled: an order's status is open, closed or cancelled; unfulfilled is a shipping status, so use --shipping-status unfulfilled (or --to-ship for the paid orders not yet sent).",
    ],
    [['--status', 'shipped'], "--status shipped: an order's status is open, closed or cancelled; shipped is a shipping status, so use --shipping-status shipped."],
    [['--payment-status', 'unpacked'], '--payment-status unpacked: unpacked is a shipping status, so use --shipping-status unpacked (or --to-ship for the paid orders not yet sent).'],
    [['--shipping-status', 'paid'], '--shipping-status paid: paid is a payment status, so use --payment-status paid.'],
    [['--shipping-status', 'open'], "--shipping-status open: open is an order's status, so use --status open."],
    [['--status', 'to-ship'], '--status to-ship: use --to-ship.'],
    [['--status', 'opne'], '--status "opne" is not valid; did you mean open?'],
  ])('orders list %j', async (args, says) => {
    const r = await store('orders', 'list', ...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`Error: ${says}\n`);
    expect(r.requests).toEqual([]);
  });

  it('--status paid still lists the paid orders, with a note', async () => {
    const r = await store('orders', 'list', '--status', 'paid', '--all', '--json', 'id');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('--payment-status paid');
    expect(ids(r.stdout)).toEqual((await listed({ payment_status: 'paid' })).map((o) => o.id));
  });
});
