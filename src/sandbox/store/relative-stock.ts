import { invalid, platform422 } from '../http.js';
import type { ProductRecord, VariantRecord } from '../records.js';
import type { StoreData, Tx } from '../state.js';
import { variantStock } from '../stock.js';
import { applyVariantFields } from './variants.js';

/**
 * `POST /products/{id}/variants/stock` (docs/platform.md §12): `{"action": "replace"|"variation", "value": N, "id": V?}`.
 * `replace` sets the stock (`null`: infinite, stock not managed), `variation` adds or removes N; without `id` every
 * variant of the product. Removing more than there is leaves 0, never an error, and so does a replace below 0.
 *
 * Where the stock sits is our choice (platform.md does not say): the change acts on the stock at the default
 * location, as a plain `stock` does everywhere else (docs/api-rules.md §5.12); a variant whose split is unreported
 * holds all of it there. A variation leaves a variant of infinite stock as it is (and does not answer it).
 */

export interface RelativeStock {
  action: 'replace' | 'variation';
  /** null only with replace: infinite stock. */
  value: number | null;
  /** The variants it applies to. */
  variants: VariantRecord[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the body strictly; every problem is a 422 and nothing changes. */
export function checkRelativeStock(product: ProductRecord, body: unknown): RelativeStock {
  if (!isRecord(body)) throw invalid('body', 'must be an object {action, value, id?}');
  const action = body.action;
  if (action !== 'replace' && action !== 'variation') throw platform422("Valid actions are 'replace', 'variation'.");
  const value = body.value;
  if (value === null) {
    if (action === 'variation') throw invalid('value', 'must be an integer (null, infinite stock, goes only with replace)');
  } else if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw invalid('value', value === undefined ? 'is required' : 'must be an integer');
  }
  let variants = product.variants;
  if (body.id !== undefined && body.id !== null) {
    const variant = typeof body.id === 'number' ? product.variants.find((v) => v.id === body.id) : undefined;
    if (!variant) throw invalid('id', `${JSON.stringify(body.id)} is not a variant of product ${product.id}`);
    variants = [variant];
  }
  return { action, value: value as number | null, variants };
}

/** The stock a variant holds at the default location (all of it when the split is unreported). */
function defaultStock(store: StoreData, v: VariantRecord): number {
  if (v.levels_unreported) return variantStock(v);
  const id = store.defaultLocation()?.id;
  return v.inventory_levels.find((l) => l.location_id === id)?.stock ?? 0;
}

/** Applies a checked change inside one mutation; returns the variants it updated. */
export function applyRelativeStock(
  tx: Tx,
  store: StoreData,
  product: ProductRecord,
  change: RelativeStock,
  createdLocations: string[],
): VariantRecord[] {
  const updated: VariantRecord[] = [];
  for (const v of change.variants) {
    if (change.value === null) applyVariantFields(tx, store, product, v, { stock: null }, createdLocations);
    else if (change.action === 'replace') applyVariantFields(tx, store, product, v, { stock: Math.max(0, change.value) }, createdLocations);
    else if (v.stock_management) {
      applyVariantFields(tx, store, product, v, { stock: Math.max(0, defaultStock(store, v) + change.value) }, createdLocations);
    } else continue;
    updated.push(v);
  }
  if (updated.length > 0) tx.put(store.products, product);
  return updated;
}
