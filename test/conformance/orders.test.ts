import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/platform/clock.js';
import { ISO_WITH_OFFSET, errorShape, useSandbox } from '../helpers/sandbox.js';
import { createLocation, createOrder, createSimpleProduct, expectCreated, expectOk, variantStock } from './support.js';

/** Spec §2 Order, §3 Order status, §4 Orders, §8 Order ID; platform.md §4 (which replaces DESIGN.md §5.14's record). */

/** What a PUT takes: the documented three and the seed's `paid`, which means open and paid. */
const STATUSES = ['open', 'paid', 'closed', 'cancelled'] as const;
/** The status and payment status a PUT of each value leaves (platform.md §4: `paid` is a payment state). */
const AFTER: Record<(typeof STATUSES)[number], { status: string; payment_status?: string }> = {
  open: { status: 'open' },
  paid: { status: 'open', payment_status: 'paid' },
  closed: { status: 'closed' },
  cancelled: { status: 'cancelled' },
};

describe('spec §4 Orders', () => {
  const t = useSandbox();
  let main: any;
  let second: any;

  beforeAll(async () => {
    main = await createLocation(t, 'Main');
    second = await createLocation(t, 'Second');
    // main is used first (priority 0), then second
    await t.patch('/locations/priorities', [
      { id: main.id, priority: 0 },
      { id: second.id, priority: 1 },
    ]);
  });

  it('§4 POST /orders {customer, products:[{variant_id, quantity}]} → an open order; §8 Order ID 10 digits; number from 100', async () => {
    const { variant } = await createSimpleProduct(t, { price: 12, stock: 10 });
    const first = await createOrder(t, [{ variant_id: variant.id, quantity: 1 }]);
    expectCreated(first);
    expect(first.body.status).toBe('open');
    expect(Number.isInteger(first.body.id)).toBe(true);
    expect(String(first.body.id)).toMatch(/^[1-9]\d{9}$/);
    expect(first.body.number).toBe(100);
    const second = await createOrder(t, [{ variant_id: variant.id, quantity: 1 }]);
    expect(second.body.number).toBe(101);
    expect(String(second.body.id)).toMatch(/^[1-9]\d{9}$/);
    expect(second.body.id).not.toBe(first.body.id);
  });

  it('platform.md §4: the order record is the documented one (no payments array; payment, shipping and status apart)', async () => {
    const { variant } = await createSimpleProduct(t, { price: '12.50', stock: 10 });
    const created = (await createOrder(t, [{ variant_id: variant.id, quantity: 2 }])).body;
    const res = await t.get(`/orders/${created.id}`);
    expect(res.status).toBe(200);
    const o = res.body;
    for (const key of [
      'id', 'token', 'store_id', 'number', 'status', 'payment_status', 'shipping_status', 'currency', 'language', 'subtotal',
      'discount', 'total', 'gateway', 'gateway_name', 'payment_details', 'paid_at', 'shipping', 'shipping_option',
      'shipping_option_code', 'shipping_cost_customer', 'shipping_cost_owner', 'shipping_tracking_number',
      'shipping_tracking_url', 'shipped_at', 'shipping_address', 'customer', 'products', 'note', 'owner_note', 'cancel_reason',
      'created_at', 'updated_at', 'completed_at', 'cancelled_at', 'closed_at', 'read_at',
    ]) {
      expect(o, key).toHaveProperty(key);
    }
    expect(o).not.toHaveProperty('payments');
    expect(o).toMatchObject({ status: 'open', payment_status: 'pending', shipping_status: 'unpacked', store_id: t.sandbox.storeId });
    expect(typeof o.shipping).toBe('string');
    expect(o.payment_details).toEqual({ method: expect.any(String), credit_card_company: null, installments: 1 });
    expect(o.created_at).toMatch(ISO_WITH_OFFSET);
    expect(o.cancelled_at).toBeNull();
    expect(o.customer).toMatchObject({ id: expect.any(Number), name: 'Ana Souza', email: 'ana@example.com', identification: null });
    expect(o.products).toEqual([
      expect.objectContaining({ id: expect.any(Number), variant_id: variant.id, quantity: 2, price: '12.50', sku: variant.sku }),
    ]);
    expect(o.subtotal).toBe('25.00');
    expect(o.total).toBe('25.00');
  });

  it('§5.14: POST /orders takes stock by location priority and creates one fulfillment order per source location', async () => {
    const { product, variant } = await createSimpleProduct(t, {
      inventory_levels: [
        { location_id: main.id, stock: 2 },
        { location_id: second.id, stock: 5 },
      ],
    });
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 4 }])).body;
    const v = await variantStock(t, product.id, variant.id);
    expect(v.stock).toBe(3);
    const levels = Object.fromEntries(v.inventory_levels.map((l: any) => [l.location_id, l.stock]));
    expect(levels[main.id]).toBe(0);
    expect(levels[second.id]).toBe(3);
    const fos = (await t.get(`/orders/${order.id}/fulfillment-orders`)).body;
    expect(fos).toHaveLength(2);
    // The documented record (platform.md §5): the source in assigned_location, the lines with string ids.
    const byLocation = Object.fromEntries(fos.map((f: any) => [f.assigned_location.location_id, f.line_items]));
    expect(byLocation[main.id]).toEqual([expect.objectContaining({ variant: expect.objectContaining({ variant_id: String(variant.id) }), quantity: 2 })]);
    expect(byLocation[second.id]).toEqual([expect.objectContaining({ variant: expect.objectContaining({ variant_id: String(variant.id) }), quantity: 2 })]);
  });

  it('§5.14: an order for more than the stock → 422 and no stock taken', async () => {
    const { product, variant } = await createSimpleProduct(t, { stock: 1 });
    const res = await createOrder(t, [{ variant_id: variant.id, quantity: 2 }]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
    expect((await variantStock(t, product.id, variant.id)).stock).toBe(1);
  });

  it('§5.14: an order for an unknown variant or without products → 422', async () => {
    expect((await createOrder(t, [{ variant_id: 987654321, quantity: 1 }])).status).toBe(422);
    expect((await createOrder(t, [])).status).toBe(422);
    const { variant } = await createSimpleProduct(t);
    expect((await createOrder(t, [{ variant_id: variant.id, quantity: 0 }])).status).toBe(422);
  });

  it('§4 GET /orders/{order_id} → 404 for an unknown id', async () => {
    const res = await t.get('/orders/1000000000');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject(errorShape(404));
  });

  it('§4 PUT /orders/{order_id} {owner_note, status} → updated order; other fields in the same request are updated', async () => {
    const { variant } = await createSimpleProduct(t);
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    const res = await t.put(`/orders/${order.id}`, { status: 'paid', owner_note: 'Paid by transfer' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: order.id, status: 'open', payment_status: 'paid', owner_note: 'Paid by transfer', number: order.number });
    expect(res.body.paid_at).toMatch(ISO_WITH_OFFSET);
    expect((await t.get(`/orders/${order.id}`)).body.owner_note).toBe('Paid by transfer');
  });

  it('§4 PUT /orders/{order_id}: the number is fixed (not changed by PUT)', async () => {
    const { variant } = await createSimpleProduct(t);
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    const res = await t.put(`/orders/${order.id}`, { owner_note: 'x', number: 5 });
    expect([200, 422]).toContain(res.status);
    expect((await t.get(`/orders/${order.id}`)).body.number).toBe(order.number);
  });

  it('§4 PUT /orders/{order_id} customer details are updated', async () => {
    const { variant } = await createSimpleProduct(t);
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    const res = await t.put(`/orders/${order.id}`, { customer: { name: 'Ana S. Lima', email: 'ana.lima@example.com', phone: '1' } });
    expect(res.status).toBe(200);
    expect(res.body.customer).toMatchObject({ name: 'Ana S. Lima', email: 'ana.lima@example.com' });
  });

  it('§3/§7 422: PUT a status that is not one of the states → 422 errors.status', async () => {
    const { variant } = await createSimpleProduct(t);
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    const res = await t.put(`/orders/${order.id}`, { status: 'shipped' });
    expect(res.status).toBe(422);
    expect(res.body.errors.status).toBeDefined();
    expect((await t.get(`/orders/${order.id}`)).body.status).toBe('open');
  });

  it('§7 404: PUT /orders/{unknown} → 404', async () => {
    expect((await t.put('/orders/1000000000', { owner_note: 'x' })).status).toBe(404);
  });

  it('§4 GET /orders?status= filters by status', async () => {
    const { variant } = await createSimpleProduct(t);
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    await t.put(`/orders/${order.id}`, { status: 'closed' });
    const res = await t.get('/orders', { query: { status: 'closed', per_page: 200 } });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.every((o: any) => o.status === 'closed')).toBe(true);
    expect(res.body.some((o: any) => o.id === order.id)).toBe(true);
  });

  it('§5.14: created_at_min / created_at_max invalid → 422', async () => {
    expect((await t.get('/orders', { query: { created_at_min: 'yesterday' } })).status).toBe(422);
    const res = await t.get('/orders', { query: { created_at_max: '2026-13-45' } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
  });
});

