import type { FulfillmentOrder } from '../../api/fulfillment-orders.js';
import { BaseCommand } from '../../cli/base-command.js';
import { csvFlag } from '../../flags/common.js';
import { orderLookupArg } from '../../flags/orders.js';

export default class FulfillmentOrdersList extends BaseCommand<typeof FulfillmentOrdersList> {
  static summary = 'List the fulfillment orders (shipments) of an order.';
  static description = 'Takes the order id; a number the store does not know as an id is looked up as the number the customer sees, and the command says on stderr which order it lists.';
  static examples = ['<%= config.bin %> fulfillment-orders list 1000000123', '<%= config.bin %> fulfillment-orders list 191', '<%= config.bin %> fulfillment-orders list 1000000123 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = { order_id: orderLookupArg };

  static flags = {
    csv: csvFlag,
  };

  async run(): Promise<FulfillmentOrder[]> {
    const { parseOrderId } = await import('../../services/common/validate.js');
    const orderId = parseOrderId(this.args.order_id);
    const { fulfillmentOrdersOf } = await import('../../services/orders/fulfillment-orders.js');
    const { fulfillmentOrderColumns, fulfillmentOrderRow } = await import('../../views/fulfillment-orders.js');
    const found = await fulfillmentOrdersOf(await this.client(), orderId);
    if (found.notice) this.note(found.notice);
    const { fulfillmentOrders: fos, mainLanguage } = found.value;
    await this.renderList(
      fos.map((fo) => fulfillmentOrderRow(fo, mainLanguage)),
      fulfillmentOrderColumns,
      { csv: this.flags.csv },
    );
    if (fos.length === 0 && !this.jsonEnabled()) this.note(`Order ${found.orderId} has no fulfillment orders.`);
    return fos;
  }
}
