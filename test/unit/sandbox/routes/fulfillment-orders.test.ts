import { beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../src/platform/clock.js';
import { makeAccessKey } from '../../../../src/platform/invoice-key.js';
import { parseTime as parseIsoTime } from '../../../../src/sandbox/http.js';
import { useSandbox } from '../../../helpers/sandbox.js';

const sb = useSandbox({ seed: 'demo', clock: new FakeClock(Date.parse('2026-11-20T12:00:00Z')) });

let order: any;
let other: any;
let fo: any;
let foreignFo: any;

beforeAll(async () => {
  // Open orders not packed yet, sent by carrier: their shipments can be dispatched and tracked.
  const open = (await sb.get('/orders', { query: { status: 'open', shipping_status: 'unpacked', per_page: 200, aggregates: 'fulfillment_orders' } })).body as any[];
  [order, other] = open.filter((o) => o.fulfillment_orders[0]?.shipping.type === 'ship');
  fo = order.fulfillment_orders[0];
  foreignFo = other.fulfillment_orders[0];
});

/** Tracking events start once a shipment is dispatched (platform.md §10). */
const dispatch = async (orderId: number, foId: string) =>
  expect((await sb.patch(`/orders/${orderId}/fulfillment-orders/${foId}`, { status: 'DISPATCHED' })).status).toBe(200);

const event = { status: 'dispatched', description: 'Picked up', happened_at: '2026-11-20T09:00:00-03:00' };

describe('parseIsoTime', () => {
  it('applies offsets, rejects impossible dates and, when asked, a missing offset', () => {
    const noon = Date.parse('2026-11-20T12:00:00Z');
    expect(parseIsoTime('2026-11-20T09:00:00-03:00', true)).toBe(noon);
    expect(parseIsoTime('2026-11-20T17:30:00.250+0530', true)).toBe(noon + 250);
    expect(parseIsoTime('2026-11-20T12:00:00z', true)).toBe(noon);
    expect(parseIsoTime('2026-11-20T12:00', false)).toBe(noon);
    expect(parseIsoTime('2026-11-20', false)).toBe(noon - 12 * 3_600_000);
    expect(parseIsoTime('2026-11-20T12:00', true)).toBeUndefined();
    expect(parseIsoTime('2028-02-29T00:00:00Z', true)).toBeDefined();
    // Years below 100 are those years, not 1900 + year.
    expect(parseIsoTime('0050-03-01T00:00:00Z', true)).toBe(Date.parse('0050-03-01T00:00:00Z'));
    expect(parseIsoTime('0004-02-29', false)).toBe(Date.parse('0004-02-29T00:00:00Z'));
    expect(parseIsoTime('0003-02-29', false)).toBeUndefined();
    for (const bad of ['2026-02-29', '2026-04-31', '2026-13-01', '2026-11-20T24:00', '2026-11-20T12:00+25:00', '20261120']) {
      expect(parseIsoTime(bad, false), bad).toBeUndefined();
    }
  });
});

describe('tracking events', () => {
  it('creates, updates and deletes events on a dispatched shipment, which they leave DISPATCHED', async () => {
    const path = `/orders/${order.id}/fulfillment-orders/${fo.id}/tracking-events`;
    expect((await sb.post(path, event)).status).toBe(400);
    await dispatch(order.id, fo.id);
    const created = await sb.post(path, { ...event, geolocation: { latitude: -34.6, longitude: -58.4 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'dispatched',
      happened_at: '2026-11-20T12:00:00+00:00',
      geolocation: { latitude: -34.6, longitude: -58.4 },
      estimated_delivery_at: null,
    });
    const later = await sb.post(path, { status: 'in_transit', happened_at: '2026-11-20T15:00:00Z' });
    expect((await sb.get(`/orders/${order.id}/fulfillment-orders/${fo.id}`)).body.status).toBe('DISPATCHED');

    // A PUT may send only what changes.
    const updated = await sb.put(`${path}/${created.body.id}`, { description: 'Picked up at the warehouse' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ status: 'dispatched', description: 'Picked up at the warehouse' });

    expect((await sb.del(`${path}/${later.body.id}`)).status).toBe(200);
    const after = (await sb.get(`/orders/${order.id}/fulfillment-orders/${fo.id}`)).body;
    expect(after.status).toBe('DISPATCHED');
    expect(after.tracking_events.map((e: any) => e.id)).toEqual([created.body.id]);
    expect((await sb.del(`${path}/${later.body.id}`)).status).toBe(404);
  });

  it('only a delivered event moves the shipment: to DELIVERED, fulfilled_at its happened_at; then its events stay', async () => {
    const shipment = (await sb.get(`/orders/${other.id}/fulfillment-orders`)).body[0];
    const path = `/orders/${other.id}/fulfillment-orders/${shipment.id}`;
    expect(shipment.status).toBe('UNPACKED');
    await dispatch(other.id, shipment.id);
    const atBranch = await sb.post(`${path}/tracking-events`, { status: 'ready_for_pickup', happened_at: '2026-11-20T10:00:00Z' });
    expect(atBranch.status).toBe(201);
    expect((await sb.get(path)).body.status).toBe('DISPATCHED');
    await sb.post(`${path}/tracking-events`, { status: 'delivered', happened_at: '2026-11-20T11:00:00Z' });
    expect((await sb.get(path)).body).toMatchObject({ status: 'DELIVERED', fulfilled_at: '2026-11-20T11:00:00+00:00' });
    expect((await sb.del(`${path}/tracking-events/${atBranch.body.id}`)).status).toBe(400);
    expect((await sb.get(path)).body.tracking_events).toHaveLength(2);
  });

  it.each([
    [{ ...event, status: 'lost_at_sea' }, 'status'],
    [{ ...event, status: 'delivery_failed' }, 'status'],
    [{ status: 'dispatched' }, 'happened_at'],
    [{ ...event, happened_at: 'last tuesday' }, 'happened_at'],
    [{ ...event, estimated_delivery_at: '2026-02-30T10:00' }, 'estimated_delivery_at'],
    [{ ...event, geolocation: { latitude: 90.5, longitude: 0 } }, 'geolocation.latitude'],
    [{ ...event, geolocation: { latitude: 0, longitude: -181 } }, 'geolocation.longitude'],
    [{ ...event, geolocation: { latitude: '1', longitude: 2 } }, 'geolocation.latitude'],
  ])('rejects %j naming %s', async (body, field) => {
    const res = await sb.post(`/orders/${order.id}/fulfillment-orders/${fo.id}/tracking-events`, body);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(field);
  });

  it('validates a PUT like a POST and leaves the event unchanged', async () => {
    const path = `/orders/${order.id}/fulfillment-orders/${fo.id}/tracking-events`;
    const created = (await sb.post(path, event)).body;
    const res = await sb.put(`${path}/${created.id}`, { geolocation: { latitude: 0, longitude: 200 } });
    expect(res.status).toBe(422);
    const stored = (await sb.get(`/orders/${order.id}/fulfillment-orders/${fo.id}`)).body.tracking_events;
    expect(stored.find((e: any) => e.id === created.id).geolocation).toBeNull();
  });
});

describe('invoice metafields', () => {
  const entry = (extra: Record<string, unknown> = {}) => ({
    key: makeAccessKey('35261112345678000199'),
    link: 'https://nfe.example.com/danfe.pdf',
    ...extra,
  });

  it('appends invoices with PUT and refuses a second POST', async () => {
    const first = entry({ fulfillment_order_id: fo.id });
    const created = await sb.post('/metafields', {
      namespace: 'nfe',
      key: 'list',
      value: JSON.stringify([first]),
      description: 'Invoices',
      owner_resource: 'Order',
      owner_id: order.id,
    });
    expect(created.status).toBe(201);
    const again = await sb.post('/metafields', {
      namespace: 'nfe',
      key: 'list',
      value: JSON.stringify([entry()]),
      owner_resource: 'Order',
      owner_id: order.id,
    });
    expect(again.status).toBe(422);
    expect(again.body.errors.key[0]).toContain(`/metafields/${created.body.id}`);

    const second = entry();
    const put = await sb.put(`/metafields/${created.body.id}`, { value: JSON.stringify([first, second]) });
    expect(put.status).toBe(200);
    const listed = await sb.get('/metafields/orders', { query: { owner_id: order.id, namespace: 'nfe', key: 'list' } });
    expect(listed.body).toHaveLength(1);
    expect(JSON.parse(listed.body[0].value)).toEqual([first, second]);
  });

  it('names the entry field at fault and keeps the stored list', async () => {
    const mf = (await sb.get('/metafields/orders', { query: { owner_id: order.id } })).body[0];
    const stored = JSON.parse(mf.value);
    const badKey = entry();
    badKey.key = badKey.key.slice(0, 43) + String((Number(badKey.key[43]) + 1) % 10);
    const cases: [unknown, string][] = [
      [[...stored, badKey], `value.${stored.length}.key`],
      [[...stored, entry({ link: 'ftp://files/x.pdf' })], `value.${stored.length}.link`],
      [[...stored, entry({ fulfillment_order_id: foreignFo.id })], `value.${stored.length}.fulfillment_order_id`],
      [[...stored, stored[0]], `value.${stored.length}.key`],
      [{ key: stored[0].key }, 'value'],
    ];
    for (const [value, field] of cases) {
      const res = await sb.put(`/metafields/${mf.id}`, { value: JSON.stringify(value) });
      expect(res.status, field).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    expect(JSON.parse((await sb.get(`/metafields/${mf.id}`)).body.value)).toEqual(stored);
    expect((await sb.get('/metafields/orders', { query: { owner_id: 'abc' } })).status).toBe(422);
  });
});
