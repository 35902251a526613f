import { Args, Flags } from '@oclif/core';
import { CANCEL_REASONS, ORDER_STATUS_INPUTS } from '../platform/orders.js';
import { TRACKING_STATUSES } from '../platform/tracking-statuses.js';
import type { TrackingFields } from '../services/orders.js';

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

/** ORDER_ID FULFILLMENT_ORDER_ID EVENT_ID: `tracking update` and `tracking delete`. */
export const trackingEventArgs = {
  ...fulfillmentOrderArgs,
  event_id: Args.string({ description: 'Tracking event id (see `store fulfillment-orders get`).', required: true }),
};

/** The event's fields, shared by `tracking add` and `update`; values are checked by the orders service before sending. */
export const trackingFlags = {
  status: Flags.string({ description: 'Tracking status.', options: [...TRACKING_STATUSES] }),
  description: Flags.string({ description: 'What happened, as the customer will read it.' }),
  address: Flags.string({ description: 'Where it happened.' }),
  lat: Flags.string({ description: 'Latitude of where it happened (-90 to 90); needs --lon.' }),
  lon: Flags.string({ description: 'Longitude of where it happened (-180 to 180); needs --lat.' }),
  'happened-at': Flags.string({ description: 'When it happened (ISO 8601 or YYYY-MM-DD); default now on add.' }),
  'estimated-delivery-at': Flags.string({ description: 'Expected delivery time (ISO 8601 or YYYY-MM-DD).' }),
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

/** `orders update --status`: the three states, and paid (the payment was received; the order stays open). */
export const orderStatusFlag = Flags.string({
  description: 'New status (paid: the payment was received; the order stays open).',
  options: [...ORDER_STATUS_INPUTS],
});

export const cancelReasonFlag = Flags.string({
  description: 'Why the order is cancelled (the store records "other" when not given).',
  options: [...CANCEL_REASONS],
});
