import { beforeAll, describe, expect, it } from 'vitest';
import { ISO_WITH_OFFSET, ULID, errorShape, useSandbox } from '../helpers/sandbox.js';
import { createLocation, createOrder, createSimpleProduct, expectCreated, expectOk } from './support.js';

/**
 * Spec §2 Fulfillment order / tracking event, §3 Tracking event status, §4 Fulfillment orders; the record and
 * the statuses of platform.md §5 (which replace DESIGN.md §5.15's). Tracking events need a dispatched shipment
 * (platform.md §10): the shipment these tests track is dispatched first; the moves themselves are in shipping.test.ts.
 */

const TRACKING_STATUSES = [
  'dispatched',
  'received_by_post_office',
  'in_transit',
  'out_for_delivery',
  'delivery_attempt_failed',
  'delayed',
  'ready_for_pickup',
  'delivered',
  'returned_to_sender',
  'lost',
  'failure',
];

function event(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    status: 'dispatched',
    description: 'Left the warehouse',
    address: 'Av. Paulista 1000, São Paulo',
    geolocation: { longitude: -46.65, latitude: -23.56 },
    happened_at: '2026-11-21T14:05:00+00:00',
    estimated_delivery_at: '2026-11-24T18:00:00-03:00',
    ...overrides,
  };
}

