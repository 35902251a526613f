import type { TrackingEvent } from '../../../api/fulfillment-orders.js';
import { BaseCommand } from '../../../cli/base-command.js';
import { fulfillmentOrderArgs, trackingFieldsFrom, trackingFlags, trackingStatusFlag } from '../../../flags/orders.js';
import { jsonFields } from '../../../api/json-fields.js';

export default class TrackingAdd extends BaseCommand<typeof TrackingAdd> {
  static summary = 'Add a tracking event to a fulfillment order.';
  static examples = [
    '<%= config.bin %> fulfillment-orders tracking add 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X --status dispatched --description "Left the warehouse"',
    '<%= config.bin %> fulfillment-orders tracking add 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X --status custom_at_customs --description "Held at customs"',
    '<%= config.bin %> fulfillment-orders tracking add 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X --status in_transit --address "Campinas, SP" --lat -22.9099 --lon -47.0626 --estimated-delivery-at 2026-11-25',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.trackingEvent;
  static args = fulfillmentOrderArgs;
  static flags = { ...trackingFlags, status: trackingStatusFlag(true) };

  async run(): Promise<TrackingEvent> {
    const { parseOrderId, parseFulfillmentOrderRef } = await import('../../../services/common/validate.js');
    const orderId = parseOrderId(this.args.order_id);
    const ref = parseFulfillmentOrderRef(this.args.fulfillment_order_id, 'FULFILLMENT_ORDER_ID');
    const { addTrackingEvent } = await import('../../../services/orders/orders.js');
    const { value: event, notice } = await addTrackingEvent(await this.client(), await this.recorder(), orderId, ref, trackingFieldsFrom(this.flags), new Date());
    if (notice) this.note(notice);
    if (!this.jsonEnabled()) this.note(`Added tracking event ${event.id} (${event.status}, ${event.happened_at}) to fulfillment order ${this.args.fulfillment_order_id.trim()}.`);
    return event;
  }
}
