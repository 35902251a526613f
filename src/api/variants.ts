import { z } from 'zod';
import type { StoreClient } from '../client/index.js';
import { LocalizedSchema } from './categories.js';
import { parseReply } from './reply.js';

/** Money and measures are decimal strings in replies; numbers are tolerated. */
const Decimal = z.union([z.string(), z.number()]).nullish();

export const InventoryLevelSchema = z.looseObject({
  location_id: z.string(),
  stock: z.number().nullable(),
});
export type InventoryLevel = z.infer<typeof InventoryLevelSchema>;

export const VariantSchema = z.looseObject({
  id: z.number(),
  product_id: z.number(),
  image_id: z.number().nullish(),
  sku: z.string().nullish(),
  price: Decimal,
  promotional_price: Decimal,
  cost: Decimal,
  // null stock means the store does not track it (unlimited).
  stock: z.number().nullish(),
  stock_management: z.boolean().nullish(),
  weight: Decimal,
  width: Decimal,
  height: Decimal,
  depth: Decimal,
  mpn: z.string().nullish(),
  age_group: z.string().nullish(),
  gender: z.string().nullish(),
  values: z.array(LocalizedSchema).default([]),
  inventory_levels: z.array(InventoryLevelSchema).optional(),
  custom_fields: z.array(z.looseObject({ id: z.union([z.string(), z.number()]), value: z.unknown() })).optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type Variant = z.infer<typeof VariantSchema>;

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
  image_id?: number | null;
  /** Option values, e.g. [{name: 'Size', value: 'M'}]; only when creating. */
  attributes?: { name: string; value: string }[];
}

const VariantListSchema = z.array(VariantSchema);

/** Every variant of a product (a product holds at most 1,000). */
export async function listVariants(client: StoreClient, productId: number): Promise<Variant[]> {
  const all: Variant[] = [];
  for await (const page of client.paginate<unknown>(`/products/${productId}/variants`, undefined, { perPage: 200 })) {
    all.push(...parseReply(VariantListSchema, page.items, 'variant list'));
  }
  return all;
}

export async function getVariant(client: StoreClient, productId: number, variantId: number): Promise<Variant> {
  const res = await client.request({ method: 'GET', path: `/products/${productId}/variants/${variantId}` });
  return parseReply(VariantSchema, res.body, 'variant record');
}

export async function createVariant(client: StoreClient, productId: number, input: VariantInput): Promise<Variant> {
  const res = await client.request({ method: 'POST', path: `/products/${productId}/variants`, body: input });
  return parseReply(VariantSchema, res.body, 'variant record');
}

export async function updateVariant(
  client: StoreClient,
  productId: number,
  variantId: number,
  input: VariantInput,
): Promise<Variant> {
  const res = await client.request({ method: 'PUT', path: `/products/${productId}/variants/${variantId}`, body: input });
  return parseReply(VariantSchema, res.body, 'variant record');
}

export async function deleteVariant(client: StoreClient, productId: number, variantId: number): Promise<void> {
  await client.request({ method: 'DELETE', path: `/products/${productId}/variants/${variantId}` });
}
