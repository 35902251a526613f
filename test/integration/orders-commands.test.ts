import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, type TestSandbox, cliEnv } from '../helpers/sandbox.js';
import { normalizeTimestamp } from '../../src/platform/timestamps.js';
import { hasScript, runOnTerminal } from '../helpers/terminal.js';

/** `store orders …` against the demo store: listings compared with what the API answers, and stock on cancel. */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runInProcess(args, { env });

interface OrderJson {
  id: number;
  number: number;
  status: string;
  payment_status: string;
  shipping_status: string;
  owner_note: string;
  created_at: string;
  total: string;
  gateway_name: string;
  shipping: string;
  shipping_option: string;
  shipping_cost_customer: string;
  shipping_tracking_number: string | null;
  shipping_tracking_url: string | null;
  customer: { name: string; email: string; phone: string };
  /** Numbers, or numeric strings in some documented responses. */
  products: { variant_id: number | string; quantity: number | string }[];
}

interface VariantJson {
  id: number;
  product_id: number;
  stock: number | null;
  stock_management: boolean;
  inventory_levels: { location_id: string; stock: number }[];
}

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  api = clientFor(sandbox);
  env = cliEnv(sandbox, 'orders');
});
afterAll(() => sandbox?.close());

async function allOrders(query: Record<string, string> = {}): Promise<OrderJson[]> {
  const orders: OrderJson[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get<OrderJson[]>('/orders', { query: { ...query, page, per_page: 200 } });
    // The platform's empty list (platform.md §1).
    if (res.status === 404 && page === 1) return [];
    expect(res.status).toBe(200);
    orders.push(...res.body);
    if (orders.length >= Number(res.headers.get('x-total-count'))) return orders;
  }
}

/** A variant whose stock is counted, with at least `units` in stock. */
async function stockedVariant(units: number): Promise<VariantJson> {
  const products = (await api.get<{ id: number; variants: VariantJson[] }[]>('/products', { query: { per_page: 200 } })).body;
  const variant = products.flatMap((p) => p.variants).find((v) => v.stock_management && (v.stock ?? 0) >= units);
  if (!variant) throw new Error('the demo store has no variant with enough stock');
  return variant;
}

async function variantNow(v: VariantJson): Promise<VariantJson> {
  return (await api.get<VariantJson>(`/products/${v.product_id}/variants/${v.id}`)).body;
}

async function newOrder(variant: VariantJson, quantity: number): Promise<OrderJson> {
  const res = await api.post<OrderJson>('/orders', { customer: { name: 'Test Buyer', email: 'buyer@example.com' }, products: [{ variant_id: variant.id, quantity }] });
  expect(res.status).toBe(201);
  return res.body;
}

