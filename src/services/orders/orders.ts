import { NotFoundError } from '../../client/errors.js';
import { UsageError } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import {
  cancelOrder,
  closeOrReopenOrder,
  createOrder,
  type CustomerDetails,
  getOrder,
  type NewOrder,
  type Order,
  type OrderAddress,
  ORDER_ADDRESS_FIELDS,
  type OrderUpdate,
  updateOrder,
} from '../../api/orders.js';
import type { CancelReason, OrderStatus } from '../../platform/orders.js';
import {
  createTrackingEvent,
  deleteTrackingEvent,
  type FulfillmentOrder,
  getFulfillmentOrder,
  listFulfillmentOrders,
  TRACKING_STATUSES,
  type TrackingEvent,
  type TrackingEventInput,
  updateTrackingEvent,
} from '../../api/fulfillment-orders.js';
import { isTrackingStatus } from '../../platform/tracking-statuses.js';
import { readInvoices, type ShownInvoice } from './order-invoices.js';
import { byIdOrNumber, type FoundOrder } from './order-lookup.js';
import { fulfillmentOrderIdOf, trackingEventRefusal } from './fulfillment-orders.js';
import { type FulfillmentOrderRef, formatTimestamp, isEmail, notOneOf, parseDate, parseLatitude, parseLongitude } from '../common/validate.js';
import { created, deleted, fieldUpdates, type Subject, recordCreate } from '../../ledger/changes.js';
import type { Recorder } from '../../ledger/recorder.js';

export type { FoundOrder };

export interface OrderDetails {
  order: Order;
  fulfillment_orders: FulfillmentOrder[];
  invoices: ShownInvoice[];
}

/**
 * The order with its fulfillment orders inside (`aggregates=fulfillment_orders`, docs/platform.md §10) and its
 * attached invoices, fetched side by side: two requests; a third, the shipments' own list, only where the store
 * leaves them out of the order.
 */
