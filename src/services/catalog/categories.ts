import { NotFoundError } from '../../client/errors.js';
import { UsageError } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import {
  type Category,
  type CategoryInput,
  createCategory,
  deleteCategory,
  getCategory,
  listCategories,
  updateCategory,
} from '../../api/categories.js';
import { getStore, type StoreInfo } from '../../api/store.js';
import { created, deleted, fieldUpdates, recordCreate } from '../../ledger/changes.js';
import type { Recorder } from '../../ledger/recorder.js';
import { localText, localTexts, mergeLocalized, parseLocalized, withDescription } from './catalog-input.js';
import { parseIntegerId } from '../common/validate.js';

const PATH_SEPARATOR = ' > ';

/** A category with its full path ("Ropa > Camisas") and depth, in the store's main language. */
export interface CategoryRow {
  id: number;
  name: string;
  path: string;
  depth: number;
  parent: number | null;
  category: Category;
}

export interface CategoryNode {
  id: number;
  name: string;
  path: string;
  children: CategoryNode[];
}

/** Rows in tree order: each parent followed by its subcategories, siblings by id. */
export function categoryRows(categories: Category[], lang?: string): CategoryRow[] {
  const byParent = childrenByParent(categories);
  const rows: CategoryRow[] = [];
  const visit = (parent: number | null, prefix: string, depth: number, seen: Set<number>) => {
    for (const category of byParent.get(parent) ?? []) {
      if (seen.has(category.id)) continue;
      seen.add(category.id);
      const name = localText(category.name, lang);
      const path = prefix ? `${prefix}${PATH_SEPARATOR}${name}` : name;
      rows.push({ id: category.id, name, path, depth, parent: category.parent, category });
      visit(category.id, path, depth + 1, seen);
    }
  };
  const seen = new Set<number>();
  visit(null, '', 0, seen);
  // A parent the list does not hold would hide its subtree; show such categories at the top.
  for (const orphan of categories.filter((c) => !seen.has(c.id) && !categories.some((p) => p.id === c.parent))) {
    const name = localText(orphan.name, lang);
    rows.push({ id: orphan.id, name, path: name, depth: 0, parent: orphan.parent, category: orphan });
    seen.add(orphan.id);
    visit(orphan.id, name, 1, seen);
  }
  return rows;
}

export function categoryTree(rows: CategoryRow[]): CategoryNode[] {
  const nodes = new Map<number, CategoryNode>(rows.map((r) => [r.id, { id: r.id, name: r.name, path: r.path, children: [] }]));
  const roots: CategoryNode[] = [];
  for (const row of rows) {
    const parent = row.parent === null ? undefined : nodes.get(row.parent);
    (parent ? parent.children : roots).push(nodes.get(row.id)!);
  }
  return roots;
}

function childrenByParent(categories: Category[]): Map<number | null, Category[]> {
  const map = new Map<number | null, Category[]>();
  for (const category of [...categories].sort((a, b) => a.id - b.id)) {
    const list = map.get(category.parent) ?? [];
    list.push(category);
    map.set(category.parent, list);
  }
  return map;
}

export async function listCategoryRows(client: StoreClient): Promise<CategoryRow[]> {
  const [categories, store] = await Promise.all([listCategories(client), getStore(client)]);
  return categoryRows(categories, store.main_language);
}

/**
 * A category named by id ("12") or by path ("Ropa > Camisas", in any of the store's languages, case
 * ignored). A path may leave out leading ancestors ("Camisas") as long as one category matches.
 */
export function resolveCategory(categories: Category[], ref: string): Category {
  const text = ref.trim();
  if (/^\d+$/.test(text)) {
    const byId = categories.find((c) => c.id === Number(text));
    if (byId) return byId;
    throw new NotFoundError(`Category ${text} not found.`);
  }
  const wanted = text.split('>').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (wanted.length === 0) throw new UsageError(`"${ref}" is neither a category id nor a path like "Ropa > Camisas".`);
  const byId = new Map(categories.map((c) => [c.id, c]));
  const matches = categories.filter((category) => {
    let node: Category | undefined = category;
    for (let i = wanted.length - 1; i >= 0; i--) {
      if (!node || !localTexts(node.name).some((n) => n.trim().toLowerCase() === wanted[i])) return false;
      node = node.parent === null ? undefined : byId.get(node.parent);
    }
    return true;
  });
  if (matches.length === 1) return matches[0]!;
  const shown = wanted.join(PATH_SEPARATOR);
  if (matches.length === 0) {
    throw new NotFoundError(`No category matches the path "${ref.trim()}"; \`store categories list --tree\` shows the tree.`);
  }
  const rows = categoryRows(categories);
  const paths = matches.map((m) => `${m.id} (${rows.find((r) => r.id === m.id)?.path ?? shown})`);
  throw new UsageError(`The category path "${ref.trim()}" is ambiguous: it matches ${paths.join(', ')}; give the id or a longer path.`);
}

/** Category fields as the commands take them (localized values still raw flag values). */
export interface CategoryFields {
  name?: string[];
  description?: string[];
  handle?: string[];
  seoTitle?: string;
  seoDescription?: string;
  googleShoppingCategory?: string;
  /** An id or a path; "none" (or an empty string) makes it a top-level category. */
  parent?: string;
  /** Create it even when the parent already has a category of that name (`--allow-duplicate`). */
  allowDuplicate?: boolean;
}

/**
 * The id a CATEGORY argument names (`categories get|update|delete`): a number as it is (no request), else a
 * name path resolved in the store's categories (one read of them), an ambiguous one refused naming each match.
 */
