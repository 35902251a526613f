import { NotFoundError, UsageError } from '../client/errors.js';
import type { StoreClient } from '../client/index.js';
import {
  cancelOrder,
  createOrder,
  type CustomerDetails,
  getOrder,
  listOrdersPage,
  type Order,
  type OrderFilters,
  type OrderUpdate,
  paginateOrders,
  updateOrder,
} from '../api/orders.js';
import type { CancelReason, OrderStatus, PaymentStatus, ShippingStatus } from '../platform/orders.js';
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
import { type ListPage, listPages, type Paging } from './paging.js';
import { formatTimestamp, parseDate, parseLatitude, parseLongitude } from './validate.js';

/** The list filters as the flags give them (the flags' `options` already checked the names). */
export interface OrderFilterFlags {
  /** open, closed, cancelled or any; `paid` is the seed's fourth status, read as a payment state. */
  status?: OrderStatus | 'paid' | 'any';
  paymentStatus?: PaymentStatus | 'any';
  shippingStatus?: ShippingStatus | 'any';
  createdAfter?: string;
  createdBefore?: string;
}

/**
 * The list filters from the flags, checked before anything is sent. `notes` says what was read differently
 * from how it was written (`--status paid` is a payment state on the platform).
 */
export function orderFilters(flags: OrderFilterFlags): { filters: OrderFilters; notes: string[] } {
  const filters: OrderFilters = {};
  const notes: string[] = [];
  if (flags.status === 'paid') {
    if (flags.paymentStatus !== undefined && flags.paymentStatus !== 'paid') {
      throw new UsageError(`--status paid means --payment-status paid, which contradicts --payment-status ${flags.paymentStatus}; give one of them.`);
    }
    filters.payment_status = 'paid';
    notes.push('Orders are open, closed or cancelled; paid is their payment status, so --status paid lists --payment-status paid.');
  } else if (flags.status !== undefined) {
    filters.status = flags.status;
  }
  if (flags.paymentStatus !== undefined) filters.payment_status = flags.paymentStatus;
  if (flags.shippingStatus !== undefined) filters.shipping_status = flags.shippingStatus;
  if (flags.createdAfter !== undefined) filters.created_at_min = parseDate('--created-after', flags.createdAfter);
  if (flags.createdBefore !== undefined) filters.created_at_max = parseDate('--created-before', flags.createdBefore);
  if (filters.created_at_min && filters.created_at_max && Date.parse(filters.created_at_min) > Date.parse(filters.created_at_max)) {
    throw new UsageError(`--created-after (${filters.created_at_min}) is later than --created-before (${filters.created_at_max}); no order can match.`);
  }
  return { filters, notes };
}

/** The orders of a listing, newest first, as the pages arrive (`orders list`). */
export function orderPages(client: StoreClient, filters: OrderFilters, paging: Paging): AsyncGenerator<ListPage<Order>> {
  return listPages(
    {
      page: async (page, perPage) => {
        const { orders, total } = await listOrdersPage(client, filters, page, perPage);
        return { items: orders, total };
      },
      pages: async function* (perPage) {
        for await (const { orders, total } of paginateOrders(client, filters, perPage)) yield { items: orders, total };
      },
      id: (order) => order.id,
    },
    paging,
  );
}

export interface OrderDetails {
  order: Order;
  fulfillment_orders: FulfillmentOrder[];
  invoices: ShownInvoice[];
}

/** An order found by its id or, after the store answered 404 for that id, by the number the customer sees. */
export interface FoundOrder<T> {
  value: T;
  /** Set when ORDER_ID was not an id but an order number: the sentence that says which order was used. */
  notice?: string;
}

/**
 * The one order whose customer-facing `number` is this, found with the `q` filter (docs/platform.md §4); undefined
 * when none or several have it.
 */