describe('spec §3 Order status transitions', () => {
  const t = useSandbox();
  let variant: any;
  let product: any;

  beforeAll(async () => {
    await createLocation(t, 'Main');
    ({ product, variant } = await createSimpleProduct(t, { stock: 1000 }));
  });

  async function orderIn(status: string): Promise<any> {
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    if (status !== 'open') {
      const res = await t.put(`/orders/${order.id}`, { status });
      expect(res.status, res.text).toBe(200);
    }
    return order;
  }

  for (const from of STATUSES) {
    it(`§3 row "any → PUT status": from ${from}, PUT each value → that state (paid: open and paid)`, async () => {
      for (const to of STATUSES) {
        const order = await orderIn(from);
        const res = await t.put(`/orders/${order.id}`, { status: to, owner_note: `${from}→${to}` });
        expect(res.status, `${from}→${to}: ${res.text}`).toBe(200);
        expect(res.body).toMatchObject(AFTER[to]);
        expect(res.body.owner_note).toBe(`${from}→${to}`);
      }
    });
  }

  for (const from of ['open', 'paid', 'closed'] as const) {
    it(`§3 row "any → cancel": POST /orders/{id}/cancel from ${from} → cancelled, cancelled_at set`, async () => {
      const order = await orderIn(from);
      const res = await t.post(`/orders/${order.id}/cancel`);
      expectOk(res);
      const after = (await t.get(`/orders/${order.id}`)).body;
      expect(after.status).toBe('cancelled');
      expect(after.cancelled_at).toMatch(ISO_WITH_OFFSET);
    });
  }

  it('§5.14: cancelling a cancelled order → 422', async () => {
    const order = await orderIn('open');
    expectOk(await t.post(`/orders/${order.id}/cancel`));
    const again = await t.post(`/orders/${order.id}/cancel`);
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject(errorShape(422));
  });

  it('§5.14: cancel restocks by default (restock: true) — quantities go back', async () => {
    const before = (await variantStock(t, product.id, variant.id)).stock;
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 3 }])).body;
    expect((await variantStock(t, product.id, variant.id)).stock).toBe(before - 3);
    expectOk(await t.post(`/orders/${order.id}/cancel`, { reason: 'customer' }));
    expect((await variantStock(t, product.id, variant.id)).stock).toBe(before);
  });

  it('§5.14: cancel with restock: false keeps the stock taken', async () => {
    const before = (await variantStock(t, product.id, variant.id)).stock;
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 2 }])).body;
    expectOk(await t.post(`/orders/${order.id}/cancel`, { reason: 'inventory', restock: false }));
    expect((await variantStock(t, product.id, variant.id)).stock).toBe(before - 2);
  });

  it('§5.14: cancel reason must be customer|inventory|fraud|other → 422 otherwise', async () => {
    const order = await orderIn('open');
    const res = await t.post(`/orders/${order.id}/cancel`, { reason: 'bored' });
    expect(res.status).toBe(422);
    expect(res.body.errors.reason).toBeDefined();
    for (const reason of ['customer', 'inventory', 'fraud', 'other']) {
      const o = await orderIn('open');
      expectOk(await t.post(`/orders/${o.id}/cancel`, { reason }));
    }
  });

  it('§5.14: restock returns quantities to the locations they came from', async () => {
    const a = await createLocation(t, 'A');
    const b = await createLocation(t, 'B');
    const { product: p, variant: v } = await createSimpleProduct(t, {
      inventory_levels: [
        { location_id: a.id, stock: 1 },
        { location_id: b.id, stock: 4 },
      ],
    });
    const order = (await createOrder(t, [{ variant_id: v.id, quantity: 3 }])).body;
    expectOk(await t.post(`/orders/${order.id}/cancel`));
    const levels = Object.fromEntries((await variantStock(t, p.id, v.id)).inventory_levels.map((l: any) => [l.location_id, l.stock]));
    expect(levels[a.id]).toBe(1);
    expect(levels[b.id]).toBe(4);
  });

  it('§5.14: restock to a source location deleted since → the units go to the default location, where orders find them', async () => {
    const gone = await createLocation(t, 'Closing down');
    const { product: p, variant: v } = await createSimpleProduct(t, { inventory_levels: [{ location_id: gone.id, stock: 2 }] });
    const order = (await createOrder(t, [{ variant_id: v.id, quantity: 2 }])).body;
    expectOk(await t.del(`/locations/${gone.id}`));
    expectOk(await t.post(`/orders/${order.id}/cancel`));
    const after = await variantStock(t, p.id, v.id);
    const locations = (await t.get('/locations', { query: { per_page: 200 } })).body;
    const known = new Set(locations.map((l: any) => l.id));
    expect(after.stock).toBe(2);
    expect(after.inventory_levels.every((l: any) => known.has(l.location_id))).toBe(true);
    const again = await createOrder(t, [{ variant_id: v.id, quantity: 2 }]);
    expect(again.status, again.text).toBe(201);
    const fos = (await t.get(`/orders/${again.body.id}/fulfillment-orders`)).body;
    expect(fos.map((fo: any) => fo.assigned_location.location_id)).toEqual([locations.find((l: any) => l.is_default).id]);
  });

  it('§4/§5.14 DELETE /orders/{order_id} cancels the order (and restocks)', async () => {
    const before = (await variantStock(t, product.id, variant.id)).stock;
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    expectOk(await t.del(`/orders/${order.id}`));
    const after = (await t.get(`/orders/${order.id}`)).body;
    expect(after.status).toBe('cancelled');
    expect((await variantStock(t, product.id, variant.id)).stock).toBe(before);
  });

  it('§7 404: cancel of an unknown order → 404', async () => {
    expect((await t.post('/orders/1000000000/cancel')).status).toBe(404);
    expect((await t.del('/orders/1000000000')).status).toBe(404);
  });
});

