import { Flags } from '@oclif/core';
import type { Order, OrderStatus } from '../../api/orders.js';
import { BaseCommand } from '../../base-command.js';
import type { Column } from '../../output/format.js';

export default class OrdersList extends BaseCommand<typeof OrdersList> {
  static summary = 'List orders, newest first.';
  static description = `Shows id, number, status, creation time, customer and total. Commands take the 10-digit order id, not the number the customer sees. Dates are ISO 8601 (2026-11-21T14:05:00-03:00) or YYYY-MM-DD (midnight UTC). Without --limit, --page or --all the 30 newest orders are shown; --all walks every page and prints the rows as the pages arrive.`;

  static examples = [
    '<%= config.bin %> orders list --status open',
    '<%= config.bin %> orders list --created-after 2026-11-01 --created-before 2026-11-15 --limit 100',
    '<%= config.bin %> orders list --status paid --all --csv > paid-orders.csv',
    '<%= config.bin %> orders list --page 2 --per-page 50 --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    status: Flags.string({ description: 'Only orders with this status.', options: ['open', 'paid', 'closed', 'cancelled'] }),
    'created-after': Flags.string({ description: 'Only orders created at or after this time (ISO 8601, or YYYY-MM-DD for the start of that day, UTC).' }),
    'created-before': Flags.string({ description: 'Only orders created before this time (ISO 8601, or YYYY-MM-DD for the start of that day, UTC).' }),
    limit: Flags.integer({ description: 'Show at most this many orders (default 30).', min: 1, exclusive: ['all', 'page'] }),
    all: Flags.boolean({ description: 'Fetch every matching order, 200 per request.', exclusive: ['limit', 'page', 'per-page'] }),
    page: Flags.integer({ description: 'Show this page only (from 1).', min: 1 }),
    'per-page': Flags.integer({ description: 'Orders per page with --page (1-200, default 30).', min: 1, max: 200 }),
    csv: Flags.boolean({ description: 'Print CSV (formula-escaped).' }),
  };

  async run(): Promise<Order[]> {
    const { orderFilters, orderPages, customerLabel, totalLabel } = await import('../../services/orders.js');
    const { chooseFormat } = await import('../../output/format.js');
    const { isTTY } = await import('../../output/terminal.js');
    const filters = orderFilters({
      status: this.flags.status as OrderStatus | undefined,
      createdAfter: this.flags['created-after'],
      createdBefore: this.flags['created-before'],
    });
    const columns: Column<Order>[] = [
      { header: 'id', get: (o) => o.id },
      { header: 'number', get: (o) => o.number },
      { header: 'status', get: (o) => o.status },
      { header: 'created_at', get: (o) => o.created_at },
      { header: 'customer', get: (o) => customerLabel(o) },
      { header: 'total', get: (o) => totalLabel(o) },
    ];
    const client = await this.client();
    const pages = orderPages(client, {
      filters,
      all: this.flags.all,
      limit: this.flags.limit,
      page: this.flags.page,
      perPage: this.flags['per-page'],
    });
    // TSV and CSV stream page by page (header once); a table needs every row to size its columns.
    const streaming = chooseFormat({ json: this.jsonEnabled(), csv: this.flags.csv }, isTTY()) !== 'table' && !this.jsonEnabled();
    const orders: Order[] = [];
    let shown = 0;
    for await (const page of pages) {
      if (streaming) {
        await this.renderList(page.orders, columns, { csv: this.flags.csv, header: shown === 0 });
        shown += page.orders.length;
      } else {
        orders.push(...page.orders);
      }
    }
    if (!streaming) {
      await this.renderList(orders, columns, { csv: this.flags.csv });
      shown = orders.length;
    }
    if (shown === 0 && !this.jsonEnabled()) this.note('No orders match.');
    // Streamed rows are already printed and not kept, so a store of any size lists in constant memory.
    return orders;
  }
}
