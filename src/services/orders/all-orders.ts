import { listOrdersPage, type Order, type OrderFilters } from '../../api/orders.js';
import { parseTimestamp } from '../../platform/timestamps.js';
import { StoreError } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import { MAX_LIST_RECORDS, maxPagesFor, walkCapWarning } from '../../client/pagination.js';
import { MAX_PER_PAGE, ORDER_QUERY_LIMIT } from '../../platform/pagination.js';
import { formatTimestamp } from '../common/validate.js';

/**
 * Every order matching `filters`, past the platform's cap of 10,000 results per query (docs/platform.md §9).
 *
 * Lists come newest first by creation, so the query is read as a cursor walking back in `created_at`: a window
 * is "the filters, created at or before MAX"; its pages are read while they stay within the first 10,000
 * results (pages 1..50 at 200 a page, never the page the store would refuse); when the window holds more
 * (x-total-count, or a full last page), the next window ends at the second of the oldest order read (+1 s, so a
 * store reading `created_at_max` as exclusive, or keeping sub-second times, loses nothing). Every window after
 * the first re-reads only that boundary second: the windows are cut where the data is, so the requests are the
 * pages of the orders plus about one per 10,000 (no probe, no bisection, no half-empty window).
 *
 * Each order is yielded once, newest first, a page at a time (memory: one page and the ids of the boundary
 * seconds). The first window's end is pinned to the newest order of its first page, so orders created while
 * the read goes on are left out instead of pushing the pages down; a page that still starts with orders
 * already yielded (an order created within that second, or one that moved) has them skipped by id.
 *
 * More than 10,000 matching orders created within one second cannot be read past the cap by time: the
 * reader then splits that second by `status` (open, closed, cancelled), goes on with the window ending a
 * millisecond before it, and fails with one sentence when a status alone still has more in that second.
 *
 * Every walk ends, as every list's (docs/decisions.md "Bounded walks"): a page holding more records than a page
 * holds is cut with a warning (`client.page`), and the whole walk, windows and status splits included, reads at
 * most the pages the first x-total-count fills plus a tenth and two (MAX_LIST_RECORDS' worth without one,
 * `maxPagesFor`), then stops with the generic walk's warning: a server that keeps answering full pages, whatever
 * their creation times, is not followed for ever. Pages that list only orders already listed (a window's boundary
 * second, a second split by status) are counted apart, capped at what the store's size can cost (PageBudget).
 *
 * `total` is x-total-count of the first request: every order matching the filters when the read began.
 * Used by `orders list --all`/`--limit`, `orders export`, and readers of everything updated since a time
 * (filters.updated_at_min).
 */
export async function* allOrders(
  client: StoreClient,
  filters: OrderFilters,
  options: { perPage?: number } = {},
): AsyncGenerator<{ orders: Order[]; total?: number }> {
  const perPage = Math.min(options.perPage ?? MAX_PER_PAGE, MAX_PER_PAGE);
  const seen = new RecentIds(perPage);
  const budget = new PageBudget(client, perPage);
  let total: number | undefined;
  let first = true;
  for await (const page of windowsOf(client, filters, perPage, seen, budget, filters.status === undefined || filters.status === 'any')) {
    if (first) total = page.total;
    first = false;
    if (page.orders.length > 0) yield { orders: page.orders, total };
  }
  if (first) yield { orders: [], total: 0 };
}

const SECOND = 1000;
const STATUSES = ['open', 'closed', 'cancelled'] as const;

function createdAt(order: Order): number | undefined {
  return parseTimestamp(order.created_at)?.getTime();
}

function floorSecond(ms: number): number {
  return Math.floor(ms / SECOND) * SECOND;
}

