import type { Localized } from '../../api/categories.js';
import type { Variant, VariantInput } from '../../api/variants.js';
import type { VariantSpec } from './catalog-model.js';
import { DECIMAL_FIELDS, TEXT_FIELDS } from './dialects.js';
import type { VariantFields, StockFields, FieldChange } from './plan-model.js';
import { type Indexes, textOf } from './store-index.js';
import { looseSku, nearSkuReason } from './sku-match.js';

/** What differs between a row of the file and a variant of the store: only those fields are written. */

/** The diff of `variantDiff` field by field, with the store's values (an import's and a sync's dry run show it). */
export function fieldChanges(body: VariantInput, current: Variant, ix: Indexes): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, to] of Object.entries(body)) {
    if (field === 'inventory_levels') {
      for (const level of body.inventory_levels ?? []) changes.push({ field: `stock:${level.location_id}`, from: levelOf(current, level.location_id) ?? null, to: level.stock });
    } else if (field === 'stock') {
      changes.push({ field, from: stockAtDefault(current, ix) ?? null, to: body.stock! });
    } else {
      const from = (current as Record<string, unknown>)[field];
      changes.push({ field, from: typeof from === 'string' || typeof from === 'number' ? from : null, to: (to as string | number | null) ?? null });
    }
  }
  return changes;
}

export function localizedBody(values: Record<string, string>, ix: Indexes): Localized {
  const resolved: Record<string, string> = {};
  for (const [lang, text] of Object.entries(values)) resolved[lang || ix.main] = text;
  const langs = Object.keys(resolved);
  if (langs.length === 1 && langs[0] === ix.main && !ix.multilingual) return resolved[ix.main]!;
  return resolved;
}

export function localizedDiffers(given: Record<string, string>, stored: Localized | null | undefined, ix: Indexes): boolean {
  return Object.entries(given).some(([lang, text]) => textOf(stored, lang || ix.main, ix.main) !== text);
}

/** The variant fields a row sets, as request fields (stock handled apart). */
export function variantFields(v: VariantSpec): VariantFields {
  const body: VariantFields = {};
  for (const f of DECIMAL_FIELDS) if (v.decimals[f] !== undefined) body[f] = v.decimals[f];
  for (const f of TEXT_FIELDS) if (v.texts[f] !== undefined) body[f] = v.texts[f];
  return body;
}

export function stockBody(v: VariantSpec, ix: Indexes, current?: Variant): StockFields {
  const levels = new Map<string, number>();
  for (const [key, stock] of Object.entries(v.stockAt)) levels.set(ix.locationByKey.get(key.trim().toLowerCase())!.id, stock);
  const body: StockFields = {};
  if (levels.size === 0) {
    if (v.stock === undefined) return body;
    if (!current || stockAtDefault(current, ix) !== v.stock) body.stock = v.stock;
    return body;
  }
  if (v.stock !== undefined) {
    if (ix.defaultLocation) levels.set(ix.defaultLocation.id, v.stock);
    else body.stock = v.stock;
  }
  const changed = [...levels].filter(([id, stock]) => !current || levelOf(current, id) !== stock);
  if (changed.length > 0) body.inventory_levels = changed.map(([location_id, stock]) => ({ location_id, stock }));
  return body;
}

/**
 * The stock at one location, or undefined when unknown: stock not managed, or `inventory_levels` absent (the
 * store did not say how the stock is split, docs/platform.md §3; never read as zero). A location missing from
 * reported levels holds nothing.
 */
export function levelOf(variant: Variant, locationId: string): number | undefined {
  if (variant.stock === null || variant.stock === undefined || !variant.inventory_levels) return undefined;
  return variant.inventory_levels.find((l) => l.location_id === locationId)?.stock ?? 0;
}

export function stockAtDefault(variant: Variant, ix: Indexes): number | undefined {
  if (variant.stock === null || variant.stock === undefined) return undefined;
  if (!ix.defaultLocation || !variant.inventory_levels) return variant.stock;
  return levelOf(variant, ix.defaultLocation.id);
}

export function customValues(v: VariantSpec, ix: Indexes, current?: Variant): { id: string; value: string }[] {
  const out: { id: string; value: string }[] = [];
  for (const [name, value] of Object.entries(v.custom)) {
    const field = ix.customByName.get(name.trim().toLowerCase())!;
    const stored = current?.custom_fields?.find((c) => String(c.id) === field.id)?.value;
    if (stored === undefined || stored === null || String(stored) !== value) out.push({ id: field.id, value });
  }
  return out;
}

/** The request fields that make `current` match the row: only the fields the row gives and that differ. */
export function variantDiff(v: VariantSpec, current: Variant, ix: Indexes): VariantInput {
  const body: VariantInput = {};
  for (const f of DECIMAL_FIELDS) {
    const given = v.decimals[f];
    if (given === undefined) continue;
    const stored = current[f];
    if (stored === null || stored === undefined || stored === '' || Number(stored) !== Number(given)) body[f] = given;
  }
  for (const f of TEXT_FIELDS) {
    const given = v.texts[f];
    if (given !== undefined && (current[f] ?? '') !== given) body[f] = given;
  }
  Object.assign(body, stockBody(v, ix, current));
  return body;
}

/** Why a SKU the store holds on several variants cannot be matched (import and sync alike). */
export function ambiguousSku(sku: string, holders: { product: { id: number } }[]): string {
  const ids = [...new Set(holders.map((h) => h.product.id))];
  return `SKU ${sku} is held by ${holders.length} variants in the store (${ids.length === 1 ? 'product' : 'products'} ${ids.join(', ')}); the store is ambiguous`;
}

/** A SKU of the file that the store holds on another product, more than once, or only in a near form. */
export function skuConflict(sku: string, productId: number | undefined, ix: Indexes): string | undefined {
  const holders = ix.bySku.get(sku) ?? [];
  if (holders.length > 1) return ambiguousSku(sku, holders);
  // Held only in a near form (a trailing space, another Unicode form): neither renamed nor created beside it.
  const near = holders.length === 0 ? (ix.byLooseSku.get(looseSku(sku)) ?? []) : [];
  if (near.length > 0) return nearSkuReason(sku, near);
  const holder = holders[0];
  if (holder && holder.product.id !== productId) {
    return `SKU ${sku} belongs to product ${holder.product.id} (${textOf(holder.product.handle, ix.main, ix.main) || 'no handle'})`;
  }
  return undefined;
}
