import { httpError, intParam, invalid, notFound, toLocalized } from '../http.js';
import type { ImageRecord, Localized, ProductRecord, StoreData, Tx } from '../state.js';
import { slug } from '../../platform/slug.js';
import {
  applyVariantFields,
  checkStockInput,
  checkVariantFields,
  createVariant,
  hasVariantFields,
  type VariantFields,
} from './variants.js';

/**
 * Products (docs/api-rules.md §5.11) and their images. A create with sku/price/stock/inventory_levels makes a product
 * without variation (one variant without values holds them); without them, a product with variation whose
 * variants are posted afterwards. Product-level price/sku/stock mirror the first variant.
 */

/** The product of a path's id; 404 when the store has none. */
export function getProduct(store: StoreData, raw: string): ProductRecord {
  const product = store.products.get(intParam(raw, 'Product'));
  if (!product) throw notFound('Product', raw);
  return product;
}

function checkCategories(store: StoreData, ids: number[] | undefined): void {
  ids?.forEach((id, i) => {
    if (!store.categories.has(id)) throw invalid(`categories.${i}`, `${id} is not a category of this store`);
  });
}

/** An explicit handle: every language's value must be free (or already this product's). */
function checkHandle(store: StoreData, handle: Localized, productId?: number): void {
  for (const [lang, value] of Object.entries(handle)) {
    if (value.trim() === '' || /\s|\//.test(value)) throw invalid(`handle.${lang}`, 'must be a URL slug without spaces or slashes');
    const owner = store.productIndex.byHandle.get(value);
    if (owner !== undefined && owner !== productId) {
      throw invalid('handle', `"${value}" is already used by product ${owner}`);
    }
  }
}

/** Handles generated from each language's name, made unique in the store with -2, -3 … */
function generateHandles(store: StoreData, name: Localized, given: Localized, productId: number): Localized {
  const result: Localized = { ...given };
  const free = (candidate: string) => {
    const owner = store.productIndex.byHandle.get(candidate);
    return owner === undefined || owner === productId;
  };
  for (const [lang, text] of Object.entries(name)) {
    if (result[lang]) continue;
    const base = slug(text) || `product-${productId}`;
    let candidate = base;
    for (let n = 2; !free(candidate); n++) candidate = `${base}-${n}`;
    result[lang] = candidate;
  }
  return result;
}

type LocalizedInput = string | Record<string, string>;

/** The fields of a product a request may give; those of VariantFields go to its one variant (no variation). */
export interface ProductInput extends VariantFields {
  name: LocalizedInput;
  description?: LocalizedInput;
  handle?: LocalizedInput;
  categories?: number[];
  images?: unknown[];
  published?: boolean;
  seo_title?: string | null;
  seo_description?: string | null;
}

/** A new product's texts, checked and made localized. */
export interface NewProduct {
  name: Localized;
  description: Localized;
  /** The handles given; the others are generated from the name when the product is made. */
  handle: Localized;
  /** A create with sku/price/stock/inventory_levels makes a product without variation (one variant without values). */
  withoutVariation: boolean;
}

/** Checks a new product before any change (so the mutation cannot fail midway). */
export function checkNewProduct(store: StoreData, input: ProductInput): NewProduct {
  const name = toLocalized(store, input.name, 'name');
  if (!Object.values(name).some((t) => t.trim() !== '')) throw invalid('name', "can't be blank");
  if (input.images && input.images.length > 0) {
    throw invalid('images', 'must be empty at creation; add images with POST /products/{id}/images');
  }
  checkCategories(store, input.categories);
  const description = input.description === undefined ? {} : toLocalized(store, input.description, 'description');
  const handle = input.handle === undefined ? {} : toLocalized(store, input.handle, 'handle');
  checkHandle(store, handle);
  const withoutVariation = hasVariantFields(input as unknown as Record<string, unknown>);
  const draft = { id: 0, images: [], variants: [] } as unknown as ProductRecord;
  checkVariantFields(draft, { ...input, image_id: undefined });
  checkStockInput(store, input);
  return { name, description, handle, withoutVariation };
}

/** Makes a product checked by `checkNewProduct`; ids of locations made to hold its stock go to `createdLocations`. */
export function createProduct(
  tx: Tx,
  store: StoreData,
  input: ProductInput,
  checked: NewProduct,
  createdLocations: string[],
): ProductRecord {
  const id = tx.nextId(store, 'product');
  const now = tx.now();
  const p: ProductRecord = {
    id,
    name: checked.name,
    description: checked.description,
    handle: generateHandles(store, checked.name, checked.handle, id),
    attributes: [],
    categories: input.categories ?? [],
    images: [],
    variants: [],
    seo_title: input.seo_title ?? null,
    seo_description: input.seo_description ?? null,
    published: input.published ?? true,
    created_at: now,
    updated_at: now,
  };
  if (checked.withoutVariation) createVariant(tx, store, p, { values: [] }, { ...input, image_id: undefined }, createdLocations);
  return tx.put(store.products, p);
}

/** A product's texts after a change, checked and made localized. */
export interface ProductChange {
  name: Localized;
  description: Localized;
  handle: Localized;
  /** The change sets fields of the product's one variant. */
  variantFields: boolean;
}

/** Checks a change of a product before any change. */
export function checkProductChange(store: StoreData, product: ProductRecord, input: Partial<ProductInput>): ProductChange {
  if (input.images !== undefined) {
    throw invalid('images', 'are managed with /products/{id}/images');
  }
  const name = input.name === undefined ? product.name : toLocalized(store, input.name, 'name', product.name);
  if (!Object.values(name).some((t) => t.trim() !== '')) throw invalid('name', "can't be blank");
  checkCategories(store, input.categories);
  const handle = input.handle === undefined ? product.handle : toLocalized(store, input.handle, 'handle', product.handle);
  checkHandle(store, handle, product.id);
  const description =
    input.description === undefined ? product.description : toLocalized(store, input.description, 'description', product.description);
  const variantFields = hasVariantFields(input as unknown as Record<string, unknown>);
  if (variantFields && product.attributes.length > 0) {
    throw httpError(422, `Product ${product.id} has variations; set price, stock and SKU on its variants`, {
      base: ['product has variations'],
    });
  }
  checkVariantFields(product, input);
  checkStockInput(store, input);
  return { name, description, handle, variantFields };
}

/** Applies a change checked by `checkProductChange`. */
export function updateProduct(
  tx: Tx,
  store: StoreData,
  product: ProductRecord,
  input: Partial<ProductInput>,
  change: ProductChange,
  createdLocations: string[],
): ProductRecord {
  product.name = change.name;
  product.description = change.description;
  product.handle = change.handle;
  if (input.categories !== undefined) product.categories = input.categories;
  if (input.published !== undefined) product.published = input.published;
  if (input.seo_title !== undefined) product.seo_title = input.seo_title;
  if (input.seo_description !== undefined) product.seo_description = input.seo_description;
  if (change.variantFields) {
    const v = product.variants[0];
    if (v) applyVariantFields(tx, store, product, v, input, createdLocations);
    else createVariant(tx, store, product, { values: [] }, input, createdLocations);
  }
  product.updated_at = tx.now();
  return tx.put(store.products, product);
}

/** Adds an image at `position` (default: last; beyond the last: last) and renumbers the others. */
export function addImage(
  tx: Tx,
  store: StoreData,
  product: ProductRecord,
  input: { src: string; position?: number; alt?: string | string[] },
): ImageRecord {
  const position = Math.min(input.position ?? product.images.length + 1, product.images.length + 1);
  const now = tx.now();
  const alt = input.alt === undefined ? [] : Array.isArray(input.alt) ? input.alt : [input.alt];
  const image: ImageRecord = { id: tx.nextId(store, 'image'), product_id: product.id, src: input.src, position, alt, created_at: now, updated_at: now };
  product.images.splice(position - 1, 0, image);
  product.images.forEach((img, i) => (img.position = i + 1));
  product.updated_at = tx.now();
  tx.put(store.products, product);
  return image;
}

/** Removes an image, renumbers the others and unlinks it from the variants that showed it. */
export function deleteImage(tx: Tx, store: StoreData, product: ProductRecord, imageId: number): void {
  product.images = product.images.filter((i) => i.id !== imageId);
  product.images.forEach((img, i) => (img.position = i + 1));
  for (const v of product.variants) if (v.image_id === imageId) v.image_id = null;
  product.updated_at = tx.now();
  tx.put(store.products, product);
}
