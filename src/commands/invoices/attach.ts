import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { BulkCommand } from '../../cli/bulk-command.js';
import { rowFileSpec } from '../../cli/row-file.js';
import { rowFileFlags } from '../../flags/bulk-file.js';
import type { FileAttachResult, InvoiceFileEvent } from '../../services/invoices/invoice-file.js';
import type { AttachResult } from '../../services/invoices/invoices.js';

export default class InvoicesAttach extends BulkCommand<typeof InvoicesAttach> {
  static summary = 'Attach a fiscal invoice to an order, or many from a CSV file.';
  static description = `The access key (44 digits, valid check digit) and the link (http or https) are checked before anything is sent. The invoice is added to the order's invoice list (metafield nfe/list); other invoices are kept, those of the list and an older nfe/key + nfe/link pair alike, and attaching a key the order already has (of either kind) changes nothing.

With --file, the CSV (columns order_id — an id, or the number the customer sees —, key, link and optionally fulfillment_order_id) is read like every bulk file (docs/csv.md): every row is checked first, every problem listed with its line and column, and nothing is sent while a row is invalid, unless --skip-invalid (the valid rows are attached, the invalid ones reported). --dry-run checks the file and reads each order's invoices to tell what would be attached, sending no write. Every row attached is journaled under $XDG_STATE_HOME/store/imports/: after an interruption, run the same command with --resume to finish without sending the finished rows again. Exit codes: 2 when the file is invalid or cannot be read, 3 when some rows failed (--report writes them: the rows' own columns, then line, error and stage; fixed, the report is the next --file), 130 when interrupted by Ctrl-C, 143 by SIGTERM.`;

  static examples = [
    '<%= config.bin %> invoices attach 1000000123 --key 35261112345678000199550010000001231000001235 --link https://nfe.example.com/123.pdf',
    '<%= config.bin %> invoices attach 1000000123 --key 35261112345678000199550010000001231000001235 --link https://nfe.example.com/123.pdf --fulfillment-order 01JD3Z6Q8R5M2K7N4P9T0V1W2X',
    '<%= config.bin %> invoices attach --file invoices.csv --report failed-invoices.csv',
    '<%= config.bin %> invoices attach --file invoices.csv --dry-run',
    '<%= config.bin %> invoices attach --file invoices.csv --resume',
    "<%= config.bin %> invoices attach --file erp-invoices.csv --map 'Pedido=order_id,Chave=key,URL=link'",
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    order_id: Args.string({ description: 'Order id, or the number the customer sees; not used with --file.' }),
  };

  static flags = {
    key: Flags.string({ description: 'Fiscal access key: 44 digits (spaces allowed).', exclusive: ['file'] }),
    link: Flags.string({ description: 'URL where the customer can see or download the invoice.', exclusive: ['file'] }),
    'fulfillment-order': Flags.string({ description: 'Fulfillment order the invoice covers (optional): its id, or its number as listed (191-1).', exclusive: ['file'] }),
    ...rowFileFlags({
      file: 'CSV file of invoices to attach (order_id, key, link[, fulfillment_order_id]); "-" for standard input.',
      dryRun: "check the file and read the orders' invoices; send no write.",
      verb: 'attach',
    }),
  };

  async run(): Promise<AttachResult | FileAttachResult> {
    const { UsageError } = await import('../../errors.js');
    if (this.flags.file) {
      if (this.args.order_id !== undefined) throw new UsageError('Give either ORDER_ID with --key and --link, or --file, not both.');
      return this.attachFile(this.flags.file);
    }
    if (this.args.order_id === undefined) throw new UsageError('Give ORDER_ID with --key and --link, or --file FILE.');
    if (this.flags.key === undefined) throw new UsageError('--key is required: the 44-digit access key of the invoice.');
    if (this.flags.link === undefined) throw new UsageError('--link is required: the URL of the invoice.');
    const { attachInvoiceToOrder, invoiceRequest } = await import('../../services/invoices/invoices.js');
    const request = invoiceRequest(
      { orderId: this.args.order_id, key: this.flags.key, link: this.flags.link, fulfillmentOrderId: this.flags['fulfillment-order'] },
      { key: '--key', link: '--link', fulfillmentOrderId: '--fulfillment-order' },
    );
    const { value: result, notice } = await attachInvoiceToOrder(await this.client(), await this.recorder(), request);
    if (notice) this.note(notice);
    if (!this.jsonEnabled()) {
      this.note(
        result.attached
          ? `Attached invoice ${request.key} to order ${result.orderId} (${result.invoices.length} invoice${result.invoices.length === 1 ? '' : 's'} now).`
          : `Invoice ${request.key} is already attached to order ${result.orderId}; nothing changed.`,
      );
    }
    return result;
  }

  private async attachFile(file: string): Promise<FileAttachResult> {
    const { attachInvoicesFromFile } = await import('../../services/invoices/invoice-file.js');
    const notice = (event: InvoiceFileEvent) => (event.type === 'order-number' ? event.notice : undefined);
    return this.runBulk(rowFileSpec(file, this.flags, { label: 'attach', run: attachInvoicesFromFile, notice, show: (result) => this.showFileResult(result) }));
  }

  /** The summary on stdout (the plan of a dry run), then the failed rows on stderr; some failed is exit 3, not an error. */
  private async showFileResult(result: FileAttachResult): Promise<void> {
    const { invoicesSummaryView, printBulkSummary } = await import('../../views/bulk.js');
    printBulkSummary(invoicesSummaryView(result, this.flags.report), { quiet: false, json: this.jsonEnabled() }, this.io.stdout, this.io.stderr);
  }
}
