import { describe, expect, it } from 'vitest';
import { useCliSandbox } from '../helpers/cli-sandbox.js';
import { hasScript, plainText, runOnTerminal } from '../helpers/terminal.js';
import { displayWidth } from '../../src/output/format.js';

/**
 * Issue 29, "find the customer": `customers list` and `customers get ID|EMAIL` against the demo sandbox (whose
 * customers match its orders: Ana Gómez, ana@example.com, has every tenth), `orders list --customer ID|EMAIL`, and
 * what each costs in requests.
 */

const t = useCliSandbox('customers');

interface CustomerJson {
  id: number;
  name: string;
  email: string;
  last_order_id: number | null;
  addresses: { address: string }[];
}
interface OrderJson {
  id: number;
  number: number;
  customer: { id: number; email: string };
}

const store = (...args: string[]) => t.run(...args);

/** Every order of a customer, as the API lists them (newest first). */
async function ordersOf(customerId: number): Promise<OrderJson[]> {
  const res = await t.api.get<OrderJson[]>('/orders', { query: { customer_ids: customerId, per_page: 200 } });
  return res.body;
}

describe('store customers get', () => {
  it('ana@example.com: the customer, her addresses and her newest orders, in two requests', async () => {
    const r = await store('customers', 'get', 'ana@example.com', '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const details = JSON.parse(r.stdout) as { customer: CustomerJson; orders: OrderJson[]; orders_total: number };
    expect(details.customer).toMatchObject({ name: 'Ana Gómez', email: 'ana@example.com' });
    const hers = await ordersOf(details.customer.id);
    expect(hers.length).toBeGreaterThan(5);
    expect(details.orders.map((o) => o.id)).toEqual(hers.slice(0, 10).map((o) => o.id));
    expect(details.orders_total).toBe(hers.length);
    expect(details.customer.last_order_id).toBe(hers[0]!.id);
    expect(r.requests.map((q) => q.path)).toEqual(['/customers', '/orders']);
    expect(r.requests[1]!.query.get('customer_ids')).toBe(String(details.customer.id));

    const shown = await store('customers', 'get', 'ana@example.com');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Ana Gómez');
    expect(shown.stdout).toMatch(/\nAddresses\n/);
    expect(shown.stdout).toContain(details.customer.addresses[0]!.address);
    expect(shown.stdout).toMatch(/\nOrders\n/);
    for (const order of details.orders) expect(shown.stdout).toContain(String(order.id));
  });

  it('by id: the same customer, both requests side by side; --orders N shows fewer', async () => {
    const [ana] = (await t.api.get<CustomerJson[]>('/customers', { query: { email: 'ana@example.com' } })).body;
    const r = await store('customers', 'get', String(ana!.id), '--orders', '3', '--json');
    expect(r.code).toBe(0);
    const details = JSON.parse(r.stdout);
    expect(details.customer.id).toBe(ana!.id);
    expect(details.orders).toHaveLength(3);
    expect(r.requests.map((q) => q.path).sort()).toEqual([`/customers/${ana!.id}`, '/orders'].sort());
  });

  it('an unknown email or id is one sentence (exit 1); something else is refused before any request (exit 2)', async () => {
    const bad = await store('customers', 'get', 'ana');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('Error: CUSTOMER "ana" is neither a customer id (a whole number) nor an email address.\n');
    expect(bad.requests).toEqual([]);
    const email = await store('customers', 'get', 'nobody@example.com');
    expect(email.code).toBe(1);
    expect(email.stderr).toBe('Error: No customer of the store has the email nobody@example.com.\n');
    // Last: the orders request sent beside the customer's may still be answered after the 404 ends the command.
    const id = await store('customers', 'get', '99999999');
    expect(id.code).toBe(1);
    expect(id.stderr).toContain('Customer 99999999 not found');
  });
});

describe('store customers list', () => {
  it('--search and --email find what the API finds; the paging notes as orders list has them', async () => {
    const all = (await t.api.get<CustomerJson[]>('/customers', { query: { per_page: 200 } })).body;
    const search = await store('customers', 'list', '--search', 'gomez', '--all', '--json');
    expect(search.code).toBe(0);
    const folded = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
    expect((JSON.parse(search.stdout) as CustomerJson[]).map((c) => c.id)).toEqual(all.filter((c) => folded(`${c.name} ${c.email}`).includes('gomez')).map((c) => c.id));
    const email = await store('customers', 'list', '--email', 'ANA@example.com', '--json');
    expect((JSON.parse(email.stdout) as CustomerJson[]).map((c) => c.email)).toEqual(['ana@example.com']);
    expect(email.requests).toHaveLength(1);
    const first = await store('customers', 'list', '--limit', '5');
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split('\n')).toHaveLength(6);
    expect(first.stderr).toBe(`The first 5 of ${all.length} customers; --limit N or --all for more.\n`);
  });

  it('bad input is refused before any request, naming the flag', async () => {
    const email = await store('customers', 'list', '--email', 'ana');
    expect(email.code).toBe(2);
    expect(email.stderr).toBe('Error: --email "ana" is not an email address.\n');
    const empty = await store('customers', 'list', '--search', ' ');
    expect(empty.code).toBe(2);
    expect(empty.requests).toEqual([]);
  });
});

describe('store orders list --customer ID|EMAIL', () => {
  it('an email is looked up first (one request), then the orders of that customer id', async () => {
    const [ana] = (await t.api.get<CustomerJson[]>('/customers', { query: { email: 'ana@example.com' } })).body;
    const r = await store('orders', 'list', '--customer', 'ana@example.com', '--all', '--json', 'id');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { id: number }[]).map((o) => o.id)).toEqual((await ordersOf(ana!.id)).map((o) => o.id));
    expect(r.requests.map((q) => q.path)).toEqual(['/customers', '/orders']);
    expect(r.requests[1]!.query.get('customer_ids')).toBe(String(ana!.id));
    const both = await store('orders', 'list', '--customer', `ana@example.com,${ana!.id}`, '--all', '--json', 'id');
    expect(JSON.parse(both.stdout)).toEqual(JSON.parse(r.stdout));
    const unknown = await store('orders', 'list', '--customer', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('Error: No customer of the store has the email nobody@example.com.\n');
    const bad = await store('orders', 'list', '--customer', 'ana');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--customer "ana" is neither a customer id');
  });
});

describe.runIf(hasScript)('on an 80-column terminal', () => {
  it('customers get and customers list fit', async () => {
    for (const args of [['customers', 'get', 'ana@example.com'], ['customers', 'list']]) {
      const r = await runOnTerminal(args, { ...t.env, COLUMNS: undefined, LINES: undefined }, [], { columns: 80 });
      const lines = plainText(r.output).split('\n');
      expect(r.code, lines.join('\n')).toBe(0);
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
      expect(lines.join('\n')).toContain('Ana Gómez');
    }
  });
});
