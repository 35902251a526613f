import { platform422 } from '../http.js';
import type { ProductRecord, VariantRecord } from '../records.js';
import type { StoreData, Tx } from '../state.js';
import { MONEY_LIMIT } from '../../platform/money.js';
import { MAX_STOCK_PRICE_VARIANTS } from '../../platform/catalog.js';
import { applyVariantFields, type VariantFields } from './variants.js';

/**
 * `PATCH /products/stock-price` (docs/platform.md §8): the price and/or stock of up to 50 variants across
 * products in one request, answered per variant. A body the platform cannot read at all (not a list, a price that
 * is not a number, a negative stock, more than 50 variants) is one 422 for the whole request and changes nothing;
 * otherwise each variant succeeds or fails on its own (`success: false`: unknown product or variant, a level
 * without `location_id` on a store with several locations, an unknown location, a fault injected for it) and the
 * successful ones are written together, in one journal entry.
 */

export interface StockPriceLevel {
  stock: number;
  location_id?: string;
}

export interface StockPriceVariant {
  id: number;
  price?: number;
  inventory_levels?: StockPriceLevel[];
}

export interface StockPriceProduct {
  id: number;
  variants: StockPriceVariant[];
}

/** The answer: each product sent, each of its variants sent, with whether it was written. */
export type StockPriceAnswer = { id: number; variants: { id: number; success: boolean }[] }[];

/** A variant's change that will be written. */
interface PlannedChange {
  product: ProductRecord;
  variant: VariantRecord;
  fields: VariantFields;
}

export interface StockPricePlan {
  answer: StockPriceAnswer;
  changes: PlannedChange[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The platform's "Validation error" 422: the field's messages at the top level of the envelope. */
function validationError(field: string, message: string): Error {
  return platform422('Validation error', { [field]: [message] });
}

function checkId(value: unknown): number {
  if (value === undefined || value === null) throw validationError('id', 'The id field is required.');
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw validationError('id', 'The id must be an integer.');
  }
  return value;
}

/**
 * Reads the body strictly, as the platform validates it: a list of `{id, variants: [{id, price?, inventory_levels?}]}`
 * with at most 50 variants in all, `price` a JSON number of at least 0 and every `stock` an integer of at least 0.
 * Anything else is the whole request's 422.
 */
export function checkStockPriceBody(body: unknown): StockPriceProduct[] {
  if (!Array.isArray(body)) throw validationError('body', 'The body must be a list of products.');
  let count = 0;
  for (const product of body) if (isRecord(product) && Array.isArray(product.variants)) count += product.variants.length;
  if (count > MAX_STOCK_PRICE_VARIANTS) throw platform422('Too many variants sent for update');
  return body.map((product): StockPriceProduct => {
    if (!isRecord(product)) throw validationError('body', 'Each element must be a product object.');
    const id = checkId(product.id);
    if (!Array.isArray(product.variants)) throw validationError('variants', 'The variants field is required.');
    const variants = product.variants.map((variant): StockPriceVariant => {
      if (!isRecord(variant)) throw validationError('variants', 'Each variant must be an object.');
      const out: StockPriceVariant = { id: checkId(variant.id) };
      if (variant.price !== undefined) {
        if (typeof variant.price !== 'number' || !Number.isFinite(variant.price)) {
          throw validationError('price', 'The price must be a number.');
        }
        if (variant.price < 0) throw validationError('price', 'The price must be at least 0.');
        if (variant.price >= MONEY_LIMIT) throw validationError('price', `The price must be less than ${MONEY_LIMIT}.`);
        out.price = variant.price;
      }
      if (variant.inventory_levels !== undefined) {
        if (!Array.isArray(variant.inventory_levels)) {
          throw validationError('inventory_levels', 'The inventory levels must be a list.');
        }
        out.inventory_levels = variant.inventory_levels.map((level): StockPriceLevel => {
          if (!isRecord(level)) throw validationError('inventory_levels', 'Each inventory level must be an object.');
          if (level.stock === undefined || level.stock === null) throw validationError('stock', 'The stock field is required.');
          if (typeof level.stock !== 'number' || !Number.isSafeInteger(level.stock)) {
            throw validationError('stock', 'The stock must be an integer.');
          }
          if (level.stock < 0) throw validationError('stock', 'The stock must be at least 0.');
          if (level.location_id !== undefined && level.location_id !== null && typeof level.location_id !== 'string') {
            throw validationError('location_id', 'The location id must be a string.');
          }
          return { stock: level.stock, ...(typeof level.location_id === 'string' ? { location_id: level.location_id } : {}) };
        });
      }
      return out;
    });
    return { id, variants };
  });
}

/**
 * The fields a variant's stock-price element sets, or undefined when this variant cannot take them: a level
 * without `location_id` is the store's only location (or, on a store without any, the default one made for it),
 * but on a store with several locations it names none, so the variant fails (docs/sandbox.md).
 */
function variantFields(store: StoreData, input: StockPriceVariant): VariantFields | undefined {
  const fields: VariantFields = {};
  if (input.price !== undefined) fields.price = input.price;
  const levels = input.inventory_levels;
  if (!levels || levels.length === 0) return fields;
  const only = store.locations.size === 1 ? store.locations.values().next().value : undefined;
  if (store.locations.size === 0) {
    if (levels.length !== 1 || levels[0]!.location_id !== undefined) return undefined;
    fields.stock = levels[0]!.stock;
    return fields;
  }
  const named: { location_id: string; stock: number }[] = [];
  for (const level of levels) {
    const locationId = level.location_id ?? only?.id;
    if (locationId === undefined || !store.locations.has(locationId)) return undefined;
    if (named.some((l) => l.location_id === locationId)) return undefined;
    named.push({ location_id: locationId, stock: level.stock });
  }
  fields.inventory_levels = named;
  return fields;
}

/**
 * Decides each variant of a checked body: `fails(variant)` is the fault injection's say. Changes nothing; the
 * route writes `changes` in one mutation.
 */
export function planStockPrice(
  store: StoreData,
  body: StockPriceProduct[],
  fails: (variant: VariantRecord) => boolean,
): StockPricePlan {
  const plan: StockPricePlan = { answer: [], changes: [] };
  for (const entry of body) {
    const product = store.products.get(entry.id);
    const answered = { id: entry.id, variants: [] as { id: number; success: boolean }[] };
    plan.answer.push(answered);
    for (const input of entry.variants) {
      const variant = product?.variants.find((v) => v.id === input.id);
      const fields = variant ? variantFields(store, input) : undefined;
      const success = !!(product && variant && fields && !fails(variant));
      if (success) plan.changes.push({ product: product!, variant: variant!, fields: fields! });
      answered.variants.push({ id: input.id, success });
    }
  }
  return plan;
}

/** Writes a plan's changes (call inside one mutation); returns the products touched, each once. */
export function applyStockPrice(tx: Tx, store: StoreData, plan: StockPricePlan, createdLocations: string[]): ProductRecord[] {
  const touched = new Set<ProductRecord>();
  for (const change of plan.changes) {
    applyVariantFields(tx, store, change.product, change.variant, change.fields, createdLocations);
    touched.add(change.product);
  }
  for (const product of touched) tx.put(store.products, product);
  return [...touched];
}
