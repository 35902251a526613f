import { PartialFailureError, UsageError } from '../../errors.js';
import { plural } from '../../output/format.js';
import type { StoreClient } from '../../client/index.js';
import { listCategories } from '../../api/categories.js';
import {
  addProductImage,
  categoryIdOf,
  createProduct,
  deleteProduct,
  findProductBySku,
  getProduct,
  listProducts,
  productPages,
  type Product,
  type ProductImage,
  type ProductInput,
  type ProductQuery,
  updateProduct,
} from '../../api/products.js';
import { getStore } from '../../api/store.js';
import { localText, localTexts, mergeLocalized, parseDecimal, parseLocalized, parseMoney, parseStock, parseStockAt } from './catalog-input.js';
import { resolveCategory } from './categories.js';
import { stockInput } from './locations.js';
import { type ListPage, listPages, type Paging } from '../common/paging.js';
import { type ImageSource, imageInput, imageRecord, readImageSource } from '../common/image-files.js';
import { type PriceStockFields, type VariantUpdate, levelChanges } from './variants.js';
import { created, deleted, fieldUpdates, recordCreate } from '../../ledger/changes.js';
import type { Recorder } from '../../ledger/recorder.js';
import type { ChangeIntent } from '../../ledger/types.js';
import { variantChanges, variantSubject } from './variant-changes.js';
import { findProduct } from './product-ref.js';

/** Product fields as the commands take them: raw flag values, checked here before anything is sent. */
export interface ProductFields extends PriceStockFields {
  name?: string[];
  description?: string[];
  handle?: string[];
  /** Ids or paths ("Ropa > Camisas"); just "none" clears them. */
  categories?: string[];
  published?: boolean;
  /** Image URLs, added after the product is created. */
  images?: string[];
}

/** The filters of `products list`. */
export interface ProductFilters {
  handle?: string;
  /** The store's search of name, description and SKU. */
  q?: string;
  /** Only the product holding a variant with this SKU (GET /products/sku/{sku}; the list has no sku filter). */
  sku?: string;
  /** A category id or path ("Ropa > Camisas"). */
  category?: string;
}

/** The products of a listing, as the pages arrive (`products list`); `--sku` is one lookup, whatever the paging. */
export async function* productPagesFor(client: StoreClient, filters: ProductFilters, paging: Paging): AsyncGenerator<ListPage<Product>> {
  if (filters.q !== undefined && filters.q.trim() === '') throw new UsageError('--q needs some text to search for.');
  if (filters.sku !== undefined) {
    if (filters.sku.trim() === '') throw new UsageError('--sku needs a SKU to look up.');
    const products = await productBySku(client, filters.sku, filters);
    yield { items: products, total: products.length };
    return;
  }
  const query: ProductQuery = { handle: filters.handle, q: filters.q };
  if (filters.category !== undefined) query.category_id = resolveCategory(await listCategories(client), filters.category).id;
  yield* listPages(
    {
      page: async (page, perPage) => {
        const { products, total } = await listProducts(client, { page, perPage, query });
        return { items: products, total };
      },
      pages: async function* (perPage) {
        for await (const { products, total } of productPages(client, query, perPage)) yield { items: products, total };
      },
      id: (product) => product.id,
    },
    paging,
  );
}

/** `--sku`: one lookup; other filters given with it narrow that one product down. */
async function productBySku(client: StoreClient, sku: string, filters: ProductFilters): Promise<Product[]> {
  const product = await findProductBySku(client, sku);
  let products = product ? [product] : [];
  if (filters.handle !== undefined) products = products.filter((p) => localTexts(p.handle).includes(filters.handle!));
  if (filters.category !== undefined && products.length > 0) {
    const id = resolveCategory(await listCategories(client), filters.category).id;
    products = products.filter((p) => p.categories.some((c) => categoryIdOf(c) === id));
  }
  return products;
}

/** A product as a delete prompt names it: `"Remera Básica" (remera-basica, SKU REM-BAS-S-BLANCO…, id 4, 12 variants, 3 images)`. */
export function describeProduct(p: Product): string {
  const handle = localText(p.handle);
  const skus = p.variants.map((v) => v.sku).filter(Boolean);
  const sku = skus.length === 0 ? '' : `, SKU ${skus[0]}${skus.length > 1 ? ` and ${skus.length - 1} more` : ''}`;
  return `"${localText(p.name)}" (${handle || 'no handle'}${sku}, id ${p.id}) with its ${plural(p.variants.length, 'variant')} and ${plural(p.images.length, 'image')}`;
}

export async function createProductFrom(client: StoreClient, recorder: Recorder, fields: ProductFields): Promise<Product> {
  if (!fields.name?.length) throw new UsageError('--name is required to create a product.');
  const images = fields.images ?? [];
  // Checked before the product is made: a missing file must not leave a product without its images.
  checkImageSources(images, '--image');
  const input = await productInput(client, fields);
  const write = recorder.intend([created({ resource: 'product', key: localText(input.handle) || null }, input)]);
  const product = await createProduct(client, input, write);
  write.identify(product.id);
  if (images.length === 0) return product;
  await addImages(client, recorder, product.id, images);
  return getProduct(client, product.id);
}

