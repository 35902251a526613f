import { expect } from 'vitest';
import { imageNames } from './sandbox.js';

/** Catalogs and feeds of the bulk request-economy tests, and the check that a store holds them value by value. */

export interface Row {
  handle: string;
  name: string;
  images: string;
  size: string;
  sku: string;
  price: string;
  cost: string;
  stock: string;
}

export const HEADER = 'handle,name,categories,images,option1_name,option1_value,sku,price,cost,stock';

/** A catalog of `products` products with `sizes` variants each; the first product has 12 images. */
export function catalog(products: number, sizes = 3): Row[] {
  const rows: Row[] = [];
  for (let p = 0; p < products; p++) {
    for (let v = 0; v < sizes; v++) {
      rows.push({
        handle: `prod-${p}`,
        name: v === 0 ? `Producto ${p}` : '',
        images: v === 0 ? Array.from({ length: p === 0 ? 12 : 1 }, (_, i) => `https://img.example.com/${p}-${i}.jpg`).join('|') : '',
        size: ['S', 'M', 'L', 'XL'][v]!,
        sku: `SKU-${p}-${v}`,
        price: `${100 + p}.90`,
        cost: '',
        stock: String((p * 7 + v) % 13),
      });
    }
  }
  return rows;
}

export function csvOf(rows: Row[]): string {
  return `${HEADER}\n${rows
    .map((r) => [r.handle, r.name, r.name ? (Number(r.handle.slice(5)) % 2 ? 'Ropa > Remeras' : 'Hogar') : '', r.images, 'Talle', r.size, r.sku, r.price, r.cost, r.stock].join(','))
    .join('\n')}\n`;
}

/** A product as a store holds it (the independent store's and the sandbox's records both fit). */
export interface HeldProduct {
  id: number;
  name: Record<string, string>;
  handle: Record<string, string>;
  categories: unknown[];
  images: { src: string }[];
  variants: {
    sku: string | null;
    product_id: number;
    price: string | null;
    cost: string | null;
    stock?: number | null;
    values: Record<string, string>[];
    inventory_levels?: { stock: number | null }[];
  }[];
}

/** Every row's values are in the store, value by value, and the store holds no variant the rows do not name. */
export function expectCatalogIn(products: HeldProduct[], rows: Row[]): void {
  const variants = products.flatMap((p) => p.variants);
  for (const r of rows) {
    const v = variants.find((x) => x.sku === r.sku);
    expect(v, r.sku).toBeDefined();
    expect(Number(v!.price), `${r.sku} price`).toBe(Number(r.price));
    const stock = v!.inventory_levels ? v!.inventory_levels.reduce((n, l) => n + (l.stock ?? 0), 0) : v!.stock;
    expect(stock, `${r.sku} stock`).toBe(Number(r.stock));
    if (r.cost) expect(Number(v!.cost), `${r.sku} cost`).toBe(Number(r.cost));
    expect(Object.values(v!.values[0]!)[0], `${r.sku} size`).toBe(r.size);
    const product = products.find((p) => p.id === v!.product_id)!;
    expect(Object.values(product.handle)).toContain(r.handle);
    if (r.name) {
      expect(Object.values(product.name)).toContain(r.name);
      expect(imageNames(product.images.map((i) => i.src))).toEqual(imageNames(r.images.split('|')));
      expect(product.categories).toHaveLength(1);
    }
  }
  const skus = new Set(rows.map((r) => r.sku));
  expect(variants.filter((v) => !skus.has(v.sku ?? '')).map((v) => v.sku)).toEqual([]);
}

/** A sync feed: `sku` then the named columns (`stock`, `price`, or `stock:<location>` read from `cols`). */
export function syncFeed(rows: { sku: string; stock?: number; price?: string; cols?: Record<string, number> }[], header = 'sku,stock,price'): string {
  const columns = header.split(',').slice(1);
  const cell = (r: (typeof rows)[number], column: string) =>
    column.startsWith('stock:') ? Object.values(r.cols ?? {})[columns.indexOf(column)] : column === 'stock' ? r.stock : r.price;
  return `${header}\n${rows.map((r) => [r.sku, ...columns.map((c) => cell(r, c) ?? '')].join(',')).join('\n')}\n`;
}

