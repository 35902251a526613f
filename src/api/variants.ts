import { z } from 'zod';
import type { StoreClient, WriteRecord } from '../client/index.js';
import { DecimalNumber } from '../client/json.js';
import { type Localized, LocalizedList } from './categories.js';
import { Bool, Id, parseRecords, readAll, StringId, Text, Timestamp } from './read.js';
import { parseReply } from './reply.js';

/**
 * Stock as the platform sends it: an integer (or a numeric string), or null when the store does not manage
 * the variant's stock. Null is kept apart from "absent" since it means unlimited.
 */
export const StockValue = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v): number | null | undefined => {
    if (v === null) return null;
    if (v === undefined) return undefined;
    if (typeof v === 'number') return v;
    const t = v.trim();
    return /^-?\d+$/.test(t) ? Number(t) : undefined;
  });

/**
 * A decimal string (money, measures) or text field that the platform may send as null: null is kept, so
 * `--json` shows the record as the store sent it; a number becomes its text.
 */
const NullableText = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null ? null : v === undefined ? undefined : String(v)));

export const InventoryLevelSchema = z.looseObject({
  location_id: StringId,
  stock: StockValue.transform((v) => v ?? null),
});
export type InventoryLevel = z.infer<typeof InventoryLevelSchema>;

/**
 * A variant (docs/platform.md §3). Money and measures are decimal strings (or null, read as absent); `sku` may be
 * null (a product without SKU); `values` are localized option values. `inventory_levels` may be absent: then
 * the split of the stock between locations is unknown, which is not the same as zero everywhere.
 */
