import { NotFoundError } from '../../client/errors.js';
import { UsageError } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import {
  cancelOrder,
  closeOrReopenOrder,
  createOrder,
  type CustomerDetails,
  getOrder,
  listOrdersPage,
  type Order,
  type OrderFilters,
  type OrderUpdate,
  updateOrder,
} from '../../api/orders.js';
import type { CancelReason, OrderStatus, PaymentStatus, ShippingStatus } from '../../platform/orders.js';
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
} from '../../api/fulfillment-orders.js';
import { readInvoices, type ShownInvoice } from './order-invoices.js';
import { byIdOrNumber, type FoundOrder } from './order-lookup.js';
import { allOrders } from './all-orders.js';
import type { ListPage, Paging } from '../common/paging.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, ORDER_QUERY_LIMIT } from '../../platform/pagination.js';
import { readMoney } from '../common/money.js';
import { fulfillmentOrderIdOf } from './fulfillment-orders.js';
import { type FulfillmentOrderRef, formatTimestamp, notOneOf, parseDate, parseLatitude, parseLongitude, parseOrderId } from '../common/validate.js';

export type { FoundOrder };

/** The list filters as the flags give them (the flags' `options` already checked the names). */
export interface OrderFilterFlags {
  /** open, closed, cancelled or any; `paid` is the seed's fourth status, read as a payment state. */
  status?: OrderStatus | 'paid' | 'any';
  paymentStatus?: PaymentStatus | 'any';
  shippingStatus?: ShippingStatus | 'any';
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  /** The API's `q`: an order number, or text in the customer's name or email. */
  search?: string;
  totalMin?: string;
  totalMax?: string;
  /** Customer ids, each flag one id or several comma-separated. */
  customers?: string[];
  channels?: string[];
  paymentMethods?: string[];
  paymentProvider?: string;
  sinceId?: string;
}

/** `--created-after`/`--created-before` (and the updated pair) checked and in order; both ends inclusive. */
function timeRange(after: string | undefined, before: string | undefined, names: [string, string]): [string | undefined, string | undefined] {
  const min = after === undefined ? undefined : parseDate(names[0], after);
  const max = before === undefined ? undefined : parseDate(names[1], before);
  if (min && max && Date.parse(min) > Date.parse(max)) {
    throw new UsageError(`${names[0]} (${min}) is later than ${names[1]} (${max}); no order can match.`);
  }
  return [min, max];
}

function amount(name: string, value: string): string {
  const read = readMoney(value.trim());
  if (typeof read !== 'string') throw new UsageError(`${name} ${read.error}.`);
  return read;
}

/** Repeated or comma-separated flag values as the API's comma-separated list; each checked by `check`. */
function list(name: string, values: string[] | undefined, check: (v: string) => boolean, what: string): string | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const items = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  const bad = items.find((v) => !check(v));
  if (bad !== undefined || items.length === 0) throw new UsageError(`${name} "${bad ?? values.join(',')}" is not ${what}.`);
  return [...new Set(items)].join(',');
}

const WORD = (v: string) => /^[a-z0-9][a-z0-9_.-]{0,63}$/i.test(v);

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
  const [createdMin, createdMax] = timeRange(flags.createdAfter, flags.createdBefore, ['--created-after', '--created-before']);
  if (createdMin) filters.created_at_min = createdMin;
  if (createdMax) filters.created_at_max = createdMax;
  const [updatedMin, updatedMax] = timeRange(flags.updatedAfter, flags.updatedBefore, ['--updated-after', '--updated-before']);
  if (updatedMin) filters.updated_at_min = updatedMin;
  if (updatedMax) filters.updated_at_max = updatedMax;
  if (flags.totalMin !== undefined) filters.total_min = amount('--total-min', flags.totalMin);
  if (flags.totalMax !== undefined) filters.total_max = amount('--total-max', flags.totalMax);
  if (filters.total_min && filters.total_max && Number(filters.total_min) > Number(filters.total_max)) {
    throw new UsageError(`--total-min (${filters.total_min}) is more than --total-max (${filters.total_max}); no order can match.`);
  }
  const customers = list('--customer', flags.customers, (v) => /^[1-9]\d{0,15}$/.test(v), 'a customer id (a whole number)');
  if (customers) filters.customer_ids = customers;
  const channels = list('--channel', flags.channels, WORD, 'a sales channel such as store, api or pos');
  if (channels) filters.channels = channels;
  const methods = list('--payment-method', flags.paymentMethods, WORD, 'a payment method such as credit_card or bank_transfer');
  if (methods) filters.payment_methods = methods;
  if (flags.paymentProvider !== undefined) {
    const provider = flags.paymentProvider.trim();
    if (!WORD(provider)) throw new UsageError(`--payment-provider "${flags.paymentProvider}" is not a payment provider such as mercadopago.`);
    filters.payment_provider = provider;
  }
  if (flags.sinceId !== undefined) filters.since_id = parseOrderId(flags.sinceId, '--since-id');
  if (flags.search !== undefined) {
    const q = flags.search.trim().replace(/^#(?=\d+$)/, '');
    if (q === '') throw new UsageError('--search is empty; give an order number, or text of the customer\'s name or email.');
    filters.q = q;
  }
  return { filters, notes };
}

