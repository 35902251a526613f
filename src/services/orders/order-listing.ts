import { UsageError } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import { listOrdersPage, type Order, type OrderFilters } from '../../api/orders.js';
import {
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  RECORD_SHIPPING_STATUSES,
  type OrderStatus,
  type PaymentStatus,
  type RecordShippingStatus,
  type ShippingStatus,
} from '../../platform/orders.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, ORDER_QUERY_LIMIT } from '../../platform/pagination.js';
import { parseTimestamp } from '../../platform/timestamps.js';
import { customerIdsOf, parseCustomerRef } from '../customers/customers.js';
import type { ListPage, Paging } from '../common/paging.js';
import { readMoney } from '../common/money.js';
import { notOneOf, parseDate, parseOrderId } from '../common/validate.js';
import { allOrders } from './all-orders.js';

/**
 * What `orders list` and `orders export` ask the store, from their flags (docs/platform.md §4, §10, §11).
 *
 * Most flags are one filter of GET /orders. Three need more than the documented filters say:
 * - `--shipping-status`: the filter documents `unpacked`, `unfulfilled` and `fulfilled`; records hold nine values
 *   (§10). `unshipped` and `shipped` are the 2025-03 names of the last two and ask them. `partially_packed`,
 *   `packed` and `partially_fulfilled` are read from the `unfulfilled` query and picked here by the record's own
 *   value, `delivered` likewise from `fulfilled`: the store has no filter for them.
 * - `--to-ship`: open, paid orders not every shipment of which is dispatched. Two queries (`shipping_status`
 *   `unpacked` and `unfulfilled`, each with `status=open&payment_status=paid`), merged newest first: the pages of
 *   the orders to ship, with an exact count, and none of the dispatched ones (one query without the shipping filter
 *   would also read every open paid order already sent).
 * - `--customer EMAIL`: the customer's id is looked up first (one request per email: services/customers).
 */

/** The list filters as the flags give them, checked here (the status flags take any text, for their pointers). */
export interface OrderFilterFlags {
  /** open, closed, cancelled or any; `paid` is the seed's fourth status, read as a payment state. */
  status?: string;
  paymentStatus?: string;
  shippingStatus?: string;
  /** Open, paid, not yet sent (see above). */
  toShip?: boolean;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  /** The API's `q`: an order number, or text in the customer's name or email. */
  search?: string;
  totalMin?: string;
  totalMax?: string;
  /** Customer ids or emails, each flag one or several comma-separated. */
  customers?: string[];
  channels?: string[];
  paymentMethods?: string[];
  paymentProvider?: string;
  sinceId?: string;
}

/** What a listing asks the store, and what it keeps of the answers. */
export interface OrderListing {
  /** The filters every query of the listing sends. */
  filters: OrderFilters;
  /** Several queries: each is `filters` with one of these (disjoint sets of orders), their orders merged newest first. */
  parts?: OrderFilters[];
  /** What no documented filter asks, kept here from what the queries answer (the store's count then says nothing). */
  keep?: (order: Order) => boolean;
  /** `--customer` values when some are emails: looked up (one request each) into `customer_ids` before the first page. */
  customerRefs?: string[];
  /** What was read differently from how it was written (`--status paid`), for stderr. */
  notes: string[];
}

/** The shipping states of the documented filter each record value is asked with, and whether it is picked here. */
const SHIPPING_QUERY: Record<RecordShippingStatus, { filter: ShippingStatus; pick?: true }> = {
  unpacked: { filter: 'unpacked' },
  unfulfilled: { filter: 'unfulfilled' },
  unshipped: { filter: 'unfulfilled' },
  fulfilled: { filter: 'fulfilled' },
  shipped: { filter: 'fulfilled' },
  partially_packed: { filter: 'unfulfilled', pick: true },
  packed: { filter: 'unfulfilled', pick: true },
  partially_fulfilled: { filter: 'unfulfilled', pick: true },
  delivered: { filter: 'fulfilled', pick: true },
};

const isOrderStatus = (v: string): v is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(v);
const isPaymentStatus = (v: string): v is PaymentStatus => (PAYMENT_STATUSES as readonly string[]).includes(v);
const isShippingStatus = (v: string): v is RecordShippingStatus => (RECORD_SHIPPING_STATUSES as readonly string[]).includes(v);

