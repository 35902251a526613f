import type { StoreData, Tx } from './state.js';
import type { VariantRecord } from './records.js';

/**
 * Stock API for orders (the stock of a variant lives in `variant.inventory_levels`, `stock` is their sum):
 *   takeStock(tx, store, variantId, qty)   → allocations [{location_id, quantity}] by location priority, or
 *                                            throws InsufficientStockError (nothing changed);
 *   returnStock(tx, store, variantId, allocations) puts the quantities back where they came from.
 */

export class InsufficientStockError extends Error {
  constructor(
    readonly variantId: number,
    readonly requested: number,
    readonly available: number,
  ) {
    super(`Variant ${variantId} has ${available} in stock; ${requested} requested`);
  }
}

export interface StockAllocation {
  location_id: string;
  quantity: number;
}


/** The stock of a variant: the sum of its levels. */
export function variantStock(variant: VariantRecord): number {
  return variant.inventory_levels.reduce((sum, level) => sum + level.stock, 0);
}

/**
 * Takes `quantity` units of a variant, location by location in priority order, and puts the product.
 * A variant without stock management gives its units from the default location without counting them.
 */
export function takeStock(tx: Tx, store: StoreData, variantId: number, quantity: number): StockAllocation[] {
  const found = store.findVariant(variantId);
  if (!found) throw new Error(`variant ${variantId} not found`);
  const { product, variant } = found;
  if (!variant.stock_management) {
    const location = store.defaultLocation() ?? store.locationsByPriority()[0];
    return location ? [{ location_id: location.id, quantity }] : [];
  }
  const available = variantStock(variant);
  if (available < quantity) throw new InsufficientStockError(variantId, quantity, available);
  const allocations: StockAllocation[] = [];
  let left = quantity;
  for (const location of store.locationsByPriority()) {
    if (left === 0) break;
    const level = variant.inventory_levels.find((l) => l.location_id === location.id);
    if (!level || level.stock <= 0) continue;
    const take = Math.min(level.stock, left);
    level.stock -= take;
    left -= take;
    allocations.push({ location_id: location.id, quantity: take });
  }
  variant.updated_at = product.updated_at = tx.now();
  tx.put(store.products, product);
  return allocations;
}

/**
 * Puts back what `takeStock` took (e.g. on a cancellation with restock). Unknown variants are skipped. Units whose
 * location was deleted since go to the default location: stock at a location that no longer exists could be
 * counted but never taken or seen.
 */
export function returnStock(tx: Tx, store: StoreData, variantId: number, allocations: StockAllocation[]): void {
  const found = store.findVariant(variantId);
  if (!found || !found.variant.stock_management) return;
  const { product, variant } = found;
  for (const allocation of allocations) {
    const { quantity } = allocation;
    const location_id = store.locations.has(allocation.location_id)
      ? allocation.location_id
      : (store.defaultLocation()?.id ?? allocation.location_id);
    const level = variant.inventory_levels.find((l) => l.location_id === location_id);
    if (level) level.stock += quantity;
    else variant.inventory_levels.push({ location_id, stock: quantity });
  }
  variant.updated_at = product.updated_at = tx.now();
  tx.put(store.products, product);
}
