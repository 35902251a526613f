import { BaseCommand } from '../../cli/base-command.js';
import { orderLookupArg } from '../../flags/orders.js';
import type { OrderDetails } from '../../services/orders/orders.js';

export default class OrdersGet extends BaseCommand<typeof OrdersGet> {
  static summary = 'Show an order: payment, shipping, items, fulfillment orders and invoices.';
  static description = 'Takes the order id. A number the store does not know as an id is looked up as the number the customer sees; the command then says on stderr which order it shows.';
  static examples = ['<%= config.bin %> orders get 450000123', '<%= config.bin %> orders get 182', '<%= config.bin %> orders get 450000123 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    id: orderLookupArg,
  };

  async run(): Promise<OrderDetails> {
    const { parseOrderId } = await import('../../services/common/validate.js');
    const id = parseOrderId(this.args.id);
    const client = await this.client();
    const { orderDetailsByIdOrNumber } = await import('../../services/orders/orders.js');
    const { value: details, notice } = await orderDetailsByIdOrNumber(client, id);
    if (notice) this.note(notice);
    if (this.jsonEnabled()) return details;
    const { orderRecordFields, orderSections } = await import('../../views/orders.js');
    await this.renderDetail(orderRecordFields(details.order), orderSections(details));
    return details;
  }
}
