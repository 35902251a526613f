import { z } from 'zod';
import type { StoreClient } from '../client/index.js';
import { parseReply } from './reply.js';

/**
 * A localized text as the store returns it: an object keyed by the store's languages (DESIGN.md §5.8).
 * A plain string is accepted too, since requests may send one and older records may hold one.
 */
export const LocalizedSchema = z.union([z.string(), z.record(z.string(), z.string().nullable())]);
export type Localized = z.infer<typeof LocalizedSchema>;

export const CategorySchema = z.looseObject({
  id: z.number(),
  name: LocalizedSchema,
  description: LocalizedSchema.nullish(),
  handle: LocalizedSchema.nullish(),
  parent: z.number().nullable(),
  subcategories: z.array(z.number()).optional(),
  google_shopping_category: z.string().nullish(),
  seo_title: z.string().nullish(),
  seo_description: z.string().nullish(),
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

const CategoryListSchema = z.array(CategorySchema);

/** Every category of the store (the tree is small; fetched 200 per page). */
export async function listCategories(client: StoreClient): Promise<Category[]> {
  const all: Category[] = [];
  for await (const page of client.paginate<unknown>('/categories', undefined, { perPage: 200 })) {
    all.push(...parseReply(CategoryListSchema, page.items, 'category list'));
  }
  return all;
}

/** The category with this handle (in any language), or undefined. */
export async function findCategoryByHandle(client: StoreClient, handle: string): Promise<Category | undefined> {
  const res = await client.page<unknown>('/categories', { handle, per_page: 200 });
  return parseReply(CategoryListSchema, res.items, 'category list')[0];
}

export async function getCategory(client: StoreClient, id: number): Promise<Category> {
  const res = await client.request({ method: 'GET', path: `/categories/${id}` });
  return parseReply(CategorySchema, res.body, 'category record');
}

export async function createCategory(client: StoreClient, input: CategoryInput): Promise<Category> {
  const res = await client.request({ method: 'POST', path: '/categories', body: input });
  return parseReply(CategorySchema, res.body, 'category record');
}

export async function updateCategory(client: StoreClient, id: number, input: CategoryInput): Promise<Category> {
  const res = await client.request({ method: 'PUT', path: `/categories/${id}`, body: input });
  return parseReply(CategorySchema, res.body, 'category record');
}

/** The store refuses (422) while the category has subcategories. */
export async function deleteCategory(client: StoreClient, id: number): Promise<void> {
  await client.request({ method: 'DELETE', path: `/categories/${id}` });
}
