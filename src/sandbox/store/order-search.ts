import type { OrderStatus, PaymentStatus } from '../../platform/orders.js';
import type { StoreData } from '../state.js';
import { type OrderRecord, ordersOf, presentedShippingStatus, upgradeOrder } from './orders.js';

/** The orders' list filters (GET /orders): which orders a filter keeps, newest first, from a cache kept per store. */

/** What a list of orders keeps; every absent criterion keeps all orders. */
export interface OrderFilter {
  status?: OrderStatus;
  payment?: PaymentStatus;
  /** Any of these shipping statuses, as the record shows it (presentedShippingStatus). */
  shipping?: readonly string[];
  /** The query's created_at/updated_at windows (timeWindow in ../http.ts); none: every time. */
  window?: (order: OrderRecord) => boolean;
  total: (amount: number) => boolean;
  /** Orders with a greater id. */
  sinceId?: number;
  customers?: Set<number>;
  /** Any of these channels (`storefront`). */
  channels?: Set<string>;
  /** Any of these payment methods (`payment_details.method`). */
  methods?: Set<string>;
  /** The payment provider (`gateway`). */
  provider?: string;
  /** The order number, or words of the customer's name or email (accents and case aside). */
  q?: string;
}

/**
 * The orders of a store newest first, sorted again only after an order was created, changed or removed; and the
 * last query's matches, so that paging through one query (50 pages of a window of 10,000) filters once.
 */
interface OrdersCache {
  sorted: OrderRecord[] | undefined;
  last: { key: string; matches: OrderRecord[] } | undefined;
}
const newestFirst = new WeakMap<StoreData, OrdersCache>();

function ordersCache(store: StoreData): OrdersCache {
  let cache = newestFirst.get(store);
  if (!cache) {
    const entry: OrdersCache = { sorted: undefined, last: undefined };
    ordersOf(store).listen(() => {
      entry.sorted = undefined;
      entry.last = undefined;
    });
    newestFirst.set(store, (cache = entry));
  }
  return cache;
}

function ordersNewestFirst(store: StoreData): OrderRecord[] {
  const cache = ordersCache(store);
  cache.sorted ??= ordersOf(store)
    .list()
    .map(upgradeOrder)
    .sort((a, b) => b.created_at - a.created_at || b.id - a.id);
  return cache.sorted;
}

function fold(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/**
 * The store's orders that pass the filter, newest first. `key` names the filter (its query without the paging):
 * the same key again, with no order changed in between, answers the same matches without filtering again.
 */
export function findOrders(store: StoreData, filter: OrderFilter, key?: string): OrderRecord[] {
  const cache = ordersCache(store);
  if (key !== undefined && cache.last?.key === key) return cache.last.matches;
  const matches = matchOrders(store, filter);
  if (key !== undefined) cache.last = { key, matches };
  return matches;
}

/**
 * The orders of `newestFirst` (newest first by creation) created within [min, max], compared to the second a
 * time falls in as every window is; either bound absent: open. A slice found by binary search: a client walking
 * back with `created_at_max` (a cursor: a new bound at every page) costs no new filtering of the whole store.
 */
export function createdBetween(newestFirst: OrderRecord[], min: number | undefined, max: number | undefined): OrderRecord[] {
  const second = (o: OrderRecord) => Math.floor(o.created_at / 1000) * 1000;
  // The first index whose order passes `ok`, for a predicate false then true along the list.
  const firstWhere = (ok: (o: OrderRecord) => boolean) => {
    let lo = 0;
    let hi = newestFirst.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ok(newestFirst[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const start = max === undefined ? 0 : firstWhere((o) => second(o) <= max);
  const end = min === undefined ? newestFirst.length : firstWhere((o) => second(o) < min);
  return start === 0 && end === newestFirst.length ? newestFirst : newestFirst.slice(start, Math.max(start, end));
}

function matchOrders(store: StoreData, filter: OrderFilter): OrderRecord[] {
  const { status, payment, shipping, window, total, sinceId, customers, channels, methods, provider, q } = filter;
  const words = q === undefined ? undefined : fold(q);
  return ordersNewestFirst(store).filter(
    (o) =>
      (status === undefined || o.status === status) &&
      (payment === undefined || o.payment_status === payment) &&
      (shipping === undefined || shipping.includes(presentedShippingStatus(store, o))) &&
      (window === undefined || window(o)) &&
      total(Number(o.total)) &&
      (sinceId === undefined || o.id > sinceId) &&
      (customers === undefined || customers.has(o.customer.id)) &&
      (channels === undefined || channels.has(o.channel ?? 'store')) &&
      (methods === undefined || methods.has(o.payment.method)) &&
      (provider === undefined || o.payment.gateway === provider) &&
      (words === undefined ||
        String(o.number) === q ||
        fold(o.customer.name).includes(words) ||
        fold(o.customer.email).includes(words)),
  );
}
