import { STATUS_CODES } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError, intParam, invalid, isoTime, notFound, paginate, parseBody, parseTime, type FieldErrors } from '../http.js';
import type { SandboxContext } from '../context.js';
import type { StoreData } from '../state.js';
import {
  addTrackingEvent,
  byHappenedAt,
  deleteTrackingEvent,
  fulfillmentOrderOf,
  fulfillmentOrdersOfOrder,
  hasIdenticalEvent,
  moveTo,
  saveFulfillmentOrder,
  setTrackingInfo,
  updateTrackingEvent,
  type FulfillmentOrderRecord,
  type TrackingEventFields,
  type TrackingEventRecord,
} from '../store/fulfillment-orders.js';
import { ordersOf, refreshShipping, shippingTypeOf, upgradeOrder, type OrderRecord } from '../store/orders.js';
import { isTrackingStatus, TRACKING_STATUSES } from '../../platform/tracking-statuses.js';
import {
  FULFILLMENT_STATUSES,
  IDENTICAL_EVENT_MESSAGE,
  IDENTICAL_EVENT_WINDOW_SECONDS,
  isFulfillmentStatus,
  moveRefusal,
  OLDER_FULFILLMENT_STATUSES,
  TRACKING_EVENT_LIMIT,
  TRACKING_LIMIT_MESSAGE,
  fulfillmentStage,
  trackingRefusal,
  type FulfillmentStatus,
} from '../../platform/fulfillment.js';

/**
 * The fulfillment order routes (records and operations: store/fulfillment-orders.ts) and the documented record
 * (docs/platform.md §5, §10). A shipment moves only by `PATCH …/fulfillment-orders/{id}` and by a `delivered`
 * tracking event, along the moves of platform/fulfillment.ts; a refused move, or a tracking event the shipment
 * cannot take yet, is the platform's own 400 `{description, message}`, not the §1 envelope.
 */

/**
 * The 400 of the 2025-03 resources, not the §1 envelope (docs/platform.md §10): a refusal `{description, message}`,
 * a validation `{description, messages: {"field.path": ["…"]}}`.
 */
function badRequest(message: string): HttpError {
  return new HttpError(400, message, undefined, undefined, undefined, { description: STATUS_CODES[400], message });
}

function badRequestFields(messages: FieldErrors): HttpError {
  const description = Object.entries(messages).map(([field, problems]) => `${field}: ${problems.join(', ')}`).join('; ');
  return new HttpError(400, description, undefined, undefined, undefined, { description: STATUS_CODES[400], messages });
}

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

