import { Args, Flags } from '@oclif/core';
import type { TrackingEvent } from '../../../api/fulfillment-orders.js';
import { TRACKING_STATUSES } from '../../../platform/tracking-statuses.js';
import { BaseCommand } from '../../../base-command.js';
import { jsonFields } from '../../../api/json-fields.js';

/** The event's fields, shared with `tracking update`; values are checked by the orders service before sending. */

export const trackingFlags = {
  status: Flags.string({ description: 'Tracking status.', options: [...TRACKING_STATUSES] }),
  description: Flags.string({ description: 'What happened, as the customer will read it.' }),
  address: Flags.string({ description: 'Where it happened.' }),
  lat: Flags.string({ description: 'Latitude of where it happened (-90 to 90); needs --lon.' }),
  lon: Flags.string({ description: 'Longitude of where it happened (-180 to 180); needs --lat.' }),
  'happened-at': Flags.string({ description: 'When it happened (ISO 8601 or YYYY-MM-DD); default now on add.' }),
  'estimated-delivery-at': Flags.string({ description: 'Expected delivery time (ISO 8601 or YYYY-MM-DD).' }),
};

export const trackingArgs = {
  order_id: Args.string({ description: 'Order id.', required: true }),
  fulfillment_order_id: Args.string({ description: 'Fulfillment order id (see `store fulfillment-orders list ORDER_ID`).', required: true }),
};

export function trackingFields(flags: {
  status?: string;
  description?: string;
  address?: string;
  lat?: string;
  lon?: string;
  'happened-at'?: string;
  'estimated-delivery-at'?: string;
}) {
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

export default class TrackingAdd extends BaseCommand<typeof TrackingAdd> {
  static summary = 'Add a tracking event to a fulfillment order.';
  static examples = [
    '<%= config.bin %> fulfillment-orders tracking add 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X --status dispatched --description "Left the warehouse"',
    '<%= config.bin %> fulfillment-orders tracking add 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X --status in_transit --address "Campinas, SP" --lat -22.9099 --lon -47.0626 --estimated-delivery-at 2026-11-25',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.trackingEvent;
  static args = trackingArgs;
  static flags = { ...trackingFlags, status: Flags.string({ description: 'Tracking status.', options: [...TRACKING_STATUSES], required: true }) };

  async run(): Promise<TrackingEvent> {
    const { parseOrderId, parseUlid } = await import('../../../services/validate.js');
    const orderId = parseOrderId(this.args.order_id);
    const foId = parseUlid(this.args.fulfillment_order_id, 'FULFILLMENT_ORDER_ID', 'fulfillment order');
    const { addTrackingEvent } = await import('../../../services/orders.js');
    const event = await addTrackingEvent(await this.client(), orderId, foId, trackingFields(this.flags), new Date());
    if (!this.jsonEnabled()) this.note(`Added tracking event ${event.id} (${event.status}, ${event.happened_at}) to fulfillment order ${foId}.`);
    return event;
  }
}
