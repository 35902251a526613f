import { PartialFailureError, UsageError } from '../client/errors.js';
import { plural } from '../output/format.js';
import type { StoreClient } from '../client/index.js';
import { MAX_PER_PAGE } from '../platform/pagination.js';
import { listCategories } from '../api/categories.js';
import {
  addProductImage,
  categoryIdOf,
  createProduct,
  deleteProduct,
  findProductBySku,
  getProduct,
  listAllProducts,
  listProducts,
  productPages,
  type Product,
  type ProductImage,
  type ProductInput,
  type ProductQuery,
  updateProduct,
} from '../api/products.js';
import { getStore } from '../api/store.js';
import { localText, localTexts, mergeLocalized, parseDecimal, parseLocalized, parseMoney, parseStock, parseStockAt } from './catalog-input.js';
import { resolveCategory } from './categories.js';
import { stockInput } from './locations.js';
import { parseHttpUrl } from './validate.js';

/** Product fields as the commands take them: raw flag values, checked here before anything is sent. */
export interface ProductFields {
  name?: string[];
  description?: string[];
  handle?: string[];
  price?: string;
  promotionalPrice?: string;
  cost?: string;
  sku?: string;
  stock?: string;
  stockAt?: string[];
  weight?: string;
  /** Ids or paths ("Ropa > Camisas"); just "none" clears them. */
  categories?: string[];
  published?: boolean;
  /** Image URLs, added after the product is created. */
  images?: string[];
}

export interface ProductListOptions {
  page?: number;
  perPage?: number;
  all?: boolean;
  /** At most this many products, from the first page on (pages of up to 200). */
  limit?: number;
  query?: ProductQuery;
  /** Only the product holding a variant with this SKU (GET /products/sku/{sku}; the list has no sku filter). */
  sku?: string;
  /** A category id or path ("Ropa > Camisas"). */
  category?: string;
}

export async function listProductsFor(client: StoreClient, opts: ProductListOptions): Promise<{ products: Product[]; total?: number }> {
  if (opts.query?.q !== undefined && opts.query.q.trim() === '') throw new UsageError('--q needs some text to search for.');
  if (opts.sku !== undefined) {
    if (opts.sku.trim() === '') throw new UsageError('--sku needs a SKU to look up.');
    return productBySku(client, opts);
  }
  const query: ProductQuery = { ...opts.query };
  if (opts.category !== undefined) query.category_id = resolveCategory(await listCategories(client), opts.category).id;
  if (opts.all) {
    const products = await listAllProducts(client, query);
    return { products, total: products.length };
  }
  if (opts.limit !== undefined) {
    const products: Product[] = [];
    let total: number | undefined;
    for await (const page of productPages(client, query, Math.min(opts.limit, MAX_PER_PAGE))) {
      total = page.total;
      products.push(...page.products.slice(0, opts.limit - products.length));
      if (products.length >= opts.limit) break;
    }
    return { products, total };
  }
  return listProducts(client, { page: opts.page, perPage: opts.perPage, query });
}

/** `--sku`: one lookup; other filters given with it narrow that one product down. */
async function productBySku(client: StoreClient, opts: ProductListOptions): Promise<{ products: Product[]; total: number }> {
  const product = await findProductBySku(client, opts.sku!);
  let products = product ? [product] : [];
  const handle = opts.query?.handle;
  if (handle !== undefined) products = products.filter((p) => localTexts(p.handle).includes(handle));
  if (opts.category !== undefined && products.length > 0) {
    const id = resolveCategory(await listCategories(client), opts.category).id;
    products = products.filter((p) => p.categories.some((c) => categoryIdOf(c) === id));
  }
  return { products, total: products.length };
}

export async function getProductById(client: StoreClient, id: number): Promise<Product> {
  return getProduct(client, id);
}

export async function createProductFrom(client: StoreClient, fields: ProductFields): Promise<Product> {
  if (!fields.name?.length) throw new UsageError('--name is required to create a product.');
  const images = (fields.images ?? []).map((url) => parseHttpUrl('--image', url));
  const input = await productInput(client, fields);
  const product = await createProduct(client, input);
  if (images.length === 0) return product;
  await addImages(client, product.id, images);
  return getProduct(client, product.id);
}

