import { Args, Flags } from '@oclif/core';
import { CANCEL_REASONS, ORDER_STATUS_INPUTS, ORDER_STATUSES, PAYMENT_STATUSES, RECORD_SHIPPING_STATUSES } from '../platform/orders.js';
import { TRACKING_STATUSES } from '../platform/tracking-statuses.js';
import type { TrackingFields } from '../services/orders/orders.js';
import type { OrderFilterFlags } from '../services/orders/order-listing.js';
import { DATE_FORMS } from '../services/common/validate.js';

/** Arguments and flags of the order, fulfillment-order and invoice commands. */

/** The order of every command that takes one: an id, or the number the customer sees (looked up after a 404). */
export const orderLookupArg = Args.string({ description: 'Order id (or the number the customer sees).', required: true });

/** ORDER_ID FULFILLMENT_ORDER_ID: the shipment commands and the tracking commands. */
export const fulfillmentOrderArgs = {
  order_id: orderLookupArg,
  fulfillment_order_id: Args.string({
    description: 'Fulfillment order id, or its number as `store fulfillment-orders list ORDER_ID` shows it (191-1).',
    required: true,
  }),
};

/** `--fulfillment-order` of the shipping commands: some of the order's shipments instead of every one that can move. */
export const shipmentSelectionFlag = Flags.string({
  description: 'Only this shipment of the order: its id, or its number as listed (191-1, or 1); repeat for several. Without it, every shipment that can make the move.',
  multiple: true,
  multipleNonGreedy: true,
});

/** The tracking of a dispatch: `orders ship` and `fulfillment-orders update --status dispatched`. */
export const dispatchFlags = {
  tracking: Flags.string({ description: "The carrier's tracking code." }),
  'tracking-url': Flags.string({ description: 'Where the customer follows the shipment (http or https); needs --tracking.' }),
  notify: Flags.boolean({ description: 'Have the store tell the customer (the store does not, unless asked).' }),
};

/** ORDER_ID FULFILLMENT_ORDER_ID EVENT_ID: `tracking update` and `tracking delete`. */
export const trackingEventArgs = {
  ...fulfillmentOrderArgs,
  event_id: Args.string({ description: 'Tracking event id (see `store fulfillment-orders get`).', required: true }),
};

/**
 * `--status` of a tracking event: the documented statuses or a carrier's own `custom_NAME` (docs/platform.md §10),
 * so the values are listed in the description, not as oclif options (which would refuse every custom one); the
 * orders service checks the value before any request.
 */
export function trackingStatusFlag(required = false) {
  return Flags.string({
    description: `Tracking status: ${TRACKING_STATUSES.join(', ')}; or custom_NAME, a carrier's own (custom_at_customs).`,
    ...(required ? { required: true as const } : {}),
  });
}

/** The event's fields, shared by `tracking add` and `update`; values are checked by the orders service before sending. */
export const trackingFlags = {
  status: trackingStatusFlag(),
  description: Flags.string({ description: 'What happened, as the customer will read it.' }),
  address: Flags.string({ description: 'Where it happened.' }),
  lat: Flags.string({ description: 'Latitude of where it happened (-90 to 90); needs --lon.' }),
  lon: Flags.string({ description: 'Longitude of where it happened (-180 to 180); needs --lat.' }),
  'happened-at': Flags.string({ description: `When it happened: ${DATE_FORMS}; default now on add.` }),
  'estimated-delivery-at': Flags.string({ description: `Expected delivery time: ${DATE_FORMS}.` }),
};

export function trackingFieldsFrom(flags: { [K in keyof typeof trackingFlags]?: string }): TrackingFields {
  return {
    status: flags.status,
    description: flags.description,
    address: flags.address,
    lat: flags.lat,
    lon: flags.lon,
    happenedAt: flags['happened-at'],
    estimatedDeliveryAt: flags['estimated-delivery-at'],
  };
}

/**
 * `orders update --status`: the states an update may set, and paid (the payment was received; the order stays
 * open). Not cancelled: cancelling has its own command, which asks first and can return the stock.
 */
export const orderStatusFlag = Flags.string({
  description: 'New status (paid: the payment was received; the order stays open).',
  options: ORDER_STATUS_INPUTS.filter((s) => s !== 'cancelled'),
});