describe('spec §4 GET /orders list order and date filters', () => {
  const clock = new FakeClock(Date.parse('2026-11-01T10:00:00Z'));
  const t = useSandbox({ clock });
  const ids: number[] = [];

  beforeAll(async () => {
    await createLocation(t, 'Main');
    const { variant } = await createSimpleProduct(t, { stock: 100 });
    for (let day = 0; day < 5; day++) {
      const res = await createOrder(t, [{ variant_id: variant.id, quantity: 1 }]);
      ids.push(res.body.id);
      clock.advance(24 * 3600 * 1000);
    }
  });

  it('§5.14: the list is sorted newest first', async () => {
    const res = await t.get('/orders');
    expect(res.body.map((o: any) => o.id)).toEqual([...ids].reverse());
  });

  it('§4 created_at_min and created_at_max (ISO 8601) bound the list, inclusive', async () => {
    const res = await t.get('/orders', {
      query: { created_at_min: '2026-11-02T10:00:00+00:00', created_at_max: '2026-11-04T10:00:00Z' },
    });
    expect(res.status).toBe(200);
    expect(res.body.map((o: any) => o.id)).toEqual([ids[3], ids[2], ids[1]]);
  });

  it('§4 created_at_min with another offset is compared as an instant', async () => {
    const res = await t.get('/orders', { query: { created_at_min: '2026-11-05T07:00:00-03:00' } });
    expect(res.body.map((o: any) => o.id)).toEqual([ids[4]]);
  });

  it('§4 page/per_page on orders with x-total-count', async () => {
    const res = await t.get('/orders', { query: { page: 2, per_page: 2 } });
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(res.body.map((o: any) => o.id)).toEqual([ids[2], ids[1]]);
    expect((await t.get('/orders', { query: { per_page: 201 } })).status).toBe(422);
  });
});

