import { httpError, intParam, invalid, notFound, platform422, toLocalized } from '../http.js';
import type { ImageRecord, Localized, ProductRecord } from '../records.js';
import type { StoreData, Tx } from '../state.js';
import { slug } from '../../platform/slug.js';
import { MAX_IMAGES, MAX_OPTIONS, MAX_VARIANTS } from '../../platform/catalog.js';
import { cdnUrl, checkImageSource, checkImageUpload } from './images.js';
import {
  applyVariantFields,
  checkStockInput,
  checkVariantFields,
  checkUniqueCombinations,
  createVariant,
  hasVariantFields,
  type OptionValues,
  type VariantFields,
} from './variants.js';

/**
 * Products (docs/api-rules.md §5.11, docs/platform.md §8) and their images. A create carries the product's
 * `attributes`, `variants` and `images` in one request; the seed's older form (sku/price/stock/inventory_levels on
 * the product, no `variants`) makes a product without variation (one variant without values holds them); neither
 * makes a product with variation whose variants are posted afterwards. Product-level price/sku/stock mirror the
 * first variant.
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

/** An image as a request gives it (POST /products/{id}/images, or inside POST /products), checked (images.ts). */
export interface ImageInput {
  /** A URL, or with `attachment` none: the image is stored under a CDN URL named after `filename` (images.ts). */
  src?: string;
  attachment?: string;
  filename?: string;
  position?: number;
  alt?: string | string[];
}

/** A variant inside POST /products: its fields and one value per attribute of the product, in order. */
export interface NewVariantInput extends VariantFields {
  values?: LocalizedInput[];
}

/**
 * The fields of a product a request may give. Those of VariantFields, on the product itself, go to its one variant
 * (the seed's form of a product without variation); `attributes`, `variants` and `images` only at creation.
 */
export interface ProductInput extends VariantFields {
  name: LocalizedInput;
  description?: LocalizedInput;
  handle?: LocalizedInput;
  categories?: number[];
  attributes?: LocalizedInput[];
  variants?: NewVariantInput[];
  images?: ImageInput[];
  published?: boolean;
  seo_title?: string | null;
  seo_description?: string | null;
}

/** A new product's texts, options and variants, checked and made localized. */
export interface NewProduct {
  name: Localized;
  description: Localized;
  /** The handles given; the others are generated from the name when the product is made. */
  handle: Localized;
  attributes: Localized[];
  /** The variants to make, in order: each one's option values and fields. */
  variants: { options: OptionValues; fields: VariantFields }[];
}

/**
 * Checks a new product before any change (so the mutation cannot fail midway): its texts, categories, option
 * names, every variant (values, money, measures, stock per location, unique combinations) and every image. The
 * limits of docs/platform.md §8 answer the platform's envelope.
 */
