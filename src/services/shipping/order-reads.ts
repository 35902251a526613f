import { AuthError, NotFoundError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import { StoreError } from '../../errors.js';
import type { FulfillmentOrder } from '../../api/fulfillment-orders.js';
import { listOrdersPage, type Order, type OrderFilters } from '../../api/orders.js';
import { MAX_PER_PAGE, ORDER_QUERY_LIMIT } from '../../platform/pagination.js';
import { executeItems } from '../bulk/executor.js';
import { orderWithShipments } from './ship-order.js';

/**
 * The orders a shipments file names, each with its shipments inside, in the fewest requests the platform's
 * documented reads allow (docs/benchmarks.md, "Shipping from a file"):
 *
 * - one `GET /orders/{id}?aggregates=fulfillment_orders` per order (and, for a number the store answers 404 for
 *   as an id, the `q` search second: orders/order-lookup.ts), or
 * - the two lists of the open orders not yet sent — `status=open` with `shipping_status=unpacked`, and with
 *   `unfulfilled` (packing begun or part sent) — 200 orders a page with their shipments inside, the file's orders
 *   picked from them by id or by number. Each list is read whole only when its pages left are fewer than the
 *   file's orders not found yet; the file's orders the lists do not hold (dispatched already, closed, a wrong
 *   number) are then read one by one, so an order that moved between two pages is never lost, only read alone.
 *
 * A value is an order's id before it is another order's number, as for every ORDER argument; in a list a value
 * matching only a number is that order (ids have 9 digits on the platform, numbers far fewer).
 */

/** The two queries of the open orders not yet sent (docs/platform.md §10: the filter documents unpacked, unfulfilled, fulfilled). */
const TO_SHIP: readonly OrderFilters[] = [
  { status: 'open', shipping_status: 'unpacked' },
  { status: 'open', shipping_status: 'unfulfilled' },
];

/** Orders read at once, one by one. */
const READ_CONCURRENCY = 4;

export interface ShippingOrder {
  order: Order;
  shipments: FulfillmentOrder[];
  /** The value was the number the customer sees, not the id. */
  byNumber: boolean;
}

export interface ShippingOrderReads {
  /** By the value the file gives (an id or a number). */
  found: Map<number, ShippingOrder>;
  /** The values no order was found for, with why (one sentence). */
  missing: Map<number, string>;
  /** Requests of each kind, for the summary. */
  listPages: number;
  singleReads: number;
}

export interface ReadOptions {
  concurrency?: number;
  /** Orders found so far (progress). */
  onFound?: (found: number, total: number) => void;
}

export async function readShippingOrders(client: StoreClient, values: readonly number[], options: ReadOptions = {}): Promise<ShippingOrderReads> {
  const wanted = new Set(values);
  const reads: ShippingOrderReads = { found: new Map(), missing: new Map(), listPages: 0, singleReads: 0 };
  const report = () => options.onFound?.(reads.found.size, wanted.size);
  // Two lists cost at least two requests: worth it only for more orders than that.
  if (wanted.size > TO_SHIP.length) await pickFromLists(client, wanted, reads, report);
  const left = [...wanted].filter((v) => !reads.found.has(v));
  await executeItems(left, { concurrency: options.concurrency ?? READ_CONCURRENCY }, async (value) => {
    try {
      const read = await orderWithShipments(client, value);
      reads.found.set(value, { order: read.order, shipments: read.shipments, byNumber: read.orderId !== value });
    } catch (error) {
      reads.missing.set(value, missingReason(value, error));
    }
    report();
  });
  reads.singleReads = left.length;
  return reads;
}

async function pickFromLists(client: StoreClient, wanted: Set<number>, reads: ShippingOrderReads, report: () => void): Promise<void> {
  const byId = new Map<number, ShippingOrder>();
  const byNumber = new Map<number, ShippingOrder>();
  const notFound = () => [...wanted].filter((v) => !byId.has(v) && !byNumber.has(v)).length;
  for (const query of TO_SHIP) {
    // A first page costs one request, as the one order it would save at least.
    if (notFound() <= 1) break;
    let pages: number | undefined;
    for (let page = 1; ; page++) {
      const read = await listOrdersPage(client, { ...query, aggregates: 'fulfillment_orders' }, page, MAX_PER_PAGE);
      reads.listPages++;
      // A store that leaves the shipments out of a list: each order is read alone (where they come inside).
      if (read.orders.some((o) => o.fulfillment_orders === undefined)) return;
      for (const order of read.orders) {
        const found = { order, shipments: order.fulfillment_orders ?? [], byNumber: false };
        if (wanted.has(order.id)) byId.set(order.id, found);
        if (order.number !== undefined && wanted.has(order.number)) byNumber.set(order.number, { ...found, byNumber: true });
      }
      for (const [value, found] of [...byNumber, ...byId]) reads.found.set(value, found);
      report();
      if (read.received < MAX_PER_PAGE) break;
      // The cap of one query (docs/platform.md §9): past it, the rest are read one by one.
      const total = Math.min(read.total ?? Infinity, ORDER_QUERY_LIMIT);
      pages ??= Math.ceil(total / MAX_PER_PAGE);
      if (page >= pages || notFound() === 0) break;
      // Only when the rest of this list costs fewer requests than reading the orders not found one by one.
      if (page === 1 && pages - page >= notFound()) break;
    }
  }
}

/** Why no order was found for a value of the file: the store's 404 as one sentence naming the value; other errors as they are. */
function missingReason(value: number, error: unknown): string {
  if (error instanceof AuthError || !(error instanceof StoreError)) throw error;
  if (error instanceof NotFoundError) return `the store has no order ${value}, neither by id nor by the number the customer sees`;
  return error.message.replace(/\.$/, '');
}
