import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { intParam, invalid, isoTime, notFound, paginate, parseBody, parseTime } from '../http.js';
import type { SandboxContext } from '../context.js';
import type { StoreData } from '../state.js';
import {
  addTrackingEvent,
  deleteTrackingEvent,
  documentedStatus,
  fulfillmentOrdersOf,
  fulfillmentOrdersOfOrder,
  updateTrackingEvent,
  type FulfillmentOrderRecord,
  type TrackingEventFields,
  type TrackingEventRecord,
} from '../store/fulfillment-orders.js';
import { TRACKING_STATUSES } from '../../platform/tracking-statuses.js';

/** The fulfillment order routes (records and operations: store/fulfillment-orders.ts) and the documented record. */

function presentTrackingEvent(event: TrackingEventRecord) {
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

/**
 * What the presentation reads of the order; kept loose so that the order's storage can change without this
 * module following it (a missing field only leaves a presented field blank).
 */
type OrderView = {
  number?: number | string;
  currency?: string;
  customer?: { name?: string; email?: string; phone?: string };
  products?: { product_id?: number; variant_id?: number; name?: string; sku?: string | null; price?: string }[];
  /** The documented order's shipping (docs/platform.md §4), or the earlier `{method, cost}`. */
  shipping?: { carrier?: string; option?: string; cost_customer?: string; cost_owner?: string; method?: string; cost?: string };
  shipping_address?: Record<string, unknown> | null;
  shipping_tracking_number?: string | null;
  shipping_tracking_url?: string | null;
};

const PICKUP_METHOD = /retiro|pickup|pick-up/i;

/** The documented fulfillment order record (docs/platform.md §5). */
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
    const { fo } = load(store, req.params as Record<string, string>);
    const fields = toRecordFields(parseBody(TrackingEventBody, req.body));
    const statusBefore = fo!.status;
    const event = state.mutate('fulfillment_order.tracking_event.create', (tx) => addTrackingEvent(tx, store, fo!, fields));
    ctx.emit('fulfillment_order/tracking_event_created', store.id, fo!.id);
    emitStatusChange(store.id, statusBefore, fo!);
    return reply.code(201).send(presentTrackingEvent(event));
  });

  api.put('/orders/:order_id/fulfillment-orders/:fulfillment_order_id/tracking-events/:event_id', async (req) => {
    const store = req.store;
    const params = req.params as Record<string, string>;
    const { fo } = load(store, params);
    const existing = fo!.tracking_events.find((e) => e.id === params.event_id);
    if (!existing) throw notFound('Tracking event', params.event_id);
    if (req.body !== undefined && !isObject(req.body)) throw invalid('body', 'must be a JSON object');
    // A PUT may send only the fields it changes; the result must still be a complete, valid event.
    const merged = { ...presentTrackingEvent(existing), ...(req.body as Record<string, unknown> | undefined) };
    const fields = toRecordFields(parseBody(TrackingEventBody, merged));
    const statusBefore = fo!.status;
    const event = state.mutate('fulfillment_order.tracking_event.update', (tx) => updateTrackingEvent(tx, store, fo!, existing, fields));
    ctx.emit('fulfillment_order/tracking_event_updated', store.id, fo!.id);
    emitStatusChange(store.id, statusBefore, fo!);
    return presentTrackingEvent(event);
  });

  api.delete('/orders/:order_id/fulfillment-orders/:fulfillment_order_id/tracking-events/:event_id', async (req) => {
    const store = req.store;
    const params = req.params as Record<string, string>;
    const { fo } = load(store, params);
    if (!fo!.tracking_events.some((e) => e.id === params.event_id)) throw notFound('Tracking event', params.event_id);
    const statusBefore = fo!.status;
    state.mutate('fulfillment_order.tracking_event.delete', (tx) => deleteTrackingEvent(tx, store, fo!, params.event_id!));
    ctx.emit('fulfillment_order/tracking_event_deleted', store.id, fo!.id);
    emitStatusChange(store.id, statusBefore, fo!);
    return {};
  });
}

function toRecordFields(input: TrackingEventInput): TrackingEventFields {
  return {
    status: input.status,
    description: input.description ?? '',
    address: input.address ?? '',
    geolocation: input.geolocation ? { latitude: input.geolocation.latitude, longitude: input.geolocation.longitude } : null,
    happened_at: parseTime(input.happened_at, true)!,
    estimated_delivery_at: input.estimated_delivery_at ? parseTime(input.estimated_delivery_at, true)! : null,
  };
}
