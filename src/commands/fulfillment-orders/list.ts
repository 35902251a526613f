import type { FulfillmentOrder } from '../../api/fulfillment-orders.js';
import { BaseCommand } from '../../base-command.js';
import { csvFlag } from '../../flags/common.js';
import { orderIdArg } from '../../flags/orders.js';

export default class FulfillmentOrdersList extends BaseCommand<typeof FulfillmentOrdersList> {
  static summary = 'List the fulfillment orders (shipments) of an order.';
  static examples = ['<%= config.bin %> fulfillment-orders list 1000000123', '<%= config.bin %> fulfillment-orders list 1000000123 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = { order_id: orderIdArg };

  static flags = {
    csv: csvFlag,
  };

  async run(): Promise<FulfillmentOrder[]> {
    const { parseOrderId } = await import('../../services/validate.js');
    const orderId = parseOrderId(this.args.order_id);
    const { fulfillmentOrdersOf } = await import('../../services/fulfillment-orders.js');
    const { fulfillmentOrderColumns, fulfillmentOrderRow } = await import('../../views/fulfillment-orders.js');
    const { fulfillmentOrders: fos, mainLanguage } = await fulfillmentOrdersOf(await this.client(), orderId);
    await this.renderList(
      fos.map((fo) => fulfillmentOrderRow(fo, mainLanguage)),
      fulfillmentOrderColumns,
      { csv: this.flags.csv },
    );
    if (fos.length === 0 && !this.jsonEnabled()) this.note(`Order ${orderId} has no fulfillment orders.`);
    return fos;
  }
}
