import { NotFoundError, UsageError } from '../client/errors.js';
import type { StoreClient } from '../client/index.js';
import { MAX_PER_PAGE } from '../client/pagination.js';
import {
  type CancelReason,
  cancelOrder,
  getOrder,
  listOrdersPage,
  type Order,
  type OrderFilters,
  type OrderPage,
  type OrderStatus,
  type OrderUpdate,
  paginateOrders,
  updateOrder,
} from '../api/orders.js';
import {
  createTrackingEvent,
  deleteTrackingEvent,
  type FulfillmentOrder,
  getFulfillmentOrder,
  listFulfillmentOrders,
  TRACKING_STATUSES,
  type TrackingEvent,
  type TrackingEventInput,
  type TrackingStatus,
  updateTrackingEvent,
} from '../api/fulfillment-orders.js';
import { readInvoices, type ShownInvoice } from './invoices.js';
import { formatTimestamp, parseDate, parseLatitude, parseLongitude } from './validate.js';


export interface OrderListOptions {
  filters: OrderFilters;
  /** At most this many orders, newest first (several pages when above one page). */
  limit?: number;
  /** One given page instead (with `perPage`). */
  page?: number;
  perPage?: number;
  /** Every order matching the filters. */
  all?: boolean;
}

/** The list filters from the flags, checked before anything is sent. */
export function orderFilters(flags: { status?: OrderStatus; createdAfter?: string; createdBefore?: string }): OrderFilters {
  const filters: OrderFilters = {};
  if (flags.status) filters.status = flags.status;
  if (flags.createdAfter !== undefined) filters.created_at_min = parseDate('--created-after', flags.createdAfter);
  if (flags.createdBefore !== undefined) filters.created_at_max = parseDate('--created-before', flags.createdBefore);
  if (filters.created_at_min && filters.created_at_max && Date.parse(filters.created_at_min) > Date.parse(filters.created_at_max)) {
    throw new UsageError(`--created-after (${filters.created_at_min}) is later than --created-before (${filters.created_at_max}); no order can match.`);
  }
  return filters;
}

/**
 * The orders of a listing as pages, as they arrive, so `--all` can print a store of any size without
 * holding it. `limit` cuts the last page short; an explicit `page` is one request.
 */
export async function* orderPages(client: StoreClient, options: OrderListOptions): AsyncGenerator<OrderPage> {
  if (options.all) {
    // Newest first: an order placed while we page pushes the others down one place, so the next page
    // starts with one already listed. Skipping seen ids keeps each order once.
    const seen = new Set<number>();
    for await (const page of paginateOrders(client, options.filters)) {
      const orders = page.orders.filter((o) => !seen.has(o.id));
      for (const o of orders) seen.add(o.id);
      yield { ...page, orders };
    }
    return;
  }
  if (options.page !== undefined) {
    yield await listOrdersPage(client, options.filters, options.page, options.perPage ?? 30);
    return;
  }
  const limit = options.limit ?? 30;
  const perPage = options.perPage ?? Math.min(limit, MAX_PER_PAGE);
  let left = limit;
  const seen = new Set<number>();
  for (let page = 1; left > 0; page++) {
    const result = await listOrdersPage(client, options.filters, page, perPage);
    const orders = result.orders.filter((o) => !seen.has(o.id)).slice(0, left);
    for (const o of orders) seen.add(o.id);
    left -= orders.length;
    yield { ...result, orders };
    const fetched = (page - 1) * perPage + result.orders.length;
    if (result.orders.length < perPage || (result.total !== undefined && fetched >= result.total)) return;
  }
}

export interface OrderDetails {
  order: Order;
  fulfillment_orders: FulfillmentOrder[];
  invoices: ShownInvoice[];
}

/** The order with its fulfillment orders and attached invoices, fetched side by side. */
export async function orderDetails(client: StoreClient, orderId: number): Promise<OrderDetails> {
  const [order, fulfillmentOrders, invoices] = await Promise.all([
    getOrder(client, orderId),
    listFulfillmentOrders(client, orderId),
    readInvoices(client, orderId, { checkOrder: false }).then((r) => r.invoices),
  ]);
  return { order, fulfillment_orders: fulfillmentOrders, invoices };
}

export async function updateOrderFields(client: StoreClient, orderId: number, changes: { note?: string; status?: OrderStatus }): Promise<Order> {
  if (changes.note === undefined && changes.status === undefined) {
    throw new UsageError('Nothing to update: give --note, --status or both.');
  }
  if (changes.status === 'cancelled') {
    // Cancelling through the update skips the confirmation and the restock choice; the cancel command has both.
    throw new UsageError('Use `store orders cancel ID` to cancel an order (it asks first and can return the stock).');
  }
  const update: OrderUpdate = {};
  if (changes.note !== undefined) update.owner_note = changes.note;
  if (changes.status !== undefined) update.status = changes.status;
  return updateOrder(client, orderId, update);
}

/** The order about to be cancelled; refuses one that already is (the store would answer 422). */
export async function orderToCancel(client: StoreClient, orderId: number): Promise<Order> {
  const order = await getOrder(client, orderId);
  if (order.status === 'cancelled') {
    const when = order.cancelled_at ? ` on ${order.cancelled_at}` : '';
    throw new UsageError(`Order ${orderId} (#${order.number}) is already cancelled${when}.`);
  }
  return order;
}

