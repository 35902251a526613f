import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  httpError,
  intParam,
  invalid,
  isoTime,
  notFound,
  paginate,
  parseBody,
  showLocalized,
  toLocalized,
} from '../http.js';
import type { SandboxContext } from '../server.js';
import { slug } from '../slug.js';
import { variantStock, type ImageRecord, type Localized, type ProductRecord, type StoreData } from '../state.js';
import {
  applyVariantFields,
  checkStockInput,
  checkVariantFields,
  createSingleVariant,
  getProduct,
  hasVariantFields,
  presentVariant,
  variantFieldsSchema,
} from './variants.js';

/**
 * Products (DESIGN.md §5.11) and their images. A create with sku/price/stock/inventory_levels makes a product
 * without variation (one variant without values holds them); without them, a product with variation whose
 * variants are posted afterwards. Product-level price/sku/stock mirror the first variant.
 */

const localizedInput = z.union([z.string(), z.record(z.string(), z.string())]);
const productSchema = variantFieldsSchema.extend({
  name: localizedInput,
  description: localizedInput.optional(),
  handle: localizedInput.optional(),
  categories: z.array(z.number().int()).optional(),
  images: z.array(z.unknown()).optional(),
  published: z.boolean().optional(),
  seo_title: z.string().nullable().optional(),
  seo_description: z.string().nullable().optional(),
});
const imageSchema = z.object({ src: z.string(), position: z.number().int().min(1).optional() });

export function presentImage(i: ImageRecord) {
  return { id: i.id, product_id: i.product_id, src: i.src, position: i.position };
}

