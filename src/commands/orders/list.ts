import type { Order } from '../../api/orders.js';
import { orderFilterFlags, orderFilterFlagsFrom } from '../../flags/orders.js';
import { csvFlag, pagingFlags } from '../../flags/common.js';
import { PagedListCommand } from '../../cli/paged-list.js';

export default class OrdersList extends PagedListCommand<typeof OrdersList> {
  static summary = 'List orders, newest first.';
  static description = `Shows id, number, status, payment and shipping state, creation time, customer and total. An order is open, closed or cancelled; whether it is paid or shipped are its payment and shipping states (--payment-status, --shipping-status). Commands take the order id; given a number the store does not know as an id, they look it up as the number the customer sees. Dates are ISO 8601 with an offset (2026-11-21T14:05:00-03:00) as given; YYYY-MM-DD, today, yesterday and relative times (7d, 12h) are in the machine's local time zone (TZ). Without --limit, --page or --all the 30 newest orders are shown; --all reads every order, past the store's cap of 10,000 results per query (split by creation time), each once, newest first, printing the rows as the pages arrive.`;

  static examples = [
    '<%= config.bin %> orders list --status open',
    '<%= config.bin %> orders list --payment-status paid --shipping-status unfulfilled',
    '<%= config.bin %> orders list --created-after 2026-11-01 --created-before 2026-11-15 --limit 100',
    '<%= config.bin %> orders list --payment-status paid --all --csv > paid-orders.csv',
    '<%= config.bin %> orders list --search ana@example.com',
    '<%= config.bin %> orders list --updated-after 12h --all --json',
    '<%= config.bin %> orders list --page 2 --per-page 50 --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = PagedListCommand.recordFlags;

  static flags = {
    ...orderFilterFlags,
    ...pagingFlags('order'),
    csv: csvFlag,
  };

  async run(): Promise<Order[]> {
    const paging = await this.pagingOf(this.flags, 'order');
    const { orderFilters, orderPages } = await import('../../services/orders/order-listing.js');
    const listing = orderFilters(orderFilterFlagsFrom(this.flags));
    for (const note of listing.notes) this.note(note);
    const pages = orderPages(await this.client(), listing, paging);
    const { orderColumns } = await import('../../views/orders.js');
    return this.printPages(pages, orderColumns, { paging, one: 'order', csv: this.flags.csv });
  }
}