/**
 * The update, and the product as it was before. It is always read first (one GET): for the run ledger's
 * before-values, and to merge localized texts and check a variant field is not sent to a product with options.
 */
async function updateProductAndRead(client: StoreClient, recorder: Recorder, ref: string, fields: ProductFields): Promise<{ product: Product; before: Product }> {
  const touchesVariant = [fields.price, fields.promotionalPrice, fields.cost, fields.sku, fields.stock, fields.weight].some(
    (v) => v !== undefined,
  ) || Boolean(fields.stockAt?.length);
  const input = await productInput(client, fields);
  if (Object.keys(input).length === 0) throw new UsageError('Nothing to update: give at least one field flag (see --help).');
  // Found after the flags are checked: the lookup by id, handle or SKU is the read the update makes anyway.
  const current = await findProduct(client, ref);
  const id = current.id;
  if (current && touchesVariant && current.attributes.length > 0) {
    throw new UsageError(
      `Product ${id} has options (${current.attributes.map((a) => localText(a)).join(', ')}); set price, SKU and stock per variant with \`store variants update ${id} VARIANT_ID\`.`,
    );
  }
  for (const key of ['name', 'description', 'handle'] as const) {
    if (input[key] !== undefined) input[key] = mergeLocalized(current[key], input[key]);
  }
  const write = recorder.intend(productChanges(current, input));
  return { product: await updateProduct(client, id, input, write), before: current };
}

/** The fields a product update sends to its only variant (a product without options). */
const VARIANT_FIELDS = new Set(['price', 'promotional_price', 'cost', 'weight', 'sku', 'stock', 'inventory_levels']);

/** A product update's changes: its own fields on the product, price/SKU/stock on its variant (as `variants update` records them). */
function productChanges(current: Product, input: ProductInput): ChangeIntent[] {
  const own = Object.fromEntries(Object.entries(input).filter(([k]) => !VARIANT_FIELDS.has(k)));
  const forVariant = Object.fromEntries(Object.entries(input).filter(([k]) => VARIANT_FIELDS.has(k)));
  const changes = fieldUpdates({ resource: 'product', id: current.id, key: localText(current.handle) || null }, own, current);
  const [variant] = current.variants;
  if (variant && Object.keys(forVariant).length > 0) changes.push(...variantChanges(variantSubject(current.id, variant.id, variant.sku), forVariant, variant));
  return changes;
}

/**
 * `products update`: the product after the change and, for a product without options whose price, SKU or stock
 * changed, its variant before and after (stock per location), so the command can say what changed old → new.
 */
export async function updateProductWithChanges(
  client: StoreClient,
  recorder: Recorder,
  ref: string,
  fields: ProductFields,
): Promise<{ product: Product; variant?: VariantUpdate }> {
  const { product, before } = await updateProductAndRead(client, recorder, ref, fields);
  const [old] = before.variants;
  const [now] = product.variants;
  if (!old || !now || product.variants.length !== 1 || old.id !== now.id) return { product };
  const touchesStock = fields.stock !== undefined || Boolean(fields.stockAt?.length);
  return { product, variant: { before: old, after: now, levels: touchesStock ? await levelChanges(client, old, now) : [] } };
}

/**
 * Deletes a product, as read by `findProduct` (one GET, or the handle or SKU lookup): the run ledger keeps it
 * whole with its variants and images, and undo recreates it from there (with new ids).
 */
export async function deleteFoundProduct(client: StoreClient, recorder: Recorder, product: Product): Promise<void> {
  const id = product.id;
  const write = recorder.intend([deleted({ resource: 'product', id, key: localText(product.handle) || null }, product)]);
  await deleteProduct(client, id, write);
}

/**
 * Adds images in the order given: each an http(s) URL, or a local file (relative to `base`, the working directory by
 * default) sent as its base64 `attachment`. Every one is checked (a URL's form; a file's existence, size under 10 MB
 * and type by content) before the first is sent; if the store refuses one after others were added, the error says
 * which were added (exit 3).
 */
export async function addImages(client: StoreClient, recorder: Recorder, productId: number, sources: string[], base = process.cwd()): Promise<ProductImage[]> {
  const checked = checkImageSources(sources, 'IMAGE', base);
  const added: ProductImage[] = [];
  for (const source of checked) {
    try {
      const image = await recordCreate(recorder, created({ resource: 'image', parent: productId, key: source.src }, imageRecord(source)), async (write) =>
        addProductImage(client, productId, await imageInput(source), write),
      );
      added.push(image);
    } catch (error) {
      if (added.length === 0) throw error;
      throw new PartialFailureError(
        `Added ${added.length} of ${plural(checked.length, 'image')} to product ${productId}; ${source.src} failed: ${(error as Error).message}`,
        [{ url: source.src, error: (error as Error).message }],
      );
    }
  }
  return added;
}

/** Image arguments read as URLs or files, every one checked; the first that cannot be sent is a usage error naming it. */
function checkImageSources(sources: string[], name: string, base = process.cwd()): ImageSource[] {
  return sources.map((text) => {
    const source = readImageSource(text.trim(), base);
    if ('error' in source) throw new UsageError(`${name}: ${source.error}; give an http(s) URL such as https://example.com/photos/shirt.jpg or a gif, jpg, png or webp file.`);
    return source;
  });
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