export function checkNewProduct(store: StoreData, input: ProductInput): NewProduct {
  const name = toLocalized(store, input.name, 'name');
  if (!Object.values(name).some((t) => t.trim() !== '')) throw invalid('name', "can't be blank");
  if (input.variants !== undefined && input.variants.length > MAX_VARIANTS) {
    throw platform422(`Product is not allowed to have more than ${MAX_VARIANTS} variants`);
  }
  if (input.images !== undefined && input.images.length > MAX_IMAGES) {
    throw platform422(`Product is not allowed to have more than ${MAX_IMAGES} images`);
  }
  input.images?.forEach((image, i) => checkImageSource(image.src ?? '', `images.${i}.src`));
  checkCategories(store, input.categories);
  const description = input.description === undefined ? {} : toLocalized(store, input.description, 'description');
  const handle = input.handle === undefined ? {} : toLocalized(store, input.handle, 'handle');
  checkHandle(store, handle);
  const attributes = (input.attributes ?? []).map((a, i) => toLocalized(store, a, `attributes.${i}`));
  if (attributes.length > MAX_OPTIONS) throw invalid('attributes', `at most ${MAX_OPTIONS} options are allowed`);
  const draft = { id: 0, attributes, images: [], variants: [] } as unknown as ProductRecord;
  checkOptionNames(store, attributes);
  const productLevel = hasVariantFields(input as unknown as Record<string, unknown>);
  // An empty `variants` beside the seed's product-level fields is the seed's form.
  const given = input.variants !== undefined && (input.variants.length > 0 || !productLevel) ? input.variants : undefined;
  if (given !== undefined && productLevel) {
    throw invalid('variants', 'give price, stock and SKU on the variants or on the product (a product without variation), not both');
  }
  let variants: NewProduct['variants'] = [];
  if (given !== undefined) {
    variants = given.map((v, i) => {
      const prefix = `variants.${i}.`;
      const values = (v.values ?? []).map((value, j) => toLocalized(store, value, `${prefix}values.${j}`));
      if (values.length !== attributes.length) {
        throw invalid(`${prefix}values`, `must give ${attributes.length} value(s), one per attribute of the product`);
      }
      const { values: _values, ...fields } = v;
      checkVariantFields(draft, fields, prefix);
      checkStockInput(store, fields, prefix);
      return { options: { values }, fields };
    });
    checkUniqueCombinations(store, variants.map((v, i) => ({ key: i, values: v.options.values })), (clashing) =>
      invalid(`variants.${clashing[1]}.values`, `repeat the values of variants.${clashing[0]}`),
    );
  } else if (productLevel) {
    if (attributes.length > 0) {
      throw invalid('attributes', 'a product with attributes takes its price, stock and SKU on its variants');
    }
    const fields: VariantFields = { ...input, image_id: undefined };
    checkVariantFields(draft, fields);
    checkStockInput(store, fields);
    variants = [{ options: { values: [] }, fields }];
  }
  return { name, description, handle, attributes, variants };
}

/** Option names of one product: each given in some language, none twice. */
function checkOptionNames(store: StoreData, attributes: Localized[]): void {
  const keys = attributes.map((a) => Object.values(a).find((t) => t.trim() !== '')?.trim().toLowerCase());
  keys.forEach((key, i) => {
    if (key === undefined) throw invalid(`attributes.${i}`, "can't be blank");
    if (keys.indexOf(key) !== i) throw invalid(`attributes.${i}`, 'names an option twice');
  });
}

/**
 * Makes a product checked by `checkNewProduct`, with its variants and images; ids of locations made to hold its
 * stock go to `createdLocations`.
 */
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
    attributes: checked.attributes,
    categories: input.categories ?? [],
    images: [],
    variants: [],
    seo_title: input.seo_title ?? null,
    seo_description: input.seo_description ?? null,
    published: input.published ?? true,
    created_at: now,
    updated_at: now,
  };
  for (const image of input.images ?? []) newImage(tx, store, p, image);
  for (const v of checked.variants) createVariant(tx, store, p, v.options, v.fields, createdLocations);
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
  if (input.variants !== undefined) throw invalid('variants', 'are managed with /products/{id}/variants');
  if (input.attributes !== undefined) {
    throw invalid('attributes', "are fixed at creation or by a product's first variant");
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
export function addImage(tx: Tx, store: StoreData, product: ProductRecord, input: ImageInput): ImageRecord {
  const image = newImage(tx, store, product, input);
  product.updated_at = tx.now();
  tx.put(store.products, product);
  return image;
}

/** Places a new image in `product.images` (the caller puts the product). */
function newImage(tx: Tx, store: StoreData, product: ProductRecord, input: ImageInput): ImageRecord {
  const position = Math.min(input.position ?? product.images.length + 1, product.images.length + 1);
  const now = tx.now();
  const alt = input.alt === undefined ? [] : Array.isArray(input.alt) ? input.alt : [input.alt];
  // The platform keeps its own copy, named after the file: never the URL it was given (docs/platform.md §12).
  const { name, type } = checkImageUpload(input);
  const src = cdnUrl(store.id, product, name, type);
  const image: ImageRecord = { id: tx.nextId(store, 'image'), product_id: product.id, src, position, alt, created_at: now, updated_at: now };
  product.images.splice(position - 1, 0, image);
  product.images.forEach((img, i) => (img.position = i + 1));
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