describe('spec §4 GET /orders date filters at the precision the API shows', () => {
  const clock = new FakeClock(Date.parse('2026-11-01T10:00:00.250Z'));
  const t = useSandbox({ clock });

  it('§4 an order\'s own created_at, as the API shows it, bounds the list inclusively (sub-second clock)', async () => {
    await createLocation(t, 'Main');
    const { variant } = await createSimpleProduct(t, { stock: 1 });
    clock.advance(1234);
    const created = await createOrder(t, [{ variant_id: variant.id, quantity: 1 }]);
    const shown = (await t.get(`/orders/${created.body.id}`)).body.created_at as string;
    const res = await t.get('/orders', { query: { created_at_min: shown, created_at_max: shown } });
    expect(res.body.map((o: any) => o.id)).toEqual([created.body.id]);
  });
});

describe('platform.md §4 GET /orders filters', () => {
  const clock = new FakeClock(Date.parse('2026-11-20T12:00:00Z'));
  const t = useSandbox({ seed: 'demo', clock });
  let all: any[] = [];

  beforeAll(async () => {
    const res = await t.get('/orders', { query: { per_page: 200 } });
    expect(res.status).toBe(200);
    all = res.body;
  });

  async function ids(query: Record<string, string | number>): Promise<number[]> {
    const res = await t.get('/orders', { query: { ...query, per_page: 200 } });
    if (res.status === 404) {
      expect(res.body).toMatchObject({ code: 404, description: 'Last page is 0' });
      return [];
    }
    expect(res.status, res.text).toBe(200);
    return res.body.map((o: any) => o.id);
  }
  const where = (test: (o: any) => boolean) => all.filter(test).map((o) => o.id);

  it('status, payment_status and shipping_status each filter, and take any (the default)', async () => {
    for (const status of ['open', 'closed', 'cancelled']) expect(await ids({ status })).toEqual(where((o) => o.status === status));
    for (const payment of ['pending', 'authorized', 'paid', 'abandoned', 'refunded', 'voided']) {
      const expected = where((o) => o.payment_status === payment);
      expect(expected.length, payment).toBeGreaterThan(0);
      expect(await ids({ payment_status: payment })).toEqual(expected);
    }
    // The documented filter values name the older record values too.
    expect(await ids({ shipping_status: 'unpacked' })).toEqual(where((o) => o.shipping_status === 'unpacked'));
    // platform.md §10: packing begun or part sent is unfulfilled, all sent is fulfilled, in every name records use.
    const notSent = ['unfulfilled', 'unshipped', 'partially_packed', 'packed', 'partially_fulfilled'];
    expect(await ids({ shipping_status: 'unfulfilled' })).toEqual(where((o) => notSent.includes(o.shipping_status)));
    expect(await ids({ shipping_status: 'fulfilled' })).toEqual(where((o) => ['fulfilled', 'shipped', 'delivered'].includes(o.shipping_status)));
    for (const name of ['status', 'payment_status', 'shipping_status']) expect(await ids({ [name]: 'any' })).toEqual(all.map((o) => o.id));
    expect(await ids({ status: 'closed', payment_status: 'paid', shipping_status: 'fulfilled' })).toEqual(
      where((o) => o.status === 'closed' && o.payment_status === 'paid' && ['fulfilled', 'shipped', 'delivered'].includes(o.shipping_status)),
    );
  });

  it("status=paid (the seed's fourth status) lists the paid orders; no record shows paid as its status", async () => {
    expect(all.some((o) => o.status === 'paid')).toBe(false);
    expect(await ids({ status: 'paid' })).toEqual(where((o) => o.payment_status === 'paid'));
  });

  it('q finds an order number, or text in the customer name or email (accents and case aside)', async () => {
    const target = all[7];
    expect(await ids({ q: target.number })).toContain(target.id);
    expect((await ids({ q: target.number })).map((id) => all.find((o) => o.id === id).number)).toContain(target.number);
    const last = target.customer.name.split(' ')[1] as string;
    const plain = last.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase();
    expect(await ids({ q: plain })).toEqual(where((o) => o.customer.name.includes(last)));
    // A customer may have bought more than once: every order of that email, the target among them.
    expect(await ids({ q: target.customer.email })).toEqual(where((o) => o.customer.email === target.customer.email));
    expect(await ids({ q: target.customer.email })).toContain(target.id);
    expect(await ids({ q: 'nobody-by-this-name' })).toEqual([]);
  });

  it('created_at, updated_at and total ranges, since_id and customer_ids', async () => {
    const middle = all[40];
    expect(await ids({ updated_at_min: middle.updated_at })).toEqual(where((o) => Date.parse(o.updated_at.replace(/(\d{2})(\d{2})$/, '$1:$2')) >= Date.parse(middle.updated_at.replace(/(\d{2})(\d{2})$/, '$1:$2'))));
    expect(await ids({ total_min: '20000', total_max: '60000.50' })).toEqual(where((o) => Number(o.total) >= 20000 && Number(o.total) <= 60000.5));
    const since = all[50].id;
    expect(await ids({ since_id: since })).toEqual(where((o) => o.id > since));
    const customers = [all[1].customer.id, all[2].customer.id];
    expect(await ids({ customer_ids: customers.join(',') })).toEqual(where((o) => customers.includes(o.customer.id)));
  });

  it('unknown parameters are ignored; a known filter with a value it cannot mean is a 422 naming it', async () => {
    expect(await ids({ channels: 'store', fields: 'id,number', sku: 'X' })).toEqual(all.map((o) => o.id));
    for (const query of [{ status: 'shipped' }, { payment_status: 'free' }, { shipping_status: 'lost' }, { total_min: 'cheap' }, { since_id: 'x' }]) {
      const res = await t.get('/orders', { query });
      expect(res.status, JSON.stringify(query)).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(Object.keys(query));
    }
  });

  it('the demo store has the forms a real store sends: 9-digit ids, numeric-string lines, +0000 offsets', async () => {
    expect(all.some((o) => /^\d{9}$/.test(String(o.id)))).toBe(true);
    expect(all.some((o) => /^\d{10}$/.test(String(o.id)))).toBe(true);
    const stringLines = all.filter((o) => typeof o.products[0].quantity === 'string');
    expect(stringLines.length).toBeGreaterThan(0);
    for (const line of stringLines[0].products) {
      for (const key of ['id', 'product_id', 'variant_id', 'quantity']) expect(line[key], key).toMatch(/^\d+$/);
    }
    expect(all.some((o) => /\+0000$/.test(o.created_at))).toBe(true);
    expect(all.some((o) => /\+00:00$/.test(o.created_at))).toBe(true);
  });
});