describe('store orders list', () => {
  it('--status open --all --json returns exactly the open orders the API has, newest first', async () => {
    const expected = await allOrders({ status: 'open' });
    expect(expected.length).toBeGreaterThan(0);
    const r = await store('orders', 'list', '--status', 'open', '--all', '--json');
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.stdout) as OrderJson[];
    expect(listed.map((o) => o.id)).toEqual(expected.map((o) => o.id));
    expect(listed.every((o) => o.status === 'open')).toBe(true);
    const times = listed.map((o) => Date.parse(o.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('--status cancelled --json, without paging flags, returns exactly the cancelled orders the API has', async () => {
    const expected = await allOrders({ status: 'cancelled' });
    // The demo store has fewer cancelled orders than one default page, so the plain command shows them all.
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThanOrEqual(30);
    const r = await store('orders', 'list', '--status', 'cancelled', '--json');
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.stdout) as OrderJson[];
    expect(listed.map((o) => o.id)).toEqual(expected.map((o) => o.id));
    // Every field of the record reaches --json, numeric-string lines read as numbers.
    const sent = expected.find((o) => typeof o.products[0]!.quantity === 'string')!;
    expect(sent).toBeDefined();
    const got = listed.find((o) => o.id === sent.id)!;
    expect(Object.keys(got)).toEqual(expect.arrayContaining(['payment_status', 'shipping_status', 'gateway', 'payment_details', 'shipping_option', 'token', 'store_id']));
    expect(got.products[0]).toMatchObject({ variant_id: Number(sent.products[0]!.variant_id), quantity: Number(sent.products[0]!.quantity) });
  });

  it('without paging flags shows the 30 newest; --limit and --page choose others', async () => {
    const everything = await allOrders();
    const first = JSON.parse((await store('orders', 'list', '--json')).stdout) as OrderJson[];
    expect(first.map((o) => o.id)).toEqual(everything.slice(0, 30).map((o) => o.id));
    const limited = JSON.parse((await store('orders', 'list', '--limit', '45', '--json')).stdout) as OrderJson[];
    expect(limited.map((o) => o.id)).toEqual(everything.slice(0, 45).map((o) => o.id));
    const page = JSON.parse((await store('orders', 'list', '--page', '2', '--per-page', '10', '--json')).stdout) as OrderJson[];
    expect(page.map((o) => o.id)).toEqual(everything.slice(10, 20).map((o) => o.id));
  });

  it('prints TSV when piped and CSV with --csv, one row per order, columns named as the API names them', async () => {
    const expected = (await allOrders({ payment_status: 'paid' })).slice(0, 5);
    const tsv = await store('orders', 'list', '--payment-status', 'paid', '--limit', '5');
    expect(tsv.code).toBe(0);
    const lines = tsv.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id\tnumber\tstatus\tpayment_status\tshipping_status\tcreated_at\tcustomer\ttotal\tcurrency');
    expect(lines.slice(1).map((l) => Number(l.split('\t')[0]))).toEqual(expected.map((o) => o.id));
    for (const [i, line] of lines.slice(1).entries()) {
      const o = expected[i]!;
      // One timestamp form in TSV: the offset written +00:00 whichever form the store sent.
      expect(line.split('\t')).toEqual([String(o.id), String(o.number), o.status, 'paid', o.shipping_status, normalizeTimestamp(o.created_at), expect.any(String), o.total, 'ARS']);
    }
    const csv = await store('orders', 'list', '--payment-status', 'paid', '--limit', '5', '--csv');
    expect(csv.stdout.split('\n')[0]).toBe('id,number,status,payment_status,shipping_status,created_at,customer,total,currency');
    expect(csv.stdout.trimEnd().split('\n')).toHaveLength(6);
  });

  it('--payment-status and --shipping-status filter like the API; --status any lists every order', async () => {
    const expected = await allOrders({ payment_status: 'pending', shipping_status: 'unpacked' });
    expect(expected.length).toBeGreaterThan(0);
    const r = await store('orders', 'list', '--payment-status', 'pending', '--shipping-status', 'unpacked', '--all', '--json');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as OrderJson[]).map((o) => o.id)).toEqual(expected.map((o) => o.id));
    const fulfilled = await allOrders({ shipping_status: 'fulfilled' });
    const f = await store('orders', 'list', '--shipping-status', 'fulfilled', '--all', '--json');
    expect((JSON.parse(f.stdout) as OrderJson[]).map((o) => o.id)).toEqual(fulfilled.map((o) => o.id));
    // Every shipment sent, in the names records use (platform.md §10).
    expect(new Set(fulfilled.map((o) => o.shipping_status))).toEqual(new Set(['fulfilled', 'shipped', 'delivered']));
    const any = await store('orders', 'list', '--status', 'any', '--all', '--json');
    expect((JSON.parse(any.stdout) as OrderJson[]).map((o) => o.id)).toEqual((await allOrders()).map((o) => o.id));
  });

  it('--status paid keeps working: it lists --payment-status paid and says so on stderr', async () => {
    const expected = await allOrders({ payment_status: 'paid' });
    const r = await store('orders', 'list', '--status', 'paid', '--all', '--json');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as OrderJson[]).map((o) => o.id)).toEqual(expected.map((o) => o.id));
    expect(r.stderr).toContain('--status paid lists --payment-status paid');
  });

  it('a filter that matches nothing (the API answers 404 "Last page is 0") prints "No orders match." and exits 0', async () => {
    // Closed orders of the demo store were all paid, so none is closed and still pending.
    expect(await allOrders({ status: 'closed', payment_status: 'pending' })).toEqual([]);
    const r = await store('orders', 'list', '--status', 'closed', '--payment-status', 'pending');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe('No orders match.');
    const json = await store('orders', 'list', '--status', 'closed', '--payment-status', 'pending', '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it('says "The first 30 of N" when more orders match; --per-page without --page is refused', async () => {
    const total = (await allOrders()).length;
    const r = await store('orders', 'list');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(31);
    expect(r.stderr).toContain(`The first 30 of ${total} orders`);
    const page = await store('orders', 'list', '--page', '2', '--per-page', '10');
    expect(page.stderr).toContain(`Page 2 of ${Math.ceil(total / 10)} (${total} orders)`);
    const perPage = await store('orders', 'list', '--per-page', '50', '--debug');
    expect(perPage.code).toBe(2);
    expect(perPage.stderr).toContain('--per-page works with --page');
    expect(perPage.stderr).not.toContain('→');
  });

  it('filters by creation date (YYYY-MM-DD and ISO 8601) like the API', async () => {
    const everything = await allOrders();
    const middle = everything[Math.floor(everything.length / 2)]!;
    const day = middle.created_at.slice(0, 10);
    // The end bound in another offset, one second after the middle order, so that order is surely inside.
    const end = new Date(Date.parse(middle.created_at) + 1000 - 3 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '-03:00');
    const expected = await allOrders({ created_at_min: `${day}T00:00:00+00:00`, created_at_max: new Date(Date.parse(middle.created_at) + 1000).toISOString() });
    expect(expected.map((o) => o.id)).toContain(middle.id);
    const r = await store('orders', 'list', '--created-after', day, '--created-before', end, '--all', '--json');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as OrderJson[]).map((o) => o.id)).toEqual(expected.map((o) => o.id));
  });

  it('refuses a bad date or status, naming the flag, before any request', async () => {
    const date = await store('orders', 'list', '--created-after', '2026-13-45', '--debug');
    expect(date.code).toBe(2);
    expect(date.stderr).toContain('--created-after "2026-13-45" is not a real calendar date.');
    expect(date.stderr).not.toContain('→');
    const reversed = await store('orders', 'list', '--created-after', '2026-11-20', '--created-before', '2026-11-01', '--debug');
    expect(reversed.code).toBe(2);
    expect(reversed.stderr).toContain('--created-after (2026-11-20T00:00:00+00:00) is later than --created-before (2026-11-01T00:00:00+00:00)');
    expect(reversed.stderr).not.toContain('→');
    const status = await store('orders', 'list', '--status', 'shipped');
    expect(status.code).toBe(2);
    expect(status.stderr).toBe("Error: --status shipped: an order's status is open, closed or cancelled; shipped is a shipping status, so use --shipping-status shipped.\n");
    const typo = await store('orders', 'list', '--status', 'opne');
    expect(typo.stderr).toBe('Error: --status "opne" is not valid; did you mean open?\n');
  });
});

