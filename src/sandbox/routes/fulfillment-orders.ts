import type { FastifyInstance } from 'fastify';
import { ulid } from 'ulid';
import { z } from 'zod';
import { intParam, invalid, isoTime, notFound, paginate, parseBody, parseTime } from '../http.js';
import type { SandboxContext } from '../context.js';
import type { Collection, StoreData, Tx } from '../state.js';
import { TRACKING_STATUSES, type TrackingStatus } from '../../platform/tracking-statuses.js';

/**
 * Fulfillment orders (spec/platform.md §5, which replaces DESIGN.md §5.15's record): one shipment of an order
 * from one source location, made when the order is created (orders.ts), with its tracking events.
 *
 * Storage keeps what the sandbox needs to work (order id, location id, variant and quantity per line, events);
 * the record it sends is the documented one (`presentFulfillmentOrder`): upper-case status, `line_items` with
 * nested string ids, `assigned_location`, `recipient`, `shipping`, `tracking_info`, `status_history`, and no
 * `order_id` (it is in the path).
 *
 * Stored status: `unfulfilled` until a tracking event exists, then the status of the latest event by
 * happened_at, and `cancelled` while its order is cancelled; `documentedStatus` names it as the platform does.
 */

export { TRACKING_STATUSES, type TrackingStatus } from '../../platform/tracking-statuses.js';

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

/** The stored status as the platform names it (upper case). Events after dispatch keep the shipment DISPATCHED. */
export function documentedStatus(stored: string): string {
  switch (stored) {
    case 'unfulfilled':
      return 'UNPACKED';
    case 'ready_for_pickup':
      return 'READY_FOR_PICKUP';
    case 'delivered':
      return 'DELIVERED';
    case 'cancelled':
      return 'CANCELLED';
    default:
      return 'DISPATCHED';
  }
}

/**
 * What the presentation reads of the order; kept loose so that the order's storage can change without this
 * module following it (a missing field only leaves a presented field blank).
 */
type OrderView = {
  number?: number | string;
  currency?: string;
  customer?: { name?: string; email?: string; phone?: string };
  products?: { product_id?: number; variant_id?: number; name?: string; sku?: string | null; price?: string }[];
  /** The documented order's shipping (platform.md §4), or the earlier `{method, cost}`. */
  shipping?: { carrier?: string; option?: string; cost_customer?: string; cost_owner?: string; method?: string; cost?: string };
  shipping_address?: Record<string, unknown> | null;
  shipping_tracking_number?: string | null;
  shipping_tracking_url?: string | null;
};

const PICKUP_METHOD = /retiro|pickup|pick-up/i;

