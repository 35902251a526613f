import { Flags } from '@oclif/core';
import type { Order } from '../../api/orders.js';
import type { OrderStatus, PaymentStatus, ShippingStatus } from '../../platform/orders.js';
import { BaseCommand } from '../../base-command.js';
import { csvFlag } from '../../flags/common.js';

export default class OrdersList extends BaseCommand<typeof OrdersList> {
  static summary = 'List orders, newest first.';
  static description = `Shows id, number, status, payment and shipping state, creation time, customer and total. An order is open, closed or cancelled; whether it is paid or shipped are its payment and shipping states (--payment-status, --shipping-status). Commands take the order id; given a number the store does not know as an id, they look it up as the number the customer sees. Dates are ISO 8601 (2026-11-21T14:05:00-03:00) or YYYY-MM-DD (midnight UTC). Without --limit, --page or --all the 30 newest orders are shown; --all walks every page and prints the rows as the pages arrive.`;

  static examples = [
    '<%= config.bin %> orders list --status open',
    '<%= config.bin %> orders list --payment-status paid --shipping-status unfulfilled',
    '<%= config.bin %> orders list --created-after 2026-11-01 --created-before 2026-11-15 --limit 100',
    '<%= config.bin %> orders list --payment-status paid --all --csv > paid-orders.csv',
    '<%= config.bin %> orders list --page 2 --per-page 50 --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    status: Flags.string({
      description: 'Only orders with this status (paid is read as --payment-status paid).',
      options: ['open', 'closed', 'cancelled', 'any', 'paid'],
    }),
    'payment-status': Flags.string({
      description: 'Only orders with this payment status.',
      options: ['pending', 'authorized', 'paid', 'abandoned', 'refunded', 'voided', 'any'],
    }),
    'shipping-status': Flags.string({
      description: 'Only orders with this shipping status (unshipped and shipped are older names of unfulfilled and fulfilled).',
      options: ['unpacked', 'unfulfilled', 'fulfilled', 'unshipped', 'shipped', 'any'],
    }),
    'created-after': Flags.string({ description: 'Only orders created at or after this time (ISO 8601, or YYYY-MM-DD for the start of that day, UTC).' }),
    'created-before': Flags.string({ description: 'Only orders created before this time (ISO 8601, or YYYY-MM-DD for the start of that day, UTC).' }),
    limit: Flags.integer({ description: 'Show at most this many orders (default 30).', min: 1, exclusive: ['all', 'page'] }),
    all: Flags.boolean({ description: 'Fetch every matching order, 200 per request.', exclusive: ['limit', 'page', 'per-page'] }),
    page: Flags.integer({ description: 'Show this page only (from 1).', min: 1 }),
    'per-page': Flags.integer({ description: 'Orders per page with --page (1-200, default 30).', min: 1, max: 200 }),
    csv: csvFlag,
  };

  async run(): Promise<Order[]> {
    const { orderFilters, orderPages } = await import('../../services/orders.js');
    const { orderColumns } = await import('../../views/orders.js');
    const { chooseFormat } = await import('../../output/format.js');
    const { isTTY } = await import('../../output/terminal.js');
    if (this.flags['per-page'] !== undefined && this.flags.page === undefined) {
      const { UsageError } = await import('../../client/errors.js');
      throw new UsageError('--per-page works with --page (it sets the size of that page); use --limit N for the N newest orders.');
    }
    const { filters, notes } = orderFilters({
      status: this.flags.status as OrderStatus | 'paid' | 'any' | undefined,
      paymentStatus: this.flags['payment-status'] as PaymentStatus | 'any' | undefined,
      shippingStatus: this.flags['shipping-status'] as ShippingStatus | 'any' | undefined,
      createdAfter: this.flags['created-after'],
      createdBefore: this.flags['created-before'],
    });
    for (const note of notes) this.note(note);
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
    let total: number | undefined;
    for await (const page of pages) {
      total = page.total ?? total;
      if (streaming) {
        await this.renderList(page.orders, orderColumns, { csv: this.flags.csv, header: shown === 0 });
        shown += page.orders.length;
      } else {
        orders.push(...page.orders);
      }
    }
    if (!streaming) {
      await this.renderList(orders, orderColumns, { csv: this.flags.csv });
      shown = orders.length;
    }
    if (!this.jsonEnabled()) {
      if (shown === 0) this.note('No orders match.');
      else if (!this.flags.all && total !== undefined && total > shown) {
        if (this.flags.page === undefined) {
          this.note(`The first ${shown} of ${total} orders; --limit N or --all for more.`);
        } else {
          const perPage = this.flags['per-page'] ?? 30;
          this.note(`Page ${this.flags.page} of ${Math.ceil(total / perPage)} (${total} orders); --page N for more, --all for every page.`);
        }
      }
    }
    // Streamed rows are already printed and not kept, so a store of any size lists in constant memory.
    return orders;
  }
}
