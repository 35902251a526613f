import type { FastifyInstance } from 'fastify';
import { ulid } from 'ulid';
import { z } from 'zod';
import {
  httpError,
  intParam,
  invalid,
  mainText,
  notFound,
  paginate,
  parseBody,
  parseMoney,
  parseOptionalMoney,
  platformTime,
  showLocalized,
  toLocalized,
} from '../http.js';
import type { SandboxContext } from '../context.js';
import { variantStock, type InventoryLevel, type Localized, type ProductRecord, type StoreData, type Tx, type VariantRecord } from '../state.js';

/**
 * Variants (DESIGN.md §5.12) and the variant logic products.ts shares: building a variant from a request,
 * stock per location, option (attribute) rules, presentation.
 */

export const MAX_OPTIONS = 3;
export const MAX_VARIANTS = 1000;

const moneyInput = z.union([z.number(), z.string()]).nullable();
const measureInput = z.union([z.number(), z.string()]).nullable();
const localizedInput = z.union([z.string(), z.record(z.string(), z.string())]);

export const variantFieldsSchema = z.object({
  sku: z.string().nullable().optional(),
  price: moneyInput.optional(),
  promotional_price: moneyInput.optional(),
  cost: moneyInput.optional(),
  stock: z.number().int().min(0).nullable().optional(),
  stock_management: z.boolean().optional(),
  inventory_levels: z.array(z.object({ location_id: z.string(), stock: z.number().int().min(0) })).optional(),
  weight: measureInput.optional(),
  width: measureInput.optional(),
  height: measureInput.optional(),
  depth: measureInput.optional(),
  mpn: z.string().nullable().optional(),
  barcode: z.string().nullable().optional(),
  age_group: z.string().nullable().optional(),
  gender: z.string().nullable().optional(),
  image_id: z.number().int().nullable().optional(),
});
export type VariantFields = z.infer<typeof variantFieldsSchema>;

const variantSchema = variantFieldsSchema.extend({
  attributes: z.array(z.object({ name: localizedInput, value: localizedInput })).optional(),
  values: z.array(localizedInput).optional(),
});

/** Whether a body names any field that lives on a variant. */
export function hasVariantFields(body: Record<string, unknown>): boolean {
  return ['sku', 'price', 'promotional_price', 'cost', 'stock', 'stock_management', 'inventory_levels', 'weight'].some(
    (f) => body[f] !== undefined,
  );
}

/**
 * A localized option name or value as the platform sends it: every store language, or, when the main language
 * has no text, only the languages that have some (platform.md §0: an option named only in `pt`).
 */
export function showOption(store: StoreData, value: Localized) {
  if (value[store.record.main_language]) return showLocalized(store, value);
  return Object.fromEntries(Object.entries(value).filter(([, text]) => text !== ''));
}

/** A variant (platform.md §3); `inventory_levels` is left out when the store does not report the split. */
export function presentVariant(store: StoreData, v: VariantRecord, compact = false) {
  const record = {
    id: v.id,
    product_id: v.product_id,
    image_id: v.image_id,
    sku: v.sku,
    price: v.price,
    promotional_price: v.promotional_price,
    cost: v.cost,
    stock_management: v.stock_management,
    stock: v.stock_management ? variantStock(v) : null,
    weight: v.weight,
    width: v.width,
    height: v.height,
    depth: v.depth,
    barcode: v.barcode ?? null,
    mpn: v.mpn,
    age_group: v.age_group,
    gender: v.gender,
    values: v.values.map((value) => showOption(store, value)),
    inventory_levels: v.inventory_levels.map((l) => ({ location_id: l.location_id, stock: l.stock })) as
      | { location_id: string; stock: number }[]
      | undefined,
    custom_fields: v.custom_fields,
    created_at: platformTime(v.created_at, compact),
    updated_at: platformTime(v.updated_at, compact),
  };
  if (v.levels_unreported) delete record.inventory_levels;
  return record;
}

function measure(value: string | number | null | undefined, field: string, current: string | null): string | null {
  if (value === undefined) return current;
  if (value === null || value === '') return null;
  const text = String(value).trim();
  if (!/^\d+(\.\d+)?$/.test(text)) throw invalid(field, 'must be a non-negative decimal number');
  return text;
}