describe('store orders get / update', () => {
  it('shows payment, shipping, items, fulfillment orders and invoices', async () => {
    const [order] = (await allOrders({ status: 'closed' })).filter((o) => o.shipping_tracking_number);
    const r = await store('orders', 'get', String(order!.id), '--json');
    expect(r.code).toBe(0);
    const details = JSON.parse(r.stdout);
    expect(details.order.id).toBe(order!.id);
    expect(details.order.products.length).toBeGreaterThan(0);
    const fos = (await api.get(`/orders/${order!.id}/fulfillment-orders`)).body as { id: string }[];
    expect(details.fulfillment_orders.map((fo: { id: string }) => fo.id)).toEqual(fos.map((fo) => fo.id));
    expect(Array.isArray(details.invoices)).toBe(true);

    const text = await store('orders', 'get', String(order!.id));
    expect(text.stdout).toMatch(new RegExp(`^id\\s+${order!.id}$`, 'm'));
    expect(text.stdout).toMatch(new RegExp(`^payment\\s+paid — ${order!.gateway_name}`, 'm'));
    expect(text.stdout).toMatch(new RegExp(`^shipping\\s+${order!.shipping_status} — ${order!.shipping_option} \\(${order!.shipping}\\), ${order!.shipping_cost_customer}$`, 'm'));
    expect(text.stdout).toMatch(new RegExp(`^tracking\\s+${order!.shipping_tracking_number} ${order!.shipping_tracking_url}$`, 'm'));
    expect(text.stdout).toMatch(new RegExp(`^total\\s+${order!.total} ARS$`, 'm'));
    for (const section of ['Items', 'Fulfillment orders', 'Invoices']) expect(text.stdout).toContain(`\n${section}\n`);
  });

  it('takes a 9-digit id, and reads an order whose lines and timestamps come in the other documented forms', async () => {
    const everything = await allOrders();
    const short = everything.find((o) => /^\d{9}$/.test(String(o.id)))!;
    const r = await store('orders', 'get', String(short.id), '--json');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).order.id).toBe(short.id);
    const odd = everything.find((o) => typeof o.products[0]!.quantity === 'string' && o.created_at.endsWith('+0000'))!;
    const text = await store('orders', 'get', String(odd.id));
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^created\\s+${normalizeTimestamp(odd.created_at).replace('+', '\\+')}$`, 'm'));
    const line = odd.products[0]!;
    expect(text.stdout).toMatch(new RegExp(`^${line.variant_id}\\t[^\\t]*\\t[^\\t]+\\t${line.quantity}\\t`, 'm'));
  });

  it('orders get NUMBER: a number that is not an id is looked up with q, and stderr says which order it shows', async () => {
    const [order] = await allOrders({ status: 'closed' });
    const r = await store('orders', 'get', String(order!.number), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).order.id).toBe(order!.id);
    expect(r.stderr.trim()).toBe(`Order number ${order!.number} is order ${order!.id}; showing it.`);
    const missing = await store('orders', 'get', '99999');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Order 99999 not found.');
    expect(missing.stderr).not.toContain('showing');
  });

  it('names an unknown order (exit 1) and refuses what is not a number (exit 2)', async () => {
    const missing = await store('orders', 'get', '1999999999');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Order 1999999999 not found.');
    const word = await store('orders', 'get', 'abc');
    expect(word.code).toBe(2);
    expect(word.stderr).toContain('ORDER_ID "abc" is not an order id');
  });

  it('updates the note and the status, and sends cancellation to `orders cancel`', async () => {
    const [order] = await allOrders({ status: 'open' });
    const r = await store('orders', 'update', String(order!.id), '--note', 'Gift wrap', '--status', 'paid', '--json');
    expect(r.code).toBe(0);
    const after = (await api.get<OrderJson>(`/orders/${order!.id}`)).body;
    expect(after).toMatchObject({ owner_note: 'Gift wrap', status: 'open', payment_status: 'paid' });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: order!.id, owner_note: 'Gift wrap', status: 'open', payment_status: 'paid' });

    const cancel = await store('orders', 'update', String(order!.id), '--status', 'cancelled');
    expect(cancel.code).toBe(2);
    expect(cancel.stderr).toContain('store orders cancel');
    expect((await api.get<OrderJson>(`/orders/${order!.id}`)).body.status).toBe('open');
    const nothing = await store('orders', 'update', String(order!.id));
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Nothing to update');
  });

  it('update names an unknown order (exit 1) and refuses an invalid status before sending (exit 2)', async () => {
    const [order] = await allOrders({ status: 'closed' });
    const [missing, status, number] = await Promise.all([
      store('orders', 'update', '1999999999', '--note', 'x'),
      store('orders', 'update', String(order!.id), '--status', 'shipped', '--debug'),
      store('orders', 'update', String(order!.number), '--note', 'x'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Order 1999999999 not found.');
    expect(status.code).toBe(2);
    expect(status.stderr).toBe('Error: --status shipped is not valid (see `store orders update --help` for the values).\n');
    expect(status.stderr).not.toContain('→');
    // A number the store does not know as an id is the order with that number, said before anything else.
    expect(number.code).toBe(0);
    expect(number.stderr).toContain(`Order number ${order!.number} is order ${order!.id}; updating it.`);
    expect((await api.get<OrderJson>(`/orders/${order!.id}`)).body).toMatchObject({ status: 'closed', owner_note: 'x' });
  });

  it('update changes the customer details; a bad email is refused before sending', async () => {
    const [order] = await allOrders({ status: 'open' });
    const r = await store('orders', 'update', String(order!.id), '--customer-name', 'Ana S. Lima', '--customer-email', 'ana.lima@example.com', '--customer-phone', '+54 11 5555-0101');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^customer\s+Ana S\. Lima <ana\.lima@example\.com>$/m);
    expect((await api.get<OrderJson>(`/orders/${order!.id}`)).body.customer).toMatchObject({ name: 'Ana S. Lima', email: 'ana.lima@example.com', phone: '+54 11 5555-0101' });
    const bad = await store('orders', 'update', String(order!.id), '--customer-email', 'not-an-email', '--debug');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--customer-email "not-an-email" is not an email address.');
    expect(bad.stderr).not.toContain('→');
  });
});

describe('store orders create', () => {
  it('creates an order from --customer-* and repeated --item, prints it like orders get, and --json the record', async () => {
    const [a, b] = await Promise.all([stockedVariant(3), stockedVariant(3)]);
    const before = await variantNow(a);
    const r = await store('orders', 'create', '--customer-name', 'Test Buyer', '--customer-email', 'buyer@example.com', '--item', `${a.id}=2`);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^status\s+open$/m);
    expect(r.stdout).toMatch(/^payment\s+pending/m);
    expect(r.stdout).toMatch(/^customer\s+Test Buyer <buyer@example\.com>$/m);
    expect(r.stdout).toContain('\nItems\n');
    const id = Number(/^id\s+(\d+)$/m.exec(r.stdout)![1]);
    expect(r.stderr).toMatch(new RegExp(`Created order #\\d+ \\(id ${id}\\)\\.`));
    const created = (await api.get<OrderJson>(`/orders/${id}`)).body;
    expect(created.products).toEqual([expect.objectContaining({ variant_id: a.id, quantity: 2 })]);
    expect((await variantNow(a)).stock).toBe(before.stock! - 2);

    const json = await store('orders', 'create', '--customer-name', 'Json Buyer', '--customer-phone', '+54 11 5555-0000', '--item', `${a.id}=1`, '--item', `${b.id}=1`, '--json');
    expect(json.code).toBe(0);
    const order = JSON.parse(json.stdout);
    expect(order).toMatchObject({ status: 'open', payment_status: 'pending', customer: { name: 'Json Buyer', phone: '+54 11 5555-0000' } });
    expect(order.products.map((p: { variant_id: number }) => p.variant_id)).toEqual([a.id, b.id]);
  });

  it('refuses bad items and a missing name before sending (exit 2, one sentence naming the flag)', async () => {
    const cases: [string[], string][] = [
      [['--customer-name', 'X'], '--item is required'],
      [['--customer-name', 'X', '--item', 'CAM-1=2'], '--item "CAM-1=2": the variant id "CAM-1" is not a number'],
      [['--customer-name', 'X', '--item', '123=0'], '--item "123=0": the quantity "0" is not a whole number of at least 1.'],
      [['--customer-name', 'X', '--item', '123=1.5'], 'the quantity "1.5" is not a whole number'],
      [['--customer-name', 'X', '--item', '123'], '--item "123" is not VARIANT_ID=QTY'],
      [['--item', '123=1'], '--customer-name is required'],
      [['--customer-name', 'X', '--customer-email', 'x@', '--item', '123=1'], '--customer-email "x@" is not an email address.'],
    ];
    const results = await Promise.all(cases.map(([args]) => store('orders', 'create', ...args, '--debug')));
    for (const [i, r] of results.entries()) {
      expect(r.code, cases[i]![1]).toBe(2);
      expect(r.stderr).toContain(cases[i]![1]);
      expect(r.stderr).not.toContain('→');
      expect(r.stdout).toBe('');
    }
  });
});

