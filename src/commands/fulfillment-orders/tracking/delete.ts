import { BaseCommand } from '../../../cli/base-command.js';
import { yesFlag } from '../../../flags/common.js';
import { trackingEventArgs } from '../../../flags/orders.js';
import { jsonFields } from '../../../api/json-fields.js';

export default class TrackingDelete extends BaseCommand<typeof TrackingDelete> {
  static summary = 'Delete a tracking event.';
  static description = 'The fulfillment order is read first (one GET): the run ledger keeps the event deleted.';
  static examples = [
    '<%= config.bin %> fulfillment-orders tracking delete 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X 01JD40A1B2C3D4E5F6G7H8J9K0',
    '<%= config.bin %> fulfillment-orders tracking delete 1000000123 01JD3Z6Q8R5M2K7N4P9T0V1W2X 01JD40A1B2C3D4E5F6G7H8J9K0 --yes --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.deleted;

  static args = trackingEventArgs;
  static flags = {
    yes: yesFlag,
  };

  async run(): Promise<{ id: string; deleted: boolean }> {
    const { parseOrderId, parseFulfillmentOrderRef } = await import('../../../services/common/validate.js');
    const { confirmThenAct } = await import('../../../cli/confirm.js');
    const orderId = parseOrderId(this.args.order_id);
    const ref = parseFulfillmentOrderRef(this.args.fulfillment_order_id, 'FULFILLMENT_ORDER_ID');
    const eventId = this.args.event_id.trim();
    return confirmThenAct({
      yes: this.flags.yes,
      message: async () =>
        `Delete ${await (await import('../../../services/orders/orders.js')).describeTrackingEvent(await this.client(), orderId, ref, eventId)}?`,
      action: `Deleting tracking event ${eventId}`,
      nothingDone: 'Nothing changed.',
      declined: () => ({ id: eventId, deleted: false }),
      act: async () => {
        const { removeTrackingEvent } = await import('../../../services/orders/orders.js');
        const { notice } = await removeTrackingEvent(await this.client(), await this.recorder(), orderId, ref, eventId);
        if (notice) this.note(notice);
        this.note(`Deleted tracking event ${eventId}.`);
        return { id: eventId, deleted: true };
      },
    });
  }
}