/**
 * A value given to the wrong one of the three state flags: one sentence naming the flag that means it
 * (`--status pending` → `--payment-status pending`), or undefined when it is no state at all.
 */
function wrongFlag(flag: string, value: string): UsageError | undefined {
  const orderState = "an order's status is open, closed or cancelled";
  if (flag !== '--payment-status' && isPaymentStatus(value)) {
    const lead = flag === '--status' ? `${orderState}; ` : '';
    return new UsageError(`--${flag.slice(2)} ${value}: ${lead}${value} is a payment status, so use --payment-status ${value}.`);
  }
  if (flag !== '--shipping-status' && isShippingStatus(value)) {
    const lead = flag === '--status' ? `${orderState}; ` : '';
    const toShip = SHIPPING_QUERY[value].filter === 'fulfilled' ? '' : ' (or --to-ship for the paid orders not yet sent)';
    return new UsageError(`${flag} ${value}: ${lead}${value} is a shipping status, so use --shipping-status ${value}${toShip}.`);
  }
  if (flag !== '--status' && isOrderStatus(value)) {
    return new UsageError(`${flag} ${value}: ${value} is an order's status, so use --status ${value}.`);
  }
  if (value === 'to-ship' || value === 'to_ship') return new UsageError(`${flag} ${value}: use --to-ship.`);
  return undefined;
}

/** One of the three state flags, checked: its value, or a sentence pointing to the flag that means it. */
function stateOf(flag: '--status' | '--payment-status' | '--shipping-status', raw: string | undefined, allowed: readonly string[]): string | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim().toLowerCase();
  if (value === 'any' || allowed.includes(value)) return value;
  throw wrongFlag(flag, value) ?? notOneOf(flag, raw, [...allowed, 'any']);
}

/** `--created-after`/`--created-before` (and the updated pair) checked and in order; both ends inclusive. */
function timeRange(after: string | undefined, before: string | undefined, names: [string, string]): [string | undefined, string | undefined] {
  const min = after === undefined ? undefined : parseDate(names[0], after);
  const max = before === undefined ? undefined : parseDate(names[1], before);
  if (min && max && Date.parse(min) > Date.parse(max)) {
    throw new UsageError(`${names[0]} (${min}) is later than ${names[1]} (${max}); no order can match.`);
  }
  return [min, max];
}

function amount(name: string, value: string): string {
  const read = readMoney(value.trim());
  if (typeof read !== 'string') throw new UsageError(`${name} ${read.error}.`);
  return read;
}

/** Repeated or comma-separated flag values as the API's comma-separated list; each checked by `check`. */
function list(name: string, values: string[] | undefined, check: (v: string) => boolean, what: string): string | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const items = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  const bad = items.find((v) => !check(v));
  if (bad !== undefined || items.length === 0) throw new UsageError(`${name} "${bad ?? values.join(',')}" is not ${what}.`);
  return [...new Set(items)].join(',');
}

const WORD = (v: string) => /^[a-z0-9][a-z0-9_.-]{0,63}$/i.test(v);

/** The three state flags and `--to-ship` into `listing` (status, payment and shipping filters, parts, keep). */
function readStates(flags: OrderFilterFlags, listing: OrderListing): void {
  const { filters, notes } = listing;
  const status = stateOf('--status', flags.status, [...ORDER_STATUSES, 'paid']);
  const payment = stateOf('--payment-status', flags.paymentStatus, PAYMENT_STATUSES) as PaymentStatus | 'any' | undefined;
  const shipping = stateOf('--shipping-status', flags.shippingStatus, RECORD_SHIPPING_STATUSES) as RecordShippingStatus | 'any' | undefined;
  if (status === 'paid') {
    if (payment !== undefined && payment !== 'paid') {
      throw new UsageError(`--status paid means --payment-status paid, which contradicts --payment-status ${payment}; give one of them.`);
    }
    filters.payment_status = 'paid';
    notes.push('Orders are open, closed or cancelled; paid is their payment status, so --status paid lists --payment-status paid.');
  } else if (status !== undefined) {
    filters.status = status as OrderStatus | 'any';
  }
  if (payment !== undefined) filters.payment_status = payment;
  if (shipping === 'any') filters.shipping_status = 'any';
  else if (shipping !== undefined) {
    const { filter, pick } = SHIPPING_QUERY[shipping];
    filters.shipping_status = filter;
    if (pick) listing.keep = (order) => order.shipping_status === shipping;
  }
  if (flags.toShip) {
    const clash =
      shipping !== undefined
        ? `--shipping-status ${shipping}`
        : filters.payment_status !== undefined && filters.payment_status !== 'paid'
          ? `--payment-status ${filters.payment_status}`
          : filters.status !== undefined && filters.status !== 'open'
            ? `--status ${filters.status}`
            : undefined;
    if (clash) throw new UsageError(`--to-ship lists the open, paid orders not yet sent; it does not go with ${clash}.`);
    filters.status = 'open';
    filters.payment_status = 'paid';
    listing.parts = [{ shipping_status: 'unpacked' }, { shipping_status: 'unfulfilled' }];
  }
}