describe('store orders cancel', () => {
  it('without a terminal needs --yes, and changes nothing without it', async () => {
    const variant = await stockedVariant(1);
    const order = await newOrder(variant, 1);
    const r = await store('orders', 'cancel', String(order.id));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --yes');
    expect((await api.get<OrderJson>(`/orders/${order.id}`)).body.status).toBe('open');
  });

  it('returns the units to the locations they came from; --no-restock leaves stock alone', async () => {
    const variant = await stockedVariant(4);
    const before = await variantNow(variant);

    const restocked = await newOrder(variant, 2);
    expect((await variantNow(variant)).stock).toBe(before.stock! - 2);
    const r = await store('orders', 'cancel', String(restocked.id), '--reason', 'customer', '--yes', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: restocked.id, status: 'cancelled' });
    const afterRestock = await variantNow(variant);
    expect(afterRestock.stock).toBe(before.stock);
    expect(afterRestock.inventory_levels).toEqual(before.inventory_levels);

    const kept = await newOrder(variant, 2);
    const noRestock = await store('orders', 'cancel', String(kept.id), '--no-restock', '--yes');
    expect(noRestock.code).toBe(0);
    expect(noRestock.stderr).toContain('stock unchanged');
    expect((await api.get<OrderJson>(`/orders/${kept.id}`)).body.status).toBe('cancelled');
    expect((await variantNow(variant)).stock).toBe(before.stock! - 2);

    const again = await store('orders', 'cancel', String(kept.id), '--yes');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`Order ${kept.id} (#${kept.number}) is already cancelled`);
  });

  it('refuses an unknown reason and an unknown order', async () => {
    const reason = await store('orders', 'cancel', '1000000001', '--reason', 'bored', '--yes');
    expect(reason.code).toBe(2);
    expect(reason.stderr).toBe('Error: --reason bored is not valid (see `store orders cancel --help` for the values).\n');
    const missing = await store('orders', 'cancel', '1999999999', '--yes');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Order 1999999999 not found.');
  });
});

