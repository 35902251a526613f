import type { Category } from '../api/categories.js';
import type { CustomField } from '../api/custom-fields.js';
import type { Address, Location } from '../api/locations.js';
import type { Product, ProductImage } from '../api/products.js';
import type { Variant } from '../api/variants.js';
import type { Column } from '../output/format.js';
import { localText } from './catalog-input.js';
import type { CategoryNode, CategoryRow } from './categories.js';
import type { StockLevel, VariantFieldValue } from './variants.js';

/**
 * How catalog records read in tables and on "key  value" record pages. Data only: the commands render it.
 * Localized texts show the store's main language (the first key the store returns).
 */

/** Location columns with the name in the store's main language (platform.md §7: names are keyed by locale). */
export function locationColumnsFor(mainLanguage?: string): Column<Location>[] {
  return [
    { header: 'Priority', get: (l) => l.priority },
    { header: 'ID', get: (l) => l.id },
    { header: 'Name', get: (l) => localText(l.name, mainLanguage) },
    { header: 'Default', get: (l) => (l.is_default ? 'yes' : '') },
    { header: 'Pickup', get: (l) => (l.allows_pickup ? 'yes' : '') },
    { header: 'City', get: (l) => l.address?.city ?? '' },
  ];
}

export function locationFields(l: Location, mainLanguage?: string): [string, unknown][] {
  const a: Partial<Address> = l.address ?? {};
  const street = [a.street, a.number, a.floor].filter(Boolean).join(' ');
  return [
    ['ID', l.id],
    ['Name', localText(l.name, mainLanguage)],
    ['Priority', l.priority],
    ['Default', l.is_default ? 'yes' : 'no'],
    ['Pickup', l.allows_pickup ? 'yes' : 'no'],
    ['Address', [street, a.locality, a.city, a.zipcode, a.province?.name || a.province?.code, a.country?.code].filter(Boolean).join(', ')],
    ['Region', [a.region?.code, a.region?.name].filter(Boolean).join(' ')],
  ];
}

export const categoryColumns: Column<CategoryRow>[] = [
  { header: 'ID', get: (r) => r.id },
  { header: 'Name', get: (r) => r.name },
  { header: 'Parent', get: (r) => r.parent ?? '' },
  { header: 'Path', get: (r) => r.path },
];

/** The tree as indented lines ("Ropa", "  Camisas", …) with ids. */
export function categoryTreeLines(nodes: CategoryNode[], depth = 0): string[] {
  return nodes.flatMap((n) => [`${'  '.repeat(depth)}${n.name} (${n.id})`, ...categoryTreeLines(n.children, depth + 1)]);
}

export function categoryFields(row: CategoryRow): [string, unknown][] {
  const c: Category = row.category;
  return [
    ['ID', c.id],
    ['Name', localText(c.name)],
    ['Path', row.path],
    ['Parent', c.parent ?? ''],
    ['Handle', localText(c.handle)],
    ['Description', localText(c.description)],
    ['Google category', c.google_shopping_category ?? ''],
    ['SEO title', localText(c.seo_title)],
    ['SEO description', localText(c.seo_description)],
  ];
}

/** Total stock of a product, or "∞" when a variant does not track stock. */
function productStock(p: Product): string {
  if (p.variants.length === 0) return '';
  if (p.variants.some((v) => v.stock === null || v.stock === undefined || v.stock_management === false)) return '∞';
  return String(p.variants.reduce((sum, v) => sum + (v.stock ?? 0), 0));
}

export const productColumns: Column<Product>[] = [
  { header: 'ID', get: (p) => p.id },
  { header: 'Name', get: (p) => localText(p.name) },
  { header: 'Handle', get: (p) => localText(p.handle) },
  { header: 'SKU', get: (p) => p.variants[0]?.sku ?? '' },
  { header: 'Price', get: (p) => p.variants[0]?.price ?? '' },
  { header: 'Stock', get: productStock },
  { header: 'Variants', get: (p) => p.variants.length },
];

export function productFields(p: Product): [string, unknown][] {
  return [
    ['ID', p.id],
    ['Name', localText(p.name)],
    ['Handle', localText(p.handle)],
    ['Options', p.attributes.map((a) => localText(a)).join(', ')],
    // Full category records (platform.md §3) show their name; plain ids (older records) as they are.
    ['Categories', p.categories.map((c) => (typeof c === 'number' ? String(c) : `${localText(c.name)} (${c.id})`)).join(', ')],
    ['Stock', productStock(p)],
    ['Images', p.images.map((i) => i.src).join(', ')],
    ['Created', p.created_at ?? ''],
    ['Updated', p.updated_at ?? ''],
  ];
}

export function variantOptions(v: Variant): string {
  return v.values.map((value) => localText(value)).join(' / ');
}

export const variantColumns: Column<Variant>[] = [
  { header: 'ID', get: (v) => v.id },
  { header: 'Options', get: variantOptions },
  { header: 'SKU', get: (v) => v.sku ?? '' },
  { header: 'Price', get: (v) => v.price ?? '' },
  { header: 'Promo', get: (v) => v.promotional_price ?? '' },
  { header: 'Stock', get: (v) => (v.stock_management === false || v.stock === null ? '∞' : v.stock ?? '') },
];

/** Options and SKU, then the stock at each location (priority order) and the total. */
export function variantStockColumns(locations: Location[]): Column<Variant>[] {
  const tracked = (v: Variant) => v.stock_management !== false && v.stock !== null;
  return [
    ...variantColumns.slice(0, 3),
    ...locations.map((l): Column<Variant> => ({
      header: localText(l.name),
      // No inventory_levels: the store did not say how the stock is split, so the cell stays blank (not 0).
      get: (v) => (!tracked(v) ? '∞' : v.inventory_levels ? (v.inventory_levels.find((level) => level.location_id === l.id)?.stock ?? 0) : ''),
    })),
    { header: 'Total', get: (v) => (tracked(v) ? v.stock ?? '' : '∞') },
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
    ['Stock', v.stock_management === false || v.stock === null ? 'not tracked' : v.stock ?? ''],
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

export const imageColumns: Column<ProductImage>[] = [
  { header: 'ID', get: (i) => i.id },
  { header: 'Position', get: (i) => i.position ?? '' },
  { header: 'Src', get: (i) => i.src },
];

export const customFieldColumns: Column<CustomField>[] = [
  { header: 'ID', get: (f) => f.id },
  { header: 'Name', get: (f) => f.name },
  { header: 'Type', get: (f) => f.value_type },
  { header: 'Read-only', get: (f) => (f.read_only ? 'yes' : '') },
  { header: 'Values', get: (f) => (f.values ?? []).join(', ') },
  { header: 'Description', get: (f) => f.description ?? '' },
];

export const fieldValueColumns: Column<VariantFieldValue>[] = [
  { header: 'ID', get: (f) => f.id },
  { header: 'Name', get: (f) => f.name },
  { header: 'Value', get: (f) => f.value },
];
