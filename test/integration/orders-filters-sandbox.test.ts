import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv } from '../helpers/sandbox.js';

/**
 * The filters of `orders list` against the sandbox (the same flags are checked against the independent server in
 * orders-large-store.test.ts): each answer is the full listing filtered here by the field the filter names.
 */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let all: any[];

const at = (text: string) => Date.parse(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'empty', rate: 'off', host: '127.0.0.1', port: 0, orders: 900 });
  env = cliEnv(sandbox, 'orders-filters');
  const r = await runInProcess(['orders', 'list', '--all', '--json'], { env });
  expect(r.code).toBe(0);
  all = JSON.parse(r.stdout);
  expect(all).toHaveLength(900);
});
afterAll(() => sandbox?.close());

async function ids(args: string[]): Promise<number[]> {
  const r = await runInProcess(['orders', 'list', '--all', '--json', 'id', ...args], { env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { id: number }[]).map((o) => o.id);
}
const idsOf = (pick: (o: any) => boolean) => all.filter(pick).map((o) => o.id);

describe('orders list filters against the sandbox', () => {
  it('--search EMAIL, a name in another case, and #NUMBER', async () => {
    const order = all[5];
    expect(await ids(['--search', order.customer.email])).toEqual(idsOf((o) => o.customer.email === order.customer.email));
    const first = order.customer.name.split(' ')[0].toUpperCase();
    const folded = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
    expect(await ids(['--search', first])).toEqual(idsOf((o) => folded(o.customer.name).includes(folded(first)) || folded(o.customer.email).includes(folded(first))));
    expect(await ids(['--search', `#${order.number}`])).toEqual([order.id]);
  });

  it('--updated-after with a relative time and --created-before with a date', async () => {
    const since = Date.now() - 30 * 86_400_000;
    const got = await ids(['--updated-after', '30d']);
    // The second the flag was read in may differ by one from `since`: compare away from the edge.
    const expected = idsOf((o) => at(o.updated_at) >= since + 5000);
    expect(expected.every((id) => got.includes(id))).toBe(true);
    expect(got.every((id) => at(all.find((o) => o.id === id).updated_at) >= since - 5000)).toBe(true);
    const day = new Date(Date.now() - 100 * 86_400_000);
    const date = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
    const midnight = new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime();
    expect(await ids(['--created-before', date])).toEqual(idsOf((o) => at(o.created_at) <= midnight));
  });

  it('--total-min/--total-max, --customer, --channel, --payment-method, --payment-provider, --since-id', async () => {
    expect(await ids(['--total-min', '10000', '--total-max', '20000'])).toEqual(idsOf((o) => Number(o.total) >= 10000 && Number(o.total) <= 20000));
    const customer = all[10].customer.id;
    expect(await ids(['--customer', String(customer)])).toEqual(idsOf((o) => o.customer.id === customer));
    expect(await ids(['--channel', 'api', '--channel', 'pos'])).toEqual(idsOf((o) => o.storefront === 'api' || o.storefront === 'pos'));
    expect(await ids(['--payment-method', 'bank_transfer'])).toEqual(idsOf((o) => o.payment_details.method === 'bank_transfer'));
    expect(await ids(['--payment-provider', 'mercadopago', '--status', 'open'])).toEqual(idsOf((o) => o.gateway === 'mercadopago' && o.status === 'open'));
    const since = all[400].id;
    expect(await ids(['--since-id', String(since)])).toEqual(idsOf((o) => o.id > since));
  });

  it('orders export takes the same filters', async () => {
    const r = await runInProcess(['orders', 'export', '--ndjson', '--channel', 'pos'], { env });
    expect(r.code).toBe(0);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const pos = all.filter((o) => o.storefront === 'pos');
    expect(new Set(rows.map((row) => Number(row.order_id)))).toEqual(new Set(pos.map((o) => o.id)));
    expect(rows.length).toBe(pos.reduce((sum, o) => sum + o.products.length, 0));
  });

  it('orders export --number takes an order id or the number the customer sees, and says which order a number was', async () => {
    const [byNumber, byId] = [all[3], all[7]];
    const r = await runInProcess(['orders', 'export', '--ndjson', '--number', String(byNumber.number), '--number', String(byId.id)], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect([...new Set(rows.map((row) => Number(row.order_id)))]).toEqual([byNumber.id, byId.id]);
    expect(rows.length).toBe(byNumber.products.length + byId.products.length);
    expect(r.stderr).toContain(`Order number ${byNumber.number} is order ${byNumber.id}; exporting it.`);
  });
});
