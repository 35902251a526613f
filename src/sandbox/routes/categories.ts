import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { httpError, intParam, invalid, isoTime, notFound, paginate, parseBody, showLocalized, toLocalized } from '../http.js';
import type { SandboxContext } from '../context.js';
import type { CategoryRecord } from '../records.js';
import type { StoreData } from '../state.js';
import { createCategory, deleteCategory, isWithin, subcategories } from '../store/categories.js';

/** The category routes (docs/api-rules.md §5.10; records and operations: store/categories.ts) and the documented record. */

const localizedInput = z.union([z.string(), z.record(z.string(), z.string())]);
const categorySchema = z.object({
  name: localizedInput,
  description: localizedInput.optional(),
  handle: localizedInput.optional(),
  parent: z.number().int().nullable().optional(),
  google_shopping_category: z.string().nullable().optional(),
  seo_title: z.string().nullable().optional(),
  seo_description: z.string().nullable().optional(),
});

export function presentCategory(store: StoreData, c: CategoryRecord) {
  return {
    id: c.id,
    name: showLocalized(store, c.name),
    description: showLocalized(store, c.description),
    handle: showLocalized(store, c.handle),
    parent: c.parent,
    subcategories: subcategories(store, c.id),
    google_shopping_category: c.google_shopping_category,
    seo_title: c.seo_title,
    seo_description: c.seo_description,
    created_at: isoTime(c.created_at),
    updated_at: isoTime(c.updated_at),
  };
}

function getCategory(store: StoreData, raw: string): CategoryRecord {
  const category = store.categories.get(intParam(raw, 'Category'));
  if (!category) throw notFound('Category', raw);
  return category;
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  api.get('/categories', async (req, reply) => {
    const query = req.query as Record<string, string | undefined>;
    let items = req.store.categories.list();
    if (query.handle) items = items.filter((c) => Object.values(c.handle).includes(query.handle!));
    if (query.parent_id !== undefined) {
      const parent = query.parent_id === '' || query.parent_id === 'null' ? null : Number(query.parent_id);
      items = items.filter((c) => c.parent === parent);
    }
    return paginate(req, reply, items, (c) => presentCategory(req.store, c));
  });

  api.get('/categories/:id', async (req) =>
    presentCategory(req.store, getCategory(req.store, (req.params as { id: string }).id)),
  );

  api.post('/categories', async (req, reply) => {
    const store = req.store;
    const body = parseBody(categorySchema, req.body);
    const name = toLocalized(store, body.name, 'name');
    if (!Object.values(name).some((t) => t.trim() !== '')) throw invalid('name', "can't be blank");
    const parent = body.parent ?? null;
    if (parent !== null && !store.categories.has(parent)) throw invalid('parent', `${parent} is not a category of this store`);
    const description = body.description === undefined ? {} : toLocalized(store, body.description, 'description');
    const handle = body.handle === undefined ? {} : toLocalized(store, body.handle, 'handle');
    const category = state.mutate('category.create', (tx) =>
      createCategory(tx, store, {
        name,
        description,
        handle,
        parent,
        google_shopping_category: body.google_shopping_category ?? null,
        seo_title: body.seo_title ?? null,
        seo_description: body.seo_description ?? null,
      }),
    );
    ctx.emit('category/created', store.id, category.id);
    return reply.code(201).send(presentCategory(store, category));
  });

  api.put('/categories/:id', async (req) => {
    const store = req.store;
    const category = getCategory(store, (req.params as { id: string }).id);
    const body = parseBody(categorySchema.partial(), req.body);
    const name = body.name === undefined ? category.name : toLocalized(store, body.name, 'name', category.name);
    if (!Object.values(name).some((t) => t.trim() !== '')) throw invalid('name', "can't be blank");
    let parent = category.parent;
    if (body.parent !== undefined) {
      parent = body.parent;
      if (parent !== null) {
        if (!store.categories.has(parent)) throw invalid('parent', `${parent} is not a category of this store`);
        if (isWithin(store, parent, category.id)) throw invalid('parent', 'cannot be the category itself or one of its subcategories');
      }
    }
    const updated = state.mutate('category.update', (tx) =>
      tx.put(store.categories, {
        ...category,
        name,
        description:
          body.description === undefined ? category.description : toLocalized(store, body.description, 'description', category.description),
        handle: body.handle === undefined ? category.handle : toLocalized(store, body.handle, 'handle', category.handle),
        parent,
        google_shopping_category:
          body.google_shopping_category === undefined ? category.google_shopping_category : body.google_shopping_category,
        seo_title: body.seo_title === undefined ? category.seo_title : body.seo_title,
        seo_description: body.seo_description === undefined ? category.seo_description : body.seo_description,
        updated_at: tx.now(),
      }),
    );
    ctx.emit('category/updated', store.id, updated.id);
    return presentCategory(store, updated);
  });

  api.delete('/categories/:id', async (req) => {
    const store = req.store;
    const category = getCategory(store, (req.params as { id: string }).id);
    const children = subcategories(store, category.id);
    if (children.length) {
      throw httpError(422, `Category ${category.id} has subcategories (${children.join(', ')}); delete them first`, {
        id: ['has subcategories'],
      });
    }
    const touched = state.mutate('category.delete', (tx) => deleteCategory(tx, store, category));
    ctx.emit('category/deleted', store.id, category.id);
    for (const id of touched) ctx.emit('product/updated', store.id, id);
    return {};
  });
}
