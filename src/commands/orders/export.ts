import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { orderFilterFlags, orderFilterFlagsFrom } from '../../flags/orders.js';
import { plural } from '../../output/format.js';

export default class OrdersExport extends BaseCommand<typeof OrdersExport> {
  static summary = 'Export orders as CSV or NDJSON, one row per line item (to FILE, or stdout).';
  static description = `Every order matching the filters (the same as orders list), past the store's cap of 10,000 results per query, newest first: one row per line item with the order's fields repeated (id, number, dates, states, customer, shipping address, line SKU/name/quantity/unit price, subtotal, discount, shipping cost, total, currency); columns in docs/csv.md. CSV cells a spreadsheet would run as formulas are prefixed with a quote; FILE is written whole or not at all. --invoices adds the orders' invoice access keys, at one more request per order (the store keeps them in each order's metafields): at the default rate of 2 requests a second, about 8 minutes per 1,000 orders. Dates: ISO 8601 with an offset as given; YYYY-MM-DD, today, yesterday and relative times (7d, 12h) in the local time zone (TZ). A progress bar on a terminal.`;

  static examples = [
    '<%= config.bin %> orders export orders.csv',
    '<%= config.bin %> orders export --created-after 2026-01-01 --created-before 2026-07-01 h1.csv',
    '<%= config.bin %> orders export --payment-status paid --ndjson - | jq .total',
    '<%= config.bin %> orders export --updated-after 7d --invoices invoiced.csv',
    '<%= config.bin %> orders export --number 191 --number 192 --invoices -',
  ];

  static args = {
    file: Args.string({ description: 'File to write ("-" or none: standard output).' }),
  };

  static flags = {
    ...orderFilterFlags,
    ndjson: Flags.boolean({ description: 'One JSON object per line (per line item) instead of CSV.' }),
    invoices: Flags.boolean({ description: 'Add the invoice access keys (one more request per order).' }),
    number: Flags.string({
      description: 'Only this order: its id or the number the customer sees (repeatable, one request each; the filters are not used).',
      multiple: true,
      multipleNonGreedy: true,
    }),
    quiet: Flags.boolean({ char: 'q', description: 'No progress and no summary line on stderr.' }),
  };

  async run(): Promise<void> {
    const { orderFilters } = await import('../../services/orders/order-listing.js');
    const { parseOrderId } = await import('../../services/common/validate.js');
    const named = this.flags.number?.map((value) => parseOrderId(value, '--number'));
    const listing = orderFilters(orderFilterFlagsFrom(this.flags));
    for (const note of listing.notes) this.note(note);
    const file = this.args.file === '-' ? undefined : this.args.file;
    const { bulkProgress } = await import('../../output/bulk.js');
    const { limitHeapGrowth } = await import('../../cli/heap.js');
    limitHeapGrowth();
    const summary = await this.writeOutput(file, async (out) => {
      const client = await this.client();
      const progress = await bulkProgress(await this.context(), 'orders export', this.flags.quiet, this.io.stderr, 'orders', this.factory.clock);
      const { exportOrders } = await import('../../services/orders/order-export.js');
      try {
        return await exportOrders(client, listing, {
          format: this.flags.ndjson ? 'ndjson' : 'csv',
          out,
          invoices: this.flags.invoices,
          orders: named,
          onNotice: (notice) => this.note(notice),
          onProgress: (done, total) => {
            const stats = client.stats();
            progress.update({ phase: 'fetching', done, total, writesDone: 0, writesTotal: 0, requests: stats.requests, rateLimited: stats.rateLimited });
          },
        });
      } finally {
        progress.stop();
      }
    });
    if (!this.flags.quiet) {
      const where = file ? ` to ${file}` : '';
      this.note(`Exported ${plural(summary.orders, 'order')} (${plural(summary.rows, 'row')})${where} in ${plural(summary.requests, 'request')}.`);
    }
  }
}