/**
 * The listing from the flags, checked before anything is sent. `notes` says what was read differently from how it
 * was written (`--status paid` is a payment state on the platform).
 */
export function orderFilters(flags: OrderFilterFlags): OrderListing {
  const listing: OrderListing = { filters: {}, notes: [] };
  const { filters } = listing;
  readStates(flags, listing);
  const [createdMin, createdMax] = timeRange(flags.createdAfter, flags.createdBefore, ['--created-after', '--created-before']);
  if (createdMin) filters.created_at_min = createdMin;
  if (createdMax) filters.created_at_max = createdMax;
  const [updatedMin, updatedMax] = timeRange(flags.updatedAfter, flags.updatedBefore, ['--updated-after', '--updated-before']);
  if (updatedMin) filters.updated_at_min = updatedMin;
  if (updatedMax) filters.updated_at_max = updatedMax;
  if (flags.totalMin !== undefined) filters.total_min = amount('--total-min', flags.totalMin);
  if (flags.totalMax !== undefined) filters.total_max = amount('--total-max', flags.totalMax);
  if (filters.total_min && filters.total_max && Number(filters.total_min) > Number(filters.total_max)) {
    throw new UsageError(`--total-min (${filters.total_min}) is more than --total-max (${filters.total_max}); no order can match.`);
  }
  if (flags.customers !== undefined) {
    const refs = flags.customers.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean).map((v) => parseCustomerRef(v, '--customer'));
    if (refs.length === 0) throw new UsageError('--customer is empty; give a customer id or email address.');
    const ids = refs.flatMap((r) => ('id' in r ? [r.id] : []));
    if (ids.length === refs.length) filters.customer_ids = [...new Set(ids)].join(',');
    else listing.customerRefs = refs.map((r) => ('email' in r ? r.email : String(r.id)));
  }
  const channels = list('--channel', flags.channels, WORD, 'a sales channel such as store, api or pos');
  if (channels) filters.channels = channels;
  const methods = list('--payment-method', flags.paymentMethods, WORD, 'a payment method such as credit_card or bank_transfer');
  if (methods) filters.payment_methods = methods;
  if (flags.paymentProvider !== undefined) {
    const provider = flags.paymentProvider.trim();
    if (!WORD(provider)) throw new UsageError(`--payment-provider "${flags.paymentProvider}" is not a payment provider such as mercadopago.`);
    filters.payment_provider = provider;
  }
  if (flags.sinceId !== undefined) filters.since_id = parseOrderId(flags.sinceId, '--since-id');
  if (flags.search !== undefined) {
    const q = flags.search.trim().replace(/^#(?=\d+$)/, '');
    if (q === '') throw new UsageError("--search is empty; give an order number, or text of the customer's name or email.");
    filters.q = q;
  }
  return listing;
}

/** The listing with its `--customer` emails looked up into `customer_ids` (one request each; none without emails). */
async function withCustomerIds(client: StoreClient, listing: OrderListing): Promise<OrderListing> {
  if (!listing.customerRefs) return listing;
  const ids = await customerIdsOf(client, listing.customerRefs);
  return { ...listing, customerRefs: undefined, filters: { ...listing.filters, customer_ids: ids.join(',') } };
}

/** Newest first, as the store lists orders: by creation time, then id. */
function newer(a: Order, b: Order): boolean {
  const at = (o: Order) => parseTimestamp(o.created_at)?.getTime() ?? 0;
  return at(a) !== at(b) ? at(a) > at(b) : a.id > b.id;
}

