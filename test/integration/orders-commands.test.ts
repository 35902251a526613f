import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/run-cli.js';
import { clientFor, type TestSandbox, cliEnv } from '../helpers/sandbox.js';
import { hasScript, runOnTerminal } from '../helpers/terminal.js';

/** `store orders …` against the demo store: listings compared with what the API answers, and stock on cancel. */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runCli(args, { env });

interface OrderJson {
  id: number;
  number: number;
  status: string;
  owner_note: string;
  created_at: string;
  products: { variant_id: number; quantity: number }[];
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

  it('--status open --json, without paging flags, returns exactly the open orders the API has', async () => {
    const expected = await allOrders({ status: 'open' });
    // The demo store has fewer open orders than one default page, so the plain command shows them all.
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThanOrEqual(30);
    const r = await store('orders', 'list', '--status', 'open', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
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

  it('prints TSV when piped and CSV with --csv, one row per order', async () => {
    const expected = (await allOrders({ status: 'paid' })).slice(0, 5);
    const tsv = await store('orders', 'list', '--status', 'paid', '--limit', '5');
    expect(tsv.code).toBe(0);
    const lines = tsv.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id\tnumber\tstatus\tcreated_at\tcustomer\ttotal');
    expect(lines.slice(1).map((l) => Number(l.split('\t')[0]))).toEqual(expected.map((o) => o.id));
    expect(lines.slice(1).every((l) => l.split('\t')[2] === 'paid')).toBe(true);
    const csv = await store('orders', 'list', '--status', 'paid', '--limit', '5', '--csv');
    expect(csv.stdout.split('\n')[0]).toBe('id,number,status,created_at,customer,total');
    expect(csv.stdout.trimEnd().split('\n')).toHaveLength(6);
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
    expect(status.stderr).toMatch(/--status=shipped to be one of: open, paid, closed,\s+(› +)?cancelled/);
  });
});

describe('store orders get / update', () => {
  it('shows items, payments, fulfillment orders and invoices', async () => {
    const [order] = await allOrders({ status: 'paid' });
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
    for (const section of ['Items', 'Payments', 'Fulfillment orders', 'Invoices']) expect(text.stdout).toContain(`\n${section}\n`);
  });

  it('names an unknown order (exit 1) and tells an order number from an id (exit 2)', async () => {
    const missing = await store('orders', 'get', '1999999999');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Order 1999999999 not found.');
    const [order] = await allOrders();
    const number = await store('orders', 'get', String(order!.number));
    expect(number.code).toBe(2);
    expect(number.stderr).toContain(`${order!.number} looks like an order number (what the customer sees); commands take the 10-digit order id`);
  });

  it('updates the note and the status, and sends cancellation to `orders cancel`', async () => {
    const [order] = await allOrders({ status: 'open' });
    const r = await store('orders', 'update', String(order!.id), '--note', 'Gift wrap', '--status', 'paid', '--json');
    expect(r.code).toBe(0);
    const after = (await api.get<OrderJson>(`/orders/${order!.id}`)).body;
    expect(after).toMatchObject({ owner_note: 'Gift wrap', status: 'paid' });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: order!.id, owner_note: 'Gift wrap', status: 'paid' });

    const cancel = await store('orders', 'update', String(order!.id), '--status', 'cancelled');
    expect(cancel.code).toBe(2);
    expect(cancel.stderr).toContain('store orders cancel');
    expect((await api.get<OrderJson>(`/orders/${order!.id}`)).body.status).toBe('paid');
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
    expect(status.stderr).toMatch(/--status=shipped to be one of: open, paid, closed,\s+(› +)?cancelled/);
    expect(status.stderr).not.toContain('→');
    expect(number.code).toBe(2);
    expect(number.stderr).toContain(`${order!.number} looks like an order number`);
    expect((await api.get<OrderJson>(`/orders/${order!.id}`)).body.status).toBe('closed');
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
    expect(reason.stderr).toMatch(/--reason=bored to be one of: customer, inventory, fraud,\s+(› +)?other/);
    const missing = await store('orders', 'cancel', '1999999999', '--yes');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Order 1999999999 not found.');
  });
});

describe.skipIf(!hasScript)('store orders on a terminal', () => {
  it('list draws a table of id, number, status, created, customer and total', async () => {
    const expected = (await allOrders({ status: 'paid' })).slice(0, 3);
    const r = await runOnTerminal(['orders', 'list', '--status', 'paid', '--limit', '3'], { ...env, COLUMNS: '200' });
    expect(r.code).toBe(0);
    const lines = r.output.split(/\r?\n/).filter((l) => l.trim() !== '');
    expect(lines[0]!.trim().split(/\s{2,}/)).toEqual(['ID', 'NUMBER', 'STATUS', 'CREATED AT', 'CUSTOMER', 'TOTAL']);
    expect(lines.slice(1).map((l) => Number(l.trim().split(/\s+/)[0]))).toEqual(expected.map((o) => o.id));
    for (const [i, order] of expected.entries()) {
      expect(lines[i + 1]).toContain(` ${order.number} `);
      expect(lines[i + 1]).toContain(order.created_at);
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