/**
 * The orders of a listing, newest first, as the pages arrive (`orders list`): `--page` is one request; `--limit`
 * and `--all` read through `allOrders`, past the store's 10,000-result cap, each order once.
 */
export async function* orderPages(client: StoreClient, filters: OrderFilters, paging: Paging): AsyncGenerator<ListPage<Order>> {
  if (paging.page !== undefined) {
    const perPage = paging.perPage ?? DEFAULT_PER_PAGE;
    if ((paging.page - 1) * perPage >= ORDER_QUERY_LIMIT) {
      throw new UsageError(
        `--page ${paging.page} starts past the ${ORDER_QUERY_LIMIT.toLocaleString('en-US')}th order, and the store serves only the first ${ORDER_QUERY_LIMIT.toLocaleString('en-US')} results of a query; use --all, or narrow the query (e.g. --created-before).`,
      );
    }
    const { orders, total } = await listOrdersPage(client, filters, paging.page, perPage);
    yield { items: orders, total };
    return;
  }
  let left = paging.all ? Number.POSITIVE_INFINITY : (paging.limit ?? DEFAULT_PER_PAGE);
  for await (const { orders, total } of allOrders(client, filters, { perPage: Math.min(left, MAX_PER_PAGE) })) {
    const items = orders.slice(0, left);
    left -= items.length;
    yield { items, total };
    if (left <= 0) return;
  }
}

export interface OrderDetails {
  order: Order;
  fulfillment_orders: FulfillmentOrder[];
  invoices: ShownInvoice[];
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
  return byIdOrNumber(client, idOrNumber, 'showing it', (id) => orderDetails(client, id));
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
  return byIdOrNumber(client, idOrNumber, 'updating it', (id) => updateOrder(client, id, update));
}

/**
 * The order about to be cancelled (by id or, after a 404, by number, said in the notice, before the
 * confirmation); refuses one that already is (the store would answer 422).
 */
export async function orderToCancel(client: StoreClient, idOrNumber: number): Promise<FoundOrder<Order>> {
  const found = await byIdOrNumber(client, idOrNumber, 'cancelling it', (id) => getOrder(client, id));
  const order = found.value;
  if (order.status === 'cancelled') {
    const when = order.cancelled_at ? ` on ${order.cancelled_at}` : '';
    throw new UsageError(`Order ${order.id} (#${order.number ?? '?'}) is already cancelled${when}.`);
  }
  return found;
}

/**
 * The order about to be closed or reopened (by id or, after a 404, by number, said in the notice, before the
 * confirmation); refuses what the store would answer 422 for: closing a closed or a cancelled order (reopen a
 * cancelled one first), reopening an open one.
 */
export async function orderToCloseOrReopen(client: StoreClient, idOrNumber: number, action: 'close' | 'open'): Promise<FoundOrder<Order>> {
  const found = await byIdOrNumber(client, idOrNumber, action === 'close' ? 'closing it' : 'reopening it', (id) => getOrder(client, id));
  const order = found.value;
  const name = `Order ${order.id} (#${order.number ?? '?'})`;
  if (action === 'close' && order.status === 'closed') throw new UsageError(`${name} is already closed${order.closed_at ? ` since ${order.closed_at}` : ''}.`);
  if (action === 'close' && order.status === 'cancelled') {
    throw new UsageError(`${name} is cancelled; a cancelled order is not closed (\`store orders reopen ${order.id}\` first, if it should be).`);
  }
  if (action === 'open' && order.status === 'open') throw new UsageError(`${name} is already open.`);
  return found;
}

