import type { CategoryRecord, Localized } from '../records.js';
import type { StoreData, Tx } from '../state.js';
import { slug } from '../../platform/slug.js';

/** Categories (docs/api-rules.md §5.10): integer ids, parent null or an existing id, DELETE refused with subcategories. */

export function subcategories(store: StoreData, id: number): number[] {
  const ids: number[] = [];
  for (const c of store.categories.values()) if (c.parent === id) ids.push(c.id);
  return ids;
}

/** Slugs of each language's name where no handle was given. */
function handlesFor(name: Localized, given: Localized): Localized {
  const result: Localized = { ...given };
  for (const [lang, text] of Object.entries(name)) if (!result[lang] && text) result[lang] = slug(text);
  return result;
}

/** Whether `id` is `ancestor` or one of its subcategories, however deep (walking up from `id`). */
export function isWithin(store: StoreData, id: number, ancestor: number): boolean {
  for (let at: number | null = id; at !== null; at = store.categories.get(at)?.parent ?? null) {
    if (at === ancestor) return true;
  }
  return false;
}

/** A new category; a language without a handle gets the slug of its name. */
export function createCategory(tx: Tx, store: StoreData, input: Omit<CategoryRecord, 'id' | 'created_at' | 'updated_at'>): CategoryRecord {
  return tx.put(store.categories, {
    id: tx.nextId(store, 'category'),
    ...input,
    handle: handlesFor(input.name, input.handle),
    created_at: tx.now(),
    updated_at: tx.now(),
  });
}

/** Deletes a category (without subcategories) and takes it off its products; returns their ids. */
export function deleteCategory(tx: Tx, store: StoreData, category: CategoryRecord): number[] {
  const touched: number[] = [];
  tx.delete(store.categories, category.id);
  for (const product of store.products.values()) {
    if (!product.categories.includes(category.id)) continue;
    product.categories = product.categories.filter((id) => id !== category.id);
    tx.put(store.products, product);
    touched.push(product.id);
  }
  return touched;
}