describe('store orders close / reopen', () => {
  it('without a terminal need --yes and change nothing without it; by number, the order used is said first', async () => {
    const order = await newOrder(await stockedVariant(1), 1);
    const unconfirmed = await store('orders', 'close', String(order.id));
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('pass --yes');
    expect((await api.get<OrderJson>(`/orders/${order.id}`)).body.status).toBe('open');
    // An open order is not reopened: said before any confirmation.
    const open = await store('orders', 'reopen', String(order.id));
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('is already open');

    const closed = await store('orders', 'close', String(order.number), '--yes', '--json');
    expect(closed.code).toBe(0);
    expect(closed.stderr).toContain(`Order number ${order.number} is order ${order.id}; closing it.`);
    expect(JSON.parse(closed.stdout)).toMatchObject({ id: order.id, status: 'closed' });
    expect((await api.get<OrderJson>(`/orders/${order.id}`)).body.status).toBe('closed');

    const twice = await store('orders', 'close', String(order.id), '--yes');
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('is already closed');

    const unconfirmedReopen = await store('orders', 'reopen', String(order.id));
    expect(unconfirmedReopen.code).toBe(2);
    expect(unconfirmedReopen.stderr).toContain('pass --yes');
    const reopened = await store('orders', 'reopen', String(order.id), '--yes');
    expect(reopened.code).toBe(0);
    expect(reopened.stderr).toContain(`Reopened order #${order.number} (id ${order.id}); it is open.`);
    expect((await api.get<OrderJson>(`/orders/${order.id}`)).body.status).toBe('open');
  });

  it('a cancelled order is not closed (exit 2, nothing sent); reopen brings it back open', async () => {
    const order = await newOrder(await stockedVariant(1), 1);
    expect((await api.post(`/orders/${order.id}/cancel`)).status).toBe(200);
    const close = await store('orders', 'close', String(order.id), '--yes');
    expect(close.code).toBe(2);
    expect(close.stderr).toContain('is cancelled');
    expect((await api.get<OrderJson>(`/orders/${order.id}`)).body.status).toBe('cancelled');
    const reopen = await store('orders', 'reopen', String(order.id), '--yes');
    expect(reopen.code).toBe(0);
    expect((await api.get<OrderJson>(`/orders/${order.id}`)).body.status).toBe('open');
    const unknown = await store('orders', 'close', '1999999999', '--yes');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Order 1999999999 not found.');
  });
});