/**
 * The default location, created when a store without locations first receives stock, since every unit of
 * stock lives at some location.
 */
function defaultLocationId(tx: Tx, store: StoreData, created: string[]): string {
  const existing = store.defaultLocation();
  if (existing) return existing.id;
  const now = tx.now();
  const location = tx.put(store.locations, {
    id: ulid(now),
    name: { [`${store.record.main_language}_${store.record.country}`]: 'Principal' },
    address: {
      zipcode: '', street: '', number: '', floor: '', locality: '', city: '',
      province: { code: '', name: '' }, region: { code: '', name: '' },
      country: { code: store.record.country, name: '' }, reference: '', between_streets: '',
    },
    is_default: true,
    allows_pickup: false,
    priority: 0,
    created_at: now,
    updated_at: now,
  });
  created.push(location.id);
  return location.id;
}

/** Checks stock input before any change (unknown location, stock vs levels), so mutations can't fail midway. */
export function checkStockInput(store: StoreData, fields: VariantFields, prefix = ''): void {
  if (fields.inventory_levels) {
    const seen = new Set<string>();
    fields.inventory_levels.forEach((level, i) => {
      if (!store.locations.has(level.location_id)) {
        throw invalid(`${prefix}inventory_levels.${i}.location_id`, `${level.location_id} is not a location of this store`);
      }
      if (seen.has(level.location_id)) throw invalid(`${prefix}inventory_levels.${i}.location_id`, 'is named twice');
      seen.add(level.location_id);
    });
    if (typeof fields.stock === 'number') {
      const sum = fields.inventory_levels.reduce((s, l) => s + l.stock, 0);
      if (sum !== fields.stock) throw invalid(`${prefix}stock`, `is ${fields.stock} but inventory_levels add up to ${sum}`);
    }
  }
}

/** Applies variant fields to `v` (in place). Call checkStockInput and validate money first. */
export function applyVariantFields(
  tx: Tx,
  store: StoreData,
  product: ProductRecord,
  v: VariantRecord,
  f: VariantFields,
  createdLocations: string[],
): void {
  if (f.sku !== undefined) v.sku = f.sku === '' ? null : f.sku;
  if (f.price !== undefined) v.price = parseOptionalMoney(f.price, 'price');
  if (f.promotional_price !== undefined) v.promotional_price = parseOptionalMoney(f.promotional_price, 'promotional_price');
  if (f.cost !== undefined) v.cost = parseOptionalMoney(f.cost, 'cost');
  v.weight = measure(f.weight, 'weight', v.weight);
  v.width = measure(f.width, 'width', v.width);
  v.height = measure(f.height, 'height', v.height);
  v.depth = measure(f.depth, 'depth', v.depth);
  if (f.mpn !== undefined) v.mpn = f.mpn;
  if (f.barcode !== undefined) v.barcode = f.barcode;
  if (f.age_group !== undefined) v.age_group = f.age_group;
  if (f.gender !== undefined) v.gender = f.gender;
  if (f.image_id !== undefined) v.image_id = f.image_id;
  if (f.stock_management !== undefined) v.stock_management = f.stock_management;
  if (f.stock === null) v.stock_management = false;
  const setLevel = (locationId: string, stock: number) => {
    const level = v.inventory_levels.find((l) => l.location_id === locationId);
    if (level) level.stock = stock;
    else v.inventory_levels.push({ location_id: locationId, stock });
  };
  if (f.inventory_levels) {
    // The split is now known (the levels not named keep what they hold).
    delete v.levels_unreported;
    for (const level of f.inventory_levels) setLevel(level.location_id, level.stock);
    if (f.stock_management === undefined) v.stock_management = true;
  } else if (typeof f.stock === 'number' && v.levels_unreported) {
    // Unreported split: the whole stock is one figure at the default location.
    v.inventory_levels = [{ location_id: defaultLocationId(tx, store, createdLocations), stock: f.stock }];
    if (f.stock_management === undefined) v.stock_management = true;
  } else if (typeof f.stock === 'number') {
    setLevel(defaultLocationId(tx, store, createdLocations), f.stock);
    if (f.stock_management === undefined) v.stock_management = true;
  }
  v.updated_at = product.updated_at = tx.now();
}

