import { beforeAll, describe, expect, it } from 'vitest';
import { ISO_WITH_OFFSET, useSandbox } from '../helpers/sandbox.js';
import { createLocation, createOrder, createSimpleProduct, expectCreated, expectOk } from './support.js';

/**
 * platform.md §10, shipping: a fulfillment order (FO) moves only by `PATCH /orders/{id}/fulfillment-orders/{fo}` and a
 * `delivered` tracking event, along the documented moves; a forbidden move is the generic 400 `{description,
 * message}` (validation: `{description, messages}`), not the §1 envelope; tracking events need a dispatched FO; the
 * order's `shipping_status` follows its FOs; `aggregates=fulfillment_orders` puts the FOs inside the order.
 */

const t = useSandbox();
let main: any;
let second: any;

beforeAll(async () => {
  main = await createLocation(t, 'Main');
  second = await createLocation(t, 'Second');
});

/** An order of `quantity` units taken from two locations: two FOs. */
async function twoShipmentOrder(extra: Record<string, unknown> = {}): Promise<{ order: any; fos: any[] }> {
  const { variant } = await createSimpleProduct(t, {
    inventory_levels: [
      { location_id: main.id, stock: 1 },
      { location_id: second.id, stock: 1 },
    ],
  });
  const created = await t.post('/orders', {
    customer: { name: 'Ana Souza', email: 'ana@example.com', phone: '+55 11 99999-0000' },
    products: [{ variant_id: variant.id, quantity: 2 }],
    ...extra,
  });
  expectCreated(created);
  const fos = (await t.get(`/orders/${created.body.id}/fulfillment-orders`)).body;
  expect(fos).toHaveLength(2);
  return { order: created.body, fos };
}

async function oneShipmentOrder(extra: Record<string, unknown> = {}): Promise<{ order: any; fo: any; path: string }> {
  const { variant } = await createSimpleProduct(t, { stock: 5 });
  const created = await t.post('/orders', {
    customer: { name: 'Bruno Lima', email: 'bruno@example.com', phone: '+55 11 98888-0000' },
    products: [{ variant_id: variant.id, quantity: 1 }],
    ...extra,
  });
  expectCreated(created);
  const fo = (await t.get(`/orders/${created.body.id}/fulfillment-orders`)).body[0];
  return { order: created.body, fo, path: `/orders/${created.body.id}/fulfillment-orders/${fo.id}` };
}

const shippingStatus = async (orderId: number) => (await t.get(`/orders/${orderId}`)).body.shipping_status;

/** The documented generic 400: exactly `{description, message}`. */
function expectRefusal(res: { status: number; body: any; text: string }, message: RegExp): void {
  expect(res.status, res.text).toBe(400);
  expect(Object.keys(res.body).sort()).toEqual(['description', 'message']);
  expect(res.body.message).toMatch(message);
}

