import { basename } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { BulkCommand } from '../../cli/bulk-command.js';
import { terminalSafe } from '../../output/format.js';
import type { FileAttachResult } from '../../services/invoices/invoice-file.js';
import type { AttachResult } from '../../services/invoices/invoices.js';

export default class InvoicesAttach extends BulkCommand<typeof InvoicesAttach> {
  static summary = 'Attach a fiscal invoice to an order, or many from a CSV file.';
  static description = `The access key (44 digits, valid check digit) and the link (http or https) are checked before anything is sent. The invoice is added to the order's invoice list (metafield nfe/list); other invoices are kept, those of the list and an older nfe/key + nfe/link pair alike, and attaching a key the order already has (of either kind) changes nothing.

With --file, every row of the CSV (columns order_id — an id, or the number the customer sees —, key, link and optionally fulfillment_order_id; "," or ";" separated) is checked, the good rows are attached and the bad ones reported with their line and column. --dry-run checks the file and reads each order's invoices to tell what would be attached, sending no write. Every row attached is journaled under $XDG_STATE_HOME/store/imports/: after an interruption, run the same command with --resume to finish without sending the finished rows again. Exit codes: 2 when no row is valid or the file cannot be read, 3 when some rows failed (--report writes them as CSV: line, key, stage, reason), 130 when interrupted by Ctrl-C, 143 by SIGTERM.`;

  static examples = [
    '<%= config.bin %> invoices attach 1000000123 --key 35261112345678000199550010000001231000001235 --link https://nfe.example.com/123.pdf',
    '<%= config.bin %> invoices attach 1000000123 --key 35261112345678000199550010000001231000001235 --link https://nfe.example.com/123.pdf --fulfillment-order 01JD3Z6Q8R5M2K7N4P9T0V1W2X',
    '<%= config.bin %> invoices attach --file invoices.csv --report failed-invoices.csv',
    '<%= config.bin %> invoices attach --file invoices.csv --dry-run',
    '<%= config.bin %> invoices attach --file invoices.csv --resume',
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
    file: Flags.string({ description: 'CSV file of invoices to attach (order_id, key, link[, fulfillment_order_id]); "-" for standard input.' }),
    report: Flags.string({ description: 'With --file: write the rows that failed to this CSV file.', dependsOn: ['file'] }),
    'dry-run': Flags.boolean({ description: "With --file: check the file and read the orders' invoices; send no write.", dependsOn: ['file'] }),
    resume: Flags.boolean({ description: 'With --file: continue an interrupted run of the same file from its journal.', dependsOn: ['file'] }),
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
    const { report } = this.flags;
    return this.runBulk({
      file,
      flag: '--file',
      label: 'attach',
      unit: 'rows',
      quiet: false,
      report,
      interruptedHint: 'Interrupted; the rows done are journaled. Run the same command with --resume to finish.',
      run: ({ client, file: path, log, ...run }) =>
        attachInvoicesFromFile(client, path, {
          ...run,
          dryRun: this.flags['dry-run'],
          resume: this.flags.resume,
          report,
          onEvent: (event) => {
            if (event.type === 'order-number') return log(terminalSafe(event.notice));
            if (event.type !== 'failed') return;
            const { failure } = event;
            const what = failure.stage === 'validation' ? 'Invalid' : 'Failed';
            // The copy of standard input is named "stdin", so the name is the one messages use.
            log(terminalSafe(`${what}: ${basename(path)} line ${failure.line}: ${failure.reason}`));
          },
        }),
      show: (result) => this.showFileResult(result),
      failed: (result) => result.failed.length > 0,
    });
  }

  /** The summary; when rows failed, the error the command ends with (exit 3, or 2 when no row was valid). */
  private async showFileResult(result: FileAttachResult): Promise<void> {
    const { invoicesSentence, invoicesSummaryView, printBulkSummary } = await import('../../views/bulk.js');
    printBulkSummary(invoicesSummaryView(result), { quiet: false, json: this.jsonEnabled() }, this.io.stdout, this.io.stderr);
    const summary = invoicesSentence(result);
    if (result.failed.length === 0 || result.interrupted) {
      if (!this.jsonEnabled() && !result.dryRun) this.note(summary);
      return;
    }
    const { PartialFailureError, UsageError } = await import('../../errors.js');
    const where = this.flags.report ? `; the failed rows are in ${this.flags.report}` : '';
    const nothingSent = result.failed.every((f) => f.stage === 'validation') && result.attached + result.unchanged === 0;
    // Every row invalid means nothing was sent: bad input (exit 2), not a partial failure (exit 3).
    const error = nothingSent ? new UsageError(`${summary} No row was valid${where}.`) : new PartialFailureError(`${summary.replace(/\.$/, '')}${where}.`, result.failed);
    if (this.jsonEnabled()) {
      // The result still goes to stdout: a script needs to know which rows failed.
      await this.printJson(result);
    }
    throw error;
  }
}
