import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { intParam, invalid, notFound, paginate, parseBody, platform422, platformTime, requestedFields, showLocalized, withFields } from '../http.js';
import type { SandboxContext } from '../context.js';
import { variantStock } from '../stock.js';
import { type ImageRecord, type Localized, type ProductRecord } from '../records.js';
import { type StoreData } from '../state.js';
import { MAX_IMAGES } from '../../platform/catalog.js';
import { checkImageUpload } from '../store/images.js';
import {
  addImage,
  checkNewProduct,
  checkProductChange,
  createProduct,
  deleteImage,
  getProduct,
  updateProduct,
} from '../store/products.js';
import { presentVariant, showOption, sinceId, variantFieldsSchema, writeProduct } from './variants.js';
import { presentCategory } from './categories.js';

/**
 * The product and product image routes (docs/api-rules.md §5.11; records and operations: store/products.ts), and the
 * documented product record.
 */

const localizedInput = z.union([z.string(), z.record(z.string(), z.string())]);
const imageSchema = z.object({
  src: z.string(),
  position: z.number().int().min(1).optional(),
  alt: z.union([z.array(z.string()), z.string()]).optional(),
});
/** POST /products/{id}/images also takes a file: base64 `attachment` and its `filename` (docs/platform.md §12). */
const imageUploadSchema = imageSchema.extend({ src: z.string().optional(), attachment: z.string().optional(), filename: z.string().optional() });
/** POST /products (docs/platform.md §8): the product, its option names, its variants and its images in one body. */
const productSchema = variantFieldsSchema.extend({
  name: localizedInput,
  description: localizedInput.optional(),
  handle: localizedInput.optional(),
  categories: z.array(z.number().int()).optional(),
  attributes: z.array(localizedInput).optional(),
  variants: z.array(variantFieldsSchema.extend({ values: z.array(localizedInput).optional() })).optional(),
  images: z.array(imageSchema).optional(),
  published: z.boolean().optional(),
  seo_title: z.string().nullable().optional(),
  seo_description: z.string().nullable().optional(),
});

/** An image (docs/platform.md §3): id, product_id, src, position, alt and timestamps. */
export function presentImage(i: ImageRecord, product?: ProductRecord) {
  const compact = product?.compact_offset;
  return {
    id: i.id,
    product_id: i.product_id,
    src: i.src,
    position: i.position,
    alt: i.alt ?? [],
    created_at: platformTime(i.created_at ?? product?.created_at ?? 0, compact),
    updated_at: platformTime(i.updated_at ?? product?.updated_at ?? 0, compact),
  };
}

/**
 * A product (docs/platform.md §3): categories as full category records, images, full variants, and timestamps in
 * the offset form the record uses. A variant whose split is unreported carries no `inventory_levels`.
 */
function presentProduct(store: StoreData, p: ProductRecord) {
  const first = p.variants[0];
  const compact = p.compact_offset;
  const firstShown = first ? presentVariant(store, first, compact) : undefined;
  return {
    id: p.id,
    name: showLocalized(store, p.name),
    description: showLocalized(store, p.description),
    handle: showLocalized(store, p.handle),
    attributes: p.attributes.map((a) => showOption(store, a)),
    categories: p.categories.flatMap((id) => {
      const category = store.categories.get(id);
      return category ? [presentCategory(store, category)] : [];
    }),
    published: p.published,
    // Fields the platform sends that the sandbox does not model (docs/platform.md §3).
    brand: null,
    video_url: null,
    free_shipping: false,
    seo_title: p.seo_title,
    seo_description: p.seo_description,
    price: first?.price ?? null,
    promotional_price: first?.promotional_price ?? null,
    sku: first?.sku ?? null,
    stock: first ? (first.stock_management ? variantStock(first) : null) : null,
    ...(firstShown && !('inventory_levels' in firstShown) ? {} : { inventory_levels: firstShown?.inventory_levels ?? [] }),
    images: p.images.map((i) => presentImage(i, p)),
    variants: p.variants.map((v) => (v === first ? firstShown! : presentVariant(store, v, compact))),
    created_at: platformTime(p.created_at, compact),
    updated_at: platformTime(p.updated_at, compact),
  };
}

/** Text of every language of a localized value, lower-cased, for the `q` search. */
function searchable(value: Localized): string[] {
  return Object.values(value).map((t) => t.toLowerCase());
}

/**
 * The GET /products filters of docs/platform.md §3 that the sandbox applies; any other parameter is ignored, as the
 * platform ignores it (there is no `sku` filter: `GET /products/sku/{sku}` finds one SKU).
 */