describe('platform.md §9 POST /orders/{id}/close and /open', () => {
  const t = useSandbox();
  let variant: any;
  let product: any;
  const events: { event: string; id: number }[] = [];
  const receiver = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      events.push(JSON.parse(raw));
      res.end('ok');
    });
  });

  beforeAll(async () => {
    await createLocation(t, 'Main');
    ({ product, variant } = await createSimpleProduct(t, { stock: 1000 }));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    expect((await t.post('/webhooks', { event: 'order/updated', url })).status).toBe(201);
    return () => new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  async function waitForEvent(id: number, count: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (events.filter((e) => e.event === 'order/updated' && e.id === id).length < count) {
      if (Date.now() > deadline) throw new Error(`no order/updated for ${id}: ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('close: an open order → closed with closed_at, payment and shipping kept, order/updated sent; again → 422', async () => {
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    const res = await t.post(`/orders/${order.id}/close`);
    expectOk(res);
    expect(res.body).toMatchObject({ id: order.id, status: 'closed', payment_status: order.payment_status, shipping_status: order.shipping_status });
    expect(res.body.closed_at).toMatch(ISO_WITH_OFFSET);
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(order.updated_at));
    expect((await t.get(`/orders/${order.id}`)).body.status).toBe('closed');
    await waitForEvent(order.id, 1);
    const again = await t.post(`/orders/${order.id}/close`);
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ ...errorShape(422), errors: { status: ['is already closed'] } });
  });

  it('open: a closed order → open, closed_at cleared, order/updated sent; an open one → 422', async () => {
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    expectOk(await t.post(`/orders/${order.id}/close`));
    const res = await t.post(`/orders/${order.id}/open`);
    expectOk(res);
    expect(res.body).toMatchObject({ status: 'open', closed_at: null });
    await waitForEvent(order.id, 2);
    const again = await t.post(`/orders/${order.id}/open`);
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ status: ['is already open'] });
  });

  it('a cancelled order: close → 422 (reopen it first); open → open, the cancellation cleared, the payment voided, no stock taken again', async () => {
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 2 }])).body;
    expectOk(await t.post(`/orders/${order.id}/cancel`));
    const stock = (await variantStock(t, product.id, variant.id)).stock;
    const close = await t.post(`/orders/${order.id}/close`);
    expect(close.status).toBe(422);
    expect(close.body.errors.status[0]).toContain('cancelled');
    expect((await t.get(`/orders/${order.id}`)).body.status).toBe('cancelled');
    const reopened = await t.post(`/orders/${order.id}/open`);
    expectOk(reopened);
    expect(reopened.body).toMatchObject({ status: 'open', cancelled_at: null, cancel_reason: null, payment_status: 'voided' });
    expect((await variantStock(t, product.id, variant.id)).stock).toBe(stock);
    // Cancelled again, it does not return the units a second time.
    expectOk(await t.post(`/orders/${order.id}/cancel`));
    expect((await variantStock(t, product.id, variant.id)).stock).toBe(stock);
  });

  it('an unknown order → 404 for both', async () => {
    for (const action of ['close', 'open']) {
      const res = await t.post(`/orders/1999999999/${action}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject(errorShape(404));
    }
  });
});

