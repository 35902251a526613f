import { existsSync } from 'node:fs';
import type { StoreClient } from '../../client/index.js';
import { listOrdersPage, type Order } from '../../api/orders.js';
import { listProducts } from '../../api/products.js';
import type { Localized } from '../../api/categories.js';
import { ledgerPath, openLedger } from '../../ledger/store.js';
import type { RunRecord } from '../../ledger/types.js';
import { StoreError } from '../../errors.js';
import { MAX_PER_PAGE } from '../../platform/pagination.js';
import { pidAlive } from '../../util/process.js';
import { orderFilters, orderPages } from '../orders/order-listing.js';

/**
 * `store status`: the morning check in one screen (like `gh status`). Each section costs a known number of
 * requests, read side by side (four in all), and none reads past its first page:
 * - orders to ship: 2 requests — the first page of each query of `orders list --to-ship`, the newest `rows` shown,
 *   the count exact (the two queries' x-total-count);
 * - payments pending: 1 request — `GET /orders?payment_status=pending`, the newest `rows` and the count;
 * - low stock: 1 request — `GET /products?max_stock=N&fields=id,name,variants&per_page=200`: the variants of those
 *   products whose counted stock is at most N (a store with more than 200 such products: "at least");
 * - the last runs: no request — the run ledger on this machine (docs/ledger.md), the last run of each command that
 *   wrote to this store in the last 30 days.
 */

export interface StatusOptions {
  /** The low-stock threshold: variants with at most this many units. */
  lowStock: number;
  /** Orders shown per section. */
  rows: number;
  /** The store the runs are about (the ledger holds every store's). */
  storeId: string;
  env?: NodeJS.ProcessEnv;
  now?: Date;
}

export interface OrderSection {
  /** Every order of the section (x-total-count); absent when the store does not send it. */
  total?: number;
  /** The newest of them. */
  orders: Order[];
}

export interface LowStockVariant {
  product_id: number;
  variant_id: number;
  sku: string | null;
  /** The product's name and the variant's option values, as the store sent them (localized). */
  name: Localized;
  values: Localized[];
  stock: number;
}

export interface LowStockSection {
  threshold: number;
  variants: LowStockVariant[];
  /** False when the store holds more such products than the one page read: the count is then "at least". */
  complete: boolean;
}

export interface RunSummary {
  command: string;
  run: string;
  started_at: string;
  ended_at: string | null;
  /** Null while it runs, or when its process died before ending. */
  exit_code: number | null;
  state: 'ended' | 'running' | 'died';
  changes: number;
  failed: number;
  unknown: number;
}

export interface RunsSection {
  runs: RunSummary[];
  /** Why the ledger could not be read (the other sections are shown all the same). */
  problem?: string;
}

export interface StoreStatus {
  store_id: string;
  to_ship: OrderSection;
  payments_pending: OrderSection;
  low_stock: LowStockSection;
  runs: RunsSection;
}

/** The requests a status costs, for the help and the docs. */
export const STATUS_REQUESTS = { toShip: 2, paymentsPending: 1, lowStock: 1 } as const;

async function ordersToShip(client: StoreClient, rows: number): Promise<OrderSection> {
  const listing = orderFilters({ toShip: true });
  for await (const page of orderPages(client, listing, { limit: rows })) return { total: page.total, orders: page.items };
  return { total: 0, orders: [] };
}

async function paymentsPending(client: StoreClient, rows: number): Promise<OrderSection> {
  const { orders, total } = await listOrdersPage(client, { payment_status: 'pending' }, 1, rows);
  return { total, orders };
}

async function lowStock(client: StoreClient, threshold: number): Promise<LowStockSection> {
  const query = { max_stock: threshold, fields: 'id,name,variants' };
  const { products, total } = await listProducts(client, { page: 1, perPage: MAX_PER_PAGE, query });
  const variants: LowStockVariant[] = [];
  for (const product of products) {
    for (const v of product.variants) {
      // A stock not managed (null) is never low; a store that ignores max_stock is filtered here all the same.
      if (v.stock_management === false || v.stock === null || v.stock === undefined || v.stock > threshold) continue;
      variants.push({ product_id: product.id, variant_id: v.id, sku: v.sku, name: product.name, values: v.values, stock: v.stock });
    }
  }
  variants.sort((a, b) => a.stock - b.stock || a.product_id - b.product_id || a.variant_id - b.variant_id);
  return { threshold, variants, complete: total === undefined ? products.length < MAX_PER_PAGE : total <= products.length };
}

/** The last run of each command that wrote to this store in the last 30 days, newest first (at most `limit`). */
export function lastRuns(storeId: string, opts: { env?: NodeJS.ProcessEnv; now?: Date; limit?: number } = {}): RunsSection {
  const env = opts.env ?? process.env;
  // Reading never creates the ledger: a machine that never wrote has no runs.
  if (!existsSync(ledgerPath(env))) return { runs: [] };
  const since = new Date((opts.now ?? new Date()).getTime() - 30 * 86_400_000).toISOString();
  let ledger: ReturnType<typeof openLedger> | undefined;
  try {
    ledger = openLedger(env);
    const byCommand = new Map<string, RunRecord>();
    for (const run of ledger.runs({ since })) {
      if (run.store_id !== null && run.store_id !== storeId) continue;
      if (!byCommand.has(run.command)) byCommand.set(run.command, run);
      if (byCommand.size >= (opts.limit ?? 6)) break;
    }
    return {
      runs: [...byCommand.values()].map((run) => ({
        command: run.command,
        run: run.id,
        started_at: run.started_at,
        ended_at: run.ended_at,
        exit_code: run.exit_code,
        state: run.ended_at !== null ? 'ended' : pidAlive(run.pid ?? undefined) ? 'running' : 'died',
        changes: run.changes,
        failed: run.failed,
        unknown: run.unknown,
      })),
    };
  } catch (error) {
    if (error instanceof StoreError) return { runs: [], problem: error.message };
    throw error;
  } finally {
    ledger?.close();
  }
}

/** The whole status: the three store sections side by side (four requests), then the ledger. */
export async function storeStatus(client: StoreClient, options: StatusOptions): Promise<StoreStatus> {
  const [toShip, pending, low] = await Promise.all([
    ordersToShip(client, options.rows),
    paymentsPending(client, options.rows),
    lowStock(client, options.lowStock),
  ]);
  return {
    store_id: options.storeId,
    to_ship: toShip,
    payments_pending: pending,
    low_stock: low,
    runs: lastRuns(options.storeId, { env: options.env, now: options.now }),
  };
}