/**
 * `--status cancelled` given to `orders update` (a value its flag does not offer), from the raw command line:
 * it deserves more than "not valid", the command that does it.
 */
export function asksToCancel(argv: readonly string[]): boolean {
  const end = argv.indexOf('--') === -1 ? argv.length : argv.indexOf('--');
  return argv.slice(0, end).some((a, i) => a === '--status=cancelled' || (a === '--status' && argv[i + 1] === 'cancelled'));
}

export const cancelReasonFlag = Flags.string({
  description: 'Why the order is cancelled (the store records "other" when not given).',
  options: [...CANCEL_REASONS],
});

/** The filters of `orders list` and `orders export` (GET /orders, docs/platform.md §4), under the names people guess. */
export const orderFilterFlags = {
  // The three states take any text: a value of another one (--status pending) is answered with the flag that means it.
  status: Flags.string({
    description: `Only orders with this status: ${[...ORDER_STATUSES, 'any'].join(', ')} (paid is read as --payment-status paid).`,
  }),
  'payment-status': Flags.string({ description: `Only orders with this payment status: ${[...PAYMENT_STATUSES, 'any'].join(', ')}.` }),
  'shipping-status': Flags.string({
    description: `Only orders with this shipping status: ${[...RECORD_SHIPPING_STATUSES, 'any'].join(', ')}. The store's filter knows unpacked, unfulfilled (unshipped) and fulfilled (shipped); partially_packed, packed and partially_fulfilled are read from the unfulfilled orders and delivered from the fulfilled ones, and picked here.`,
  }),
  'to-ship': Flags.boolean({
    description: 'Only the open, paid orders not every shipment of which is dispatched (unpacked, packing or partly sent): two queries, merged newest first.',
  }),
  search: Flags.string({ description: "Only orders with this number, or with this text in the customer's name or email (the API's q)." }),
  'created-after': Flags.string({ description: `Only orders created at or after this time: ${DATE_FORMS}.` }),
  'created-before': Flags.string({ description: 'Only orders created at or before this time (same forms as --created-after).' }),
  'updated-after': Flags.string({ description: 'Only orders changed at or after this time (same forms as --created-after).' }),
  'updated-before': Flags.string({ description: 'Only orders changed at or before this time (same forms as --created-after).' }),
  'total-min': Flags.string({ description: 'Only orders with a total of at least this amount (e.g. 150.00).' }),
  'total-max': Flags.string({ description: 'Only orders with a total of at most this amount.' }),
  customer: Flags.string({
    description: 'Only orders of this customer: an id, or an email address (looked up first, one request each); repeat, or comma-separate, for several.',
    multiple: true,
    multipleNonGreedy: true,
  }),
  channel: Flags.string({ description: 'Only orders from this sales channel, e.g. store, api, pos (repeat for several).', multiple: true, multipleNonGreedy: true }),
  'payment-method': Flags.string({ description: 'Only orders paid with this method, e.g. credit_card, bank_transfer (repeat for several).', multiple: true, multipleNonGreedy: true }),
  'payment-provider': Flags.string({ description: 'Only orders paid through this provider (the gateway, e.g. mercadopago).' }),
  'since-id': Flags.string({ description: 'Only orders with an id greater than this one.' }),
};

type OrderFilterFlagValues = { [K in keyof typeof orderFilterFlags]?: unknown };

/** The filter flags as `orderFilters` takes them. */
export function orderFilterFlagsFrom(flags: OrderFilterFlagValues): OrderFilterFlags {
  const text = (v: unknown) => v as string | undefined;
  const texts = (v: unknown) => v as string[] | undefined;
  return {
    status: text(flags.status),
    paymentStatus: text(flags['payment-status']),
    shippingStatus: text(flags['shipping-status']),
    toShip: flags['to-ship'] as boolean | undefined,
    search: text(flags.search),
    createdAfter: text(flags['created-after']),
    createdBefore: text(flags['created-before']),
    updatedAfter: text(flags['updated-after']),
    updatedBefore: text(flags['updated-before']),
    totalMin: text(flags['total-min']),
    totalMax: text(flags['total-max']),
    customers: texts(flags.customer),
    channels: texts(flags.channel),
    paymentMethods: texts(flags['payment-method']),
    paymentProvider: text(flags['payment-provider']),
    sinceId: text(flags['since-id']),
  };
}
