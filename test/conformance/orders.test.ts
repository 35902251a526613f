import { beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/sandbox/clock.js';
import { ISO_WITH_OFFSET, errorShape, useSandbox } from '../helpers/sandbox.js';
import { createLocation, createOrder, createSimpleProduct, expectCreated, expectOk, variantStock } from './support.js';

/** Spec §2 Order, §3 Order status, §4 Orders, §8 Order ID; DESIGN.md §5.14. */

const STATUSES = ['open', 'paid', 'closed', 'cancelled'] as const;

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

  it('§5.14: the order record has id, number, status, owner_note, timestamps, customer, products, shipping, payments, totals, currency', async () => {
    const { variant } = await createSimpleProduct(t, { price: '12.50', stock: 10 });
    const created = (await createOrder(t, [{ variant_id: variant.id, quantity: 2 }])).body;
    const res = await t.get(`/orders/${created.id}`);
    expect(res.status).toBe(200);
    const o = res.body;
    for (const key of ['id', 'number', 'status', 'owner_note', 'created_at', 'updated_at', 'cancelled_at', 'customer', 'products', 'shipping', 'payments', 'subtotal', 'total', 'currency']) {
      expect(o, key).toHaveProperty(key);
    }
    expect(o.created_at).toMatch(ISO_WITH_OFFSET);
    expect(o.cancelled_at).toBeNull();
    expect(o.customer).toMatchObject({ name: 'Ana Souza', email: 'ana@example.com' });
    expect(o.products).toEqual([
      expect.objectContaining({ variant_id: variant.id, quantity: 2, price: '12.50', sku: variant.sku }),
    ]);
    expect(o.subtotal).toBe('25.00');
    expect(typeof o.total).toBe('string');
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
    const byLocation = Object.fromEntries(fos.map((f: any) => [f.location_id, f.products]));
    expect(byLocation[main.id]).toEqual([expect.objectContaining({ variant_id: variant.id, quantity: 2 })]);
    expect(byLocation[second.id]).toEqual([expect.objectContaining({ variant_id: variant.id, quantity: 2 })]);
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
    expect(res.body).toMatchObject({ id: order.id, status: 'paid', owner_note: 'Paid by transfer', number: order.number });
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

  it('§3/§7 422: PUT a status that is not one of the four states → 422 errors.status', async () => {
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
    it(`§3 row "any → PUT status": from ${from}, PUT each of the four states → the value sent`, async () => {
      for (const to of STATUSES) {
        const order = await orderIn(from);
        const res = await t.put(`/orders/${order.id}`, { status: to, owner_note: `${from}→${to}` });
        expect(res.status, `${from}→${to}: ${res.text}`).toBe(200);
        expect(res.body.status).toBe(to);
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
    expect(fos.map((fo: any) => fo.location_id)).toEqual([locations.find((l: any) => l.is_default).id]);
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
