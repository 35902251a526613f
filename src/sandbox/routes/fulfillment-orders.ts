import type { FastifyInstance } from 'fastify';
import { ulid } from 'ulid';
import { z } from 'zod';
import { intParam, invalid, isoTime, notFound, paginate, parseBody, parseTime } from '../http.js';
import type { SandboxContext } from '../server.js';
import type { Collection, StoreData, Tx } from '../state.js';

/**
 * Fulfillment orders (DESIGN.md §5.15): one shipment of an order from one source location, made when the order
 * is created (orders.ts), with its tracking events.
 *
 * Status: `unfulfilled` until a tracking event exists, then the status of the latest event by happened_at
 * (`dispatched` … `delivered`), and `cancelled` while its order is cancelled.
 */

export const TRACKING_STATUSES = [
  'dispatched',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'delivery_failed',
  'returned',
] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export type TrackingEventRecord = {
  id: string;
  status: TrackingStatus;
  description: string;
  address: string;
  geolocation: { latitude: number; longitude: number } | null;
  happened_at: number;
  estimated_delivery_at: number | null;
  created_at: number;
  updated_at: number;
};

export type FulfillmentOrderRecord = {
  id: string;
  order_id: number;
  status: string;
  location_id: string;
  products: { variant_id: number; quantity: number }[];
  tracking_events: TrackingEventRecord[];
  created_at: number;
  updated_at: number;
};

export function fulfillmentOrdersOf(store: StoreData): Collection<FulfillmentOrderRecord> {
  return store.fulfillmentOrders as unknown as Collection<FulfillmentOrderRecord>;
}

/** order id → its fulfillment order ids, kept by a collection listener so a lookup never scans the store. */
const byOrderIndexes = new WeakMap<StoreData, Map<number, Set<string>>>();

function byOrder(store: StoreData): Map<number, Set<string>> {
  let index = byOrderIndexes.get(store);
  if (index) return index;
  const built = new Map<number, Set<string>>();
  const owners = new Map<string, number>();
  const update = (key: string, record: FulfillmentOrderRecord | undefined) => {
    const before = owners.get(key);
    if (before !== undefined) built.get(before)?.delete(key);
    owners.delete(key);
    if (!record) return;
    owners.set(key, record.order_id);
    let set = built.get(record.order_id);
    if (!set) built.set(record.order_id, (set = new Set()));
    set.add(key);
  };
  const collection = fulfillmentOrdersOf(store);
  for (const record of collection.values()) update(record.id, record);
  collection.listen((key, record) => update(String(key), record));
  byOrderIndexes.set(store, (index = built));
  return index;
}