describe('an order with two shipments is packed, shipped and delivered (platform.md §10)', () => {
  it('shipping_status reads unpacked → partially_packed → packed → partially_fulfilled → fulfilled; fulfilled_at, histories and the order fields follow', async () => {
    const { order, fos } = await twoShipmentOrder();
    const [a, b] = fos.map((fo: any) => `/orders/${order.id}/fulfillment-orders/${fo.id}`) as [string, string];
    const seen = [await shippingStatus(order.id)];
    const packed = await t.patch(a, { status: 'PACKED' });
    expectOk(packed);
    expect(packed.body).toMatchObject({ id: fos[0].id, status: 'PACKED', fulfilled_at: null });
    expect(packed.body).not.toHaveProperty('order_id');
    seen.push(await shippingStatus(order.id));
    expectOk(await t.patch(b, { status: 'PACKED' }));
    seen.push(await shippingStatus(order.id));
    const sent = await t.patch(a, { status: 'DISPATCHED', tracking_info: { code: 'BR123123123AA', url: 'https://track.example/BR123123123AA', notify_customer: false } });
    expectOk(sent);
    expect(sent.body.tracking_info).toMatchObject({ code: 'BR123123123AA', url: 'https://track.example/BR123123123AA' });
    expect(sent.body.tracking_info_history).toEqual([
      expect.objectContaining({ from_tracking_info: { code: null, url: null }, to_tracking_info: { code: 'BR123123123AA', url: 'https://track.example/BR123123123AA' } }),
    ]);
    seen.push(await shippingStatus(order.id));
    expectOk(await t.patch(b, { status: 'DISPATCHED', tracking_info: { code: 'BR999' } }));
    seen.push(await shippingStatus(order.id));
    expect(seen).toEqual(['unpacked', 'partially_packed', 'packed', 'partially_fulfilled', 'fulfilled']);

    const shipped = (await t.get(`/orders/${order.id}`)).body;
    expect(shipped.shipped_at).toMatch(ISO_WITH_OFFSET);
    expect(shipped.shipping_tracking_number).toBe('BR123123123AA');

    // Delivery: the documented way is a delivered tracking event (fulfilled_at = its happened_at); a PATCH sets now.
    expectCreated(await t.post(`${a}/tracking-events`, { status: 'delivered', description: 'Delivered', happened_at: '2026-11-22T10:00:00-03:00' }));
    const deliveredByEvent = (await t.get(a)).body;
    expect(deliveredByEvent).toMatchObject({ status: 'DELIVERED' });
    expect(Date.parse(deliveredByEvent.fulfilled_at)).toBe(Date.parse('2026-11-22T13:00:00Z'));
    const deliveredByPatch = await t.patch(b, { status: 'DELIVERED' });
    expectOk(deliveredByPatch);
    expect(deliveredByPatch.body.fulfilled_at).toMatch(ISO_WITH_OFFSET);
    expect(await shippingStatus(order.id)).toBe('fulfilled');
    expect(deliveredByEvent.status_history.map((h: any) => [h.from_status, h.to_status])).toEqual([
      [null, 'UNPACKED'],
      ['UNPACKED', 'PACKED'],
      ['PACKED', 'DISPATCHED'],
      ['DISPATCHED', 'DELIVERED'],
    ]);
    for (const h of deliveredByEvent.status_history) {
      expect(h.happened_at).toMatch(ISO_WITH_OFFSET);
      expect(h.created_at).toMatch(ISO_WITH_OFFSET);
    }
  });

  it('aggregates=fulfillment_orders puts the shipments inside the order, on GET /orders/{id} and GET /orders; without it they are not there', async () => {
    const { order, fos } = await twoShipmentOrder();
    const single = (await t.get(`/orders/${order.id}`, { query: { aggregates: 'fulfillment_orders' } })).body;
    expect(single.fulfillment_orders.map((fo: any) => fo.id)).toEqual(fos.map((fo: any) => fo.id));
    expect(single.fulfillment_orders[0]).toEqual(fos[0]);
    const list = (await t.get('/orders', { query: { aggregates: 'fulfillment_orders', q: order.number } })).body;
    expect(list.map((o: any) => o.id)).toEqual([order.id]);
    expect(list[0].fulfillment_orders).toEqual(fos);
    const withFields = (await t.get('/orders', { query: { aggregates: 'fulfillment_orders', fields: 'id,number', q: order.number } })).body;
    expect(Object.keys(withFields[0]).sort()).toEqual(['fulfillment_orders', 'id', 'number']);
    expect((await t.get(`/orders/${order.id}`)).body).not.toHaveProperty('fulfillment_orders');
  });

  it('the documented filter values keep the derived ones: unfulfilled is packing begun or part sent, fulfilled all sent', async () => {
    const { order, fos } = await twoShipmentOrder();
    const ids = async (shipping_status: string) => {
      const res = await t.get('/orders', { query: { shipping_status, per_page: 200 } });
      return res.status === 404 ? [] : res.body.map((o: any) => o.id);
    };
    expect(await ids('unpacked')).toContain(order.id);
    expectOk(await t.patch(`/orders/${order.id}/fulfillment-orders/${fos[0].id}`, { status: 'PACKED' }));
    expect(await ids('unfulfilled')).toContain(order.id);
    expect(await ids('unpacked')).not.toContain(order.id);
    expectOk(await t.patch(`/orders/${order.id}/fulfillment-orders/${fos[0].id}`, { status: 'DISPATCHED' }));
    expect(await ids('unfulfilled')).toContain(order.id);
    expectOk(await t.patch(`/orders/${order.id}/fulfillment-orders/${fos[1].id}`, { status: 'DISPATCHED' }));
    expect(await ids('fulfilled')).toContain(order.id);
    expect(await ids('unfulfilled')).not.toContain(order.id);
    expect((await t.get('/orders', { query: { shipping_status: 'partially_packed' } })).status).toBe(422);
  });
});