/** The documented fulfillment order record (docs/platform.md §5, §10). */
export function presentFulfillmentOrder(store: StoreData, fo: FulfillmentOrderRecord) {
  const order = store.orders.get(fo.order_id) as OrderRecord | undefined;
  const currency = order?.currency ?? store.record.currency;
  const location = store.locations.get(fo.location_id);
  const money = (value: number) => ({ value: value.toFixed(2), currency });
  let totalPrice = 0;
  let totalWeight = 0;
  const lineItems = fo.products.map((p, i) => {
    const line = order?.products?.find((l) => l.variant_id === p.variant_id);
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
  const shipping = order?.shipping;
  const carrier = shipping?.carrier ?? (shipping as { method?: string } | undefined)?.method ?? 'standard';
  const option = shipping?.option ?? carrier;
  const consumerCost = shipping?.cost_customer ?? (shipping as { cost?: string } | undefined)?.cost ?? '0.00';
  const merchantCost = shipping?.cost_owner ?? consumerCost;
  const customer = order?.customer;
  const info = fo.tracking_info;
  return {
    id: fo.id,
    // The order's number and the shipment's place among the order's shipments: "104-1".
    number: `${order?.number ?? fo.order_id}-${fulfillmentOrdersOfOrder(store, fo.order_id).findIndex((f) => f.id === fo.id) + 1}`,
    status: fo.status,
    total_quantity: fo.products.reduce((n, p) => n + p.quantity, 0),
    total_weight: totalWeight.toFixed(3),
    total_price: money(totalPrice),
    assigned_location: {
      location_id: fo.location_id,
      name: location?.name ?? null,
      address: location?.address ?? null,
    },
    line_items: lineItems,
    recipient: fo.recipient ?? { name: customer?.name ?? null, phone: customer?.phone ?? null, email: customer?.email ?? null, identifier: null },
    shipping: {
      type: order ? shippingTypeOf(order) : 'ship',
      carrier: { name: carrier },
      option: { name: option },
      merchant_cost: { value: merchantCost, currency },
      consumer_cost: { value: consumerCost, currency },
    },
    destination: fo.destination ?? order?.shipping_address ?? { name: customer?.name ?? null, phone: customer?.phone ?? null, country: store.record.country },
    status_history: (fo.status_history ?? []).map((h) => ({
      from_status: h.from_status,
      to_status: h.to_status,
      happened_at: isoTime(h.happened_at),
      created_at: isoTime(h.created_at),
    })),
    tracking_info: info ? { code: info.code, url: info.url, notify_customer: info.notify_customer } : { code: null, url: null },
    tracking_info_history: (fo.tracking_info_history ?? []).map((h) => ({
      from_tracking_info: h.from_tracking_info ?? { code: null, url: null },
      to_tracking_info: h.to_tracking_info,
      happened_at: isoTime(h.happened_at),
      created_at: isoTime(h.created_at),
      app_id: h.app_id,
      user_id: null,
    })),
    tracking_events: byHappenedAt(fo.tracking_events).map(presentTrackingEvent),
    fulfilled_at: fo.fulfilled_at == null ? null : isoTime(fo.fulfilled_at),
    created_at: isoTime(fo.created_at),
    updated_at: isoTime(fo.updated_at),
  };
}

/** An order's shipments as `aggregates=fulfillment_orders` puts them inside the order (docs/platform.md §10). */
export function presentFulfillmentOrdersOf(store: StoreData, orderId: number) {
  return fulfillmentOrdersOfOrder(store, orderId).map((fo) => presentFulfillmentOrder(store, fo));
}

const timestamp = (field: string) =>
  z.string({ error: `${field} must be an ISO 8601 timestamp` }).refine((t) => parseTime(t, true) !== undefined, {
    error: 'must be an ISO 8601 timestamp with offset, e.g. 2026-11-21T14:05:00+00:00',
  });

const TrackingEventBody = z.object({
  status: z.string({ error: 'must be a string' }).refine(isTrackingStatus, {
    error: `must be one of ${TRACKING_STATUSES.join(', ')}, or custom_ and a name (custom_at_customs)`,
  }),
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

/** What a PATCH of a fulfillment order may change (docs/platform.md §10). */
interface FulfillmentOrderChange {
  status?: FulfillmentStatus;
  tracking_info?: { code: string | null; url: string | null; notify_customer: boolean };
  destination?: Record<string, unknown>;
  recipient?: Record<string, unknown>;
}

const URL_TEXT = /^https?:\/\/[^\s]+$/i;

/** Reads a PATCH body; a problem is the validation 400 `{description, messages}` naming every field at fault. */
function readChange(body: unknown): FulfillmentOrderChange {
  if (!isObject(body)) throw badRequestFields({ body: ['must be a JSON object'] });
  const messages: FieldErrors = {};
  const add = (field: string, problem: string) => (messages[field] ??= []).push(problem);
  const change: FulfillmentOrderChange = {};
  if (body.status !== undefined) {
    const status = typeof body.status === 'string' ? body.status : '';
    if (isFulfillmentStatus(status)) change.status = status;
    else if ((OLDER_FULFILLMENT_STATUSES as readonly string[]).includes(status)) add('status', `${status} is no longer set; send one of ${FULFILLMENT_STATUSES.join(', ')}`);
    else add('status', `must be one of ${FULFILLMENT_STATUSES.join(', ')}`);
  }
  if (body.tracking_info !== undefined) {
    const info = body.tracking_info;
    if (!isObject(info)) add('tracking_info', 'must be an object with code, url and notify_customer');
    else {
      const text = (field: 'code' | 'url', max: number): string | null => {
        const value = info[field];
        if (value === undefined || value === null) return null;
        if (typeof value !== 'string' || value.length > max) add(`tracking_info.${field}`, `must be a string of at most ${max} characters`);
        else if (field === 'url' && !URL_TEXT.test(value)) add('tracking_info.url', 'must be an http(s) URL');
        return typeof value === 'string' ? value : null;
      };
      const code = text('code', 100);
      const url = text('url', 2000);
      const notify = info.notify_customer ?? false;
      if (typeof notify !== 'boolean') add('tracking_info.notify_customer', 'must be true or false');
      change.tracking_info = { code, url, notify_customer: notify === true };
    }
  }
  for (const field of ['destination', 'recipient'] as const) {
    if (body[field] === undefined) continue;
    if (isObject(body[field])) change[field] = body[field] as Record<string, unknown>;
    else add(field, 'must be an object');
  }
  for (const field of ['shipping', 'assigned_location'] as const) {
    if (body[field] !== undefined) add(field, 'is not changed by the sandbox (docs/sandbox.md)');
  }
  if (Object.keys(messages).length === 0 && Object.keys(change).length === 0) {
    add('status', 'send status, tracking_info, destination or recipient');
  }
  if (Object.keys(messages).length > 0) throw badRequestFields(messages);
  return change;
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  const loadOrder = (store: StoreData, params: Record<string, string>): OrderRecord => {
    const orderId = intParam(params.order_id, 'Order');
    const order = ordersOf(store).get(orderId);
    if (!order) throw notFound('Order', orderId);
    return upgradeOrder(order);
  };

  const load = (store: StoreData, params: Record<string, string>) => {
    const order = loadOrder(store, params);
    const fo = fulfillmentOrderOf(store, order.id, params.fulfillment_order_id ?? '');
    if (!fo) throw notFound('Fulfillment order', params.fulfillment_order_id);
    return { order, fo };
  };

  /** The body of every fulfillment_order/* notification (docs/platform.md §10): no `id`, the ids by name. */
  const notify = (event: string, storeId: number, order: OrderRecord, fo: FulfillmentOrderRecord, extra: Record<string, unknown> = {}) =>
    ctx.emit(event, storeId, undefined, { order_id: order.id, fulfillment_id: fo.id, status: fo.status, ...extra });

  /** `fulfillment_order/status_updated` when a request moved the shipment. */
  const notifyMove = (storeId: number, before: string, order: OrderRecord, fo: FulfillmentOrderRecord) => {
    if (before !== fo.status) notify('fulfillment_order/status_updated', storeId, order, fo);
  };

  api.get('/orders/:order_id/fulfillment-orders', async (req, reply) => {
    const order = loadOrder(req.store, req.params as Record<string, string>);
    return paginate(req, reply, fulfillmentOrdersOfOrder(req.store, order.id), (fo) => presentFulfillmentOrder(req.store, fo));
  });

  api.get('/orders/:order_id/fulfillment-orders/:fulfillment_order_id', async (req) => {
    const { fo } = load(req.store, req.params as Record<string, string>);
    return presentFulfillmentOrder(req.store, fo);
  });

  api.patch('/orders/:order_id/fulfillment-orders/:fulfillment_order_id', async (req) => {
    const store = req.store;
    const { order, fo } = load(store, req.params as Record<string, string>);
    const change = readChange(req.body);
    const stage = fulfillmentStage(fo.status);
    if (change.status) {
      const refusal = moveRefusal(fo.status, change.status, shippingTypeOf(order));
      if (refusal?.kind === 'forbidden') {
        throw badRequest(`Fulfillment order ${fo.id} cannot change status from ${fo.status} to ${change.status}: ${refusal.reason}`);
      }
    }
    // The documented words (2025-03 Fulfillment Order, PATCH notes).
    if (change.destination && (stage === 'dispatched' || stage === 'delivered')) throw badRequest('Fulfillment Order Already sent Cannot be Update Destination Information');
    if (change.recipient && (stage === 'dispatched' || stage === 'delivered')) throw badRequest('Fulfillment Order Already sent Cannot be Update Recipient Information');
    const before = fo.status;
    state.mutate('fulfillment_order.update', (tx) => {
      const now = tx.now();
      if (change.status && change.status !== fo.status) moveTo(fo, change.status, now);
      if (change.tracking_info) setTrackingInfo(fo, change.tracking_info, now, req.auth.appId);
      if (change.destination) fo.destination = change.destination;
      if (change.recipient) fo.recipient = change.recipient;
      saveFulfillmentOrder(tx, store, fo, now);
      refreshShipping(tx, store, order, now);
    });
    notifyMove(store.id, before, order, fo);
    return presentFulfillmentOrder(store, fo);
  });

  /** Refuses a tracking-event request the shipment cannot take (docs/platform.md §10). */
  const checkTracking = (fo: FulfillmentOrderRecord, request: 'create' | 'change') => {
    const refusal = trackingRefusal(fo.status, request);
    if (refusal) throw badRequest(`Fulfillment order ${fo.id}: ${refusal}`);
  };
  const windowMs = IDENTICAL_EVENT_WINDOW_SECONDS * 1000;

  api.post('/orders/:order_id/fulfillment-orders/:fulfillment_order_id/tracking-events', async (req, reply) => {
    const store = req.store;
    const { order, fo } = load(store, req.params as Record<string, string>);
    const fields = toRecordFields(parseBody(TrackingEventBody, req.body));
    checkTracking(fo, 'create');
    if (fo.tracking_events.length >= TRACKING_EVENT_LIMIT) throw badRequest(TRACKING_LIMIT_MESSAGE);
    if (hasIdenticalEvent(fo, fields, windowMs)) throw badRequest(IDENTICAL_EVENT_MESSAGE);
    const before = fo.status;
    const event = state.mutate('fulfillment_order.tracking_event.create', (tx) => {
      const created = addTrackingEvent(tx, store, fo, fields);
      if (fo.status !== before) refreshShipping(tx, store, order);
      return created;
    });
    notify('fulfillment_order/tracking_event_created', store.id, order, fo, { tracking_event_id: event.id });
    notifyMove(store.id, before, order, fo);
    return reply.code(201).send(presentTrackingEvent(event));
  });

  api.put('/orders/:order_id/fulfillment-orders/:fulfillment_order_id/tracking-events/:event_id', async (req) => {
    const store = req.store;
    const params = req.params as Record<string, string>;
    const { order, fo } = load(store, params);
    const existing = fo.tracking_events.find((e) => e.id === params.event_id);
    if (!existing) throw notFound('Tracking event', params.event_id);
    if (req.body !== undefined && !isObject(req.body)) throw invalid('body', 'must be a JSON object');
    // A PUT may send only the fields it changes; the result must still be a complete, valid event.
    const merged = { ...presentTrackingEvent(existing), ...(req.body as Record<string, unknown> | undefined) };
    const fields = toRecordFields(parseBody(TrackingEventBody, merged));
    checkTracking(fo, 'change');
    if (hasIdenticalEvent(fo, fields, windowMs, existing.id)) throw badRequest(IDENTICAL_EVENT_MESSAGE);
    const before = fo.status;
    const event = state.mutate('fulfillment_order.tracking_event.update', (tx) => {
      const changed = updateTrackingEvent(tx, store, fo, existing, fields);
      if (fo.status !== before) refreshShipping(tx, store, order);
      return changed;
    });
    notify('fulfillment_order/tracking_event_updated', store.id, order, fo, { tracking_event_id: event.id });
    notifyMove(store.id, before, order, fo);
    return presentTrackingEvent(event);
  });

  api.delete('/orders/:order_id/fulfillment-orders/:fulfillment_order_id/tracking-events/:event_id', async (req) => {
    const store = req.store;
    const params = req.params as Record<string, string>;
    const { order, fo } = load(store, params);
    if (!fo.tracking_events.some((e) => e.id === params.event_id)) throw notFound('Tracking event', params.event_id);
    checkTracking(fo, 'change');
    state.mutate('fulfillment_order.tracking_event.delete', (tx) => deleteTrackingEvent(tx, store, fo, params.event_id!));
    notify('fulfillment_order/tracking_event_deleted', store.id, order, fo, { tracking_event_id: params.event_id });
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