describe('spec §4 Fulfillment orders', () => {
  const t = useSandbox();
  let order: any;
  let fo: any;
  let otherOrder: any;

  beforeAll(async () => {
    await createLocation(t, 'Main');
    const { variant } = await createSimpleProduct(t, { stock: 50 });
    order = (await createOrder(t, [{ variant_id: variant.id, quantity: 2 }])).body;
    otherOrder = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    fo = (await t.get(`/orders/${order.id}/fulfillment-orders`)).body[0];
  });

  /** Dispatches the shipment (platform.md §10: tracking events start there). */
  const dispatch = async (orderId: unknown, foId: unknown) =>
    expectOk(await t.patch(`/orders/${orderId}/fulfillment-orders/${foId}`, { status: 'DISPATCHED', tracking_info: { code: 'BR123123123AA' } }));

  const base = () => `/orders/${order.id}/fulfillment-orders/${fo.id}/tracking-events`;

  it('§4 GET /orders/{order_id}/fulfillment-orders → the fulfillment orders of the order, in the documented record (platform.md §5)', async () => {
    const res = await t.get(`/orders/${order.id}/fulfillment-orders`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const [record] = res.body;
    expect(record).toMatchObject({
      id: expect.stringMatching(ULID),
      number: expect.any(String),
      status: 'UNPACKED',
      total_quantity: 2,
      total_weight: expect.anything(),
      total_price: { value: expect.stringMatching(/^\d+\.\d{2}$/), currency: expect.any(String) },
      assigned_location: { location_id: expect.stringMatching(ULID), name: expect.any(Object), address: expect.any(Object) },
      line_items: [
        {
          id: expect.any(String),
          quantity: 2,
          variant: expect.objectContaining({ variant_id: String(order.products[0].variant_id) }),
          product: expect.objectContaining({ product_id: String(order.products[0].product_id) }),
          unit_price: { value: expect.any(String), currency: expect.any(String) },
        },
      ],
      recipient: expect.any(Object),
      shipping: expect.objectContaining({ type: expect.any(String), merchant_cost: expect.any(Object), consumer_cost: expect.any(Object) }),
      destination: expect.any(Object),
      status_history: [expect.objectContaining({ to_status: 'UNPACKED' })],
      tracking_info: { code: null, url: null },
      tracking_events: [],
      fulfilled_at: null,
    });
    expect(record.created_at).toMatch(ISO_WITH_OFFSET);
    expect(record.updated_at).toMatch(ISO_WITH_OFFSET);
    expect(Object.keys(record.assigned_location.name)[0]).toMatch(/^[a-z]{2}_[A-Z]{2}$/);
    // The order id is in the path, not in the body.
    expect(record).not.toHaveProperty('order_id');
    expect(record).not.toHaveProperty('products');
  });

  it('§4 GET /orders/{order_id}/fulfillment-orders/{id} → one fulfillment order', async () => {
    const res = await t.get(`/orders/${order.id}/fulfillment-orders/${fo.id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(fo.id);
  });

  it('§7 404: unknown order, unknown fulfillment order, or one of another order → 404', async () => {
    expect((await t.get('/orders/1000000000/fulfillment-orders')).status).toBe(404);
    const unknown = await t.get(`/orders/${order.id}/fulfillment-orders/01JZZZZZZZZZZZZZZZZZZZZZZZ`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject(errorShape(404));
    expect((await t.get(`/orders/${otherOrder.id}/fulfillment-orders/${fo.id}`)).status).toBe(404);
  });

  it('§4 POST …/tracking-events → the created event with an id; it appears on the fulfillment order', async () => {
    await dispatch(order.id, fo.id);
    const res = await t.post(base(), event());
    expectCreated(res);
    expect(typeof res.body.id).toBe('string');
    expect(res.body).toMatchObject({
      status: 'dispatched',
      description: 'Left the warehouse',
      address: 'Av. Paulista 1000, São Paulo',
      geolocation: { longitude: -46.65, latitude: -23.56 },
    });
    expect(res.body.happened_at).toMatch(ISO_WITH_OFFSET);
    expect(Date.parse(res.body.happened_at)).toBe(Date.parse('2026-11-21T14:05:00+00:00'));
    expect(Date.parse(res.body.estimated_delivery_at)).toBe(Date.parse('2026-11-24T18:00:00-03:00'));
    const after = (await t.get(`/orders/${order.id}/fulfillment-orders/${fo.id}`)).body;
    expect(after.tracking_events.map((e: any) => e.id)).toContain(res.body.id);
  });

  it('platform.md §5: the tracking status is one of the eleven documented ones; the event record has its fields', async () => {
    // Each once: an event identical to one the shipment has is refused (platform.md §10); delivered last (it is final).
    for (const status of TRACKING_STATUSES.filter((s) => s !== 'dispatched' && s !== 'delivered')) {
      const res = await t.post(base(), event({ status }));
      expect([200, 201], `${status}: ${res.text}`).toContain(res.status);
      expect(res.body.status).toBe(status);
      expect(Object.keys(res.body).sort()).toEqual(
        ['address', 'created_at', 'description', 'estimated_delivery_at', 'geolocation', 'happened_at', 'id', 'status', 'updated_at'],
      );
    }
  });

  it('platform.md §5, §10: only a delivered event moves the shipment (upper case), with its history; tracking info comes with the dispatch', async () => {
    const shipment = (await t.get(`/orders/${otherOrder.id}/fulfillment-orders`)).body[0];
    const path = `/orders/${otherOrder.id}/fulfillment-orders/${shipment.id}`;
    await dispatch(otherOrder.id, shipment.id);
    await t.post(`${path}/tracking-events`, event({ status: 'in_transit', happened_at: '2026-11-21T10:00:00+00:00' }));
    let record = (await t.get(path)).body;
    expect(record.status).toBe('DISPATCHED');
    expect(record.tracking_info).toMatchObject({ code: 'BR123123123AA', url: null });
    await t.post(`${path}/tracking-events`, event({ status: 'delivered', happened_at: '2026-11-22T10:00:00+00:00' }));
    record = (await t.get(path)).body;
    expect(record.status).toBe('DELIVERED');
    expect(Date.parse(record.fulfilled_at)).toBe(Date.parse('2026-11-22T10:00:00+00:00'));
    expect(record.status_history.map((h: any) => [h.from_status, h.to_status])).toEqual([
      [null, 'UNPACKED'],
      ['UNPACKED', 'DISPATCHED'],
      ['DISPATCHED', 'DELIVERED'],
    ]);
  });

  it('platform.md §5: a status outside the documented list (the old delivery_failed too) → 422 errors.status', async () => {
    expect((await t.post(base(), event({ status: 'delivery_failed' }))).status).toBe(422);
    const res = await t.post(base(), event({ status: 'lost_in_space' }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
    expect(res.body.errors.status).toBeDefined();
  });

  it('§5.15: happened_at is required → 422', async () => {
    const body = event();
    delete body.happened_at;
    const res = await t.post(base(), body);
    expect(res.status).toBe(422);
    expect(res.body.errors.happened_at).toBeDefined();
  });

  it('§5.15: happened_at must be ISO 8601 → 422', async () => {
    expect((await t.post(base(), event({ happened_at: 'last tuesday' }))).status).toBe(422);
  });

  it('§5.15: latitude outside −90…90 or longitude outside −180…180 → 422', async () => {
    const lat = await t.post(base(), event({ geolocation: { longitude: 0, latitude: 91 } }));
    expect(lat.status).toBe(422);
    const lon = await t.post(base(), event({ geolocation: { longitude: -180.5, latitude: 0 } }));
    expect(lon.status).toBe(422);
    expect((await t.post(base(), event({ geolocation: { longitude: 180, latitude: -90 }, description: 'At the edge' }))).status).toBeLessThan(300);
  });

  it('§3 tracking: dispatched → in_transit via PUT of the same event', async () => {
    const created = (await t.post(base(), event({ status: 'dispatched', description: 'Second scan' }))).body;
    const res = await t.put(`${base()}/${created.id}`, event({ status: 'in_transit', description: 'On the road' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, status: 'in_transit', description: 'On the road' });
    const after = (await t.get(`/orders/${order.id}/fulfillment-orders/${fo.id}`)).body;
    expect(after.tracking_events.find((e: any) => e.id === created.id).status).toBe('in_transit');
  });

  it('§4 PUT …/tracking-events/{id} validates like POST → 422', async () => {
    const created = (await t.post(base(), event({ description: 'Third scan' }))).body;
    expect((await t.put(`${base()}/${created.id}`, event({ status: 'teleported' }))).status).toBe(422);
  });

  it('§4 DELETE …/tracking-events/{id} → removed', async () => {
    const created = (await t.post(base(), event({ description: 'Fourth scan' }))).body;
    expectOk(await t.del(`${base()}/${created.id}`));
    const after = (await t.get(`/orders/${order.id}/fulfillment-orders/${fo.id}`)).body;
    expect(after.tracking_events.some((e: any) => e.id === created.id)).toBe(false);
    expect((await t.del(`${base()}/${created.id}`)).status).toBe(404);
  });

  it('§7 404: PUT/POST tracking on an unknown fulfillment order or event → 404', async () => {
    expect((await t.put(`${base()}/no-such-event`, event())).status).toBe(404);
    const res = await t.post(`/orders/${order.id}/fulfillment-orders/01JZZZZZZZZZZZZZZZZZZZZZZZ/tracking-events`, event());
    expect(res.status).toBe(404);
  });
});