export async function categoryIdFor(client: StoreClient, ref: string): Promise<number> {
  const text = ref.trim();
  if (text === '') throw new UsageError('Give a category id or its name path, like "Ropa > Buzos".');
  if (/^\d+$/.test(text)) return parseIntegerId(text, 'CATEGORY', 'category');
  return resolveCategory(await listCategories(client), text).id;
}

/** A category by id, or by path (`categoryIdFor`): then found in the one read of the categories its path needs anyway. */
export async function getCategoryWithPath(client: StoreClient, ref: number | string): Promise<CategoryRow> {
  const byPath = typeof ref === 'string' && !/^\d+$/.test(ref.trim());
  const id = byPath ? undefined : typeof ref === 'number' ? ref : await categoryIdFor(client, ref);
  const [listed, categories, store] = await Promise.all([id === undefined ? undefined : getCategory(client, id), listCategories(client), getStore(client)]);
  const category = listed ?? resolveCategory(categories, ref as string);
  const row = categoryRows(categories, store.main_language).find((r) => r.id === category.id);
  const name = localText(category.name, store.main_language);
  return { id: category.id, name, path: row?.path ?? name, depth: row?.depth ?? 0, parent: category.parent, category };
}

export async function createCategoryFrom(client: StoreClient, recorder: Recorder, fields: CategoryFields): Promise<Category> {
  if (!fields.name?.length) throw new UsageError('--name is required to create a category.');
  const [store, categories] = await Promise.all([getStore(client), listCategories(client)]);
  const input = localizedInput(fields, store);
  input.parent = fields.parent === undefined ? null : parentIdIn(categories, fields.parent);
  if (!fields.allowDuplicate) refuseDuplicate(categories, input, store.main_language);
  const subject = { resource: 'category', key: localText(input.handle) || localText(input.name, store.main_language) || null };
  return recordCreate(recorder, created(subject, input), (write) => createCategory(client, input, write));
}

/**
 * A second category of the same name (main language, case ignored) under the same parent is almost always a
 * mistake — a create run twice, `Buzos` made under `Ropa` again — and the store accepts it silently.
 */
function refuseDuplicate(categories: Category[], input: CategoryInput, main: string): void {
  const name = localText(input.name, main).trim().toLowerCase();
  if (name === '') return;
  const twin = categories.find((c) => (c.parent ?? null) === (input.parent ?? null) && localText(c.name, main).trim().toLowerCase() === name);
  if (!twin) return;
  const where = twin.parent === null ? 'at the top level' : `under ${categoryRows(categories, main).find((r) => r.id === twin.parent)?.path ?? `category ${twin.parent}`}`;
  throw new UsageError(`A category "${localText(twin.name, main)}" already exists ${where} (id ${twin.id}); pass --allow-duplicate to create another.`);
}

export async function updateCategoryFrom(client: StoreClient, recorder: Recorder, id: number, fields: CategoryFields): Promise<Category> {
  const [store, current] = await Promise.all([getStore(client), getCategory(client, id)]);
  const input = localizedInput(fields, store, current);
  if (fields.parent !== undefined) {
    input.parent = await parentId(client, fields.parent);
    if (input.parent === id) throw new UsageError('--parent cannot be the category itself.');
  }
  if (Object.keys(input).length === 0) throw new UsageError('Nothing to update: give at least one field flag (see --help).');
  const write = recorder.intend(fieldUpdates({ resource: 'category', id, key: localText(current.handle) || null }, input, current));
  return updateCategory(client, id, input, write);
}

/** A category as a delete prompt names it: `"Buzos" (Ropa > Buzos, handle buzos, id 11)`. */
export async function describeCategory(client: StoreClient, id: number): Promise<string> {
  const row = await getCategoryWithPath(client, id);
  const handle = localText(row.category.handle);
  return `"${row.name}" (${row.path}${handle ? `, handle ${handle}` : ''}, id ${id})`;
}

/** Deletes a category, read first (one GET) so the run ledger keeps it whole for undo. */
export async function deleteCategoryById(client: StoreClient, recorder: Recorder, id: number): Promise<void> {
  try {
    const category = await getCategory(client, id);
    const write = recorder.intend([deleted({ resource: 'category', id, key: localText(category.handle) || null }, category)]);
    await deleteCategory(client, id, write);
  } catch (error) {
    throw withDescription(error, `Cannot delete category ${id}`);
  }
}

async function parentId(client: StoreClient, ref: string): Promise<number | null> {
  if (ref.trim() === '' || ref.trim().toLowerCase() === 'none') return null;
  return parentIdIn(await listCategories(client), ref);
}

function parentIdIn(categories: Category[], ref: string): number | null {
  if (ref.trim() === '' || ref.trim().toLowerCase() === 'none') return null;
  return resolveCategory(categories, ref).id;
}

function localizedInput(fields: CategoryFields, store: StoreInfo, current?: Category): CategoryInput {
  const input: CategoryInput = {};
  const set = (flag: string, values: string[] | undefined, key: 'name' | 'description' | 'handle') => {
    if (!values?.length) return;
    const parsed = parseLocalized(flag, values, store);
    input[key] = current ? mergeLocalized(current[key], parsed) : parsed;
  };
  set('--name', fields.name, 'name');
  set('--description', fields.description, 'description');
  set('--handle', fields.handle, 'handle');
  if (fields.seoTitle !== undefined) input.seo_title = fields.seoTitle;
  if (fields.seoDescription !== undefined) input.seo_description = fields.seoDescription;
  if (fields.googleShoppingCategory !== undefined) input.google_shopping_category = fields.googleShoppingCategory;
  return input;
}
