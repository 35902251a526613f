import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SCOPES_BEFORE_CUSTOMERS } from '../../src/sandbox/http.js';
import { errorShape, startTestSandbox, useSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { createSimpleProduct, expectErrorBody, newToken, tempStateDir } from './support.js';

/** docs/platform.md §11: the customers of the sandbox, their filters and writes, and their orders. */

/** Every record of a list (200 a page); the empty list's 404 is []. */
async function all(t: TestSandbox, path: string, query: Record<string, string | number> = {}): Promise<any[]> {
  const records: any[] = [];
  for (let page = 1; ; page++) {
    const res = await t.get(path, { query: { ...query, page, per_page: 200 } });
    if (res.status === 404 && /Last page is/.test(res.body?.description ?? '')) return records;
    expect(res.status, res.text).toBe(200);
    records.push(...res.body);
    if (res.body.length < 200) return records;
  }
}

const ids = (records: { id: number }[]) => records.map((r) => r.id);

describe('the demo store has customers that match its orders (§11)', () => {
  const t = useSandbox({ seed: 'demo' });

  it('every customer an order names has a record, and Ana Gómez (ana@example.com) has several orders', async () => {
    const [customers, orders] = [await all(t, '/customers'), await all(t, '/orders')];
    const known = new Set(ids(customers));
    expect(orders.filter((o) => !known.has(o.customer.id)).map((o) => o.id)).toEqual([]);
    const ana = (await t.get('/customers', { query: { email: 'ana@example.com' } })).body;
    expect(ana).toHaveLength(1);
    expect(ana[0]).toMatchObject({ name: 'Ana Gómez', email: 'ana@example.com' });
    const hers = orders.filter((o) => o.customer.id === ana[0].id);
    expect(hers.length).toBeGreaterThanOrEqual(5);
    expect(new Set(hers.map((o) => o.status)).size).toBeGreaterThan(1);
    // Some customers of the demo bought more than once (a name drawn twice is one customer).
    expect(customers.length).toBeLessThan(orders.length);
  });

  it('GET /orders?customer_ids= gives a customer\'s orders; last_order_id and total_spent follow them', async () => {
    const [ana] = (await t.get('/customers', { query: { email: 'ana@example.com' } })).body;
    const orders = await all(t, '/orders', { customer_ids: ana.id });
    expect(orders.length).toBeGreaterThan(1);
    expect(orders.every((o) => o.customer.id === ana.id)).toBe(true);
    expect(ana.last_order_id).toBe(orders[0].id);
    const paidCents = orders.filter((o) => o.payment_status === 'paid').reduce((sum, o) => sum + Math.round(Number(o.total) * 100), 0);
    expect(ana.total_spent).toBe((paidCents / 100).toFixed(2));
    expect(ana.total_spent_currency).toBe('ARS');
    // Two customers at once: the union, each order once.
    const other = (await all(t, '/customers')).find((c) => c.id !== ana.id && c.last_order_id !== null);
    const both = await all(t, '/orders', { customer_ids: `${ana.id},${other.id}` });
    expect(new Set(both.map((o) => o.customer.id))).toEqual(new Set([ana.id, other.id]));
    expect(new Set(ids(both)).size).toBe(both.length);
  });

  it('the record has the documented fields; the default address is the first of addresses', async () => {
    const [ana] = (await t.get('/customers', { query: { email: 'ana@example.com' } })).body;
    for (const field of ['id', 'name', 'email', 'phone', 'identification', 'note', 'default_address', 'addresses', 'billing_address', 'billing_city', 'extra', 'total_spent', 'total_spent_currency', 'last_order_id', 'active', 'accepts_marketing', 'created_at', 'updated_at']) {
      expect(ana, field).toHaveProperty(field);
    }
    expect(ana.addresses.length).toBeGreaterThan(1);
    expect(ana.default_address).toEqual(ana.addresses[0]);
    expect(ana.addresses.map((a: any) => a.default)).toEqual(ana.addresses.map((_: unknown, i: number) => i === 0));
    expect((await t.get(`/customers/${ana.id}`)).body).toEqual(ana);
  });
});

describe('GET /customers filters (§11)', () => {
  const t = useSandbox({ seed: 'demo' });

  it('q finds text in the name (accents and case aside), the email or the identification', async () => {
    const customers = await all(t, '/customers');
    const ana = customers.find((c) => c.email === 'ana@example.com');
    expect(ids(await all(t, '/customers', { q: 'ANA GOMEZ' }))).toContain(ana.id);
    expect(ids(await all(t, '/customers', { q: 'ana@example' }))).toEqual([ana.id]);
    expect(ids(await all(t, '/customers', { q: ana.identification }))).toEqual([ana.id]);
    expect(await all(t, '/customers', { q: 'nobody-by-this-name' })).toEqual([]);
  });

  it('email is the whole address, case aside; since_id, the timestamp windows, per_page and fields', async () => {
    const customers = await all(t, '/customers');
    expect(ids(await all(t, '/customers', { email: 'ANA@example.com' }))).toEqual(ids(customers.filter((c) => c.email === 'ana@example.com')));
    expect(await all(t, '/customers', { email: 'ana@example' })).toEqual([]);
    const middle = customers[Math.floor(customers.length / 2)];
    expect(ids(await all(t, '/customers', { since_id: middle.id }))).toEqual(ids(customers.filter((c) => c.id > middle.id)));
    expect(ids(await all(t, '/customers', { created_at_max: middle.created_at }))).toEqual(
      ids(customers.filter((c) => Date.parse(c.created_at) <= Date.parse(middle.created_at))),
    );
    const tooMany = await t.get('/customers', { query: { per_page: 201 } });
    expectErrorBody(tooMany, 422);
    const some = await t.get('/customers', { query: { fields: 'email,name', per_page: 5 } });
    expect(some.body.map((c: any) => Object.keys(c).sort())).toEqual(Array(5).fill(['email', 'id', 'name']));
    const one = await t.get(`/customers/${middle.id}`, { query: { fields: 'total_spent' } });
    expect(one.body).toEqual({ id: middle.id, total_spent: middle.total_spent });
    expectErrorBody(await t.get('/customers', { query: { since_id: 'abc' } }), 422);
    expectErrorBody(await t.get('/customers/999999999'), 404);
  });
});

describe('POST, PUT and DELETE /customers (§11)', () => {
  const t = useSandbox();

  it('creates, changes and deletes a customer; an email already taken is a 422', async () => {
    const created = await t.post('/customers', {
      name: 'Bruno Díaz',
      email: 'bruno@example.com',
      phone: '+54 11 4000-0000',
      identification: '20123456789',
      addresses: [{ address: 'Av. Corrientes', number: '1234', city: 'CABA', province: 'Buenos Aires', zipcode: 'C1043', country: 'AR' }],
      billing_address: 'Av. Corrientes',
      billing_city: 'CABA',
      extra: { gender: 'male' },
      send_email_invite: true,
      password: 'not kept',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Bruno Díaz',
      email: 'bruno@example.com',
      identification: '20123456789',
      default_address: { address: 'Av. Corrientes', number: '1234', default: true },
      billing_address: 'Av. Corrientes',
      billing_city: 'CABA',
      extra: { gender: 'male' },
      total_spent: '0.00',
      last_order_id: null,
    });
    expect(JSON.stringify(created.body)).not.toContain('not kept');
    const id = created.body.id;

    expectErrorBody(await t.post('/customers', { name: 'Other', email: 'BRUNO@example.com' }), 422);
    expectErrorBody(await t.post('/customers', { email: 'x@example.com' }), 422);
    expectErrorBody(await t.post('/customers', { name: 'No Email' }), 422);

    const changed = await t.put(`/customers/${id}`, { note: 'Wholesale buyer', phone: null });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ note: 'Wholesale buyer', phone: null, name: 'Bruno Díaz', default_address: { address: 'Av. Corrientes' } });
    expect(Date.parse(changed.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.body.updated_at));

    const removed = await t.del(`/customers/${id}`);
    expect(removed.status, removed.text).toBe(200);
    expectErrorBody(await t.get(`/customers/${id}`), 404);
  });

  it('an order for a new email makes a customer; one for a known email (case aside) is theirs; a customer with orders cannot be deleted', async () => {
    await t.post('/locations', { name: 'Main', address: { zipcode: '1000', street: 'Calle', number: '1', city: 'CABA', province: { code: 'C', name: 'CABA' }, country: { code: 'AR' } } });
    const { variant } = await createSimpleProduct(t, { stock: 10 });
    const first = await t.post('/orders', { customer: { name: 'Carla López', email: 'carla@example.com' }, products: [{ variant_id: variant.id, quantity: 1 }] });
    expect(first.status, first.text).toBe(201);
    const [carla] = (await t.get('/customers', { query: { email: 'carla@example.com' } })).body;
    expect(first.body.customer.id).toBe(carla.id);
    const second = await t.post('/orders', {
      customer: { name: 'Carla López', email: 'Carla@Example.com' },
      shipping_address: { name: 'Carla López', address: 'Mitre', number: '50', city: 'Rosario', province: 'Santa Fe', zipcode: '2000', country: 'AR' },
      products: [{ variant_id: variant.id, quantity: 1 }],
    });
    expect(second.body.customer.id).toBe(carla.id);
    const after = (await t.get(`/customers/${carla.id}`)).body;
    expect(after.last_order_id).toBe(second.body.id);

    const refused = await t.del(`/customers/${carla.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ ...errorShape(422), description: 'Cannot delete a customer with orders' });
  });
});

describe('scopes (§11): read_customers for /customers and for order.customer', () => {
  it('a token without read_customers gets 403 on /customers and orders without customer', async () => {
    const t = await startTestSandbox({ seed: 'demo' });
    try {
      const token = await newToken(t, 'read_orders');
      const refused = await t.get('/customers', { token: token.access_token });
      expectErrorBody(refused, 403);
      expect(refused.body.description).toMatch(/read_customers/);
      const orders = await t.get('/orders', { token: token.access_token });
      expect(orders.status).toBe(200);
      expect(orders.body.some((o: any) => 'customer' in o)).toBe(false);
      const wide = await newToken(t, 'read_orders,read_customers');
      expect((await t.get('/orders', { token: wide.access_token })).body.every((o: any) => typeof o.customer?.id === 'number')).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('a state written before customers had records or scopes is brought up to date on start', async () => {
    const dir = tempStateDir();
    const first = await startTestSandbox({ seed: 'demo', stateDir: dir });
    const state = first.sandbox.state;
    const store = state.store(first.sandbox.storeId)!;
    const orders = await all(first, '/orders');
    // What an earlier sandbox wrote: no customer records, tokens with every scope of then.
    state.mutate('test.older-state', (tx) => {
      for (const customer of store.customers.list()) tx.delete(store.customers, customer.id);
      for (const token of state.tokens.list()) tx.put(state.tokens, { ...token, scopes: [...SCOPES_BEFORE_CUSTOMERS] });
    });
    expect((await first.get('/customers')).status).toBe(403);
    await first.close();

    const again = await startTestSandbox({ stateDir: dir });
    try {
      const customers = await all(again, '/customers');
      expect(new Set(ids(customers))).toEqual(new Set(orders.map((o) => o.customer.id)));
      expect(customers.find((c) => c.email === 'ana@example.com')?.name).toBe('Ana Gómez');
    } finally {
      await again.close();
    }
  });
});

describe('customer webhooks (§11)', () => {
  const t = useSandbox({ webhookRetryBaseMs: 20 });

  it('customer/created, updated and deleted carry the id and event_launch_ts; an order for a new email sends customer/created', async () => {
    const bodies: any[] = [];
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        bodies.push(JSON.parse(raw));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      for (const event of ['customer/created', 'customer/updated', 'customer/deleted']) expect((await t.post('/webhooks', { event, url })).status).toBe(201);
      const created = (await t.post('/customers', { name: 'Hook Buyer', email: 'hook@example.com' })).body;
      await t.put(`/customers/${created.id}`, { note: 'VIP' });
      await t.del(`/customers/${created.id}`);
      await t.post('/locations', { name: 'Main', address: { zipcode: '1000', street: 'Calle', number: '1', city: 'CABA', province: { code: 'C', name: 'CABA' }, country: { code: 'AR' } } });
      const { variant } = await createSimpleProduct(t, { stock: 5 });
      const order = (await t.post('/orders', { customer: { name: 'New Buyer', email: 'new-buyer@example.com' }, products: [{ variant_id: variant.id, quantity: 1 }] })).body;
      const deadline = Date.now() + 10_000;
      while (bodies.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const seen = bodies.map((b) => [b.event, b.id]).sort();
      expect(seen).toEqual(
        [
          ['customer/created', created.id],
          ['customer/updated', created.id],
          ['customer/deleted', created.id],
          ['customer/created', order.customer.id],
        ].sort(),
      );
      for (const body of bodies) {
        expect(body.store_id).toBe(t.sandbox.storeId);
        expect(Number.isInteger(body.event_launch_ts)).toBe(true);
        expect(Math.abs(body.event_launch_ts - Date.now() / 1000)).toBeLessThan(600);
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
