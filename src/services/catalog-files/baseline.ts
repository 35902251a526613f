import { categoryIdOf, type Product } from '../../api/products.js';
import type { Variant } from '../../api/variants.js';
import { money, stockAt } from './export.js';
import type { Catalog, ProductSpec, RowBaseline, VariantSpec } from './catalog-model.js';
import type { ColumnField } from './dialects.js';
import { type StoreSnapshot } from './plan-model.js';
import { categoryPaths, firstText, textOf } from './store-index.js';

/**
 * Round trips that never revert the store (docs/csv.md, "Round trips"; docs/decisions.md). A file written by
 * `products export` carries, per row, what the store held then (the `baseline` cell). Before planning, every
 * field whose cell still holds its exported text — the user did not edit it — is compared with what the store
 * holds now, written the way export writes it: when the store changed it since (sold stock, a sync, an admin
 * edit), the field becomes "leave as it is", as an empty cell would, and is counted as a kept store change.
 * An edited field, a row without baseline (an ERP feed, a deleted column or cell) or a row whose product or
 * variant is no longer the exported one keeps the file's value. The planner never sees the difference.
 */

export interface KeptChange {
  /** The product's handle and the variant's SKU ('' without one), and the row's line. */
  key: string;
  sku: string;
  line: number;
  /** The column, as headed in the file (`price`, `stock:Depósito Central`, `name:es`). */
  column: string;
  /** The cell as exported (and still in the file), and the store's value now, as export would write it. */
  exported: string;
  store: string;
}

/** Leaves alone, in `catalog`, the unedited fields the store changed since the export; returns them. */
export function keepStoreChanges(catalog: Catalog, snapshot: StoreSnapshot): KeptChange[] {
  const kept: KeptChange[] = [];
  const byId = new Map(snapshot.products.map((p) => [p.id, p]));
  const main = snapshot.store.main_language;
  const context: StoreContext = { snapshot, main, paths: undefined, perLocation: catalog.locationColumns.length > 0 };
  for (const spec of catalog.products) {
    for (const variant of spec.variants) {
      const baseline = variant.baseline;
      if (!baseline || baseline.unedited.length === 0) continue;
      const product = byId.get(baseline.product);
      const stored = product?.variants.find((v) => v.id === baseline.variant);
      // The row still names the exported product (by its handle) and variant (by its SKU and option values): a
      // row copied to make another product or variant is no baseline — a copy with a new colour and no SKU would
      // otherwise be created without the price and stock written on it — and neither is one whose product, SKU or
      // options changed since.
      if (!product || !stored || !handlesOf(product).includes(spec.key) || (stored.sku ?? '') !== variant.sku) continue;
      if (spec.optionsGiven && optionsKey(variant.values) !== optionsKey(stored.values.map((v) => textOf(v, main, main) || firstText(v)))) continue;
      for (const cell of baseline.unedited) {
        const now = currentCell(cell, product, stored, context);
        if (now === undefined || now === cell.exported) continue;
        leaveAlone(spec, variant, cell.field);
        kept.push({ key: spec.key, sku: variant.sku, line: variant.line, column: cell.header, exported: cell.exported, store: shownStoreValue(cell, now, stored) });
      }
    }
  }
  return kept;
}

/**
 * The store's value as a person reads it: a total column whose variant's split became known since (a sync wrote
 * one location) is blank in an export now, but the store's total is what changed.
 */
function shownStoreValue(cell: RowBaseline['unedited'][number], now: string, stored: Variant): string {
  const total = cell.field.kind === 'stock' && cell.field.location === undefined && now === '';
  return total && stored.stock !== null && stored.stock !== undefined ? String(stored.stock) : now;
}

interface StoreContext {
  snapshot: StoreSnapshot;
  main: string;
  paths: Map<number, string[]> | undefined;
  /** The file has `stock:<location>` columns: its `stock` column then holds only totals of unknown splits (export.ts). */
  perLocation: boolean;
}

/** Option values as the planner matches them (planner.ts valuesKey): without case or surrounding spaces. */
function optionsKey(values: string[]): string {
  return values.map((v) => v.trim().toLowerCase()).join('\u0000');
}

function handlesOf(product: Product): string[] {
  return typeof product.handle === 'string' ? [product.handle] : Object.values(product.handle ?? {}).filter((h): h is string => Boolean(h));
}

/** The store's value of one column now, as `products export` writes it; undefined when it cannot be told. */
function currentCell(cell: RowBaseline['unedited'][number], p: Product, v: Variant, ctx: StoreContext): string | undefined {
  const { field } = cell;
  const { main, snapshot } = ctx;
  switch (field.kind) {
    case 'name':
      return textOf(p.name, field.lang || main, main);
    case 'description':
      return textOf(p.description, field.lang || main, main);
    case 'categories': {
      ctx.paths ??= categoryPaths(snapshot.categories, main);
      const paths = ctx.paths;
      return p.categories.map((c) => paths.get(categoryIdOf(c))?.join(' > ')).filter(Boolean).join('; ');
    }
    case 'decimal':
      return money(v[field.field]);
    case 'text':
      return v[field.field] ?? '';
    case 'custom': {
      const definition = snapshot.customFields.find((f) => f.name.trim().toLowerCase() === field.name.trim().toLowerCase());
      if (!definition) return undefined;
      const value = v.custom_fields?.find((c) => String(c.id) === definition.id)?.value;
      return value === undefined || value === null ? '' : String(value);
    }
    case 'stock': {
      if (field.location !== undefined) {
        const wanted = field.location.trim().toLowerCase();
        const location = snapshot.locations.find((l) => l.id.toLowerCase() === wanted || Object.values(typeof l.name === 'string' ? { n: l.name } : l.name).some((n) => n?.trim().toLowerCase() === wanted));
        if (!location) return undefined;
        return Array.isArray(v.inventory_levels) ? stockAt(v, location.id) : '';
      }
      if (ctx.perLocation) return Array.isArray(v.inventory_levels) || v.stock === null || v.stock === undefined ? '' : String(v.stock);
      const defaultLocation = snapshot.locations.find((l) => l.is_default) ?? snapshot.locations[0];
      return stockAt(v, defaultLocation?.id);
    }
    default:
      return undefined;
  }
}

/**
 * The field a column feeds, as an empty cell leaves it: not in the spec, so the planner neither compares nor
 * writes it (also `--only`: only.ts). Key columns (handle, SKU, options) are not fields and stay.
 */
export function leaveAlone(spec: ProductSpec | undefined, variant: VariantSpec, field: ColumnField): void {
  const without = <T extends object>(record: T, key: string): T => {
    const copy = { ...record } as Record<string, unknown>;
    delete copy[key];
    return copy as T;
  };
  switch (field.kind) {
    case 'name':
    case 'description':
      if (spec) spec[field.kind] = without(spec[field.kind], field.lang);
      return;
    case 'categories':
      if (spec) spec.categories = undefined;
      return;
    case 'images':
      if (spec) spec.images = [];
      return;
    case 'shopifyPrice':
    case 'compareAtPrice':
      variant.decimals = without(without(variant.decimals, 'price'), 'promotional_price');
      return;
    case 'grams':
      variant.decimals = without(variant.decimals, 'weight');
      return;
    case 'decimal':
      variant.decimals = without(variant.decimals, field.field);
      return;
    case 'text':
      variant.texts = without(variant.texts, field.field);
      return;
    case 'custom':
      variant.custom = without(variant.custom, field.name);
      return;
    case 'stock':
      if (field.location !== undefined) variant.stockAt = without(variant.stockAt, field.location);
      else variant.stock = undefined;
      return;
  }
}
