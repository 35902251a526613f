import { BaseCommand } from '../../cli/base-command.js';
import { csvFlag } from '../../flags/common.js';
import { orderLookupArg } from '../../flags/orders.js';
import type { ShownInvoice } from '../../services/orders/order-invoices.js';

export default class InvoicesList extends BaseCommand<typeof InvoicesList> {
  static summary = 'List the invoices attached to an order.';
  static description = `Both kinds are shown, marked in the kind column: nfe/list, the entries of the JSON list this CLI writes (metafield nfe/list), and nfe/key+link, the older documented way of two metafields per order (nfe/key holds the access key, nfe/link the URL). Takes the order id; a number the store does not know as an id is looked up as the number the customer sees (said on stderr).`;
  static examples = ['<%= config.bin %> invoices list 1000000123', '<%= config.bin %> invoices list 191', '<%= config.bin %> invoices list 1000000123 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = { order_id: orderLookupArg };

  static flags = {
    csv: csvFlag,
  };

  async run(): Promise<ShownInvoice[]> {
    const { parseOrderId } = await import('../../services/common/validate.js');
    const orderId = parseOrderId(this.args.order_id);
    const { invoicesOfOrder } = await import('../../services/invoices/invoices.js');
    const found = await invoicesOfOrder(await this.client(), orderId);
    if (found.notice) this.note(found.notice);
    const { invoices } = found.value;
    const { invoiceColumns } = await import('../../views/invoices.js');
    await this.renderList(invoices, invoiceColumns, { csv: this.flags.csv });
    if (invoices.length === 0 && !this.jsonEnabled()) this.note(`Order ${found.orderId} has no invoices.`);
    return invoices;
  }
}