describe.skipIf(!hasScript)('store orders on a terminal', () => {
  it('list draws a table with status, payment and shipping state', async () => {
    const expected = (await allOrders({ payment_status: 'paid' })).slice(0, 3);
    const r = await runOnTerminal(['orders', 'list', '--payment-status', 'paid', '--limit', '3'], { ...env, COLUMNS: '250' });
    expect(r.code).toBe(0);
    const lines = r.output.split(/\r?\n/).filter((l) => l.trim() !== '' && /^\s*(ID|\d)/.test(l));
    expect(lines[0]!.trim().split(/\s{2,}/)).toEqual(['ID', 'NUMBER', 'STATUS', 'PAYMENT', 'SHIPPING', 'CREATED', 'CUSTOMER', 'TOTAL']);
    expect(lines.slice(1).map((l) => Number(l.trim().split(/\s+/)[0]))).toEqual(expected.map((o) => o.id));
    for (const [i, order] of expected.entries()) {
      expect(lines[i + 1]).toContain(` ${order.number} `);
      expect(lines[i + 1]).toMatch(new RegExp(` ${order.status} +paid +${order.shipping_status} `));
    }
  });

  it('cancel asks first: "no" leaves the order open, "yes" cancels it', async () => {
    const variant = await stockedVariant(1);
    const order = await newOrder(variant, 1);
    const question = `Cancel order #${order.number} (id ${order.id}`;
    const no = await runOnTerminal(['orders', 'cancel', String(order.id)], env, [{ when: question, send: 'n\r' }]);
    expect(no.code).toBe(0);
    expect(no.output).toContain('Nothing changed.');
    expect((await api.get<OrderJson>(`/orders/${order.id}`)).body.status).toBe('open');
    const yes = await runOnTerminal(['orders', 'cancel', String(order.id)], env, [{ when: question, send: 'y\r' }]);
    expect(yes.code).toBe(0);
    expect((await api.get<OrderJson>(`/orders/${order.id}`)).body.status).toBe('cancelled');
  });
});