export async function closeOrReopenOrderById(client: StoreClient, orderId: number, action: 'close' | 'open'): Promise<Order> {
  return closeOrReopenOrder(client, orderId, action);
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
      throw notOneOf('--status', fields.status, TRACKING_STATUSES);
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

export async function addTrackingEvent(
  client: StoreClient,
  idOrNumber: number,
  ref: FulfillmentOrderRef,
  fields: TrackingFields,
  now: Date,
): Promise<FoundOrder<TrackingEvent>> {
  const input = trackingInput(fields, { now });
  if (!input.status) throw new UsageError('--status is required for a new tracking event.');
  // The fulfillment order is looked up before the POST, so a 404 means nothing was created.
  return byIdOrNumber(client, idOrNumber, 'adding the event to its fulfillment order', async (orderId) => {
    const foId = await fulfillmentOrderIdOf(client, orderId, ref);
    return createTrackingEvent(client, orderId, foId, input);
  });
}

/**
 * Changes the given fields of an event and keeps the others: the PUT carries the whole event, so a
 * store that replaces the record on PUT does not lose what was not given.
 */
export async function changeTrackingEvent(
  client: StoreClient,
  idOrNumber: number,
  ref: FulfillmentOrderRef,
  eventId: string,
  fields: TrackingFields,
): Promise<FoundOrder<TrackingEvent>> {
  const changes = trackingInput(fields);
  if (Object.keys(changes).length === 0) {
    throw new UsageError('Nothing to update: give at least one of --status, --description, --address, --lat/--lon, --happened-at, --estimated-delivery-at.');
  }
  return byIdOrNumber(client, idOrNumber, 'updating the event of its fulfillment order', async (orderId) => {
    const foId = await fulfillmentOrderIdOf(client, orderId, ref);
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
  });
}

/**
 * A tracking event as a delete prompt names it: `tracking event "dispatched" of 2026-11-20T… (id 01H…) of
 * fulfillment order 01J… (order 123)`; the order and the fulfillment order are found as the delete finds them.
 */
export async function describeTrackingEvent(client: StoreClient, idOrNumber: number, ref: FulfillmentOrderRef, eventId: string): Promise<string> {
  const found = await byIdOrNumber(client, idOrNumber, 'deleting the event of its fulfillment order', async (orderId) => {
    const foId = await fulfillmentOrderIdOf(client, orderId, ref);
    return { foId, fo: await getFulfillmentOrder(client, orderId, foId) };
  });
  const { foId, fo } = found.value;
  const event = (fo.tracking_events ?? []).find((e) => e.id === eventId);
  const text = [event?.status, event?.description].filter(Boolean).join(': ');
  const named = event ? `tracking event "${text}"${event.happened_at ? ` of ${event.happened_at}` : ''} (id ${eventId})` : `tracking event ${eventId}`;
  return `${named} of fulfillment order ${foId} (order ${found.orderId})`;
}

/** Deletes an event; the order and the fulfillment order are found first (by id or number), then the DELETE. */
export async function removeTrackingEvent(client: StoreClient, idOrNumber: number, ref: FulfillmentOrderRef, eventId: string): Promise<FoundOrder<string>> {
  return byIdOrNumber(client, idOrNumber, 'deleting the event of its fulfillment order', async (orderId) => {
    const foId = await fulfillmentOrderIdOf(client, orderId, ref);
    await deleteTrackingEvent(client, orderId, foId, eventId);
    return foId;
  });
}

function findEvent(fo: FulfillmentOrder, orderId: number, eventId: string): TrackingEvent {
  const event = fo.tracking_events?.find((e) => e.id === eventId);
  if (!event) {
    throw new NotFoundError(`Tracking event ${eventId} not found on fulfillment order ${fo.id}; \`store fulfillment-orders get ${orderId} ${fo.id}\` lists its events.`);
  }
  return event;
}
