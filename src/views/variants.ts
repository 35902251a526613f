import type { CustomField } from '../api/custom-fields.js';
import type { Location } from '../api/locations.js';
import { pickLocalized } from '../api/read.js';
import type { Variant } from '../api/variants.js';
import type { Column } from '../output/format.js';
import type { StockLevel, VariantFieldValue, VariantUpdate } from '../services/catalog/variants.js';

/** Variants and their custom fields as the commands show them; option values in the store's main language. */

export function variantOptions(v: Variant): string {
  return v.values.map((value) => pickLocalized(value)).join(' / ');
}

/** Whether the store counts the variant's stock (null stock, or stock management off: unlimited). */
export function tracksStock(v: Variant): boolean {
  return v.stock_management !== false && v.stock !== null && v.stock !== undefined;
}

export const variantColumns: Column<Variant>[] = [
  { header: 'id', get: (row) => row.id, kind: 'id' },
  { header: 'options', get: variantOptions, kind: 'text' },
  { header: 'sku', get: (v) => v.sku ?? '', kind: 'id' },
  { header: 'price', get: (v) => v.price, kind: 'money' },
  { header: 'promotional_price', label: 'promo', get: (v) => v.promotional_price, kind: 'money', priority: 1 },
  { header: 'stock', get: (v) => (tracksStock(v) ? v.stock : '∞'), kind: 'count' },
];

/** Options and SKU, then the stock at each location (priority order) and the total. */
export function variantStockColumns(locations: Location[]): Column<Variant>[] {
  return [
    ...variantColumns.slice(0, 3),
    ...locations.map((l): Column<Variant> => ({
      header: pickLocalized(l.name),
      kind: 'count',
      priority: 1,
      // No inventory_levels: the store did not say how the stock is split, so the cell stays blank (not 0).
      get: (v) => (!tracksStock(v) ? '∞' : v.inventory_levels ? (v.inventory_levels.find((level) => level.location_id === l.id)?.stock ?? 0) : ''),
    })),
    { header: 'total', get: (v) => (tracksStock(v) ? v.stock : '∞'), kind: 'count' },
  ];
}

export function variantFields(v: Variant, levels: StockLevel[] = [], customFields: VariantFieldValue[] = []): [string, unknown][] {
  return [
    ['ID', v.id],
    ['Product', v.product_id],
    ['Options', variantOptions(v)],
    ['SKU', v.sku ?? ''],
    ['Price', v.price ?? ''],
    ['Promotional price', v.promotional_price ?? ''],
    ['Cost', v.cost ?? ''],
    ['Stock', tracksStock(v) ? v.stock : 'not tracked'],
    ...levels.map((l): [string, unknown] => [`  at ${l.location}`, l.stock]),
    ['Weight', v.weight ?? ''],
    ['Size (w×h×d)', [v.width, v.height, v.depth].some((x) => x !== null && x !== undefined) ? [v.width ?? '', v.height ?? '', v.depth ?? ''].join(' × ') : ''],
    ['Barcode', v.barcode ?? ''],
    ['MPN', v.mpn ?? ''],
    ['Age group', v.age_group ?? ''],
    ['Gender', v.gender ?? ''],
    ['Image', v.image_id ?? ''],
    ...customFields.map((f): [string, unknown] => [`Field ${f.name}`, f.value]),
    ['Updated', v.updated_at ?? ''],
  ];
}

export const customFieldColumns: Column<CustomField>[] = [
  { header: 'id', get: (f) => f.id, kind: 'id' },
  { header: 'name', get: (f) => f.name, kind: 'text' },
  { header: 'type', get: (f) => f.value_type, kind: 'id' },
  { header: 'read_only', get: (f) => (f.read_only ? 'yes' : ''), kind: 'id', priority: 2 },
  { header: 'values', get: (f) => (f.values ?? []).join(', '), kind: 'text', priority: 1 },
  { header: 'description', get: (row) => row.description, kind: 'text', priority: 3 },
];

export const fieldValueColumns: Column<VariantFieldValue>[] = [
  { header: 'id', get: (f) => f.id, kind: 'id' },
  { header: 'name', get: (f) => f.name, kind: 'text' },
  { header: 'value', get: (f) => f.value, kind: 'text' },
];

/** "old → new" when a value changed, else the value. */
function changed(before: unknown, after: unknown): unknown {
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  if (text(before) === text(after)) return after ?? '';
  return `${text(before) || '(none)'} → ${text(after) || '(none)'}`;
}

/**
 * A variant after `variants update`: its record, with every field that changed shown old → new, and a stock
 * change per location (`at Depósito Central  28 → 40`) under the new total.
 */
export function variantUpdateFields(update: VariantUpdate): [string, unknown][] {
  const { before, after, levels } = update;
  const stock = (v: Variant) => (tracksStock(v) ? v.stock : 'not tracked');
  const replaced: Record<string, unknown> = {
    SKU: changed(before.sku, after.sku),
    Price: changed(before.price, after.price),
    'Promotional price': changed(before.promotional_price, after.promotional_price),
    Cost: changed(before.cost, after.cost),
    Stock: changed(stock(before), stock(after)),
    Weight: changed(before.weight, after.weight),
    Barcode: changed(before.barcode, after.barcode),
    MPN: changed(before.mpn, after.mpn),
    'Age group': changed(before.age_group, after.age_group),
    Gender: changed(before.gender, after.gender),
    Image: changed(before.image_id, after.image_id),
  };
  const fields: [string, unknown][] = [];
  for (const [label, value] of variantFields(after)) {
    fields.push([label, label in replaced ? replaced[label] : value]);
    if (label === 'Stock') for (const l of levels) fields.push([`  at ${l.location}`, changed(l.before, l.after)]);
  }
  return fields;
}

/** Only what changed in an update, old → new (`products update` of a product without options, under its record). */
export function changedVariantFields(update: VariantUpdate): [string, unknown][] {
  return variantUpdateFields(update).filter(([, value]) => typeof value === 'string' && value.includes(' → '));
}
