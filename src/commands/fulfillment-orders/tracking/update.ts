import type { TrackingEvent } from '../../../api/fulfillment-orders.js';
import { BaseCommand } from '../../../cli/base-command.js';
import { trackingEventArgs, trackingFieldsFrom, trackingFlags } from '../../../flags/orders.js';
import { jsonFields } from '../../../api/json-fields.js';

export default class TrackingUpdate extends BaseCommand<typeof TrackingUpdate> {
  static summary = 'Change a tracking event; fields not given keep their values.';
  static examples = [
    '<%= config.bin %> fulfillment-orders tracking update 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X 01JD40A1B2C3D4E5F6G7H8J9K0 --status delivered',
    '<%= config.bin %> fulfillment-orders tracking update 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X 01JD40A1B2C3D4E5F6G7H8J9K0 --estimated-delivery-at 2026-11-27T18:00:00-03:00',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.trackingEvent;
  static args = trackingEventArgs;
  static flags = trackingFlags;

  async run(): Promise<TrackingEvent> {
    const { parseOrderId, parseFulfillmentOrderRef } = await import('../../../services/common/validate.js');
    const orderId = parseOrderId(this.args.order_id);
    const ref = parseFulfillmentOrderRef(this.args.fulfillment_order_id, 'FULFILLMENT_ORDER_ID');
    const { changeTrackingEvent } = await import('../../../services/orders/orders.js');
    const { value: event, notice } = await changeTrackingEvent(await this.client(), await this.recorder(), orderId, ref, this.args.event_id.trim(), trackingFieldsFrom(this.flags));
    if (notice) this.note(notice);
    if (!this.jsonEnabled()) this.note(`Updated tracking event ${event.id} (${event.status}, ${event.happened_at}).`);
    return event;
  }
}