export const VariantSchema = z.looseObject({
  id: Id,
  product_id: Id,
  image_id: Id.nullish(),
  sku: Text.transform((v) => (v === undefined || v === '' ? null : v)),
  price: NullableText,
  promotional_price: NullableText,
  cost: NullableText,
  // null stock means the store does not track it (unlimited).
  stock: StockValue,
  stock_management: z.union([z.boolean(), z.null()]).optional(),
  weight: NullableText,
  width: NullableText,
  height: NullableText,
  depth: NullableText,
  barcode: NullableText,
  mpn: NullableText,
  age_group: NullableText,
  gender: NullableText,
  values: LocalizedList,
  inventory_levels: z
    .array(InventoryLevelSchema)
    .nullish()
    .transform((v) => v ?? undefined),
  custom_fields: z.array(z.looseObject({ id: z.union([z.string(), z.number()]), value: z.unknown() })).nullish().transform((v) => v ?? undefined),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Variant = z.infer<typeof VariantSchema>;

/** The genders and age groups the platform takes (Google Shopping's lists). */
export const VARIANT_GENDERS = ['female', 'male', 'unisex'] as const;
export const VARIANT_AGE_GROUPS = ['newborn', 'infant', 'toddler', 'kids', 'adult'] as const;

/** The writable fields of a variant; money and measures as decimal strings. */
export interface VariantInput {
  sku?: string;
  price?: string;
  promotional_price?: string | null;
  cost?: string;
  stock?: number;
  stock_management?: boolean;
  inventory_levels?: { location_id: string; stock: number }[];
  weight?: string;
  width?: string;
  height?: string;
  depth?: string;
  mpn?: string;
  barcode?: string;
  age_group?: string;
  gender?: string;
  image_id?: number | null;
  /** Option values, e.g. [{name: 'Size', value: 'M'}]; only when creating. */
  attributes?: { name: string; value: string }[];
}

/** Every variant of a product (a product holds at most 1,000). One odd record never fails the list. */
export async function listVariants(client: StoreClient, productId: number): Promise<Variant[]> {
  return readAll(client, `/products/${productId}/variants`, VariantSchema, 'variant');
}

export async function getVariant(client: StoreClient, productId: number, variantId: number): Promise<Variant> {
  const res = await client.request({ method: 'GET', path: `/products/${productId}/variants/${variantId}` });
  return parseReply(VariantSchema, res.body, 'variant record');
}

export async function createVariant(client: StoreClient, productId: number, input: VariantInput, record: WriteRecord): Promise<Variant> {
  const res = await client.request({ method: 'POST', path: `/products/${productId}/variants`, body: input, record });
  return parseReply(VariantSchema, res.body, 'variant record');
}

export async function updateVariant(
  client: StoreClient,
  productId: number,
  variantId: number,
  input: VariantInput,
  record: WriteRecord,
): Promise<Variant> {
  const res = await client.request({ method: 'PUT', path: `/products/${productId}/variants/${variantId}`, body: input, record });
  return parseReply(VariantSchema, res.body, 'variant record');
}

export async function deleteVariant(client: StoreClient, productId: number, variantId: number, record: WriteRecord): Promise<void> {
  await client.request({ method: 'DELETE', path: `/products/${productId}/variants/${variantId}`, record });
}

/** A variant's fields in PATCH /products/{id}/variants: any writable field, named by its id. */
export type VariantPatch = Omit<VariantInput, 'attributes'> & { id: number; values?: Localized[] };

/**
 * Many existing variants of one product in one request (PATCH /products/{id}/variants, docs/platform.md §8):
 * all or nothing (a 422 changes none). The store answers the product's whole variant collection, up to 1,000
 * records the writer does not use: the 200 is the confirmation, so the body is not read (an odd record in it
 * must not warn about data nobody asked for).
 */
export async function patchVariants(client: StoreClient, productId: number, variants: VariantPatch[], record: WriteRecord): Promise<void> {
  await client.request({ method: 'PATCH', path: `/products/${productId}/variants`, body: variants, record, halveOn429: variants.length > 1 });
}

/** One variant's new price and/or stock in PATCH /products/stock-price. */
export interface StockPriceChange {
  productId: number;
  variantId: number;
  /** Decimal text; sent as a JSON number written from the text (no float rounding). */
  price?: string;
  /** Stock per location; `location_id` is required on a store with more than one location. */
  inventory_levels?: { location_id?: string; stock: number }[];
}

/** What the store said of one variant of a stock-price batch. */
export interface StockPriceResult {
  productId: number;
  variantId: number;
  /** The store answered `"success": true` for it. */
  success: boolean;
  /** The answer named it (false: left out, or in a record that could not be read): not known to be done. */
  answered: boolean;
}

/**
 * One product of the stock-price answer, read tolerantly (api/read.ts): ids as numbers or numeric strings,
 * `success` as true/"true"/1, unknown fields passed over. A record that cannot be read confirms nothing.
 */
const StockPriceAnswer = z.object({
  id: Id,
  variants: z.array(z.unknown()),
});
const StockPriceVariantAnswer = z.object({ id: Id, success: Bool });

/**
 * Price and stock of up to 50 variants, across products, in one request (PATCH /products/stock-price). The
 * store answers per variant; a variant the answer leaves out is not known to be done, so it is read as failed.
 */
export async function updateStockPrice(client: StoreClient, changes: StockPriceChange[], record: WriteRecord): Promise<StockPriceResult[]> {
  const byProduct = new Map<number, Record<string, unknown>[]>();
  for (const c of changes) {
    const variant: Record<string, unknown> = { id: c.variantId };
    if (c.price !== undefined) variant.price = new DecimalNumber(c.price);
    if (c.inventory_levels !== undefined) variant.inventory_levels = c.inventory_levels;
    const list = byProduct.get(c.productId) ?? [];
    list.push(variant);
    byProduct.set(c.productId, list);
  }
  const body = [...byProduct].map(([id, variants]) => ({ id, variants }));
  // A 429 of more than one variant is the caller's to halve (docs/platform.md §12, the weighted limit).
  const res = await client.request({ method: 'PATCH', path: '/products/stock-price', body, record, halveOn429: changes.length > 1 });
  const answered = new Map<string, boolean>();
  for (const answer of Array.isArray(res.body) ? (res.body as unknown[]) : []) {
    const product = StockPriceAnswer.safeParse(answer);
    if (!product.success) continue;
    for (const element of product.data.variants) {
      const variant = StockPriceVariantAnswer.safeParse(element);
      if (variant.success) answered.set(`${product.data.id}/${variant.data.id}`, variant.data.success === true);
    }
  }
  return changes.map((c) => {
    const success = answered.get(`${c.productId}/${c.variantId}`);
    return { productId: c.productId, variantId: c.variantId, success: success === true, answered: success !== undefined };
  });
}

/**
 * A relative stock change (POST /products/{id}/variants/stock, docs/platform.md §12): `replace` sets the stock
 * (`null`: infinite), `variation` adds or removes `value` (the store stops at 0); with `variantId` one variant,
 * without it every variant of the product. One request per product or variant: not a batch, but it moves the
 * stock the store holds at that moment, so a sale made since a read is never overwritten. `record` is the run
 * ledger's record of the change (docs/ledger.md).
 */
export interface StockChange {
  action: 'replace' | 'variation';
  value: number | null;
  variantId?: number;
}

/** What the answer says a variant holds now; `stock` null is infinite, undefined is not said. */
export interface StockChanged {
  id: number;
  stock: number | null | undefined;
}

const StockChangedSchema = z.looseObject({ id: Id, stock: StockValue });

/**
 * Sends a relative stock change and reads the variants the store says it updated (a list, or an object holding
 * `variants`), tolerantly: only `id` and `stock` matter, an odd record is left out.
 */
export async function changeStock(client: StoreClient, productId: number, change: StockChange, record: WriteRecord): Promise<StockChanged[]> {
  const body: Record<string, unknown> = { action: change.action, value: change.value };
  if (change.variantId !== undefined) body.id = change.variantId;
  const res = await client.request({ method: 'POST', path: `/products/${productId}/variants/stock`, body, record });
  const answer = res.body as unknown;
  const list = Array.isArray(answer) ? answer : (answer as { variants?: unknown } | null)?.variants;
  if (!Array.isArray(list) || list.length === 0) return [];
  return parseRecords(StockChangedSchema, list, 'variant', (message) => client.warn(message)).map((v) => ({ id: v.id, stock: v.stock }));
}
