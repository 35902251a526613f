import { type Product, getProduct, productPages } from '../../api/products.js';
import { NotFoundError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import { MAX_PER_PAGE } from '../../platform/pagination.js';

/**
 * The products a job touched, read as they are now with the fewest requests the documented endpoints allow, each
 * with `fields=` so nothing else comes down the wire. `--verify`, `store apply`'s check that nothing changed
 * since the plan, and `store undo` read through it.
 *
 * - With `since` (the job's start), the products updated since come first: `GET /products?updated_at_min=…`,
 *   200 a page. A write the store applied moved its product's `updated_at`, so after a job this window holds its
 *   products and little else, and paging stops once every touched product has been seen.
 * - Without it, the whole catalog is paged when that takes fewer requests than one per product (`catalogSize`).
 * - Whatever is still unseen is read one product at a time (`GET /products/{id}?fields=…`). So nothing rests on
 *   the store keeping `updated_at` (or on it knowing `updated_at_min`: a store that ignores the filter answers the
 *   whole catalog, which is read the same way): a product whose write was dropped, or a store that does not move
 *   the timestamp, still gets read. A product answered 404 is gone.
 *
 * Results come out a page at a time, so a caller can write what one page tells it before reading the next
 * (`store undo` keeps the time between reading a record and writing it short: docs/decisions.md).
 */

export interface TouchedPage {
  /** Touched products as the store holds them now (never the same product twice). */
  products: Product[];
  /** Touched product ids the store no longer has. */
  gone: number[];
}

export interface ReadTouchedOptions {
  /** `fields=` (the id is always asked for). */
  fields: readonly string[];
  /** ISO 8601: read the products updated since first. */
  since?: string;
  /** Products in the store, when known: whether paging the catalog beats one request per product. */
  catalogSize?: number;
  /** How many single-product reads are in flight at once. */
  concurrency?: number;
}

/** How far before `since` the window opens: the store's clock and this machine's may disagree. */
export const CLOCK_MARGIN_MS = 15 * 60 * 1000;

/** `since` less the clock margin, in the ISO form the store's filters take. */
export function windowStart(since: string): string {
  return new Date(Date.parse(since) - CLOCK_MARGIN_MS).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

export async function* readTouched(client: StoreClient, ids: Iterable<number>, options: ReadTouchedOptions): AsyncGenerator<TouchedPage> {
  const unseen = new Set(ids);
  if (unseen.size === 0) return;
  const fields = [...new Set(['id', ...options.fields])].join(',');
  const pageCatalog = options.catalogSize !== undefined && Math.ceil(options.catalogSize / MAX_PER_PAGE) < unseen.size;
  if (options.since !== undefined || pageCatalog) {
    const query = options.since !== undefined ? { fields, updated_at_min: windowStart(options.since) } : { fields };
    for await (const page of productPages(client, query)) {
      const products = page.products.filter((p) => unseen.delete(p.id));
      if (products.length > 0) yield { products, gone: [] };
      if (unseen.size === 0) return;
    }
  }
  const rest = [...unseen];
  const concurrency = Math.max(1, options.concurrency ?? 4);
  for (let i = 0; i < rest.length; i += concurrency) {
    const read = await Promise.all(rest.slice(i, i + concurrency).map((id) => readOne(client, id, options.fields)));
    yield { products: read.filter((p): p is Product => p !== undefined), gone: rest.slice(i, i + concurrency).filter((_, j) => read[j] === undefined) };
  }
}

async function readOne(client: StoreClient, id: number, fields: readonly string[]): Promise<Product | undefined> {
  try {
    return await getProduct(client, id, [...new Set(['id', ...fields])]);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
