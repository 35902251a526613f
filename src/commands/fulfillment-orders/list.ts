import { Args, Flags } from '@oclif/core';
import type { FulfillmentOrder } from '../../api/fulfillment-orders.js';
import { BaseCommand } from '../../base-command.js';

export default class FulfillmentOrdersList extends BaseCommand<typeof FulfillmentOrdersList> {
  static summary = 'List the fulfillment orders (shipments) of an order.';
  static examples = ['<%= config.bin %> fulfillment-orders list 1000000123', '<%= config.bin %> fulfillment-orders list 1000000123 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    order_id: Args.string({ description: 'Order id (10 digits).', required: true }),
  };

  static flags = {
    csv: Flags.boolean({ description: 'Print CSV (formula-escaped).' }),
  };

  async run(): Promise<FulfillmentOrder[]> {
    const { parseOrderId } = await import('../../services/validate.js');
    const orderId = parseOrderId(this.args.order_id);
    const { fulfillmentOrdersOf } = await import('../../services/orders.js');
    const fos = await fulfillmentOrdersOf(await this.client(), orderId);
    await this.renderList(
      fos,
      [
        { header: 'id', get: (fo) => fo.id },
        { header: 'status', get: (fo) => fo.status },
        { header: 'location', get: (fo) => fo.location_id },
        { header: 'items', get: (fo) => fo.products.reduce((n, p) => n + p.quantity, 0) },
        { header: 'events', get: (fo) => fo.tracking_events.length },
        { header: 'last_event', get: (fo) => (fo.tracking_events.at(-1) ? `${fo.tracking_events.at(-1)!.status} ${fo.tracking_events.at(-1)!.happened_at}` : '') },
      ],
      { csv: this.flags.csv },
    );
    if (fos.length === 0 && !this.jsonEnabled()) this.note(`Order ${orderId} has no fulfillment orders.`);
    return fos;
  }
}