export function presentProduct(store: StoreData, p: ProductRecord) {
  const first = p.variants[0];
  return {
    id: p.id,
    name: showLocalized(store, p.name),
    description: showLocalized(store, p.description),
    handle: showLocalized(store, p.handle),
    attributes: p.attributes.map((a) => showLocalized(store, a)),
    categories: p.categories,
    published: p.published,
    seo_title: p.seo_title,
    seo_description: p.seo_description,
    price: first?.price ?? null,
    promotional_price: first?.promotional_price ?? null,
    sku: first?.sku ?? null,
    stock: first ? (first.stock_management ? variantStock(first) : null) : null,
    inventory_levels: first ? first.inventory_levels.map((l) => ({ ...l })) : [],
    images: p.images.map(presentImage),
    variants: p.variants.map((v) => presentVariant(store, v)),
    created_at: isoTime(p.created_at),
    updated_at: isoTime(p.updated_at),
  };
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

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  type Params = { product_id: string; image_id: string };

  api.get('/products', async (req, reply) => {
    const store = req.store;
    const query = req.query as Record<string, string | undefined>;
    let items: ProductRecord[];
    if (query.handle !== undefined) {
      const p = store.productByHandle(query.handle);
      items = p ? [p] : [];
    } else if (query.sku !== undefined) {
      items = store.productsBySku(query.sku).sort((a, b) => a.id - b.id);
    } else {
      items = store.products.list();
    }
    if (query.handle !== undefined && query.sku !== undefined) {
      items = items.filter((p) => p.variants.some((v) => v.sku === query.sku));
    }
    if (query.category_id !== undefined) {
      const id = Number(query.category_id);
      items = items.filter((p) => p.categories.includes(id));
    }
    return paginate(req, reply, items, (p) => presentProduct(store, p));
  });

  api.get('/products/:product_id', async (req) =>
    presentProduct(req.store, getProduct(req.store, (req.params as Params).product_id)),
  );

  api.post('/products', async (req, reply) => {
    const store = req.store;
    const body = parseBody(productSchema, req.body);
    const name = toLocalized(store, body.name, 'name');
    if (!Object.values(name).some((t) => t.trim() !== '')) throw invalid('name', "can't be blank");
    if (body.images && body.images.length > 0) {
      throw invalid('images', 'must be empty at creation; add images with POST /products/{id}/images');
    }
    checkCategories(store, body.categories);
    const description = body.description === undefined ? {} : toLocalized(store, body.description, 'description');
    const givenHandle = body.handle === undefined ? {} : toLocalized(store, body.handle, 'handle');
    checkHandle(store, givenHandle);
    const withoutVariation = hasVariantFields(body as Record<string, unknown>);
    const draft = { id: 0, images: [], variants: [] } as unknown as ProductRecord;
    checkVariantFields(draft, { ...body, image_id: undefined });
    checkStockInput(store, body);
    const createdLocations: string[] = [];
    const product = state.mutate('product.create', (tx) => {
      const id = tx.nextId(store, 'product');
      const now = tx.now();
      const p: ProductRecord = {
        id,
        name,
        description,
        handle: generateHandles(store, name, givenHandle, id),
        attributes: [],
        categories: body.categories ?? [],
        images: [],
        variants: [],
        seo_title: body.seo_title ?? null,
        seo_description: body.seo_description ?? null,
        published: body.published ?? true,
        created_at: now,
        updated_at: now,
      };
      if (withoutVariation) createSingleVariant(tx, store, p, { ...body, image_id: undefined }, createdLocations);
      return tx.put(store.products, p);
    });
    for (const id of createdLocations) ctx.emit('location/created', store.id, id);
    ctx.emit('product/created', store.id, product.id);
    return reply.code(201).send(presentProduct(store, product));
  });

  api.put('/products/:product_id', async (req) => {
    const store = req.store;
    const product = getProduct(store, (req.params as Params).product_id);
    const body = parseBody(productSchema.partial(), req.body);
    if (body.images !== undefined) {
      throw invalid('images', 'are managed with /products/{id}/images');
    }
    const name = body.name === undefined ? product.name : toLocalized(store, body.name, 'name', product.name);
    if (!Object.values(name).some((t) => t.trim() !== '')) throw invalid('name', "can't be blank");
    checkCategories(store, body.categories);
    const handle = body.handle === undefined ? product.handle : toLocalized(store, body.handle, 'handle', product.handle);
    checkHandle(store, handle, product.id);
    const description =
      body.description === undefined ? product.description : toLocalized(store, body.description, 'description', product.description);
    const variantFields = hasVariantFields(body as Record<string, unknown>);
    if (variantFields && product.attributes.length > 0) {
      throw httpError(422, `Product ${product.id} has variations; set price, stock and SKU on its variants`, {
        base: ['product has variations'],
      });
    }
    checkVariantFields(product, body);
    checkStockInput(store, body);
    const createdLocations: string[] = [];
    const updated = state.mutate('product.update', (tx) => {
      product.name = name;
      product.description = description;
      product.handle = handle;
      if (body.categories !== undefined) product.categories = body.categories;
      if (body.published !== undefined) product.published = body.published;
      if (body.seo_title !== undefined) product.seo_title = body.seo_title;
      if (body.seo_description !== undefined) product.seo_description = body.seo_description;
      if (variantFields) {
        const v = product.variants[0];
        if (v) applyVariantFields(tx, store, product, v, body, createdLocations);
        else createSingleVariant(tx, store, product, body, createdLocations);
      }
      product.updated_at = tx.now();
      return tx.put(store.products, product);
    });
    for (const id of createdLocations) ctx.emit('location/created', store.id, id);
    ctx.emit('product/updated', store.id, updated.id);
    return presentProduct(store, updated);
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
    return paginate(req, reply, product.images, presentImage);
  });

  api.post('/products/:product_id/images', async (req, reply) => {
    const store = req.store;
    const product = getProduct(store, (req.params as Params).product_id);
    const body = parseBody(imageSchema, req.body);
    if (!isHttpUrl(body.src)) throw invalid('src', 'must be an http(s) URL');
    const image = state.mutate('product.image.create', (tx) => {
      const position = Math.min(body.position ?? product.images.length + 1, product.images.length + 1);
      const image: ImageRecord = { id: tx.nextId(store, 'image'), product_id: product.id, src: body.src, position };
      product.images.splice(position - 1, 0, image);
      product.images.forEach((img, i) => (img.position = i + 1));
      product.updated_at = tx.now();
      tx.put(store.products, product);
      return image;
    });
    ctx.emit('product/updated', store.id, product.id);
    return reply.code(201).send(presentImage(image));
  });

  api.delete('/products/:product_id/images/:image_id', async (req) => {
    const store = req.store;
    const params = req.params as Params;
    const product = getProduct(store, params.product_id);
    const imageId = intParam(params.image_id, 'Image');
    if (!product.images.some((i) => i.id === imageId)) throw notFound('Image', imageId);
    state.mutate('product.image.delete', (tx) => {
      product.images = product.images.filter((i) => i.id !== imageId);
      product.images.forEach((img, i) => (img.position = i + 1));
      for (const v of product.variants) if (v.image_id === imageId) v.image_id = null;
      product.updated_at = tx.now();
      tx.put(store.products, product);
    });
    ctx.emit('product/updated', store.id, product.id);
    return {};
  });
}
