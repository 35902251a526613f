import { Flags } from '@oclif/core';
import type { Order } from '../../api/orders.js';
import {
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  SHIPPING_STATUSES,
  type OrderStatus,
  type PaymentStatus,
  type ShippingStatus,
} from '../../platform/orders.js';
import { csvFlag, pagingFlags } from '../../flags/common.js';
import { PagedListCommand } from '../../views/paged-list.js';

export default class OrdersList extends PagedListCommand<typeof OrdersList> {
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
  static baseFlags = PagedListCommand.recordFlags;

  static flags = {
    status: Flags.string({
      description: 'Only orders with this status (paid is read as --payment-status paid).',
      options: [...ORDER_STATUSES, 'any', 'paid'],
    }),
    'payment-status': Flags.string({
      description: 'Only orders with this payment status.',
      options: [...PAYMENT_STATUSES, 'any'],
    }),
    'shipping-status': Flags.string({
      description: 'Only orders with this shipping status (unshipped and shipped are older names of unfulfilled and fulfilled).',
      options: [...SHIPPING_STATUSES, 'any'],
    }),
    'created-after': Flags.string({ description: 'Only orders created at or after this time (ISO 8601, or YYYY-MM-DD for the start of that day, UTC).' }),
    'created-before': Flags.string({ description: 'Only orders created before this time (ISO 8601, or YYYY-MM-DD for the start of that day, UTC).' }),
    ...pagingFlags('order'),
    csv: csvFlag,
  };

  async run(): Promise<Order[]> {
    const paging = await this.pagingOf(this.flags, 'order');
    const { orderFilters, orderPages } = await import('../../services/orders.js');
    const { filters, notes } = orderFilters({
      status: this.flags.status as OrderStatus | 'paid' | 'any' | undefined,
      paymentStatus: this.flags['payment-status'] as PaymentStatus | 'any' | undefined,
      shippingStatus: this.flags['shipping-status'] as ShippingStatus | 'any' | undefined,
      createdAfter: this.flags['created-after'],
      createdBefore: this.flags['created-before'],
    });
    for (const note of notes) this.note(note);
    const pages = orderPages(await this.client(), filters, paging);
    const { orderColumns } = await import('../../views/orders.js');
    return this.printPages(pages, orderColumns, { paging, one: 'order', csv: this.flags.csv });
  }
}
