import { intParam, notFound } from '../http.js';
import type { ProductRecord, StoreData } from '../state.js';

/** Products (DESIGN.md §5.11): the lookup every product, variant and custom-field route starts from. */

/** The product of a path's id; 404 when the store has none. */
export function getProduct(store: StoreData, raw: string): ProductRecord {
  const product = store.products.get(intParam(raw, 'Product'));
  if (!product) throw notFound('Product', raw);
  return product;
}