/** The documented fulfillment order record (platform.md §5). */
export function presentFulfillmentOrder(store: StoreData, fo: FulfillmentOrderRecord) {
  const order = (store.orders.get(fo.order_id) ?? {}) as OrderView;
  const currency = order.currency ?? store.record.currency;
  const location = store.locations.get(fo.location_id);
  const money = (value: number) => ({ value: value.toFixed(2), currency });
  let totalPrice = 0;
  let totalWeight = 0;
  const lineItems = fo.products.map((p, i) => {
    const line = order.products?.find((l) => l.variant_id === p.variant_id);
    const found = store.findVariant(p.variant_id);
    const unitPrice = line?.price ?? found?.variant.promotional_price ?? found?.variant.price ?? '0.00';
    totalPrice += Number(unitPrice) * p.quantity;
    totalWeight += Number(found?.variant.weight ?? 0) * p.quantity;
    return {
      // A line item id of its own, stable per fulfillment order line.
      id: `${fo.id.slice(0, 24)}${String(i + 1).padStart(2, '0')}`,
      quantity: p.quantity,
      variant: { variant_id: String(p.variant_id), sku: line?.sku ?? found?.variant.sku ?? null },
      product: { product_id: String(line?.product_id ?? found?.product.id ?? ''), name: line?.name ?? '' },
      unit_price: { value: unitPrice, currency },
    };
  });
  const events = [...fo.tracking_events].sort((a, b) => a.happened_at - b.happened_at || (a.id < b.id ? -1 : 1));
  const history: { from_status: string | null; to_status: string; happened_at: string }[] = [
    { from_status: null, to_status: 'UNPACKED', happened_at: isoTime(fo.created_at) },
  ];
  for (const event of events) {
    const to = documentedStatus(event.status);
    const from = history[history.length - 1]!.to_status;
    if (to !== from) history.push({ from_status: from, to_status: to, happened_at: isoTime(event.happened_at) });
  }
  const status = documentedStatus(fo.status);
  if (status === 'CANCELLED') {
    history.push({ from_status: history[history.length - 1]!.to_status, to_status: status, happened_at: isoTime(fo.updated_at) });
  }
  const delivered = events.find((e) => e.status === 'delivered');
  const carrier = order.shipping?.carrier ?? order.shipping?.method ?? 'standard';
  const option = order.shipping?.option ?? order.shipping?.method ?? carrier;
  const consumerCost = order.shipping?.cost_customer ?? order.shipping?.cost ?? '0.00';
  const merchantCost = order.shipping?.cost_owner ?? consumerCost;
  // The order's tracking number when it has one, else one made up once the shipment has left.
  const trackingCode = order.shipping_tracking_number ?? (events.length ? `TN${fo.id.slice(-12)}` : null);
  const trackingUrl = order.shipping_tracking_url ?? (trackingCode ? `https://tracking.example.com/${trackingCode}` : null);
  const customer = order.customer ?? {};
  return {
    id: fo.id,
    // The order's number and the shipment's place among the order's shipments: "104-1".
    number: `${order.number ?? fo.order_id}-${fulfillmentOrdersOfOrder(store, fo.order_id).findIndex((f) => f.id === fo.id) + 1}`,
    status,
    total_quantity: fo.products.reduce((n, p) => n + p.quantity, 0),
    total_weight: totalWeight.toFixed(3),
    total_price: money(totalPrice),
    assigned_location: {
      location_id: fo.location_id,
      name: location?.name ?? null,
      address: location?.address ?? null,
    },
    line_items: lineItems,
    recipient: { name: customer.name ?? null, phone: customer.phone ?? null, email: customer.email ?? null, identifier: null },
    shipping: {
      type: PICKUP_METHOD.test(`${carrier} ${option}`) ? 'pickup' : 'ship',
      carrier: { name: carrier },
      option: { name: option },
      merchant_cost: { value: merchantCost, currency },
      consumer_cost: { value: consumerCost, currency },
    },
    destination: order.shipping_address ?? { name: customer.name ?? null, phone: customer.phone ?? null, country: store.record.country },
    status_history: history,
    tracking_info: { code: trackingCode, url: trackingUrl },
    tracking_events: fo.tracking_events.map(presentTrackingEvent),
    fulfilled_at: delivered ? isoTime(delivered.happened_at) : null,
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

  /** `fulfillment_order/status_updated` when a tracking change moved the shipment's documented status. */
  const emitStatusChange = (storeId: number, before: string, fo: FulfillmentOrderRecord) => {
    if (documentedStatus(before) !== documentedStatus(fo.status)) ctx.emit('fulfillment_order/status_updated', storeId, fo.id);
  };

  api.get('/orders/:order_id/fulfillment-orders', async (req, reply) => {
    const { orderId } = load(req.store, req.params as Record<string, string>);
    return paginate(req, reply, fulfillmentOrdersOfOrder(req.store, orderId), (fo) => presentFulfillmentOrder(req.store, fo));
  });

  api.get('/orders/:order_id/fulfillment-orders/:fulfillment_order_id', async (req) => {
    const { fo } = load(req.store, req.params as Record<string, string>);
    return presentFulfillmentOrder(req.store, fo!);
  });

  api.post('/orders/:order_id/fulfillment-orders/:fulfillment_order_id/tracking-events', async (req, reply) => {
    const store = req.store;
    const { orderId, fo } = load(store, req.params as Record<string, string>);
    const fields = toRecordFields(parseBody(TrackingEventBody, req.body));
    const statusBefore = fo!.status;
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
    emitStatusChange(store.id, statusBefore, fo!);
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
    const statusBefore = fo!.status;
    const event = state.mutate('fulfillment_order.tracking_event.update', (tx) => {
      Object.assign(existing, fields, { updated_at: tx.now() });
      fo!.updated_at = tx.now();
      refreshStatus(fo!, orderCancelled(store, orderId));
      tx.put(fulfillmentOrdersOf(store), fo!);
      return existing;
    });
    ctx.emit('fulfillment_order/tracking_event_updated', store.id, fo!.id);
    emitStatusChange(store.id, statusBefore, fo!);
    return presentTrackingEvent(event);
  });

  api.delete('/orders/:order_id/fulfillment-orders/:fulfillment_order_id/tracking-events/:event_id', async (req) => {
    const store = req.store;
    const params = req.params as Record<string, string>;
    const { orderId, fo } = load(store, params);
    const index = fo!.tracking_events.findIndex((e) => e.id === params.event_id);
    if (index < 0) throw notFound('Tracking event', params.event_id);
    const statusBefore = fo!.status;
    state.mutate('fulfillment_order.tracking_event.delete', (tx) => {
      fo!.tracking_events.splice(index, 1);
      fo!.updated_at = tx.now();
      refreshStatus(fo!, orderCancelled(store, orderId));
      tx.put(fulfillmentOrdersOf(store), fo!);
    });
    ctx.emit('fulfillment_order/tracking_event_deleted', store.id, fo!.id);
    emitStatusChange(store.id, statusBefore, fo!);
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