export async function cancelOrderById(
  client: StoreClient,
  orderId: number,
  options: { reason?: CancelReason; restock: boolean },
): Promise<Order> {
  return cancelOrder(client, orderId, { ...(options.reason ? { reason: options.reason } : {}), restock: options.restock });
}

/** "Ana Souza <ana@example.com>" or whichever part the order has. */
export function customerLabel(order: Order): string {
  const c = order.customer;
  if (!c) return '';
  if (c.name && c.email) return `${c.name} <${c.email}>`;
  return c.name ?? c.email ?? c.phone ?? '';
}

export function totalLabel(order: Order): string {
  if (order.total === null || order.total === undefined) return '';
  return order.currency ? `${order.total} ${order.currency}` : String(order.total);
}

/** Tracking flags as the commands take them (raw strings, checked here before anything is sent). */
export interface TrackingFields {
  status?: string;
  description?: string;
  address?: string;
  lat?: string;
  lon?: string;
  happenedAt?: string;
  estimatedDeliveryAt?: string;
}

/** Checks the tracking flags and builds the event body; `now` fills `happened_at` when a new event has none. */
export function trackingInput(fields: TrackingFields, opts: { now?: Date } = {}): TrackingEventInput {
  const input: TrackingEventInput = {};
  if (fields.status !== undefined) {
    if (!(TRACKING_STATUSES as readonly string[]).includes(fields.status)) {
      throw new UsageError(`--status "${fields.status}" is not a tracking status; use one of ${TRACKING_STATUSES.join(', ')}.`);
    }
    input.status = fields.status as TrackingStatus;
  }
  if (fields.description !== undefined) input.description = fields.description;
  if (fields.address !== undefined) input.address = fields.address;
  if ((fields.lat === undefined) !== (fields.lon === undefined)) {
    throw new UsageError(fields.lat === undefined ? '--lon needs --lat: give both coordinates.' : '--lat needs --lon: give both coordinates.');
  }
  if (fields.lat !== undefined && fields.lon !== undefined) {
    input.geolocation = { latitude: parseLatitude('--lat', fields.lat), longitude: parseLongitude('--lon', fields.lon) };
  }
  if (fields.happenedAt !== undefined) input.happened_at = parseDate('--happened-at', fields.happenedAt);
  else if (opts.now) input.happened_at = formatTimestamp(opts.now);
  if (fields.estimatedDeliveryAt !== undefined) {
    input.estimated_delivery_at = parseDate('--estimated-delivery-at', fields.estimatedDeliveryAt);
  }
  return input;
}

export async function addTrackingEvent(client: StoreClient, orderId: number, foId: string, fields: TrackingFields, now: Date): Promise<TrackingEvent> {
  const input = trackingInput(fields, { now });
  if (!input.status) throw new UsageError('--status is required for a new tracking event.');
  return createTrackingEvent(client, orderId, foId, input);
}

/**
 * Changes the given fields of an event and keeps the others: the PUT carries the whole event, so a
 * store that replaces the record on PUT does not lose what was not given.
 */
export async function changeTrackingEvent(
  client: StoreClient,
  orderId: number,
  foId: string,
  eventId: string,
  fields: TrackingFields,
): Promise<TrackingEvent> {
  const changes = trackingInput(fields);
  if (Object.keys(changes).length === 0) {
    throw new UsageError('Nothing to update: give at least one of --status, --description, --address, --lat/--lon, --happened-at, --estimated-delivery-at.');
  }
  const current = findEvent(await getFulfillmentOrder(client, orderId, foId), orderId, eventId);
  const geo = current.geolocation;
  const merged: TrackingEventInput = {
    ...(current.status ? { status: current.status as TrackingStatus } : {}),
    ...(current.happened_at ? { happened_at: current.happened_at } : {}),
    ...(current.description !== undefined ? { description: current.description } : {}),
    // An address the store sent as an object is left to the store (the PUT may omit it).
    ...(typeof current.address === 'string' ? { address: current.address } : {}),
    ...(geo?.latitude !== undefined && geo.longitude !== undefined ? { geolocation: { latitude: geo.latitude, longitude: geo.longitude } } : {}),
    ...(current.estimated_delivery_at !== undefined ? { estimated_delivery_at: current.estimated_delivery_at } : {}),
    ...changes,
  };
  return updateTrackingEvent(client, orderId, foId, String(current.id), merged);
}

export async function removeTrackingEvent(client: StoreClient, orderId: number, foId: string, eventId: string): Promise<void> {
  await deleteTrackingEvent(client, orderId, foId, eventId);
}

function findEvent(fo: FulfillmentOrder, orderId: number, eventId: string): TrackingEvent {
  const event = fo.tracking_events?.find((e) => e.id === eventId);
  if (!event) {
    throw new NotFoundError(`Tracking event ${eventId} not found on fulfillment order ${fo.id}; \`store fulfillment-orders get ${orderId} ${fo.id}\` lists its events.`);
  }
  return event;
}