async function orderWithNumber(client: StoreClient, number: number): Promise<Order | undefined> {
  const { orders } = await listOrdersPage(client, { q: String(number) }, 1, 50);
  const matches = orders.filter((o) => o.number === number);
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * Runs `action` on the order with this id; when the store has no such id, on the order whose number it is,
 * with a notice naming the order used (`verb`: "showing", "updating", …). Without such an order the store's
 * 404 stands.
 */
async function byIdOrNumber<T>(
  client: StoreClient,
  idOrNumber: number,
  verb: string,
  action: (orderId: number) => Promise<T>,
): Promise<FoundOrder<T>> {
  try {
    return { value: await action(idOrNumber) };
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const order = await orderWithNumber(client, idOrNumber).catch(() => undefined);
    if (!order) throw error;
    const value = await action(order.id);
    return { value, notice: `Order number ${idOrNumber} is order ${order.id}; ${verb} it.` };
  }
}

/** The order with its fulfillment orders and attached invoices, fetched side by side. */
async function orderDetails(client: StoreClient, orderId: number): Promise<OrderDetails> {
  const [order, fulfillmentOrders, invoices] = await Promise.all([
    getOrder(client, orderId),
    listFulfillmentOrders(client, orderId),
    readInvoices(client, orderId, { checkOrder: false }).then((r) => r.invoices),
  ]);
  return { order, fulfillment_orders: fulfillmentOrders, invoices };
}

/** `orders get ID`: the details of the order with that id or, when there is none, with that number. */
export async function orderDetailsByIdOrNumber(client: StoreClient, idOrNumber: number): Promise<FoundOrder<OrderDetails>> {
  return byIdOrNumber(client, idOrNumber, 'showing', (id) => orderDetails(client, id));
}

/** Customer flags as the commands take them (checked here before anything is sent). */
export interface CustomerFlags {
  name?: string;
  email?: string;
  phone?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The customer details to send, or undefined when no flag was given. */
export function customerDetails(flags: CustomerFlags): CustomerDetails | undefined {
  const details: CustomerDetails = {};
  if (flags.name !== undefined) {
    if (flags.name.trim() === '') throw new UsageError('--customer-name is empty; give the name the order is for.');
    details.name = flags.name.trim();
  }
  if (flags.email !== undefined) {
    const email = flags.email.trim();
    if (email !== '' && !EMAIL.test(email)) throw new UsageError(`--customer-email "${flags.email}" is not an email address.`);
    details.email = email;
  }
  if (flags.phone !== undefined) details.phone = flags.phone.trim();
  return Object.keys(details).length ? details : undefined;
}

export interface OrderChanges {
  note?: string;
  status?: OrderStatus | 'paid';
  customer?: CustomerFlags;
}

/** The update to send, checked before anything is sent. */
export function orderUpdate(changes: OrderChanges): OrderUpdate {
  const customer = changes.customer ? customerDetails(changes.customer) : undefined;
  if (changes.note === undefined && changes.status === undefined && customer === undefined) {
    throw new UsageError('Nothing to update: give --note, --status or a --customer-name/--customer-email/--customer-phone.');
  }
  if ((changes.status as string | undefined) === 'cancelled') {
    // Cancelling through the update skips the confirmation and the restock choice; the cancel command has both.
    throw new UsageError('Use `store orders cancel ID` to cancel an order (it asks first and can return the stock).');
  }
  const update: OrderUpdate = {};
  if (changes.note !== undefined) update.owner_note = changes.note;
  if (changes.status !== undefined) update.status = changes.status;
  if (customer) update.customer = customer;
  return update;
}

/** `orders update ID`: the order with that id or, when there is none, with that number (said in the notice). */
export async function updateOrderFields(client: StoreClient, idOrNumber: number, changes: OrderChanges): Promise<FoundOrder<Order>> {
  const update = orderUpdate(changes);
  return byIdOrNumber(client, idOrNumber, 'updating', (id) => updateOrder(client, id, update));
}

/**
 * The order about to be cancelled (by id or, after a 404, by number, said in the notice, before the
 * confirmation); refuses one that already is (the store would answer 422).
 */
export async function orderToCancel(client: StoreClient, idOrNumber: number): Promise<FoundOrder<Order>> {
  const found = await byIdOrNumber(client, idOrNumber, 'cancelling', (id) => getOrder(client, id));
  const order = found.value;
  if (order.status === 'cancelled') {
    const when = order.cancelled_at ? ` on ${order.cancelled_at}` : '';
    throw new UsageError(`Order ${order.id} (#${order.number ?? '?'}) is already cancelled${when}.`);
  }
  return found;
}

/** `--item VARIANT_ID=QTY` flags as the store takes them; one sentence naming the flag when one is wrong. */
export function orderItems(items: string[]): { variant_id: number; quantity: number }[] {
  if (items.length === 0) throw new UsageError('--item is required: give at least one --item VARIANT_ID=QTY, such as --item 123456=2.');
  return items.map((item) => {
    const match = /^\s*([^=\s]*)\s*=\s*(\S*)\s*$/.exec(item);
    if (!match) throw new UsageError(`--item "${item}" is not VARIANT_ID=QTY; write it like --item 123456=2.`);
    const [, variant, quantity] = match as unknown as [string, string, string];
    if (!/^[1-9]\d{0,15}$/.test(variant)) throw new UsageError(`--item "${item}": the variant id "${variant}" is not a number; write it like --item 123456=2.`);
    if (!/^[1-9]\d{0,8}$/.test(quantity)) throw new UsageError(`--item "${item}": the quantity "${quantity}" is not a whole number of at least 1.`);
    return { variant_id: Number(variant), quantity: Number(quantity) };
  });
}

/** `orders create`: checks the customer and the items, then creates the order. */
export async function createOrderFromFlags(client: StoreClient, flags: CustomerFlags & { items: string[] }): Promise<Order> {
  if (flags.name === undefined) throw new UsageError('--customer-name is required: the store needs the name the order is for.');
  const customer = customerDetails(flags)!;
  const products = orderItems(flags.items);
  return createOrder(client, { customer, products });
}

export async function cancelOrderById(
  client: StoreClient,
  orderId: number,
  options: { reason?: CancelReason; restock: boolean },
): Promise<Order> {
  return cancelOrder(client, orderId, { ...(options.reason ? { reason: options.reason } : {}), restock: options.restock });
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
function trackingInput(fields: TrackingFields, opts: { now?: Date } = {}): TrackingEventInput {
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

/** A tracking event as a delete prompt names it: `"dispatched" of 2026-11-20T… (id 01H…)`. */
export async function describeTrackingEvent(client: StoreClient, orderId: number, foId: string, eventId: string): Promise<string> {
  const fo = await getFulfillmentOrder(client, orderId, foId);
  const event = (fo.tracking_events ?? []).find((e) => e.id === eventId);
  if (!event) return `tracking event ${eventId}`;
  const text = [event.status, event.description].filter(Boolean).join(': ');
  return `tracking event "${text}"${event.happened_at ? ` of ${event.happened_at}` : ''} (id ${eventId})`;
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