export async function updateProductFrom(client: StoreClient, id: number, fields: ProductFields): Promise<Product> {
  const touchesVariant = [fields.price, fields.promotionalPrice, fields.cost, fields.sku, fields.stock, fields.weight].some(
    (v) => v !== undefined,
  ) || Boolean(fields.stockAt?.length);
  const needsCurrent = touchesVariant || Boolean(fields.name?.length || fields.description?.length || fields.handle?.length);
  const input = await productInput(client, fields);
  if (Object.keys(input).length === 0) throw new UsageError('Nothing to update: give at least one field flag (see --help).');
  const current = needsCurrent ? await getProduct(client, id) : undefined;
  if (current && touchesVariant && current.attributes.length > 0) {
    throw new UsageError(
      `Product ${id} has options (${current.attributes.map((a) => localText(a)).join(', ')}); set price, SKU and stock per variant with \`store variants update ${id} VARIANT_ID\`.`,
    );
  }
  if (current) {
    for (const key of ['name', 'description', 'handle'] as const) {
      if (input[key] !== undefined) input[key] = mergeLocalized(current[key], input[key]);
    }
  }
  return updateProduct(client, id, input);
}

export async function deleteProductById(client: StoreClient, id: number): Promise<void> {
  await deleteProduct(client, id);
}

/**
 * Adds images in the order given. URLs are all checked before the first is sent; if the store refuses one
 * after others were added, the error says which were added (exit 3).
 */
export async function addImages(client: StoreClient, productId: number, urls: string[]): Promise<ProductImage[]> {
  const checked = urls.map((url) => parseHttpUrl('URL', url));
  const added: ProductImage[] = [];
  for (const url of checked) {
    try {
      added.push(await addProductImage(client, productId, url));
    } catch (error) {
      if (added.length === 0) throw error;
      throw new PartialFailureError(
        `Added ${added.length} of ${plural(checked.length, 'image')} to product ${productId}; ${url} failed: ${(error as Error).message}`,
        [{ url, error: (error as Error).message }],
      );
    }
  }
  return added;
}

async function productInput(client: StoreClient, fields: ProductFields): Promise<ProductInput> {
  // Every value is checked before the first request, so a typo never leaves a half-made change.
  const stock = fields.stock === undefined ? undefined : parseStock('--stock', fields.stock);
  const stockAt = (fields.stockAt ?? []).map(parseStockAt);
  const input: ProductInput = {};
  if (fields.price !== undefined) input.price = parseMoney('--price', fields.price);
  if (fields.promotionalPrice !== undefined) input.promotional_price = parseMoney('--promotional-price', fields.promotionalPrice);
  if (fields.cost !== undefined) input.cost = parseMoney('--cost', fields.cost);
  if (fields.weight !== undefined) input.weight = parseDecimal('--weight', fields.weight);
  if (fields.sku !== undefined) input.sku = fields.sku;
  if (fields.published !== undefined) input.published = fields.published;

  const localized: [string, string[] | undefined, 'name' | 'description' | 'handle'][] = [
    ['--name', fields.name, 'name'],
    ['--description', fields.description, 'description'],
    ['--handle', fields.handle, 'handle'],
  ];
  if (localized.some(([, values]) => values?.length)) {
    const store = await getStore(client);
    for (const [flag, values, key] of localized) {
      if (!values?.length) continue;
      input[key] = parseLocalized(flag, values, store);
    }
  }
  if (fields.categories?.length === 1 && fields.categories[0]!.trim().toLowerCase() === 'none') {
    input.categories = [];
  } else if (fields.categories?.length) {
    const categories = await listCategories(client);
    input.categories = [...new Set(fields.categories.map((ref) => resolveCategory(categories, ref).id))];
  }
  Object.assign(input, await stockInput(client, stock, stockAt));
  return input;
}
