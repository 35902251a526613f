import { httpError, intParam, invalid, mainText, notFound, parseMoney, parseOptionalMoney, platform422, toLocalized } from '../http.js';
import type { InventoryLevel, Localized, ProductRecord, VariantRecord } from '../records.js';
import type { StoreData, Tx } from '../state.js';
import { MAX_OPTIONS, MAX_VARIANTS } from '../../platform/catalog.js';
import { createLocation } from './locations.js';

/**
 * Variants (docs/api-rules.md §5.12) and the variant logic products share: building a variant from a request's fields,
 * stock per location, option (attribute) rules. The variant routes and the product routes both use it.
 */

/** The fields a request may set on a variant (also on a product without variation, for its one variant). */
export interface VariantFields {
  sku?: string | null;
  price?: number | string | null;
  promotional_price?: number | string | null;
  cost?: number | string | null;
  stock?: number | null;
  stock_management?: boolean;
  inventory_levels?: { location_id: string; stock: number }[];
  weight?: number | string | null;
  width?: number | string | null;
  height?: number | string | null;
  depth?: number | string | null;
  mpn?: string | null;
  barcode?: string | null;
  age_group?: string | null;
  gender?: string | null;
  image_id?: number | null;
}

type LocalizedInput = string | Record<string, string>;

/**
 * A variant's fields and its option values: by option (`attributes`, which may fix the product's options) or in
 * the product's option order (`values`).
 */
export interface VariantInput extends VariantFields {
  attributes?: { name: LocalizedInput; value: LocalizedInput }[];
  values?: LocalizedInput[];
}

/** A variant's option values, and the product's option names when this variant fixes them. */
export interface OptionValues {
  values: Localized[];
  attributes?: Localized[];
}