async function* windowsOf(
  client: StoreClient,
  filters: OrderFilters,
  perPage: number,
  seen: RecentIds,
  budget: PageBudget,
  canSplitByStatus: boolean,
): AsyncGenerator<{ orders: Order[]; total?: number }> {
  const pagesPerWindow = Math.max(1, Math.floor(ORDER_QUERY_LIMIT / perPage));
  const userMax = filters.created_at_max;
  let max: number | undefined = userMax === undefined ? undefined : Date.parse(userMax);
  let query: OrderFilters = { ...filters };
  for (;;) {
    let oldest: number | undefined;
    for (let page = 1; page <= pagesPerWindow; page++) {
      if (!budget.allowsAnother()) return;
      const res = await listOrdersPage(client, query, page, perPage);
      const orders: Order[] = [];
      for (const order of res.orders) {
        const at = createdAt(order);
        if (!seen.has(order.id)) orders.push(order);
        seen.add(order.id, at);
        if (at !== undefined) oldest = at;
      }
      if (max === undefined && oldest !== undefined) {
        // Pin the first window to what the store held when the read began (see above).
        const newest = res.orders.map(createdAt).find((at) => at !== undefined)!;
        max = floorSecond(newest) + SECOND;
        query = { ...query, created_at_max: formatTimestamp(new Date(max)) };
      }
      budget.count(res.received, orders.length, res.total);
      yield { orders, total: res.total };
      const endOfList = res.received < perPage || (res.total !== undefined && page * perPage >= res.total);
      if (endOfList) return;
    }
    // More than the cap at or before `max`: the next window ends at the oldest order read.
    if (oldest === undefined) {
      throw new StoreError('The store listed orders without a creation time, so the orders past the first 10,000 cannot be reached; narrow the query (e.g. --created-after/--created-before).', 1);
    }
    const boundary = floorSecond(oldest);
    const next = boundary + SECOND;
    if (max !== undefined && next >= max) {
      // More than 10,000 orders within one second: split that second by status, then go on before it.
      if (!canSplitByStatus) {
        throw new StoreError(
          `More than ${ORDER_QUERY_LIMIT.toLocaleString('en-US')} orders match within the second ${formatTimestamp(new Date(boundary))}: the store serves at most ${ORDER_QUERY_LIMIT.toLocaleString('en-US')} results of one query; narrow it with --status, --payment-status or --shipping-status.`,
          1,
        );
      }
      for (const status of STATUSES) {
        const second = { ...filters, status, created_at_min: formatTimestamp(new Date(boundary)), created_at_max: formatTimestamp(new Date(max)) } as OrderFilters;
        yield* windowsOf(client, second, perPage, seen, budget, false);
        if (budget.exhausted) return;
      }
      // Just before that second (a millisecond before: a store reading the end as inclusive or exclusive alike).
      max = boundary - 1;
    } else {
      max = next;
    }
    if (filters.created_at_min !== undefined && max < Date.parse(filters.created_at_min)) return;
    query = { ...filters, created_at_max: formatTimestamp(new Date(max)) };
  }
}

/**
 * The pages one read of orders may still request (see allOrders), counted across its windows and status splits.
 * Pages that list an order not yet listed are capped from the first x-total-count by the generic walk's rule
 * (`maxPagesFor`: MAX_LIST_RECORDS' worth without one). Pages that list none re-read what a window boundary
 * shares with the window before: about one a window, and two windows' worth plus one a status for a second
 * split by status, which a store can hold once per 10,000 orders of that count; they are capped at that. The
 * first request past either cap is not sent, and the client is warned once that the store kept offering more.
 */
class PageBudget {
  private pages = 0;
  private read = 0;
  private freshPages = 0;
  private rereadPages = 0;
  private maxFreshPages: number;
  private maxRereadPages: number;
  private capped = false;
  exhausted = false;

  constructor(
    private readonly client: StoreClient,
    private readonly perPage: number,
  ) {
    this.maxFreshPages = maxPagesFor(undefined, perPage);
    this.maxRereadPages = this.rereadsFor(MAX_LIST_RECORDS);
  }

  /** Re-read pages a store of `total` orders can legitimately cost: per 10,000 orders, a split second and its window. */
  private rereadsFor(total: number): number {
    const pagesPerWindow = Math.max(1, Math.floor(ORDER_QUERY_LIMIT / this.perPage));
    const splits = Math.floor(Math.min(total, MAX_LIST_RECORDS) / ORDER_QUERY_LIMIT) + 1;
    return splits * (2 * pagesPerWindow + STATUSES.length + 2);
  }

  /** A page read: `received` records, `fresh` of them orders not listed before. */
  count(received: number, fresh: number, total: number | undefined): void {
    if (this.pages === 0 && total !== undefined) {
      this.maxFreshPages = maxPagesFor(total, this.perPage);
      this.maxRereadPages = this.rereadsFor(total);
      this.capped = true;
    }
    this.pages += 1;
    this.read += received;
    if (fresh > 0) this.freshPages += 1;
    else this.rereadPages += 1;
  }

  allowsAnother(): boolean {
    if (this.exhausted) return false;
    if (this.freshPages < this.maxFreshPages && this.rereadPages < this.maxRereadPages) return true;
    this.exhausted = true;
    this.client.warn(walkCapWarning('/orders', this.pages, this.read, this.capped));
    return false;
  }
}

/**
 * The ids already yielded that a later page can list again: those of the last page (a page pushed down by a new
 * order) and those created within the second of the oldest order read so far or the second after it (what the
 * next window re-reads). Orders come newest first, so the ids to forget are always the first ones kept: memory
 * stays at a page plus two seconds of orders whatever the store's size.
 */
class RecentIds {
  private readonly ids = new Set<number>();
  private readonly order: { id: number; at: number }[] = [];
  private head = 0;
  private oldestSecond = Number.POSITIVE_INFINITY;

  constructor(private readonly lastPage: number) {}

  has(id: number): boolean {
    return this.ids.has(id);
  }

  add(id: number, at: number | undefined): void {
    if (this.ids.has(id)) return;
    // Without a creation time an order can only come back on the next page.
    const time = at ?? Number.POSITIVE_INFINITY;
    if (at !== undefined) this.oldestSecond = Math.min(this.oldestSecond, floorSecond(at));
    this.ids.add(id);
    this.order.push({ id, at: time });
    while (this.order.length - this.head > this.lastPage && this.order[this.head]!.at > this.oldestSecond + SECOND) {
      this.ids.delete(this.order[this.head]!.id);
      this.head++;
    }
    if (this.head > 4096 && this.head * 2 > this.order.length) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
  }
}