async function orderDetails(client: StoreClient, orderId: number): Promise<OrderDetails> {
  const [withShipments, invoices] = await Promise.all([
    getOrder(client, orderId, { withShipments: true }),
    readInvoices(client, orderId, { checkOrder: false }).then((r) => r.invoices),
  ]);
  const inside = withShipments.fulfillment_orders;
  // Shown once, beside the order (as before), not inside it too.
  const order = { ...withShipments };
  delete (order as Record<string, unknown>).fulfillment_orders;
  return { order, fulfillment_orders: inside ?? (await listFulfillmentOrders(client, orderId)), invoices };
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

/** The customer details to send, or undefined when no flag was given. */
export function customerDetails(flags: CustomerFlags): CustomerDetails | undefined {
  const details: CustomerDetails = {};
  if (flags.name !== undefined) {
    if (flags.name.trim() === '') throw new UsageError('--customer-name is empty; give the name the order is for.');
    details.name = flags.name.trim();
  }
  if (flags.email !== undefined) {
    const email = flags.email.trim();
    if (email !== '' && !isEmail(email)) throw new UsageError(`--customer-email "${flags.email}" is not an email address.`);
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

/** An order as the ledger names it: its id, and the number the customer sees. */
function orderSubject(order: Order): Subject {
  return { resource: 'order', id: order.id, key: order.number === undefined || order.number === null ? null : String(order.number) };
}

/**
 * `orders update ID`: the order with that id or, when there is none, with that number (said in the notice). It
 * is read first (one GET), so the run ledger keeps the values the update replaces.
 */
export async function updateOrderFields(client: StoreClient, recorder: Recorder, idOrNumber: number, changes: OrderChanges): Promise<FoundOrder<Order>> {
  const update = orderUpdate(changes);
  const found = await byIdOrNumber(client, idOrNumber, 'updating it', (id) => getOrder(client, id));
  const before = found.value;
  const write = recorder.intend(fieldUpdates(orderSubject(before), update, before));
  return { ...found, value: await updateOrder(client, before.id, update, write) };
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

/** Closes or reopens the order read before (`orderToCloseOrReopen`). */
export async function closeOrReopenFoundOrder(client: StoreClient, recorder: Recorder, order: Order, action: 'close' | 'open'): Promise<Order> {
  const write = recorder.intend([{ ...orderSubject(order), kind: 'action', field: 'status', before: order.status, after: action === 'close' ? 'closed' : 'open' }]);
  return closeOrReopenOrder(client, order.id, action, write);
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

/**
 * `--shipping-address KEY=VALUE` (repeated) as the address object `POST /orders` takes (docs/platform.md §12);
 * undefined when the flag was not given. An unknown key, or one given twice, is one sentence naming the flag.
 */
export function orderAddress(pairs: string[] | undefined, flag: string): OrderAddress | undefined {
  if (!pairs || pairs.length === 0) return undefined;
  const address: OrderAddress = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = (eq > 0 ? pair.slice(0, eq) : '').trim() as keyof OrderAddress;
    if (!(ORDER_ADDRESS_FIELDS as readonly string[]).includes(key)) {
      throw new UsageError(`${flag} "${pair}" is not KEY=VALUE with a key of ${ORDER_ADDRESS_FIELDS.join(', ')}.`);
    }
    if (address[key] !== undefined) throw new UsageError(`${flag} gives ${key} twice.`);
    address[key] = pair.slice(eq + 1).trim();
  }
  return address;
}

export interface NewOrderFlags extends CustomerFlags {
  items: string[];
  shippingAddress?: string[];
  billingAddress?: string[];
}

/** `orders create`: checks the customer, the items and the addresses, then creates the order. */
export async function createOrderFromFlags(client: StoreClient, recorder: Recorder, flags: NewOrderFlags): Promise<Order> {
  if (flags.name === undefined) throw new UsageError('--customer-name is required: the store needs the name the order is for.');
  const customer = customerDetails(flags)!;
  const products = orderItems(flags.items);
  const shipping = orderAddress(flags.shippingAddress, '--shipping-address');
  const billing = orderAddress(flags.billingAddress, '--billing-address');
  const body: NewOrder = { customer, products, ...(shipping ? { shipping_address: shipping } : {}), ...(billing ? { billing_address: billing } : {}) };
  const irreversible = 'a new order takes stock and may have notified the customer; deleting it is not offered by the API';
  return recordCreate(recorder, { ...created({ resource: 'order' }, body), irreversible }, (write) => createOrder(client, body, write));
}

/** Cancels the order read before (`orderToCancel`): an action no write takes back (the ledger says why). */
export async function cancelFoundOrder(
  client: StoreClient,
  recorder: Recorder,
  order: Order,
  options: { reason?: CancelReason; restock: boolean },
): Promise<Order> {
  const write = recorder.intend([
    {
      ...orderSubject(order),
      kind: 'action',
      field: 'status',
      before: order.status,
      after: 'cancelled',
      irreversible: `a cancelled order${options.restock ? ' returned its items to stock and' : ''} is announced to the customer and to webhooks; reopening it does not take the cancel back`,
    },
  ]);
  return cancelOrder(client, order.id, { ...(options.reason ? { reason: options.reason } : {}), restock: options.restock }, write);
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
/**
 * A `--status` that is neither documented nor `custom_NAME`: the near documented one, or what a custom status
 * looks like (docs/platform.md §10).
 */
function trackingStatusError(status: string): UsageError {
  if (/^custom/i.test(status)) {
    return new UsageError(`--status "${status}" is not a custom status; write custom_ and a lower-case name, words joined by _ (custom_at_customs).`);
  }
  const near = notOneOf('--status', status, TRACKING_STATUSES).message;
  return new UsageError(near.includes('did you mean') ? near : `--status "${status}" is not a tracking status; use one of ${TRACKING_STATUSES.join(', ')}, or custom_NAME for a carrier's own.`);
}

function trackingInput(fields: TrackingFields, opts: { now?: Date } = {}): TrackingEventInput {
  const input: TrackingEventInput = {};
  if (fields.status !== undefined) {
    const status = fields.status.trim();
    if (!isTrackingStatus(status)) throw trackingStatusError(status);
    input.status = status as TrackingEventInput['status'];
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
  recorder: Recorder,
  idOrNumber: number,
  ref: FulfillmentOrderRef,
  fields: TrackingFields,
  now: Date,
): Promise<FoundOrder<TrackingEvent>> {
  const input = trackingInput(fields, { now });
  if (!input.status) throw new UsageError('--status is required for a new tracking event.');
  // The fulfillment order is read before the POST (a 404 means nothing was created), and one that takes no
  // tracking event yet (not dispatched: docs/platform.md §10) is refused before any write.
  return byIdOrNumber(client, idOrNumber, 'adding the event to its fulfillment order', async (orderId) => {
    const foId = await fulfillmentOrderIdOf(client, orderId, ref);
    const refusal = trackingEventRefusal(String(idOrNumber), await getFulfillmentOrder(client, orderId, foId), 'create');
    if (refusal) throw new UsageError(refusal);
    return recordCreate(recorder, created({ resource: 'tracking-event', parent: orderId, key: foId }, input), (write) =>
      createTrackingEvent(client, orderId, foId, input, write),
    );
  });
}

/**
 * Changes the given fields of an event and keeps the others: the PUT carries the whole event, so a
 * store that replaces the record on PUT does not lose what was not given.
 */
export async function changeTrackingEvent(
  client: StoreClient,
  recorder: Recorder,
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
      ...(current.status ? { status: current.status as TrackingEventInput['status'] } : {}),
      ...(current.happened_at ? { happened_at: current.happened_at } : {}),
      ...(current.description !== undefined ? { description: current.description } : {}),
      // An address the store sent as an object is left to the store (the PUT may omit it).
      ...(typeof current.address === 'string' ? { address: current.address } : {}),
      ...(geo?.latitude !== undefined && geo.longitude !== undefined ? { geolocation: { latitude: geo.latitude, longitude: geo.longitude } } : {}),
      ...(current.estimated_delivery_at !== undefined ? { estimated_delivery_at: current.estimated_delivery_at } : {}),
      ...changes,
    };
    const write = recorder.intend(fieldUpdates({ resource: 'tracking-event', id: String(current.id), parent: orderId, key: foId }, changes, current));
    return updateTrackingEvent(client, orderId, foId, String(current.id), merged, write);
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

/**
 * Deletes an event; the order and the fulfillment order are found first (by id or number), and the event read
 * (one GET of the fulfillment order) so the run ledger keeps it whole, then the DELETE.
 */
export async function removeTrackingEvent(
  client: StoreClient,
  recorder: Recorder,
  idOrNumber: number,
  ref: FulfillmentOrderRef,
  eventId: string,
): Promise<FoundOrder<string>> {
  return byIdOrNumber(client, idOrNumber, 'deleting the event of its fulfillment order', async (orderId) => {
    const foId = await fulfillmentOrderIdOf(client, orderId, ref);
    // An event the fulfillment order does not list is left to the DELETE's own 404.
    const event = (await getFulfillmentOrder(client, orderId, foId)).tracking_events?.find((e) => e.id === eventId);
    await deleteTrackingEvent(client, orderId, foId, eventId, recorder.intend([deleted({ resource: 'tracking-event', id: eventId, parent: orderId, key: foId }, event)]));
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