/** Validates the money and measure fields up front (they are parsed again while applying). */
export function checkVariantFields(product: ProductRecord, f: VariantFields): void {
  if (f.price !== undefined && f.price !== null) parseMoney(f.price, 'price');
  if (f.promotional_price !== undefined) parseOptionalMoney(f.promotional_price, 'promotional_price');
  if (f.cost !== undefined) parseOptionalMoney(f.cost, 'cost');
  for (const field of ['weight', 'width', 'height', 'depth'] as const) measure(f[field], field, null);
  if (f.image_id !== undefined && f.image_id !== null && !product.images.some((i) => i.id === f.image_id)) {
    throw invalid('image_id', `${f.image_id} is not an image of product ${product.id}`);
  }
}

export function newVariant(tx: Tx, store: StoreData, product: ProductRecord, values: Localized[]): VariantRecord {
  const now = tx.now();
  return {
    id: tx.nextId(store, 'variant'),
    product_id: product.id,
    image_id: null,
    sku: null,
    price: '0.00',
    promotional_price: null,
    cost: null,
    stock_management: true,
    weight: null,
    width: null,
    height: null,
    depth: null,
    mpn: null,
    barcode: null,
    age_group: null,
    gender: null,
    values,
    inventory_levels: [] as InventoryLevel[],
    custom_fields: [],
    created_at: now,
    updated_at: now,
  };
}

const norm = (s: string) => s.trim().toLowerCase();
const comboKey = (store: StoreData, values: Localized[]) => values.map((v) => norm(mainText(store, v))).join('\u0000');

/**
 * The option values for a variant, in the product's option order. Returns the option names too when this
 * variant is the one that fixes them (first variant with attributes).
 */
function resolveValues(
  store: StoreData,
  product: ProductRecord,
  attributes: { name: string | Record<string, string>; value: string | Record<string, string> }[] | undefined,
  values: (string | Record<string, string>)[] | undefined,
  self?: VariantRecord,
): { values: Localized[]; attributes?: Localized[] } {
  const others = product.variants.filter((v) => v !== self);
  if (attributes !== undefined && attributes.length > 0) {
    if (product.attributes.length === 0 && others.length > 0) {
      throw invalid('attributes', `product ${product.id} has no variations; it cannot take attributes`);
    }
    if (attributes.length > MAX_OPTIONS) throw invalid('attributes', `at most ${MAX_OPTIONS} options are allowed`);
    const names = attributes.map((a, i) => toLocalized(store, a.name, `attributes.${i}.name`));
    const vals = attributes.map((a, i) => toLocalized(store, a.value, `attributes.${i}.value`));
    const nameKeys = names.map((n) => norm(mainText(store, n)));
    if (new Set(nameKeys).size !== nameKeys.length) throw invalid('attributes', 'names an option twice');
    if (product.attributes.length === 0) return { values: vals, attributes: names };
    const productKeys = product.attributes.map((n) => norm(mainText(store, n)));
    if (productKeys.join('\u0000') !== nameKeys.join('\u0000')) {
      throw invalid(
        'attributes',
        `must name the product's options in order: ${product.attributes.map((n) => mainText(store, n)).join(', ')}`,
      );
    }
    return { values: vals };
  }
  if (values !== undefined) {
    const vals = values.map((v, i) => toLocalized(store, v, `values.${i}`));
    if (vals.length !== product.attributes.length) {
      throw invalid('values', `must give ${product.attributes.length} value(s), one per option of the product`);
    }
    return { values: vals };
  }
  if (self) return { values: self.values };
  if (product.attributes.length > 0) {
    throw invalid('attributes', `product ${product.id} has options ${product.attributes.map((n) => mainText(store, n)).join(', ')}; give a value for each`);
  }
  return { values: [] };
}

function checkUnique(store: StoreData, product: ProductRecord, values: Localized[], self?: VariantRecord): void {
  const key = comboKey(store, values);
  if (product.variants.some((v) => v !== self && comboKey(store, v.values) === key)) {
    const shown = values.map((v) => mainText(store, v)).join(' / ') || '(no options)';
    throw invalid('attributes', `a variant with the values ${shown} already exists`);
  }
}

export function getProduct(store: StoreData, raw: string): ProductRecord {
  const product = store.products.get(intParam(raw, 'Product'));
  if (!product) throw notFound('Product', raw);
  return product;
}