describe('the moves a shipment may make (platform.md §10)', () => {
  it('back to UNPACKED only from PACKED; never back once DISPATCHED; DELIVERED is final — each refusal the generic 400, nothing changed', async () => {
    const { path } = await oneShipmentOrder();
    expectOk(await t.patch(path, { status: 'PACKED' }));
    const back = await t.patch(path, { status: 'UNPACKED' });
    expectOk(back);
    expect(back.body.status).toBe('UNPACKED');
    expectOk(await t.patch(path, { status: 'DISPATCHED' }));
    expectRefusal(await t.patch(path, { status: 'UNPACKED' }), /from DISPATCHED to UNPACKED/);
    expectRefusal(await t.patch(path, { status: 'PACKED' }), /from DISPATCHED to PACKED/);
    expectRefusal(await t.patch(path, { status: 'READY_FOR_PICKUP' }), /pickup/);
    expectOk(await t.patch(path, { status: 'DELIVERED' }));
    expectRefusal(await t.patch(path, { status: 'DISPATCHED' }), /DELIVERED/);
    expect((await t.get(path)).body.status).toBe('DELIVERED');
  });

  it('a PATCH repeating the current status is accepted and moves nothing (a tracking-info change on a dispatched shipment)', async () => {
    const { path } = await oneShipmentOrder();
    expectOk(await t.patch(path, { status: 'DISPATCHED', tracking_info: { code: 'A1' } }));
    const again = await t.patch(path, { status: 'DISPATCHED', tracking_info: { code: 'A2' } });
    expectOk(again);
    expect(again.body.status_history.map((h: any) => h.to_status)).toEqual(['UNPACKED', 'DISPATCHED']);
    expect(again.body.tracking_info.code).toBe('A2');
    expect(again.body.tracking_info_history.map((h: any) => h.to_tracking_info.code)).toEqual(['A1', 'A2']);
  });

  it('a ship shipment is delivered once DISPATCHED, never straight from UNPACKED or PACKED', async () => {
    const { path } = await oneShipmentOrder();
    expectRefusal(await t.patch(path, { status: 'DELIVERED' }), /UNPACKED to DELIVERED/);
    expectOk(await t.patch(path, { status: 'PACKED' }));
    expectRefusal(await t.patch(path, { status: 'DELIVERED' }), /PACKED to DELIVERED/);
  });

  it('READY_FOR_PICKUP only for a pickup shipment, which is collected, never dispatched', async () => {
    const { order, path } = await oneShipmentOrder({ shipping_pickup_type: 'pickup', shipping_option: 'Retiro en local', shipping_address: null });
    expect((await t.get(path)).body.shipping.type).toBe('pickup');
    expectRefusal(await t.patch(path, { status: 'DISPATCHED' }), /pickup/);
    expectOk(await t.patch(path, { status: 'PACKED' }));
    expectOk(await t.patch(path, { status: 'READY_FOR_PICKUP' }));
    expect(await shippingStatus(order.id)).toBe('packed');
    expectRefusal(await t.post(`${path}/tracking-events`, { status: 'ready_for_pickup', happened_at: '2026-11-21T10:00:00Z' }), /DISPATCHED/);
    expectOk(await t.patch(path, { status: 'DELIVERED' }));
    expect(await shippingStatus(order.id)).toBe('fulfilled');
  });

  it('a non-shippable shipment only goes to DELIVERED', async () => {
    const { path } = await oneShipmentOrder({ shipping_pickup_type: 'non-shippable' });
    expect((await t.get(path)).body.shipping.type).toBe('non-shippable');
    for (const status of ['PACKED', 'DISPATCHED', 'READY_FOR_PICKUP']) expectRefusal(await t.patch(path, { status }), /non-shippable|pickup/);
    expectOk(await t.patch(path, { status: 'DELIVERED' }));
  });

  it('a bad body is the validation 400 {description, messages} naming the fields; deprecated statuses are read, never taken', async () => {
    const { path } = await oneShipmentOrder();
    for (const [body, field] of [
      [{ status: 'SHIPPED' }, 'status'],
      [{ status: 'MARKED_AS_FULFILLED' }, 'status'],
      [{ status: 'packed' }, 'status'],
      [{ tracking_info: 'BR1' }, 'tracking_info'],
      [{ tracking_info: { code: 'BR1', url: 'not a url' } }, 'tracking_info.url'],
      [{ tracking_info: { code: 'BR1', notify_customer: 'yes' } }, 'tracking_info.notify_customer'],
      [{}, 'status'],
      [[{ status: 'PACKED' }], 'body'],
    ] as const) {
      const res = await t.patch(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(['description', 'messages']);
      expect(Object.keys(res.body.messages)).toContain(field);
    }
    expect((await t.get(path)).body.status).toBe('UNPACKED');
  });

  it('once dispatched, destination and recipient cannot change (400); before, they can', async () => {
    const { path } = await oneShipmentOrder();
    const destination = { street: 'Av. Paulista', number: '1000', city: 'São Paulo', country: { code: 'BR' } };
    const changed = await t.patch(path, { destination });
    expectOk(changed);
    expect(changed.body.destination).toEqual(destination);
    expectOk(await t.patch(path, { status: 'DISPATCHED' }));
    expectRefusal(await t.patch(path, { destination }), /Destination/);
    expectRefusal(await t.patch(path, { recipient: { name: 'Someone else' } }), /Recipient/);
  });

  it('unknown shipment or order → 404; a cancelled order keeps its shipments as they were (no CANCELLED)', async () => {
    const { order, fo, path } = await oneShipmentOrder();
    expect((await t.patch(`/orders/${order.id}/fulfillment-orders/01JZZZZZZZZZZZZZZZZZZZZZZZ`, { status: 'PACKED' })).status).toBe(404);
    expect((await t.patch(`/orders/1000000000/fulfillment-orders/${fo.id}`, { status: 'PACKED' })).status).toBe(404);
    expectOk(await t.patch(path, { status: 'PACKED' }));
    expectOk(await t.post(`/orders/${order.id}/cancel`, { restock: true }));
    expect((await t.get(path)).body.status).toBe('PACKED');
  });
});

describe('tracking events (platform.md §10)', () => {
  let path: string;
  let fo: any;
  const event = (overrides: Record<string, unknown> = {}) => ({ status: 'in_transit', description: 'On the road', happened_at: '2026-11-21T10:00:00Z', ...overrides });

  beforeAll(async () => {
    ({ path, fo } = await oneShipmentOrder());
  });

  it('are refused before DISPATCHED (UNPACKED, PACKED) with the generic 400, and taken once dispatched', async () => {
    expectRefusal(await t.post(`${path}/tracking-events`, event()), /DISPATCHED.*UNPACKED/);
    expectOk(await t.patch(path, { status: 'PACKED' }));
    expectRefusal(await t.post(`${path}/tracking-events`, event()), /DISPATCHED.*PACKED/);
    expectOk(await t.patch(path, { status: 'DISPATCHED' }));
    expectCreated(await t.post(`${path}/tracking-events`, event()));
    expect((await t.get(path)).body.status).toBe('DISPATCHED');
  });

  it('an event identical to one the shipment has (within 60 s) is refused; a minute later it is another event', async () => {
    const twin = await t.post(`${path}/tracking-events`, event({ happened_at: '2026-11-21T10:00:45Z' }));
    expectRefusal(twin, /^The tracking event must not be identical to an existing tracking event$/);
    expectCreated(await t.post(`${path}/tracking-events`, event({ happened_at: '2026-11-21T10:01:01Z' })));
  });

  it('custom_{status} is taken; other unknown statuses are not', async () => {
    const custom = await t.post(`${path}/tracking-events`, event({ status: 'custom_at_customs', description: 'Held at customs' }));
    expectCreated(custom);
    expect(custom.body.status).toBe('custom_at_customs');
    expect((await t.post(`${path}/tracking-events`, event({ status: 'custom_' }))).status).toBe(422);
    expect((await t.post(`${path}/tracking-events`, event({ status: 'teleported' }))).status).toBe(422);
  });

  it('at most 100 events per shipment: the 101st is refused', async () => {
    const { path: busy } = await oneShipmentOrder();
    expectOk(await t.patch(busy, { status: 'DISPATCHED' }));
    for (let i = 0; i < 100; i++) {
      const res = await t.post(`${busy}/tracking-events`, event({ description: `Scan ${i}` }));
      expect(res.status, res.text).toBe(201);
    }
    expectRefusal(await t.post(`${busy}/tracking-events`, event({ description: 'Scan 100' })), /^Tracking events has reached the limit$/);
  });

  it('after DELIVERED, events can still be added but no longer changed or deleted', async () => {
    const delivered = await t.post(`${path}/tracking-events`, event({ status: 'delivered', description: 'Delivered', happened_at: '2026-11-22T10:00:00Z' }));
    expectCreated(delivered);
    expect((await t.get(path)).body.status).toBe('DELIVERED');
    expectRefusal(await t.put(`${path}/tracking-events/${delivered.body.id}`, { description: 'Left at the door' }), /DELIVERED/);
    expectRefusal(await t.del(`${path}/tracking-events/${delivered.body.id}`), /DELIVERED/);
    expectCreated(await t.post(`${path}/tracking-events`, event({ status: 'returned_to_sender', description: 'Refused by the customer', happened_at: '2026-11-23T10:00:00Z' })));
    const record = (await t.get(path)).body;
    expect(record.status).toBe('DELIVERED');
    expect(record.id).toBe(fo.id);
  });
});

describe('the demo store ships by the same rules (issue 29: order #191 read unfulfilled beside a DISPATCHED shipment)', () => {
  const demo = useSandbox({ seed: 'demo' });
  let orders: any[] = [];

  beforeAll(async () => {
    const res = await demo.get('/orders', { query: { aggregates: 'fulfillment_orders', per_page: 200 } });
    expect(res.status).toBe(200);
    orders = res.body;
  });

  /** The status an order's shipments give it, in the names its record uses (v1, 2025-03 or the current ones). */
  const expectedStatus = (order: any): string[] => {
    const stages = order.fulfillment_orders.map((fo: any) =>
      fo.status === 'UNPACKED' ? 'unpacked' : fo.status === 'PACKED' || fo.status === 'READY_FOR_PICKUP' ? 'packed' : 'sent',
    );
    const sent = stages.filter((s: string) => s === 'sent').length;
    const packed = stages.filter((s: string) => s === 'packed').length;
    const current = sent === stages.length ? 'fulfilled' : sent > 0 ? 'partially_fulfilled' : packed === stages.length ? 'packed' : packed > 0 ? 'partially_packed' : 'unpacked';
    const allDelivered = order.fulfillment_orders.every((fo: any) => fo.status === 'DELIVERED');
    const v1 = current === 'unpacked' ? 'unpacked' : current === 'fulfilled' ? 'fulfilled' : 'unfulfilled';
    const older = current !== 'fulfilled' ? 'unshipped' : allDelivered ? 'delivered' : 'shipped';
    return [current, v1, older];
  };

  it("every order's shipping_status follows its shipments, and the store holds all nine names of platform.md §10", () => {
    const disagreeing = orders.filter((o) => o.fulfillment_orders.length > 0 && !expectedStatus(o).includes(o.shipping_status));
    expect(disagreeing.map((o) => `#${o.number} ${o.shipping_status}: ${o.fulfillment_orders.map((fo: any) => fo.status).join(',')}`)).toEqual([]);
    expect(new Set(orders.map((o) => o.shipping_status))).toEqual(
      new Set(['unpacked', 'partially_packed', 'packed', 'unshipped', 'unfulfilled', 'partially_fulfilled', 'fulfilled', 'shipped', 'delivered']),
    );
  });

  it('tracking events only on dispatched shipments, each move a documented one, no CANCELLED, delivered ones with fulfilled_at', () => {
    const fos = orders.flatMap((o) => o.fulfillment_orders);
    expect(new Set(fos.map((fo: any) => fo.status))).toEqual(new Set(['UNPACKED', 'PACKED', 'DISPATCHED', 'READY_FOR_PICKUP', 'DELIVERED']));
    expect(fos.filter((fo: any) => fo.tracking_events.length > 0 && !['DISPATCHED', 'DELIVERED'].includes(fo.status)).map((fo: any) => fo.id)).toEqual([]);
    expect(fos.filter((fo: any) => (fo.status === 'DELIVERED') !== (fo.fulfilled_at !== null)).map((fo: any) => fo.id)).toEqual([]);
    for (const fo of fos) {
      const steps = fo.status_history.map((h: any) => h.to_status);
      expect(steps[0]).toBe('UNPACKED');
      expect(steps.at(-1)).toBe(fo.status);
      const sentAt = fo.status_history.find((h: any) => h.to_status === 'DISPATCHED')?.happened_at;
      for (const e of fo.tracking_events) expect(Date.parse(e.happened_at)).toBeGreaterThanOrEqual(Date.parse(sentAt));
    }
    expect(fos.some((fo: any) => fo.tracking_info?.code && fo.status === 'DISPATCHED')).toBe(true);
  });
});