describe('platform.md §4 POST /orders keeps what it is given', () => {
  const t = useSandbox();
  let variant: any;

  beforeAll(async () => {
    await createLocation(t, 'Main');
    ({ variant } = await createSimpleProduct(t, { stock: 100, price: '50.00' }));
  });

  const shippingAddress = {
    name: 'Mariana Lima',
    address: 'Rua Harmonia',
    number: '321',
    floor: 'apto 42',
    locality: 'Vila Madalena',
    city: 'São Paulo',
    province: 'São Paulo',
    zipcode: '05435-000',
    country: 'BR',
    phone: '+55 11 98888-1234',
  };

  it('shipping_address, the billing_* fields, the customer identification and default address, shipping costs, option code and pickup type come back, in the POST answer and on GET', async () => {
    // Sent as given and read back under the same names (platform.md §4).
    const kept = {
      shipping: 'correios',
      shipping_option: 'Correios - PAC',
      shipping_option_code: 'correios_pac',
      shipping_cost_customer: '15.90',
      shipping_cost_owner: '12.40',
      shipping_pickup_type: 'ship',
      shipping_address: shippingAddress,
      billing_name: 'Mariana Lima ME',
      billing_phone: null,
      billing_address: 'Rua Augusta',
      billing_number: '10',
      billing_floor: null,
      billing_locality: 'Consolação',
      billing_zipcode: '01304-000',
      billing_city: 'São Paulo',
      billing_province: 'São Paulo',
      billing_country: 'BR',
    };
    const customer = {
      name: 'Mariana Lima',
      email: 'mariana@example.com',
      phone: '+55 11 98888-1234',
      identification: '12345678909',
      default_address: { ...shippingAddress, address: 'Av. Paulista', number: '1000' },
    };
    const res = await t.post('/orders', { customer, products: [{ variant_id: variant.id, quantity: 2 }], ...kept });
    expectCreated(res);
    const expected = { ...kept, contact_identification: '12345678909', customer, subtotal: '100.00', total: '115.90' };
    expect(res.body).toMatchObject(expected);
    expect((await t.get(`/orders/${res.body.id}`)).body).toMatchObject(expected);
  });

  it('a pickup order: shipping_pickup_type pickup, the branch name, a null shipping address kept null; without billing_* the billing fields are the default address', async () => {
    const res = await t.post('/orders', {
      customer: { name: 'Ana', email: 'ana@example.com', default_address: shippingAddress },
      products: [{ variant_id: variant.id, quantity: 1 }],
      shipping_pickup_type: 'pickup',
      shipping_store_branch_name: 'Loja Centro',
      shipping_address: null,
    });
    expectCreated(res);
    expect(res.body).toMatchObject({
      shipping_pickup_type: 'pickup',
      shipping_store_branch_name: 'Loja Centro',
      shipping_address: null,
      billing_address: 'Rua Harmonia',
      billing_city: 'São Paulo',
    });
  });

  it('a wrong type in what is kept → 422 naming the field, nothing created', async () => {
    const before = (await t.get('/orders')).headers.get('x-total-count');
    for (const [field, value] of [['shipping_pickup_type', 'drone'], ['shipping_cost_owner', '-1'], ['shipping_address', 'Rua Harmonia 321'], ['billing_city', 7]] as const) {
      const res = await t.post('/orders', { customer: { name: 'Ana' }, products: [{ variant_id: variant.id, quantity: 1 }], [field]: value });
      expect(res.status, field).toBe(422);
      expect(Object.keys(res.body.errors ?? {}).join(' '), field).toContain(field);
    }
    expect((await t.get('/orders')).headers.get('x-total-count')).toBe(before);
  });
});
