import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import type { Invoice } from '../../services/invoices.js';

export default class InvoicesList extends BaseCommand<typeof InvoicesList> {
  static summary = 'List the invoices attached to an order.';
  static examples = ['<%= config.bin %> invoices list 1000000123', '<%= config.bin %> invoices list 1000000123 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    order_id: Args.string({ description: 'Order id (10 digits).', required: true }),
  };

  static flags = {
    csv: Flags.boolean({ description: 'Print CSV (formula-escaped).' }),
  };

  async run(): Promise<Invoice[]> {
    const { parseOrderId } = await import('../../services/validate.js');
    const orderId = parseOrderId(this.args.order_id);
    const { readInvoices } = await import('../../services/invoices.js');
    const { invoices } = await readInvoices(await this.client(), orderId);
    await this.renderList(
      invoices,
      [
        { header: 'key', get: (i) => i.key },
        { header: 'link', get: (i) => i.link },
        { header: 'fulfillment_order_id', get: (i) => i.fulfillment_order_id },
      ],
      { csv: this.flags.csv },
    );
    if (invoices.length === 0 && !this.jsonEnabled()) this.note(`Order ${orderId} has no invoices.`);
    return invoices;
  }
}