type OrderStream = AsyncGenerator<{ orders: Order[]; total?: number }>;

/**
 * Several newest-first streams of orders as one, newest first, a page of `perPage` at a time; an order met twice
 * (it moved from one query's set to the other's while they were read) once. Every stream's first page is read
 * before the first merged page (side by side), so the total is their sum; a stream's next page only when its
 * orders run out before the page is full.
 */
async function* merged(streams: OrderStream[], perPage: number): OrderStream {
  const buffers: Order[][] = streams.map(() => []);
  const done = streams.map(() => false);
  const totals: (number | undefined)[] = streams.map(() => undefined);
  const fill = async (i: number) => {
    while (!done[i] && buffers[i]!.length === 0) {
      const next = await streams[i]!.next();
      if (next.done) done[i] = true;
      else {
        buffers[i]!.push(...next.value.orders);
        totals[i] = next.value.total;
      }
    }
  };
  await Promise.all(streams.map((_, i) => fill(i)));
  const total = totals.every((t) => t !== undefined) ? totals.reduce((sum: number, t) => sum + t!, 0) : undefined;
  const seen = new Set<number>();
  for (;;) {
    const page: Order[] = [];
    while (page.length < perPage) {
      for (const [i] of streams.entries()) await fill(i);
      let from = -1;
      for (const [i, buffer] of buffers.entries()) if (buffer.length > 0 && (from === -1 || newer(buffer[0]!, buffers[from]![0]!))) from = i;
      if (from === -1) break;
      const order = buffers[from]!.shift()!;
      if (!seen.has(order.id)) {
        seen.add(order.id);
        page.push(order);
      }
    }
    if (page.length === 0) {
      if (seen.size === 0) yield { orders: [], total };
      return;
    }
    yield { orders: page, total };
  }
}

/**
 * Every order of a listing, newest first, a page at a time, past the store's 10,000-result cap (all-orders.ts):
 * one query, or the merge of its parts; what `keep` does not keep left out (and then no total: the store's count
 * includes them). Used by `orders list`, `orders export` and `store status`.
 */
export async function* listingOrders(client: StoreClient, listing: OrderListing, perPage = MAX_PER_PAGE): OrderStream {
  const { filters, parts, keep } = await withCustomerIds(client, listing);
  const stream = parts
    ? merged(parts.map((part) => allOrders(client, { ...filters, ...part }, { perPage })), perPage)
    : allOrders(client, filters, { perPage });
  for await (const { orders, total } of stream) yield keep ? { orders: orders.filter(keep), total: undefined } : { orders, total };
}

/**
 * The orders of a listing, newest first, as the pages arrive (`orders list`): `--page` is one request (of one
 * query); `--limit` and `--all` read through `listingOrders`, each order once.
 */
export async function* orderPages(client: StoreClient, listing: OrderListing, paging: Paging): AsyncGenerator<ListPage<Order>> {
  if (paging.page !== undefined) {
    const perPage = paging.perPage ?? DEFAULT_PER_PAGE;
    if (listing.parts) throw new UsageError('--to-ship asks two queries, whose pages are not pages of one list; use --limit N or --all.');
    if ((paging.page - 1) * perPage >= ORDER_QUERY_LIMIT) {
      throw new UsageError(
        `--page ${paging.page} starts past the ${ORDER_QUERY_LIMIT.toLocaleString('en-US')}th order, and the store serves only the first ${ORDER_QUERY_LIMIT.toLocaleString('en-US')} results of a query; use --all, or narrow the query (e.g. --created-before).`,
      );
    }
    const { filters, keep } = await withCustomerIds(client, listing);
    const { orders, total } = await listOrdersPage(client, filters, paging.page, perPage);
    yield keep ? { items: orders.filter(keep) } : { items: orders, total };
    return;
  }
  let left = paging.all ? Number.POSITIVE_INFINITY : (paging.limit ?? DEFAULT_PER_PAGE);
  // Orders picked here come from fuller pages: the store's page of `left` would hold fewer of them.
  const perPage = listing.keep ? MAX_PER_PAGE : Math.min(left, MAX_PER_PAGE);
  for await (const { orders, total } of listingOrders(client, listing, perPage)) {
    const items = orders.slice(0, left);
    left -= items.length;
    yield { items, total };
    if (left <= 0) return;
  }
}