/** The fulfillment orders of an order, oldest first. */
export function fulfillmentOrdersOfOrder(store: StoreData, orderId: number): FulfillmentOrderRecord[] {
  const ids = byOrder(store).get(orderId);
  if (!ids) return [];
  const collection = fulfillmentOrdersOf(store);
  return Array.from(ids, (id) => collection.get(id)!)
    .filter(Boolean)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Creates one fulfillment order (inside the order's mutation). */
export function createFulfillmentOrder(
  tx: Tx,
  store: StoreData,
  orderId: number,
  locationId: string,
  products: { variant_id: number; quantity: number }[],
  at = tx.now(),
): FulfillmentOrderRecord {
  return tx.put(fulfillmentOrdersOf(store), {
    id: ulid(at),
    order_id: orderId,
    status: 'unfulfilled',
    location_id: locationId,
    products,
    tracking_events: [],
    created_at: at,
    updated_at: at,
  });
}

/** Recomputes the status from the tracking events and whether the order is cancelled. */
export function refreshStatus(fo: FulfillmentOrderRecord, orderCancelled: boolean): void {
  fo.tracking_events.sort((a, b) => a.happened_at - b.happened_at || (a.id < b.id ? -1 : 1));
  const latest = fo.tracking_events[fo.tracking_events.length - 1];
  fo.status = orderCancelled ? 'cancelled' : latest ? latest.status : 'unfulfilled';
}

export function presentTrackingEvent(event: TrackingEventRecord) {
  return {
    id: event.id,
    status: event.status,
    description: event.description,
    address: event.address,
    geolocation: event.geolocation,
    happened_at: isoTime(event.happened_at),
    estimated_delivery_at: event.estimated_delivery_at === null ? null : isoTime(event.estimated_delivery_at),
    created_at: isoTime(event.created_at),
    updated_at: isoTime(event.updated_at),
  };
}

export function presentFulfillmentOrder(fo: FulfillmentOrderRecord) {
  return {
    id: fo.id,
    order_id: fo.order_id,
    status: fo.status,
    location_id: fo.location_id,
    products: fo.products.map((p) => ({ ...p })),
    tracking_events: fo.tracking_events.map(presentTrackingEvent),
    created_at: isoTime(fo.created_at),
    updated_at: isoTime(fo.updated_at),
  };
}


const timestamp = (field: string) =>
  z.string({ error: `${field} must be an ISO 8601 timestamp` }).refine((t) => parseTime(t, true) !== undefined, {
    error: 'must be an ISO 8601 timestamp with offset, e.g. 2026-11-21T14:05:00+00:00',
  });

const TrackingEventBody = z.object({
  status: z.enum(TRACKING_STATUSES, { error: `must be one of ${TRACKING_STATUSES.join(', ')}` }),
  description: z.string({ error: 'must be a string' }).max(1000).nullish(),
  address: z.string({ error: 'must be a string' }).max(1000).nullish(),
  geolocation: z
    .object(
      {
        latitude: z
          .number({ error: 'must be a number between -90 and 90' })
          .min(-90, { error: 'must be between -90 and 90' })
          .max(90, { error: 'must be between -90 and 90' }),
        longitude: z
          .number({ error: 'must be a number between -180 and 180' })
          .min(-180, { error: 'must be between -180 and 180' })
          .max(180, { error: 'must be between -180 and 180' }),
      },
      { error: 'must be an object with latitude and longitude' },
    )
    .nullish(),
  happened_at: timestamp('happened_at'),
  estimated_delivery_at: timestamp('estimated_delivery_at').nullish(),
});

type TrackingEventInput = z.infer<typeof TrackingEventBody>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  const load = (store: StoreData, params: Record<string, string>) => {
    const orderId = intParam(params.order_id, 'Order');
    if (!store.orders.has(orderId)) throw notFound('Order', orderId);
    const fo = fulfillmentOrdersOf(store).get(params.fulfillment_order_id ?? '');
    if (params.fulfillment_order_id !== undefined && (!fo || fo.order_id !== orderId)) {
      throw notFound('Fulfillment order', params.fulfillment_order_id);
    }
    return { orderId, fo };
  };

  const orderCancelled = (store: StoreData, orderId: number) => store.orders.get(orderId)?.status === 'cancelled';

  api.get('/orders/:order_id/fulfillment-orders', async (req, reply) => {
    const { orderId } = load(req.store, req.params as Record<string, string>);
    return paginate(req, reply, fulfillmentOrdersOfOrder(req.store, orderId), presentFulfillmentOrder);
  });

  api.get('/orders/:order_id/fulfillment-orders/:fulfillment_order_id', async (req) => {
    const { fo } = load(req.store, req.params as Record<string, string>);
    return presentFulfillmentOrder(fo!);
  });

  api.post('/orders/:order_id/fulfillment-orders/:fulfillment_order_id/tracking-events', async (req, reply) => {
    const store = req.store;
    const { orderId, fo } = load(store, req.params as Record<string, string>);
    const fields = toRecordFields(parseBody(TrackingEventBody, req.body));
    const event = state.mutate('fulfillment_order.tracking_event.create', (tx) => {
      const now = tx.now();
      const created: TrackingEventRecord = { id: ulid(now), ...fields, created_at: now, updated_at: now };
      fo!.tracking_events.push(created);
      fo!.updated_at = now;
      refreshStatus(fo!, orderCancelled(store, orderId));
      tx.put(fulfillmentOrdersOf(store), fo!);
      return created;
    });
    ctx.emit('fulfillment_order/tracking_event_created', store.id, fo!.id);
    return reply.code(201).send(presentTrackingEvent(event));
  });

  api.put('/orders/:order_id/fulfillment-orders/:fulfillment_order_id/tracking-events/:event_id', async (req) => {
    const store = req.store;
    const params = req.params as Record<string, string>;
    const { orderId, fo } = load(store, params);
    const existing = fo!.tracking_events.find((e) => e.id === params.event_id);
    if (!existing) throw notFound('Tracking event', params.event_id);
    if (req.body !== undefined && !isObject(req.body)) throw invalid('body', 'must be a JSON object');
    // A PUT may send only the fields it changes; the result must still be a complete, valid event.
    const merged = { ...presentTrackingEvent(existing), ...(req.body as Record<string, unknown> | undefined) };
    const fields = toRecordFields(parseBody(TrackingEventBody, merged));
    const event = state.mutate('fulfillment_order.tracking_event.update', (tx) => {
      Object.assign(existing, fields, { updated_at: tx.now() });
      fo!.updated_at = tx.now();
      refreshStatus(fo!, orderCancelled(store, orderId));
      tx.put(fulfillmentOrdersOf(store), fo!);
      return existing;
    });
    ctx.emit('fulfillment_order/tracking_event_updated', store.id, fo!.id);
    return presentTrackingEvent(event);
  });

  api.delete('/orders/:order_id/fulfillment-orders/:fulfillment_order_id/tracking-events/:event_id', async (req) => {
    const store = req.store;
    const params = req.params as Record<string, string>;
    const { orderId, fo } = load(store, params);
    const index = fo!.tracking_events.findIndex((e) => e.id === params.event_id);
    if (index < 0) throw notFound('Tracking event', params.event_id);
    state.mutate('fulfillment_order.tracking_event.delete', (tx) => {
      fo!.tracking_events.splice(index, 1);
      fo!.updated_at = tx.now();
      refreshStatus(fo!, orderCancelled(store, orderId));
      tx.put(fulfillmentOrdersOf(store), fo!);
    });
    ctx.emit('fulfillment_order/tracking_event_deleted', store.id, fo!.id);
    return {};
  });
}

function toRecordFields(input: TrackingEventInput) {
  return {
    status: input.status,
    description: input.description ?? '',
    address: input.address ?? '',
    geolocation: input.geolocation ? { latitude: input.geolocation.latitude, longitude: input.geolocation.longitude } : null,
    happened_at: parseTime(input.happened_at, true)!,
    estimated_delivery_at: input.estimated_delivery_at ? parseTime(input.estimated_delivery_at, true)! : null,
  };
}
