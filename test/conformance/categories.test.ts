import { describe, expect, it } from 'vitest';
import { errorShape, useSandbox } from '../helpers/sandbox.js';
import { expectCreated, expectOk } from './support.js';

/** Spec §2 Category, §4 Categories; DESIGN.md §5.1, §5.8, §5.10. */

describe('spec §4 Categories', () => {
  const t = useSandbox();

  it('§4 POST /categories → integer id, localized fields, parent null for a top-level category', async () => {
    const res = await t.post('/categories', {
      name: 'Shoes',
      description: 'All shoes',
      handle: 'shoes',
      parent: null,
      google_shopping_category: 'Apparel & Accessories > Shoes',
      seo_title: 'Shoes',
      seo_description: 'Buy shoes',
    });
    expectCreated(res);
    const store = (await t.get('/store')).body;
    expect(Number.isInteger(res.body.id)).toBe(true);
    expect(res.body.parent).toBeNull();
    expect(res.body.name[store.main_language]).toBe('Shoes');
    expect(res.body.description[store.main_language]).toBe('All shoes');
    expect(res.body.handle[store.main_language]).toBe('shoes');
    expect(res.body.google_shopping_category).toBe('Apparel & Accessories > Shoes');
    expect(res.body.seo_title).toBe('Shoes');
    expect(res.body.seo_description).toBe('Buy shoes');
  });

  it('§5.8: localized fields are returned as an object keyed by every store language', async () => {
    const store = (await t.get('/store')).body;
    const res = await t.post('/categories', { name: 'Bags' });
    // platform.md §2: `languages` is an object keyed by code; the active ones are the store's languages.
    const active = Object.entries(store.languages as Record<string, { active: boolean }>)
      .filter(([, entry]) => entry.active)
      .map(([code]) => code);
    expect(Object.keys(res.body.name).sort()).toEqual(active.sort());
  });

  it('§4 POST /categories with parent = an existing id → a subcategory', async () => {
    const parent = (await t.post('/categories', { name: 'Clothing' })).body;
    const child = await t.post('/categories', { name: 'Shirts', parent: parent.id });
    expectCreated(child);
    expect(child.body.parent).toBe(parent.id);
  });

  it('§5.10: parent that does not exist → 422', async () => {
    const res = await t.post('/categories', { name: 'Orphan', parent: 987654321 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
    expect(res.body.errors.parent).toBeDefined();
  });

  it('§4 PUT /categories/{id} with any subset of the fields → only those change', async () => {
    const cat = (await t.post('/categories', { name: 'Hats', seo_title: 'Hats!' })).body;
    const res = await t.put(`/categories/${cat.id}`, { seo_description: 'Nice hats' });
    expect(res.status).toBe(200);
    expect(res.body.seo_description).toBe('Nice hats');
    expect(res.body.seo_title).toBe('Hats!');
    expect(res.body.name).toEqual(cat.name);
  });

  it('§4 PUT /categories/{id} can move it under another parent', async () => {
    const a = (await t.post('/categories', { name: 'A' })).body;
    const b = (await t.post('/categories', { name: 'B' })).body;
    const res = await t.put(`/categories/${b.id}`, { parent: a.id });
    expect(res.body.parent).toBe(a.id);
  });

  it('§5.10: a parent that is the category itself or one of its subcategories → 422 (no cycle in the tree)', async () => {
    const top = (await t.post('/categories', { name: 'Top' })).body;
    const child = (await t.post('/categories', { name: 'Child', parent: top.id })).body;
    const grandchild = (await t.post('/categories', { name: 'Grandchild', parent: child.id })).body;
    for (const parent of [top.id, child.id, grandchild.id]) {
      const res = await t.put(`/categories/${top.id}`, { parent });
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors).toHaveProperty('parent');
    }
    expect((await t.get(`/categories/${top.id}`)).body.parent).toBeNull();
  });

  it('§7 404: PUT /categories/{unknown} → 404', async () => {
    const res = await t.put('/categories/987654321', { name: 'X' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject(errorShape(404));
  });

  it('§5.10: GET /categories (added) → list including subcategories', async () => {
    const res = await t.get('/categories', { query: { per_page: 200 } });
    expect(res.status).toBe(200);
    expect(res.body.some((c: any) => c.parent !== null)).toBe(true);
  });

  it('§5.10: GET /categories/{id} returns one category', async () => {
    const cat = (await t.post('/categories', { name: 'Single' })).body;
    const res = await t.get(`/categories/${cat.id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(cat.id);
  });

  it('§5.10: DELETE /categories/{id} (added) → 422 while it has subcategories', async () => {
    const parent = (await t.post('/categories', { name: 'Parent' })).body;
    await t.post('/categories', { name: 'Child', parent: parent.id });
    const res = await t.del(`/categories/${parent.id}`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
  });

  it('§5.10: DELETE /categories/{id} → deletes a leaf category', async () => {
    const cat = (await t.post('/categories', { name: 'Leaf' })).body;
    expectOk(await t.del(`/categories/${cat.id}`));
    expect((await t.get(`/categories/${cat.id}`)).status).toBe(404);
    expect((await t.del(`/categories/${cat.id}`)).status).toBe(404);
  });

  it('§7 422: a category without name → 422 with errors.name', async () => {
    const res = await t.post('/categories', { description: 'nameless' });
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toBeDefined();
  });
});
