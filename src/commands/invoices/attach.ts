import { Args, Flags } from '@oclif/core';
import { plural } from '../../output/format.js';
import { BaseCommand } from '../../base-command.js';
import { io } from '../../output/io.js';
import type { AttachResult, FileAttachResult } from '../../services/invoices.js';

export default class InvoicesAttach extends BaseCommand<typeof InvoicesAttach> {
  static summary = 'Attach a fiscal invoice to an order, or many from a CSV file.';
  static description = `The access key (44 digits, valid check digit) and the link (http or https) are checked before anything is sent. The invoice is added to the order's invoice list (metafield nfe/list); other invoices are kept, those of the list and an older nfe/key + nfe/link pair alike, and attaching a key the order already has (of either kind) changes nothing.

With --file, every row of the CSV (columns order_id, key, link and optionally fulfillment_order_id; "," or ";" separated) is checked, the good rows are attached and the bad ones reported with their line and column. The exit code is 3 when some rows failed; --report writes them as CSV (line, key, stage, reason).`;

  static examples = [
    '<%= config.bin %> invoices attach 1000000123 --key 35261112345678000199550010000001231000001235 --link https://nfe.example.com/123.pdf',
    '<%= config.bin %> invoices attach 1000000123 --key 35261112345678000199550010000001231000001235 --link https://nfe.example.com/123.pdf --fulfillment-order 01JD3Z6Q8R5M2K7N4P9T0V1W2X',
    '<%= config.bin %> invoices attach --file invoices.csv --report failed-invoices.csv',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    order_id: Args.string({ description: 'Order id (10 digits); not used with --file.' }),
  };

  static flags = {
    key: Flags.string({ description: 'Fiscal access key: 44 digits (spaces allowed).', exclusive: ['file'] }),
    link: Flags.string({ description: 'URL where the customer can see or download the invoice.', exclusive: ['file'] }),
    'fulfillment-order': Flags.string({ description: 'Fulfillment order the invoice covers (optional).', exclusive: ['file'] }),
    file: Flags.string({ description: 'CSV file of invoices to attach (order_id, key, link[, fulfillment_order_id]); "-" for standard input.' }),
    report: Flags.string({ description: 'With --file: write the rows that failed to this CSV file.', dependsOn: ['file'] }),
  };

  async run(): Promise<AttachResult | FileAttachResult> {
    const { UsageError } = await import('../../client/errors.js');
    if (this.flags.file) {
      if (this.args.order_id !== undefined) throw new UsageError('Give either ORDER_ID with --key and --link, or --file, not both.');
      const { seekableInput } = await import('../../services/input-file.js');
      const input = await seekableInput(this.flags.file, '--file');
      try {
        return await this.attachFile(input.path, this.flags.file === '-' ? 'stdin' : this.flags.file);
      } finally {
        await input.dispose();
      }
    }
    if (this.args.order_id === undefined) throw new UsageError('Give ORDER_ID with --key and --link, or --file FILE.');
    if (this.flags.key === undefined) throw new UsageError('--key is required: the 44-digit access key of the invoice.');
    if (this.flags.link === undefined) throw new UsageError('--link is required: the URL of the invoice.');
    const { attachInvoice, invoiceRequest } = await import('../../services/invoices.js');
    const request = invoiceRequest(
      { orderId: this.args.order_id, key: this.flags.key, link: this.flags.link, fulfillmentOrderId: this.flags['fulfillment-order'] },
      { key: '--key', link: '--link', fulfillmentOrderId: '--fulfillment-order' },
    );
    const result = await attachInvoice(await this.client(), request);
    if (!this.jsonEnabled()) {
      this.note(
        result.attached
          ? `Attached invoice ${request.key} to order ${request.orderId} (${result.invoices.length} invoice${result.invoices.length === 1 ? '' : 's'} now).`
          : `Invoice ${request.key} is already attached to order ${request.orderId}; nothing changed.`,
      );
    }
    return result;
  }

  /** `path` is what is read (a copy of a pipe); `shown` is the name the user gave, for messages. */
  private async attachFile(path: string, shown: string): Promise<FileAttachResult> {
    const { attachInvoicesFromFile, writeFailureReport } = await import('../../services/invoices.js');
    const client = await this.client();
    const progress = rowProgress();
    let result: FileAttachResult;
    try {
      result = await attachInvoicesFromFile(client, path, (event) => {
        if (event.type === 'sending') progress.start(event.total);
        else if (event.type === 'failed') {
          progress.interrupt(() =>
            this.note(`${event.failure.stage === 'validation' ? 'Invalid' : 'Failed'}: ${prefix(shown, event.failure.line)}${event.failure.reason}`),
          );
          if (event.failure.stage === 'request') progress.tick();
        } else progress.tick();
      });
    } finally {
      progress.stop();
    }
    if (this.flags.report) await writeFailureReport(this.flags.report, result.failed);
    const summary = `${result.rows} row${result.rows === 1 ? '' : 's'}: ${result.attached} attached, ${result.unchanged} already attached, ${result.failed.length} failed.`;
    if (result.failed.length === 0) {
      if (!this.jsonEnabled()) this.note(summary);
      return result;
    }
    const { PartialFailureError, UsageError } = await import('../../client/errors.js');
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

function prefix(path: string, line: number): string {
  const name = path.split(/[\\/]/).pop() ?? path;
  return `${name} line ${line}: `;
}

/**
 * Rows sent so far (DESIGN.md §7): a bar on a terminal, else a line on stderr every 10 s so cron logs stay
 * short. Lines printed meanwhile (failed rows) go above the bar.
 */
function rowProgress() {
  const tty = Boolean(io().stderr.isTTY);
  let bar: { start(total: number, value: number): void; increment(): void; stop(): void } | undefined;
  let done = 0;
  let total = 0;
  let lastLog = Date.now();
  return {
    start(rows: number) {
      total = rows;
      if (!tty || rows === 0) return;
      void import('cli-progress').then(({ default: progress }) => {
        bar = new progress.SingleBar({ format: 'Attaching invoices [{bar}] {value}/{total} rows | ETA {eta_formatted}', stream: io().stderr, hideCursor: true });
        bar.start(total, done);
      });
    },
    tick() {
      done++;
      if (bar) bar.increment();
      else if (!tty && Date.now() - lastLog >= 10_000) {
        lastLog = Date.now();
        io().stderr.write(`Attaching invoices: ${done}/${plural(total, 'row')}\n`);
      }
    },
    interrupt(print: () => void) {
      if (!bar) return print();
      io().stderr.write('\r\u001B[2K');
      print();
    },
    stop() {
      bar?.stop();
    },
  };
}