export function getVariant(store: StoreData, product: ProductRecord, raw: string): VariantRecord {
  const id = intParam(raw, 'Variant');
  const variant = product.variants.find((v) => v.id === id);
  if (!variant) throw notFound('Variant', raw);
  return variant;
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  type Params = { product_id: string; variant_id: string };

  api.get('/products/:product_id/variants', async (req, reply) => {
    const product = getProduct(req.store, (req.params as Params).product_id);
    return paginate(req, reply, product.variants, (v) => presentVariant(req.store, v, product.compact_offset));
  });

  api.get('/products/:product_id/variants/:variant_id', async (req) => {
    const params = req.params as Params;
    const product = getProduct(req.store, params.product_id);
    return presentVariant(req.store, getVariant(req.store, product, params.variant_id), product.compact_offset);
  });

  api.post('/products/:product_id/variants', async (req, reply) => {
    const store = req.store;
    const product = getProduct(store, (req.params as Params).product_id);
    const body = parseBody(variantSchema, req.body);
    if (product.variants.length >= MAX_VARIANTS) {
      throw httpError(422, `A product has at most ${MAX_VARIANTS} variants`, { base: [`at most ${MAX_VARIANTS} variants`] });
    }
    const resolved = resolveValues(store, product, body.attributes, body.values);
    const probe = { ...product, attributes: resolved.attributes ?? product.attributes };
    checkUnique(store, probe, resolved.values);
    checkVariantFields(product, body);
    checkStockInput(store, body);
    const createdLocations: string[] = [];
    const variant = state.mutate('variant.create', (tx) => {
      if (resolved.attributes) product.attributes = resolved.attributes;
      const v = newVariant(tx, store, product, resolved.values);
      applyVariantFields(tx, store, product, v, body, createdLocations);
      product.variants.push(v);
      tx.put(store.products, product);
      return v;
    });
    for (const id of createdLocations) ctx.emit('location/created', store.id, id);
    ctx.emit('product/updated', store.id, product.id);
    return reply.code(201).send(presentVariant(store, variant, product.compact_offset));
  });

  api.put('/products/:product_id/variants/:variant_id', async (req) => {
    const store = req.store;
    const params = req.params as Params;
    const product = getProduct(store, params.product_id);
    const variant = getVariant(store, product, params.variant_id);
    const body = parseBody(variantSchema, req.body);
    let values: Localized[] | undefined;
    let attributes: Localized[] | undefined;
    if (body.attributes !== undefined || body.values !== undefined) {
      const resolved = resolveValues(store, product, body.attributes, body.values, variant);
      if (resolved.attributes && product.variants.length > 1) {
        throw invalid('attributes', "cannot change the product's options while it has other variants");
      }
      checkUnique(store, product, resolved.values, variant);
      values = resolved.values;
      attributes = resolved.attributes;
    }
    checkVariantFields(product, body);
    checkStockInput(store, body);
    const createdLocations: string[] = [];
    state.mutate('variant.update', (tx) => {
      if (values) variant.values = values;
      if (attributes) product.attributes = attributes;
      applyVariantFields(tx, store, product, variant, body, createdLocations);
      tx.put(store.products, product);
    });
    for (const id of createdLocations) ctx.emit('location/created', store.id, id);
    ctx.emit('product/updated', store.id, product.id);
    return presentVariant(store, variant, product.compact_offset);
  });

  api.delete('/products/:product_id/variants/:variant_id', async (req) => {
    const store = req.store;
    const params = req.params as Params;
    const product = getProduct(store, params.product_id);
    const variant = getVariant(store, product, params.variant_id);
    state.mutate('variant.delete', (tx) => {
      product.variants = product.variants.filter((v) => v !== variant);
      product.updated_at = tx.now();
      tx.put(store.products, product);
    });
    ctx.emit('product/updated', store.id, product.id);
    return {};
  });
}

/** Exposed for products.ts: a product created with variant fields gets its one variant this way. */
export function createSingleVariant(
  tx: Tx,
  store: StoreData,
  product: ProductRecord,
  fields: VariantFields,
  createdLocations: string[],
): VariantRecord {
  const v = newVariant(tx, store, product, []);
  applyVariantFields(tx, store, product, v, fields, createdLocations);
  product.variants.push(v);
  return v;
}
