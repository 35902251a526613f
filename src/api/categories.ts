import { z } from 'zod';
import type { StoreClient, WriteRecord } from '../client/index.js';
import { Id, parseRecords, readAll, Text } from './read.js';
import { parseReply } from './reply.js';

/**
 * A localized text as the store returns it: an object keyed by the store's languages (or locales), where a
 * language may be missing, null or hold a number; a plain string is accepted too (a one-language store,
 * older records). Numbers are kept as their text, so every reader sees strings or null.
 */
export const LocalizedSchema = z.union([
  z.string(),
  z.record(
    z.string(),
    z
      .union([z.string(), z.number(), z.null()])
      .transform((v) => (v === null ? null : String(v))),
  ),
]);
export type Localized = z.infer<typeof LocalizedSchema>;

/** A localized text that may be null or absent on odd records: read as no text. */
export const OptionalLocalized = LocalizedSchema.nullish();

/** A list of localized texts (option names, option values); a missing list is empty and a null entry no text. */
export const LocalizedList = z
  .array(LocalizedSchema.nullable())
  .nullish()
  .transform((list) => (list ?? []).map((text) => text ?? {}));

/**
 * A category (docs/platform.md §3): ids are numbers or numeric strings; everything else may be null. Products
 * carry their categories as these full records.
 */
export const CategorySchema = z.looseObject({
  id: Id,
  name: LocalizedSchema.nullish().transform((v): Localized => v ?? {}),
  description: OptionalLocalized,
  handle: OptionalLocalized,
  parent: Id.nullish().transform((v) => v ?? null),
  subcategories: z
    .array(z.union([Id, z.looseObject({ id: Id }).transform((c) => c.id)]))
    .nullish()
    .transform((v) => v ?? undefined),
  google_shopping_category: Text,
  // Localized on the platform; a plain string on older records.
  seo_title: OptionalLocalized,
  seo_description: OptionalLocalized,
});
export type Category = z.infer<typeof CategorySchema>;

/** The writable fields of a category (POST takes them all, PUT any subset). */
export interface CategoryInput {
  name?: Localized;
  description?: Localized;
  handle?: Localized;
  parent?: number | null;
  google_shopping_category?: string;
  seo_title?: string;
  seo_description?: string;
}

/** Every category of the store (the tree is small; fetched 200 per page). One odd record never fails the list. */
export async function listCategories(client: StoreClient): Promise<Category[]> {
  return readAll(client, '/categories', CategorySchema, 'category');
}

/** The category with this handle (in any language), or undefined. */
export async function findCategoryByHandle(client: StoreClient, handle: string): Promise<Category | undefined> {
  const res = await client.page<unknown>('/categories', { handle, per_page: 200 });
  return parseRecords(CategorySchema, res.items, 'category', (m) => client.warn(m))[0];
}

export async function getCategory(client: StoreClient, id: number): Promise<Category> {
  const res = await client.request({ method: 'GET', path: `/categories/${id}` });
  return parseReply(CategorySchema, res.body, 'category record');
}

export async function createCategory(client: StoreClient, input: CategoryInput, record: WriteRecord): Promise<Category> {
  const res = await client.request({ method: 'POST', path: '/categories', body: input, record });
  return parseReply(CategorySchema, res.body, 'category record');
}

export async function updateCategory(client: StoreClient, id: number, input: CategoryInput, record: WriteRecord): Promise<Category> {
  const res = await client.request({ method: 'PUT', path: `/categories/${id}`, body: input, record });
  return parseReply(CategorySchema, res.body, 'category record');
}

/** The store refuses (422) while the category has subcategories. */
export async function deleteCategory(client: StoreClient, id: number, record: WriteRecord): Promise<void> {
  await client.request({ method: 'DELETE', path: `/categories/${id}`, record });
}