/** Whether a body names any field that lives on a variant. */
export function hasVariantFields(body: Record<string, unknown>): boolean {
  return ['sku', 'price', 'promotional_price', 'cost', 'stock', 'stock_management', 'inventory_levels', 'weight'].some(
    (f) => body[f] !== undefined,
  );
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
  const location = createLocation(tx, store, {
    name: { [`${store.record.main_language}_${store.record.country}`]: 'Principal' },
    address: { country: { code: store.record.country } },
    is_default: true,
    priority: 0,
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

/**
 * Validates the money and measure fields up front (they are parsed again while applying); `prefix` names the
 * element of a batch in the field of the 422 (`variants.3.`).
 */
export function checkVariantFields(product: ProductRecord, f: VariantFields, prefix = ''): void {
  if (f.price !== undefined && f.price !== null) parseMoney(f.price, `${prefix}price`);
  if (f.promotional_price !== undefined) parseOptionalMoney(f.promotional_price, `${prefix}promotional_price`);
  if (f.cost !== undefined) parseOptionalMoney(f.cost, `${prefix}cost`);
  for (const field of ['weight', 'width', 'height', 'depth'] as const) measure(f[field], `${prefix}${field}`, null);
  if (f.image_id !== undefined && f.image_id !== null && !product.images.some((i) => i.id === f.image_id)) {
    throw invalid(`${prefix}image_id`, `${f.image_id} is not an image of product ${product.id}`);
  }
}

function newVariant(tx: Tx, store: StoreData, product: ProductRecord, values: Localized[]): VariantRecord {
  return variantRecord(tx.nextId(store, 'variant'), product.id, values, tx.now());
}

/** A variant with nothing set but its option values: the fields of a new variant before its input is applied. */
export function variantRecord(id: number, productId: number, values: Localized[], at: number): VariantRecord {
  return {
    id,
    product_id: productId,
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
    created_at: at,
    updated_at: at,
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
  attributes: VariantInput['attributes'],
  values: VariantInput['values'],
  self?: VariantRecord,
): OptionValues {
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

/**
 * Checks that no two of `variants` share a combination of option values (compared in the main language, case and
 * surrounding spaces ignored); `refuse` gets the keys of every variant sharing the first repeated combination.
 */
export function checkUniqueCombinations<K>(
  store: StoreData,
  variants: { key: K; values: Localized[] }[],
  refuse: (clashing: K[]) => Error,
): void {
  const byCombination = new Map<string, K[]>();
  for (const v of variants) {
    const combo = comboKey(store, v.values);
    const keys = byCombination.get(combo);
    if (keys) keys.push(v.key);
    else byCombination.set(combo, [v.key]);
  }
  for (const keys of byCombination.values()) if (keys.length > 1) throw refuse(keys);
}

function checkUnique(store: StoreData, product: ProductRecord, values: Localized[], self?: VariantRecord): void {
  const key = comboKey(store, values);
  if (product.variants.some((v) => v !== self && comboKey(store, v.values) === key)) {
    const shown = values.map((v) => mainText(store, v)).join(' / ') || '(no options)';
    throw invalid('attributes', `a variant with the values ${shown} already exists`);
  }
}

export function getVariant(store: StoreData, product: ProductRecord, raw: string): VariantRecord {
  const id = intParam(raw, 'Variant');
  const variant = product.variants.find((v) => v.id === id);
  if (!variant) throw notFound('Variant', raw);
  return variant;
}

/** Checks a new variant of `product` before any change (so the mutation cannot fail midway); returns its option values. */
export function checkNewVariant(store: StoreData, product: ProductRecord, input: VariantInput): OptionValues {
  if (product.variants.length >= MAX_VARIANTS) {
    throw httpError(422, `A product has at most ${MAX_VARIANTS} variants`, { base: [`at most ${MAX_VARIANTS} variants`] });
  }
  const resolved = resolveValues(store, product, input.attributes, input.values);
  const probe = { ...product, attributes: resolved.attributes ?? product.attributes };
  checkUnique(store, probe, resolved.values);
  checkVariantFields(product, input);
  checkStockInput(store, input);
  return resolved;
}

/**
 * Adds a variant checked by `checkNewVariant` (a product without variation: `{ values: [] }`); ids of locations
 * made to hold its stock go to `createdLocations`. The caller puts the product.
 */
export function createVariant(
  tx: Tx,
  store: StoreData,
  product: ProductRecord,
  options: OptionValues,
  fields: VariantFields,
  createdLocations: string[],
): VariantRecord {
  if (options.attributes) product.attributes = options.attributes;
  const v = newVariant(tx, store, product, options.values);
  applyVariantFields(tx, store, product, v, fields, createdLocations);
  product.variants.push(v);
  return v;
}

/** Checks a change of a variant before any change; returns its new option values when the input gives some. */
export function checkVariantChange(
  store: StoreData,
  product: ProductRecord,
  variant: VariantRecord,
  input: VariantInput,
): Partial<OptionValues> {
  let options: Partial<OptionValues> = {};
  if (input.attributes !== undefined || input.values !== undefined) {
    const resolved = resolveValues(store, product, input.attributes, input.values, variant);
    if (resolved.attributes && product.variants.length > 1) {
      throw invalid('attributes', "cannot change the product's options while it has other variants");
    }
    checkUnique(store, product, resolved.values, variant);
    options = resolved;
  }
  checkVariantFields(product, input);
  checkStockInput(store, input);
  return options;
}

/** Applies a change checked by `checkVariantChange`. */
export function updateVariant(
  tx: Tx,
  store: StoreData,
  product: ProductRecord,
  variant: VariantRecord,
  options: Partial<OptionValues>,
  fields: VariantFields,
  createdLocations: string[],
): void {
  if (options.values) variant.values = options.values;
  if (options.attributes) product.attributes = options.attributes;
  applyVariantFields(tx, store, product, variant, fields, createdLocations);
  tx.put(store.products, product);
}

export function deleteVariant(tx: Tx, store: StoreData, product: ProductRecord, variant: VariantRecord): void {
  product.variants = product.variants.filter((v) => v !== variant);
  product.updated_at = tx.now();
  tx.put(store.products, product);
}

/** One element of `PATCH`/`PUT /products/{id}/variants`: an existing variant's id (none: a new one, PUT only). */
export interface VariantBatchInput extends VariantFields {
  id?: number;
  values?: LocalizedInput[];
}

/** A checked batch of variant changes: what each variant becomes, and (PUT) which variants go. */
export interface VariantBatch {
  updates: { variant: VariantRecord; values?: Localized[]; fields: VariantFields }[];
  creates: { values: Localized[]; fields: VariantFields }[];
  deletes: VariantRecord[];
}

/** The platform's answer to a batch that would leave two variants with the same values (docs/platform.md §8). */
function variantsRepeated(ids: (number | string)[]): Error {
  return platform422('Variants cannot be repeated', { duplicate_variant_ids: ids });
}

/**
 * Checks `PATCH /products/{id}/variants` (`replace` false: only existing variants, the others untouched) or
 * `PUT /products/{id}/variants` (`replace` true: elements without id are new variants, variants not sent are
 * deleted) before any change: every id a variant of this product and named once, values one per attribute,
 * the fields valid, and no two variants of the result with the same values. Throws the 422 otherwise.
 */
export function checkVariantBatch(
  store: StoreData,
  product: ProductRecord,
  input: VariantBatchInput[],
  replace: boolean,
): VariantBatch {
  if (replace && input.length > MAX_VARIANTS) {
    throw platform422(`Product is not allowed to have more than ${MAX_VARIANTS} variants`);
  }
  const batch: VariantBatch = { updates: [], creates: [], deletes: [] };
  const sent = new Map<number, VariantBatch['updates'][number]>();
  const repeated = new Set<number>();
  const result: { key: number | string; values: Localized[] }[] = [];
  input.forEach((element, i) => {
    const { id, values: rawValues, ...fields } = element;
    const prefix = `${i}.`;
    const values = rawValues?.map((v, j) => toLocalized(store, v, `${prefix}values.${j}`));
    if (values && values.length !== product.attributes.length) {
      throw invalid(`${prefix}values`, `must give ${product.attributes.length} value(s), one per attribute of the product`);
    }
    checkVariantFields(product, fields, prefix);
    checkStockInput(store, fields, prefix);
    if (id === undefined) {
      if (!replace) throw invalid(`${prefix}id`, 'is required: this request changes existing variants only');
      if (!values && product.attributes.length > 0) {
        throw invalid(`${prefix}values`, `must give ${product.attributes.length} value(s), one per attribute of the product`);
      }
      batch.creates.push({ values: values ?? [], fields });
      result.push({ key: `${i}`, values: values ?? [] });
      return;
    }
    const variant = product.variants.find((v) => v.id === id);
    if (!variant) throw invalid(`${prefix}id`, `${id} is not a variant of product ${product.id}`);
    if (sent.has(id)) repeated.add(id);
    const update = { variant, values, fields };
    sent.set(id, update);
    batch.updates.push(update);
  });
  if (repeated.size > 0) throw variantsRepeated([...repeated]);
  for (const v of product.variants) {
    const update = sent.get(v.id);
    if (update) result.push({ key: v.id, values: update.values ?? v.values });
    else if (replace) batch.deletes.push(v);
    else result.push({ key: v.id, values: v.values });
  }
  if (result.length > MAX_VARIANTS) throw platform422(`Product is not allowed to have more than ${MAX_VARIANTS} variants`);
  // Keys: a variant's id (number), or a new variant's index in the body (string).
  checkUniqueCombinations(store, result, (clashing) => {
    const added = clashing.find((k) => typeof k === 'string');
    if (added !== undefined) return invalid(`${added}.values`, 'repeat the values of another variant of the product');
    return variantsRepeated(clashing);
  });
  return batch;
}

/** Applies a batch checked by `checkVariantBatch` and puts the product once. */
export function applyVariantBatch(
  tx: Tx,
  store: StoreData,
  product: ProductRecord,
  batch: VariantBatch,
  createdLocations: string[],
): void {
  if (batch.deletes.length > 0) {
    const gone = new Set(batch.deletes);
    product.variants = product.variants.filter((v) => !gone.has(v));
  }
  for (const u of batch.updates) {
    if (u.values) u.variant.values = u.values;
    applyVariantFields(tx, store, product, u.variant, u.fields, createdLocations);
  }
  for (const c of batch.creates) createVariant(tx, store, product, { values: c.values }, c.fields, createdLocations);
  product.updated_at = tx.now();
  tx.put(store.products, product);
}
