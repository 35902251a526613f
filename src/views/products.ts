import type { Product, ProductImage } from '../api/products.js';
import { pickLocalized } from '../api/read.js';
import { type DetailSection, section } from '../cli/record-view.js';
import type { Column } from '../output/format.js';
import { tracksStock, variantColumns } from './variants.js';

/** Products as the commands show them; texts in the store's main language (the first key the store returns). */

/** Total stock of a product, or "∞" when a variant does not track stock. */
function productStock(p: Product): string {
  if (p.variants.length === 0) return '';
  if (!p.variants.every(tracksStock)) return '∞';
  return String(p.variants.reduce((sum, v) => sum + (v.stock ?? 0), 0));
}

/** One variant's stock, or "∞" when it does not track stock. */
function variantStock(v: Product['variants'][number]): string {
  return tracksStock(v) ? String(v.stock ?? 0) : '∞';
}

/**
 * The columns of a product list. A row's SKU and price are its first variant's; with `sku` (`products list
 * --sku`), the variant that carries that SKU, with its own stock, so the row shows what was asked for.
 */
export function productColumnsFor(sku?: string): Column<Product>[] {
  const shown = (p: Product) => (sku !== undefined ? p.variants.find((v) => v.sku === sku) : undefined) ?? p.variants[0];
  return [
    { header: 'id', get: (row) => row.id, kind: 'id' },
    { header: 'name', get: (p) => pickLocalized(p.name), kind: 'text' },
    { header: 'handle', get: (p) => pickLocalized(p.handle), kind: 'text', priority: 2 },
    { header: 'sku', get: (p) => shown(p)?.sku ?? '', kind: 'id' },
    { header: 'price', get: (p) => shown(p)?.price ?? '', kind: 'money' },
    // With --sku the row is that variant's: its own stock, not the product's total.
    { header: 'stock', get: (p) => (sku !== undefined && shown(p) ? variantStock(shown(p)!) : productStock(p)), kind: 'count' },
    { header: 'variants', get: (p) => p.variants.length, kind: 'count', priority: 1 },
  ];
}

/** A product list's columns, each row showing its first variant. */
export const productColumns = productColumnsFor();

export function productFields(p: Product): [string, unknown][] {
  return [
    ['ID', p.id],
    ['Name', pickLocalized(p.name)],
    ['Handle', pickLocalized(p.handle)],
    ['Options', p.attributes.map((a) => pickLocalized(a)).join(', ')],
    // Full category records (docs/platform.md §3) show their name; plain ids (older records) as they are.
    ['Categories', p.categories.map((c) => (typeof c === 'number' ? String(c) : `${pickLocalized(c.name)} (${c.id})`)).join(', ')],
    ['Stock', productStock(p)],
    ['Images', p.images.map((i) => i.src).join(', ')],
    ['Created', p.created_at ?? ''],
    ['Updated', p.updated_at ?? ''],
  ];
}

/** Under a product's record (`products get`, `create`, `update`): its variants. */
export function productSections(p: Product): DetailSection[] {
  return [section('Variants', p.variants, variantColumns)];
}

export const imageColumns: Column<ProductImage>[] = [
  { header: 'id', get: (i) => i.id, kind: 'id' },
  { header: 'position', get: (i) => i.position, kind: 'count' },
  { header: 'src', get: (i) => i.src, kind: 'text' },
];