function filterProducts(store: StoreData, query: Record<string, string | undefined>): ProductRecord[] {
  let items: ProductRecord[];
  if (query.handle !== undefined) {
    const p = store.productByHandle(query.handle);
    items = p ? [p] : [];
  } else {
    items = store.products.list();
  }
  const q = query.q?.trim().toLowerCase();
  if (q) {
    items = items.filter(
      (p) =>
        searchable(p.name).some((t) => t.includes(q)) ||
        searchable(p.description).some((t) => t.includes(q)) ||
        p.variants.some((v) => v.sku?.toLowerCase().includes(q)),
    );
  }
  if (query.category_id !== undefined) {
    const id = Number(query.category_id);
    items = items.filter((p) => p.categories.includes(id));
  }
  if (query.published === 'true' || query.published === 'false') {
    const published = query.published === 'true';
    items = items.filter((p) => p.published === published);
  }
  if (query.since_id !== undefined && /^\d+$/.test(query.since_id)) {
    const since = Number(query.since_id);
    items = items.filter((p) => p.id > since);
  }
  // min_stock/max_stock (docs/platform.md §3): a product with a variant whose counted stock is in the range (our
  // reading: the platform does not say whether it is any variant or the product's sum; a stock not managed is no number).
  const bound = (name: string) => {
    const text = query[name];
    if (text === undefined || text === '') return undefined;
    if (!/^-?\d+$/.test(text.trim())) throw invalid(name, 'must be a whole number');
    return Number(text);
  };
  const [min, max] = [bound('min_stock'), bound('max_stock')];
  if (min !== undefined || max !== undefined) {
    items = items.filter((p) =>
      p.variants.some((v) => v.stock_management && (min === undefined || variantStock(v) >= min) && (max === undefined || variantStock(v) <= max)),
    );
  }
  // created_at/updated_at windows: paginate applies them to every list (timeWindow in ../http.ts).
  return items;
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  type Params = { product_id: string; image_id: string };

  api.get('/products', async (req, reply) => {
    const store = req.store;
    const items = filterProducts(store, req.query as Record<string, string | undefined>);
    const fields = requestedFields(req.query);
    return paginate(req, reply, items, (p) => withFields(presentProduct(store, p), fields));
  });

  // The product holding the variant with this SKU (the lowest id when several do); 404 when none.
  api.get('/products/sku/:sku', async (req) => {
    const store = req.store;
    const sku = (req.params as { sku: string }).sku;
    const product = store.productsBySku(sku).sort((a, b) => a.id - b.id)[0];
    if (!product) throw notFound('Product', sku);
    return presentProduct(store, product);
  });

  api.get('/products/:product_id', async (req) =>
    withFields(presentProduct(req.store, getProduct(req.store, (req.params as Params).product_id)), requestedFields(req.query)),
  );

  api.post('/products', async (req, reply) => {
    const store = req.store;
    const body = parseBody(productSchema, req.body);
    const checked = checkNewProduct(store, body);
    const createdLocations: string[] = [];
    const product = state.mutate('product.create', (tx) => createProduct(tx, store, body, checked, createdLocations));
    for (const id of createdLocations) ctx.emit('location/created', store.id, id);
    ctx.emit('product/created', store.id, product.id);
    return reply.code(201).send(presentProduct(store, product));
  });

  api.put('/products/:product_id', async (req) => {
    const store = req.store;
    const product = getProduct(store, (req.params as Params).product_id);
    const body = parseBody(productSchema.partial(), req.body);
    const change = checkProductChange(store, product, body);
    return writeProduct(
      ctx,
      store,
      product,
      'product.update',
      (tx, created) => updateProduct(tx, store, product, body, change, created),
      () => presentProduct(store, product),
    );
  });

  api.delete('/products/:product_id', async (req) => {
    const store = req.store;
    const product = getProduct(store, (req.params as Params).product_id);
    state.mutate('product.delete', (tx) => tx.delete(store.products, product.id));
    ctx.emit('product/deleted', store.id, product.id);
    return {};
  });

  api.get('/products/:product_id/images', async (req, reply) => {
    const product = getProduct(req.store, (req.params as Params).product_id);
    return paginate(req, reply, sinceId(product.images, req.query), (i) => presentImage(i, product));
  });

  api.post('/products/:product_id/images', async (req, reply) => {
    const store = req.store;
    const product = getProduct(store, (req.params as Params).product_id);
    const body = parseBody(imageUploadSchema, req.body);
    checkImageUpload(body);
    if (product.images.length >= MAX_IMAGES) throw platform422(`Product is not allowed to have more than ${MAX_IMAGES} images`);
    const image = state.mutate('product.image.create', (tx) => addImage(tx, store, product, body));
    ctx.emit('product/updated', store.id, product.id);
    return reply.code(201).send(presentImage(image, product));
  });

  api.delete('/products/:product_id/images/:image_id', async (req) => {
    const store = req.store;
    const params = req.params as Params;
    const product = getProduct(store, params.product_id);
    const imageId = intParam(params.image_id, 'Image');
    if (!product.images.some((i) => i.id === imageId)) throw notFound('Image', imageId);
    state.mutate('product.image.delete', (tx) => deleteImage(tx, store, product, imageId));
    ctx.emit('product/updated', store.id, product.id);
    return {};
  });
}
