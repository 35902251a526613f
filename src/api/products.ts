import { z } from 'zod';
import type { StoreClient, WriteRecord } from '../client/index.js';
import { NotFoundError } from '../client/errors.js';
import { UsageError } from '../errors.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../platform/pagination.js';
import { CategorySchema, type Localized, LocalizedList, LocalizedSchema, OptionalLocalized } from './categories.js';
import { Id, Num, parseRecords, readAll, Text, Timestamp } from './read.js';
import { parseReply } from './reply.js';
import { type VariantInput, VariantSchema } from './variants.js';

/** An image (docs/platform.md §3): `alt` and the timestamps pass through to `--json`. */
export const ProductImageSchema = z.looseObject({
  id: Id,
  product_id: Id.optional(),
  src: Text,
  position: Num,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ProductImage = z.infer<typeof ProductImageSchema>;

/** A product's category: the full category record the platform sends, or a plain id (older records). */
const ProductCategory = z.union([Id, CategorySchema]);

/**
 * A product as GET returns it (docs/platform.md §3): full variant records, images, localized option names
 * (`attributes`), a localized handle and its categories as full records (or ids). Product-level
 * price/sku/stock mirror the first variant.
 */
export const ProductSchema = z.looseObject({
  id: Id,
  name: LocalizedSchema.nullish().transform((v): Localized => v ?? {}),
  description: OptionalLocalized,
  handle: OptionalLocalized,
  attributes: LocalizedList,
  variants: z.array(VariantSchema).nullish().transform((v) => v ?? []),
  images: z.array(ProductImageSchema).nullish().transform((v) => v ?? []),
  categories: z.array(ProductCategory).nullish().transform((v) => v ?? []),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Product = z.infer<typeof ProductSchema>;

/** The id of a product's category, whichever form the store sent. */
export function categoryIdOf(category: Product['categories'][number]): number {
  return typeof category === 'number' ? category : category.id;
}

/**
 * The writable fields of a product. On create, sku/price/stock/inventory_levels make a product without
 * variation (one variant holds them); without them the product waits for variants to be posted.
 */
export interface ProductInput
  extends Pick<VariantInput, 'sku' | 'price' | 'cost' | 'stock' | 'inventory_levels' | 'weight' | 'width' | 'height' | 'depth' | 'mpn' | 'age_group' | 'gender'> {
  name?: Localized;
  description?: Localized;
  handle?: Localized;
  /** Not null here: a new product has no promotional price to remove. */
  promotional_price?: string;
  categories?: number[];
  /** On create: option names, one localized name per option (at most 3), and the variants, each with its values in that order. */
  attributes?: Localized[];
  variants?: NewVariant[];
  /** On create: the first images (the platform recommends at most 9 here; the rest through addProductImage). */
  images?: { src: string; alt?: string[] }[];
  published?: boolean;
}

/** A variant inside a product's POST /products (docs/platform.md §8). */
export type NewVariant = Omit<VariantInput, 'attributes'> & { values: Localized[] };

/**
 * Filters of GET /products (docs/platform.md §3): `handle` finds one product, `q` searches name, description and
 * SKU. There is no `sku` filter: the platform ignores an unknown parameter and answers with the whole
 * catalog, so one SKU is looked up with findProductBySku (GET /products/sku/{sku}).
 */
export interface ProductQuery {
  handle?: string;
  q?: string;
  category_id?: number;
  [filter: string]: string | number | undefined;
}

function readProducts(client: StoreClient, items: unknown): Product[] {
  return parseRecords(ProductSchema, items, 'product', (m) => client.warn(m));
}

export interface ProductPage {
  products: Product[];
  page: number;
  total?: number;
}

/** One page of products (per_page at most 200). */
export async function listProducts(
  client: StoreClient,
  opts: { page?: number; perPage?: number; query?: ProductQuery } = {},
): Promise<ProductPage> {
  const page = opts.page ?? 1;
  const query = { ...compact(opts.query), page, per_page: opts.perPage ?? DEFAULT_PER_PAGE };
  const res = await client.page<unknown>('/products', query);
  return { products: readProducts(client, res.items), page, total: res.total };
}

/**
 * Every page of products (200 at a time unless told), as they arrive: lists, exports and the catalog reads of
 * import and sync over large catalogs. Walked by `since_id`, so a product deleted or changed during the read
 * never hides another (a page-number walk would skip the first product of the next page).
 */
export async function* productPages(client: StoreClient, query?: ProductQuery, perPage = MAX_PER_PAGE): AsyncGenerator<ProductPage> {
  for await (const page of client.paginateById<unknown>('/products', compact(query), { perPage })) {
    yield { products: readProducts(client, page.items), page: page.page, total: page.total };
  }
}

/** The product with this handle (in any language), or undefined. */
export async function findProductByHandle(client: StoreClient, handle: string): Promise<Product | undefined> {
  const { products } = await listProducts(client, { query: { handle }, perPage: MAX_PER_PAGE });
  return products[0];
}

/**
 * A SKU as the one path segment of `GET /products/sku/{sku}`: encoded (`/`, `%`, spaces, …). "." and ".." are
 * refused: a URL resolves them (encoded as %2E too) as dot segments, so the request would reach another path
 * (`GET /products/`), and the platform has no other way to look one SKU up.
 */
function skuSegment(sku: string): string {
  if (sku === '.' || sku === '..' || sku === '') {
    throw new UsageError(`The SKU "${sku}" cannot be looked up: the store's API finds a SKU as a URL path segment (GET /products/sku/{sku}), which cannot be "${sku}".`);
  }
  return encodeURIComponent(sku);
}

/** The product that has a variant with this SKU (GET /products/sku/{sku}), or undefined when none does (404). */
export async function findProductBySku(client: StoreClient, sku: string): Promise<Product | undefined> {
  try {
    const res = await client.request({ method: 'GET', path: `/products/sku/${skuSegment(sku)}` });
    return parseReply(ProductSchema, res.body, 'product record');
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** The product and its variant that carry this SKU, or undefined (the first match when several do). */
export async function findVariantBySku(
  client: StoreClient,
  sku: string,
): Promise<{ product: Product; variant: Product['variants'][number] } | undefined> {
  const product = await findProductBySku(client, sku);
  const variant = product?.variants.find((v) => v.sku === sku);
  return product && variant ? { product, variant } : undefined;
}

/** One product; `fields` asks only for those (docs/platform.md §8: `fields=id,variants`). */
export async function getProduct(client: StoreClient, id: number, fields?: readonly string[]): Promise<Product> {
  const query = fields && fields.length > 0 ? { fields: fields.join(',') } : undefined;
  const res = await client.request({ method: 'GET', path: `/products/${id}`, query });
  return parseReply(ProductSchema, res.body, 'product record');
}

export async function createProduct(client: StoreClient, input: ProductInput, record: WriteRecord): Promise<Product> {
  const res = await client.request({ method: 'POST', path: '/products', body: input, record });
  return parseReply(ProductSchema, res.body, 'product record');
}

export async function updateProduct(client: StoreClient, id: number, input: ProductInput, record: WriteRecord): Promise<Product> {
  const res = await client.request({ method: 'PUT', path: `/products/${id}`, body: input, record });
  return parseReply(ProductSchema, res.body, 'product record');
}

export async function deleteProduct(client: StoreClient, id: number, record: WriteRecord): Promise<void> {
  await client.request({ method: 'DELETE', path: `/products/${id}`, record });
}

/**
 * An image to add (docs/platform.md §12): a URL the platform downloads, or a file as base64 `attachment` with its
 * `filename`; `position` (1 = first; default last) and `alt`.
 */
export type ImageInput = ({ src: string } | { attachment: string; filename: string }) & { position?: number; alt?: string[] };

/** Adds one image (a URL, or a file as its base64 `attachment`), by default at the end of the product's images. */
export async function addProductImage(client: StoreClient, productId: number, image: string | ImageInput, record: WriteRecord): Promise<ProductImage> {
  const body = typeof image === 'string' ? { src: image } : image;
  const res = await client.request({ method: 'POST', path: `/products/${productId}/images`, body, record });
  return parseReply(ProductImageSchema, res.body, 'product image');
}

export async function listProductImages(client: StoreClient, productId: number): Promise<ProductImage[]> {
  return readAll(client, `/products/${productId}/images`, ProductImageSchema, 'image');
}

export async function deleteProductImage(client: StoreClient, productId: number, imageId: number, record: WriteRecord): Promise<void> {
  await client.request({ method: 'DELETE', path: `/products/${productId}/images/${imageId}`, record });
}

function compact(query: ProductQuery | undefined): Record<string, string | number> | undefined {
  if (!query) return undefined;
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined) out[key] = value;
  return out;
}
