import { NotFoundError } from '../../client/errors.js';
import { UsageError } from '../../errors.js';
import { slug } from '../../platform/slug.js';
import type { StoreClient } from '../../client/index.js';
import { findProductByHandle, findProductBySku, getProduct, type Product } from '../../api/products.js';

/**
 * The one way a command takes a PRODUCT argument: its id, its handle, or the SKU of one of its variants, as
 * `products get` always did (issue 30). A number is an id first — it costs no lookup where the command reads
 * the product anyway — and a SKU only after the store answered 404 for it (a SKU may be all digits). Text that
 * could be a handle (a URL slug) is looked for as a handle, then as a SKU; any other text is a SKU: one request.
 */

const ID = /^[1-9]\d{0,15}$/;

function refText(ref: string): string {
  const text = ref.trim();
  if (text === '') throw new UsageError('Give a product id, handle or SKU.');
  return text;
}

function notFound(text: string): NotFoundError {
  return new NotFoundError(`No product has the id, handle or SKU "${text}".`);
}

/** The product a handle or SKU names (never an id): the handle first when the text could be one. */
async function findByHandleOrSku(client: StoreClient, text: string): Promise<Product | undefined> {
  if (slug(text) === text) {
    const byHandle = await findProductByHandle(client, text);
    if (byHandle) return byHandle;
  }
  return findProductBySku(client, text);
}

/** The product REF names, read whole: a number is read by id (GET /products/{id}), else the handle or SKU lookup. */
export async function findProduct(client: StoreClient, ref: string): Promise<Product> {
  const text = refText(ref);
  if (ID.test(text)) {
    try {
      return await getProduct(client, Number(text));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
    const bySku = await findProductBySku(client, text);
    if (bySku) return bySku;
    throw notFound(text);
  }
  const found = await findByHandleOrSku(client, text);
  if (found) return found;
  throw notFound(text);
}

/**
 * Runs `action` on the id REF names, for commands that do not read the product first (`variants list`,
 * `products images add`, …): a number is tried as the id with no lookup, and only when the store answers 404
 * is it looked up as a SKU (then `action` runs again on that product's id); a handle or SKU is looked up first
 * (one request). `action` must change nothing in the store before the request that answers 404 (it is the
 * first thing it sends about the product), so running it again is safe.
 */
export async function onProduct<T>(client: StoreClient, ref: string, action: (productId: number) => Promise<T>): Promise<T> {
  const text = refText(ref);
  if (ID.test(text)) {
    try {
      return await action(Number(text));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      const bySku = await findProductBySku(client, text).catch(() => undefined);
      if (!bySku || bySku.id === Number(text)) throw error;
      return action(bySku.id);
    }
  }
  const found = await findByHandleOrSku(client, text);
  if (!found) throw notFound(text);
  return action(found.id);
}

/** The id REF names: a number as it is (no request), else looked up as a handle or SKU. */
export async function productIdFor(client: StoreClient, ref: string): Promise<number> {
  const text = refText(ref);
  if (ID.test(text)) return Number(text);
  const found = await findByHandleOrSku(client, text);
  if (!found) throw notFound(text);
  return found.id;
}
