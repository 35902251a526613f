import { beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../src/platform/clock.js';
import type { LocationRecord, ProductRecord, VariantRecord } from '../../../../src/sandbox/records.js';
import type { StoreData } from '../../../../src/sandbox/state.js';
import { ISO_WITH_OFFSET, ULID, errorShape, useSandbox } from '../../../helpers/sandbox.js';

const START = Date.parse('2026-11-20T12:00:00Z');
const clock = new FakeClock(START);
const sb = useSandbox({ clock });

let L: string[] = [];
let A = 0;
let B = 0;
let UNMANAGED = 0;

function store(): StoreData {
  return sb.sandbox.state.store(sb.sandbox.storeId)!;
}

function levels(variantId: number): Record<string, number> {
  const variant = store().findVariant(variantId)!.variant;
  return Object.fromEntries(L.map((id) => [id, variant.inventory_levels.find((l) => l.location_id === id)?.stock ?? 0]));
}

/** Three locations (priorities 0, 1, 2) and a product whose variants have known stock per location. */
function seedCatalog(stockA: number[], stockB: number[]): void {
  const state = sb.sandbox.state;
  const s = store();
  state.mutate('test.reset', (tx) => {
    for (const c of s.collections()) for (const r of c.list()) tx.delete(c, c.keyOf(r));
  });
  L = [];
  state.mutate('test.catalog', (tx) => {
    const names = ['Main', 'Shop', 'Far'];
    // Priorities deliberately differ from creation order: Far (created last) is used second.
    const priorities = [0, 2, 1];
    names.forEach((name, i) => {
      const location: LocationRecord = {
        id: `01JB00000000000000000000${i}${i}`,
        name: { es_AR: name },
        address: {} as LocationRecord['address'],
        is_default: i === 0,
        allows_pickup: false,
        priority: priorities[i]!,
        created_at: START,
        updated_at: START,
      };
      tx.put(s.locations, location);
      L.push(location.id);
    });
    const productId = tx.nextId(s, 'product');
    const variant = (sku: string, stock: number[] | null, value: string): VariantRecord => ({
      id: tx.nextId(s, 'variant'),
      product_id: productId,
      image_id: null,
      sku,
      price: '10.00',
      promotional_price: null,
      cost: null,
      stock_management: stock !== null,
      weight: null,
      width: null,
      height: null,
      depth: null,
      mpn: null,
      age_group: null,
      gender: null,
      values: [{ es: value }],
      inventory_levels: stock ? stock.map((n, i) => ({ location_id: L[i]!, stock: n })) : [],
      custom_fields: [],
      created_at: START,
      updated_at: START,
    });
    const variants = [variant('TS-S', stockA, 'S'), variant('TS-M', stockB, 'M'), variant('GIFT', null, 'Gift')];
    [A, B, UNMANAGED] = variants.map((v) => v.id);
    const product: ProductRecord = {
      id: productId,
      name: { es: 'Remera' },
      description: {},
      handle: { es: 'remera' },
      attributes: [{ es: 'Talle' }],
      categories: [],
      images: [],
      variants,
      seo_title: null,
      seo_description: null,
      published: true,
      created_at: START,
      updated_at: START,
    };
    tx.put(s.products, product);
  });
}

const customer = { name: 'Ana Gómez', email: 'ana@example.com', phone: '+54 11 5555-0000' };

async function createOrder(products: { variant_id: number; quantity: number }[]) {
  const res = await sb.post('/orders', { customer, products });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeEach(() => seedCatalog([2, 3, 5], [1, 0, 0]));

describe('POST /orders', () => {
  it('creates an open order, taking stock by location priority, one fulfillment order per source', async () => {
    const order = await createOrder([{ variant_id: A, quantity: 8 }]);
    expect(String(order.id)).toMatch(/^\d{10}$/);
    expect(order).toMatchObject({
      number: 100,
      status: 'open',
      payment_status: 'pending',
      shipping_status: 'unpacked',
      customer,
      products: [{ variant_id: A, name: 'Remera (S)', sku: 'TS-S', quantity: 8, price: '10.00', variant_values: ['S'] }],
      subtotal: '80.00',
      total: '80.00',
      cancelled_at: null,
    });
    expect(order).not.toHaveProperty('payments');
    expect(order.created_at).toMatch(ISO_WITH_OFFSET);
    // Main (priority 0) gives 2, Far (priority 1) gives 5, Shop (priority 2) gives the last 1.
    expect(levels(A)).toEqual({ [L[0]!]: 0, [L[1]!]: 2, [L[2]!]: 0 });

    const fos = await sb.get(`/orders/${order.id}/fulfillment-orders`);
    expect(fos.status).toBe(200);
    // The documented record (platform.md §5): source in assigned_location, lines with string ids, no order_id.
    expect(fos.body.map((f: any) => [f.assigned_location.location_id, f.line_items.map((l: any) => [l.variant.variant_id, l.quantity])])).toEqual([
      [L[0], [[String(A), 2]]],
      [L[2], [[String(A), 5]]],
      [L[1], [[String(A), 1]]],
    ]);
    for (const fo of fos.body) {
      expect(fo).toMatchObject({ status: 'UNPACKED', tracking_events: [] });
      expect(fo).not.toHaveProperty('order_id');
      expect(fo.id).toMatch(ULID);
    }
    const second = await createOrder([{ variant_id: UNMANAGED, quantity: 50 }]);
    expect(second.number).toBe(101);
    expect(second.id).toBeGreaterThan(order.id);
  });

  it('refuses unknown variants and missing stock without touching stock', async () => {
    let res = await sb.post('/orders', { customer, products: [{ variant_id: 987654, quantity: 1 }] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
    expect(res.body.errors['products.0.variant_id']).toBeDefined();

    // A alone would fit (10 in stock), but B on the second line does not: nothing is taken.
    res = await sb.post('/orders', { customer, products: [{ variant_id: A, quantity: 4 }, { variant_id: B, quantity: 2 }] });
    expect(res.status).toBe(422);
    expect(res.body.errors['products.1.quantity'][0]).toMatch(/only 1/);
    // The same variant on two lines counts once against its stock.
    res = await sb.post('/orders', { customer, products: [{ variant_id: A, quantity: 6 }, { variant_id: A, quantity: 6 }] });
    expect(res.status).toBe(422);
    expect(levels(A)).toEqual({ [L[0]!]: 2, [L[1]!]: 3, [L[2]!]: 5 });
    // Nothing was created: the empty list is the platform's 404 (platform.md §1).
    const none = await sb.get('/orders');
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: 404, description: 'Last page is 0' });

    res = await sb.post('/orders', { products: [{ variant_id: A, quantity: 0 }] });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(['customer', 'products.0.quantity']));
  });
});

describe('cancel', () => {
  it('returns the units to the locations they came from by default, once', async () => {
    const order = await createOrder([{ variant_id: A, quantity: 8 }]);
    const res = await sb.post(`/orders/${order.id}/cancel`, { reason: 'customer' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'cancelled', cancel_reason: 'customer', payment_status: 'voided' });
    expect(res.body.cancelled_at).toMatch(ISO_WITH_OFFSET);
    expect(levels(A)).toEqual({ [L[0]!]: 2, [L[1]!]: 3, [L[2]!]: 5 });
    const fos = await sb.get(`/orders/${order.id}/fulfillment-orders`);
    // platform.md §10: there is no CANCELLED shipment; they stay as they were.
    expect(fos.body.every((f: any) => f.status === 'UNPACKED')).toBe(true);

    const again = await sb.post(`/orders/${order.id}/cancel`);
    expect(again.status).toBe(422);
    // Re-opened and cancelled again: the units were already returned.
    expect((await sb.put(`/orders/${order.id}`, { status: 'open' })).body.cancelled_at).toBeNull();
    expect((await sb.del(`/orders/${order.id}`)).status).toBe(200);
    expect(levels(A)).toEqual({ [L[0]!]: 2, [L[1]!]: 3, [L[2]!]: 5 });
  });

  it('keeps the stock out with restock false', async () => {
    const order = await createOrder([{ variant_id: A, quantity: 3 }]);
    const res = await sb.post(`/orders/${order.id}/cancel`, { restock: false, reason: 'fraud' });
    expect(res.status).toBe(200);
    expect(levels(A)).toEqual({ [L[0]!]: 0, [L[1]!]: 3, [L[2]!]: 4 });
    expect((await sb.post(`/orders/${order.id}/cancel`, { reason: 'nope' })).status).toBe(422);
  });

  it('cancels with DELETE and answers 404 for unknown orders', async () => {
    const order = await createOrder([{ variant_id: B, quantity: 1 }]);
    expect((await sb.del(`/orders/${order.id}`)).body.status).toBe('cancelled');
    expect(levels(B)[L[0]!]).toBe(1);
    expect((await sb.del('/orders/1999999999')).status).toBe(404);
    expect((await sb.post('/orders/1999999999/cancel')).status).toBe(404);
  });
});

describe('GET and PUT /orders', () => {
  it('lists newest first with status and date filters', async () => {
    const first = await createOrder([{ variant_id: A, quantity: 1 }]);
    clock.advance(3_600_000);
    const second = await createOrder([{ variant_id: A, quantity: 1 }]);
    clock.advance(3_600_000);
    const third = await createOrder([{ variant_id: A, quantity: 1 }]);
    await sb.put(`/orders/${second.id}`, { status: 'paid' });

    const all = await sb.get('/orders');
    expect(all.body.map((o: any) => o.id)).toEqual([third.id, second.id, first.id]);
    expect(all.headers.get('x-total-count')).toBe('3');
    expect((await sb.get('/orders', { query: { status: 'paid' } })).body.map((o: any) => o.id)).toEqual([second.id]);
    expect((await sb.get('/orders', { query: { payment_status: 'pending' } })).body.map((o: any) => o.id)).toEqual([third.id, first.id]);
    const none = await sb.get('/orders', { query: { status: 'closed' } });
    expect(none.status).toBe(404);
    expect(none.body.description).toBe('Last page is 0');
    const window = await sb.get('/orders', {
      query: { created_at_min: second.created_at, created_at_max: second.created_at },
    });
    expect(window.body.map((o: any) => o.id)).toEqual([second.id]);
    const page = await sb.get('/orders', { query: { per_page: 2, page: 2 } });
    expect(page.body.map((o: any) => o.id)).toEqual([first.id]);

    for (const query of [{ created_at_min: 'yesterday' }, { created_at_max: '2026-13-45' }, { status: 'shipped' }]) {
      const res = await sb.get('/orders', { query });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(Object.keys(query));
    }
  });

  it('updates owner_note, status and customer; rejects an unknown status', async () => {
    const order = await createOrder([{ variant_id: A, quantity: 1 }]);
    const res = await sb.put(`/orders/${order.id}`, { owner_note: 'Gift wrap', status: 'paid', customer: { phone: '123' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      owner_note: 'Gift wrap',
      status: 'open',
      payment_status: 'paid',
      customer: { ...customer, phone: '123' },
    });
    // A paid order cancelled is refunded.
    expect((await sb.post(`/orders/${order.id}/cancel`, { restock: true })).body).toMatchObject({ status: 'cancelled', payment_status: 'refunded' });
    expect((await sb.put(`/orders/${order.id}`, { status: 'open' })).body).toMatchObject({ status: 'open', cancelled_at: null });
    const bad = await sb.put(`/orders/${order.id}`, { status: 'shipped', owner_note: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.status).toBeDefined();
    const after = await sb.get(`/orders/${order.id}`);
    expect(after.body).toMatchObject({ status: 'open', payment_status: 'refunded', owner_note: 'Gift wrap' });
    expect((await sb.get('/orders/12')).status).toBe(404);
  });
});

describe('a state written before the documented order record', () => {
  it('serves its orders in the documented record (paid read as open and paid, payments and {method, cost} shipping folded in)', async () => {
    const earlier = {
      id: 1000000500,
      number: 150,
      status: 'paid',
      owner_note: '',
      created_at: START,
      updated_at: START,
      cancelled_at: null,
      cancel_reason: null,
      stock_returned: false,
      customer,
      products: [{ product_id: 1, variant_id: A, name: 'Remera (S)', sku: 'TS-S', quantity: 1, price: '10.00' }],
      shipping: { method: 'OCA', cost: '3900.00' },
      payments: [{ method: 'cash', amount: '3910.00', status: 'paid' }],
      subtotal: '10.00',
      total: '3910.00',
      currency: 'ARS',
    };
    sb.sandbox.state.mutate('test.earlier', (tx) => tx.put(store().orders, earlier as never));
    const res = await sb.get('/orders/1000000500');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: 'open',
      payment_status: 'paid',
      shipping_option: 'OCA',
      shipping_cost_customer: '3900.00',
      payment_details: { method: 'cash' },
      products: [{ id: 1, variant_id: A, quantity: 1 }],
    });
    expect(res.body).not.toHaveProperty('payments');
    expect((await sb.get('/orders', { query: { payment_status: 'paid' } })).body.map((o: any) => o.id)).toEqual([1000000500]);
  });
});
