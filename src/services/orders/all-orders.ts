import { listOrdersPage, type Order, type OrderFilters } from '../../api/orders.js';
import { parseTimestamp } from '../../platform/timestamps.js';
import { StoreError } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import { MAX_LIST_RECORDS, maxPagesFor, walkCapWarning } from '../../client/pagination.js';
import { MAX_PER_PAGE, ORDER_QUERY_LIMIT } from '../../platform/pagination.js';
import { formatTimestamp } from '../common/validate.js';

/**
 * Every order matching `filters`, past the platform's cap of 10,000 results per query (docs/platform.md §9), and
 * every order that matched them from the start of the read to its end, whatever else changes meanwhile.
 *
 * Lists come newest first by creation, and an order's `created_at` never changes, so the list is read with a
 * cursor walking back in `created_at`, not by page number: after each page, the next request is the first page
 * of "the filters, created at or before the second of the oldest order read" (+1 s, so a store reading
 * `created_at_max` as exclusive, or keeping sub-second times, loses nothing; the orders of those seconds already
 * yielded are skipped by id). A page number counts positions in the list, and positions move: an order that stops
 * matching while the list is read (an order reopened during `orders export --status closed`, one updated out of
 * an `updated_at` window, one deleted) moves every later order up by one, and a walk by page number never sees
 * the order that crossed from page 3 to page 2. A cursor in `created_at` does not move. The cost is the pages of
 * the orders, each re-listing the orders of its cursor's second (one or two): about one request per 200 orders,
 * and never a page past the cap (every request is a first page).
 *
 * Each order is yielded once, newest first, a page at a time (memory: one page and the ids of the cursor's
 * seconds). The first query's end is pinned to the newest order of its first page, so orders created while the
 * read goes on are left out.
 *
 * A page whose orders all fall within its cursor's seconds (more than a page of orders created within a second
 * or two) cannot move the cursor: the next page of the same query is read instead, by number, until a page
 * reaches an older second (within those seconds only, an order that stops matching can still hide another: the
 * one limit of the walk, docs/orders-follow.md). More than 10,000 matching orders created within one second cannot
 * be read past the cap by time: the reader then splits that second by `status` (open, closed, cancelled), goes on
 * before it, and fails with one sentence when a status alone still has more in that second.
 *
 * Every walk ends, as every list's (docs/decisions.md "Bounded walks"): a page holding more records than a page
 * holds is cut with a warning (`client.page`), and the whole walk, windows and status splits included, reads at
 * most the pages the first x-total-count fills plus a tenth and two (MAX_LIST_RECORDS' worth without one,
 * `maxPagesFor`), then stops with the generic walk's warning: a server that keeps answering full pages, whatever
 * their creation times, is not followed for ever. Pages that list only orders already listed (a window's boundary
 * second, a second split by status) are counted apart, capped at what the store's size can cost (PageBudget).
 *
 * `total` is x-total-count of the first request: every order matching the filters when the read began; `date`
 * its Date header, the store's time when the read began.
 * Used by `orders list --all`/`--limit`, `orders export`, and readers of everything updated since a time
 * (filters.updated_at_min).
 */
export async function* allOrders(
  client: StoreClient,
  filters: OrderFilters,
  options: { perPage?: number } = {},
): AsyncGenerator<{ orders: Order[]; total?: number; date?: number }> {
  const perPage = Math.min(options.perPage ?? MAX_PER_PAGE, MAX_PER_PAGE);
  const seen = new RecentIds(perPage);
  const budget = new PageBudget(client, perPage);
  let total: number | undefined;
  let date: number | undefined;
  let first = true;
  let yielded = false;
  for await (const page of windowsOf(client, filters, perPage, seen, budget, filters.status === undefined || filters.status === 'any')) {
    if (first) ({ total, date } = page);
    first = false;
    if (page.orders.length === 0) continue;
    yielded = true;
    yield { orders: page.orders, total, date };
  }
  // Nothing matches: one empty page, which still says the store's time.
  if (!yielded) yield { orders: [], total: first ? 0 : total, date };
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
): AsyncGenerator<{ orders: Order[]; total?: number; date?: number }> {
  const pagesPerQuery = Math.max(1, Math.floor(ORDER_QUERY_LIMIT / perPage));
  const userMax = filters.created_at_max;
  let max: number | undefined = userMax === undefined ? undefined : Date.parse(userMax);
  let query: OrderFilters = { ...filters };
  let page = 1;
  let oldest: number | undefined;
  for (;;) {
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
      // Pin the first query to what the store held when the read began (see above).
      const newest = res.orders.map(createdAt).find((at) => at !== undefined)!;
      max = floorSecond(newest) + SECOND;
      query = { ...query, created_at_max: formatTimestamp(new Date(max)) };
    }
    budget.count(res.received, orders.length, res.total);
    yield { orders, total: res.total, date: res.date };
    const endOfList = res.received < perPage || (res.total !== undefined && page * perPage >= res.total);
    if (endOfList) return;
    // The cursor: the first page of what was created at or before the oldest order read, unless that page would
    // mostly list again the orders of its seconds already read (many created at once): then the next page.
    const boundary = oldest === undefined ? undefined : floorSecond(oldest);
    const next = boundary === undefined ? undefined : boundary + SECOND;
    const relisted = boundary === undefined ? 0 : seen.countWithin(boundary, boundary + 2 * SECOND);
    if (next !== undefined && (max === undefined || next < max) && (relisted < perPage / 2 || page >= pagesPerQuery)) {
      max = next;
      page = 1;
    } else if (page < pagesPerQuery) {
      page += 1;
      continue;
    } else {
      if (oldest === undefined) {
        throw new StoreError('The store listed orders without a creation time, so the orders past the first 10,000 cannot be reached; narrow the query (e.g. --created-after/--created-before).', 1);
      }
      // More than 10,000 orders within one second: split that second by status, then go on before it.
      const second = floorSecond(oldest);
      if (!canSplitByStatus) {
        throw new StoreError(
          `More than ${ORDER_QUERY_LIMIT.toLocaleString('en-US')} orders match within the second ${formatTimestamp(new Date(second))}: the store serves at most ${ORDER_QUERY_LIMIT.toLocaleString('en-US')} results of one query; narrow it with --status, --payment-status or --shipping-status.`,
          1,
        );
      }
      for (const status of STATUSES) {
        const ofStatus = { ...filters, status, created_at_min: formatTimestamp(new Date(second)), created_at_max: formatTimestamp(new Date(max!)) } as OrderFilters;
        yield* windowsOf(client, ofStatus, perPage, seen, budget, false);
        if (budget.exhausted) return;
      }
      // Just before that second (a millisecond before: a store reading the end as inclusive or exclusive alike).
      max = second - 1;
      page = 1;
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
 * next query re-reads). Orders come newest first, so the ids to forget are always the first ones kept: memory
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
    while (this.order.length - this.head > this.lastPage && this.order[this.head]!.at >= this.oldestSecond + 2 * SECOND) {
      this.ids.delete(this.order[this.head]!.id);
      this.head++;
    }
    if (this.head > 4096 && this.head * 2 > this.order.length) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
  }

  /** How many of the ids kept were created in [from, to): what a query ending in those seconds lists again. */
  countWithin(from: number, to: number): number {
    let count = 0;
    for (let i = this.head; i < this.order.length; i++) if (this.order[i]!.at >= from && this.order[i]!.at < to) count++;
    return count;
  }
}
