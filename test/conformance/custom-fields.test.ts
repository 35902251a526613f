import { beforeAll, describe, expect, it } from 'vitest';
import { UUID, errorShape, useSandbox } from '../helpers/sandbox.js';
import { createLocation, createSimpleProduct, expectCreated, expectOk } from './support.js';

/** Spec §2 Variant custom field, §4 Variant custom fields; DESIGN.md §5.13. */

const BASE = '/products/variants/custom-fields';

describe('spec §4 Variant custom fields', () => {
  const t = useSandbox();

  beforeAll(async () => {
    await createLocation(t, 'Main');
  });

  async function define(body: Record<string, unknown>): Promise<any> {
    const res = await t.post(BASE, body);
    expectCreated(res);
    return res.body;
  }

  it('§4 POST /products/variants/custom-fields → {id (UUID), name, description, value_type, read_only, values}', async () => {
    const res = await t.post(BASE, {
      name: 'Material',
      description: 'What it is made of',
      value_type: 'text_list',
      read_only: false,
      values: ['Cotton', 'Wool'],
    });
    expectCreated(res);
    expect(res.body).toMatchObject({
      name: 'Material',
      description: 'What it is made of',
      value_type: 'text_list',
      read_only: false,
      values: ['Cotton', 'Wool'],
      // platform.md §7: definitions carry their owner resource.
      owner_resource: 'product_variant',
    });
    expect(String(res.body.id)).toMatch(UUID);
  });

  it('§5.13: value_type is one of text, numeric, date, text_list → 422 otherwise', async () => {
    for (const value_type of ['text', 'numeric', 'date']) await define({ name: `F-${value_type}`, value_type });
    const res = await t.post(BASE, { name: 'Bad', value_type: 'color' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
    expect(res.body.errors.value_type).toBeDefined();
  });

  it('§4 GET /products/variants/custom-fields → list of definitions', async () => {
    const res = await t.get(BASE);
    expect(res.status).toBe(200);
    expect(res.body.some((f: any) => f.name === 'Material')).toBe(true);
  });

  it('§4/§5.13 PUT /products/variants/custom-fields/{id} {value} → adds one allowed value of a text_list', async () => {
    const f = await define({ name: 'Fit', value_type: 'text_list', values: ['Slim'] });
    const res = await t.put(`${BASE}/${f.id}`, { value: 'Regular' });
    expect(res.status).toBe(200);
    expect(res.body.values).toEqual(['Slim', 'Regular']);
  });

  it('§5.13: PUT updates a definition (name, description)', async () => {
    const f = await define({ name: 'Old', value_type: 'text' });
    const res = await t.put(`${BASE}/${f.id}`, { name: 'New', description: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'New', description: 'Renamed' });
  });

  it('§7 404: PUT/DELETE /products/variants/custom-fields/{unknown} → 404', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await t.put(`${BASE}/${missing}`, { value: 'x' })).status).toBe(404);
    const res = await t.del(`${BASE}/${missing}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject(errorShape(404));
  });

  it('§5.13: PUT /products/{pid}/variants/{vid}/custom-fields [{id, value}] (added) → the variant carries custom_fields', async () => {
    const f = await define({ name: 'Origin', value_type: 'text' });
    const { product, variant } = await createSimpleProduct(t);
    const res = await t.put(`/products/${product.id}/variants/${variant.id}/custom-fields`, [{ id: f.id, value: 'Brazil' }]);
    expectOk(res);
    const v = (await t.get(`/products/${product.id}/variants/${variant.id}`)).body;
    expect(v.custom_fields).toEqual(expect.arrayContaining([expect.objectContaining({ id: f.id, value: 'Brazil' })]));
  });

  it('§5.13: a value on a variant for an unknown definition → 422 (or 404)', async () => {
    const { product, variant } = await createSimpleProduct(t);
    const res = await t.put(`/products/${product.id}/variants/${variant.id}/custom-fields`, [
      { id: '00000000-0000-4000-8000-000000000000', value: 'x' },
    ]);
    expect([404, 422]).toContain(res.status);
  });

  it('§5.13: DELETE /products/{pid}/variants/{vid}/custom_fields/{id} removes one variant\'s value only', async () => {
    const f = await define({ name: 'Batch', value_type: 'text' });
    const a = await createSimpleProduct(t);
    const b = await createSimpleProduct(t);
    await t.put(`/products/${a.product.id}/variants/${a.variant.id}/custom-fields`, [{ id: f.id, value: 'A1' }]);
    await t.put(`/products/${b.product.id}/variants/${b.variant.id}/custom-fields`, [{ id: f.id, value: 'B1' }]);
    expectOk(await t.del(`/products/${a.product.id}/variants/${a.variant.id}/custom_fields/${f.id}`));
    const va = (await t.get(`/products/${a.product.id}/variants/${a.variant.id}`)).body;
    const vb = (await t.get(`/products/${b.product.id}/variants/${b.variant.id}`)).body;
    expect(va.custom_fields.some((c: any) => c.id === f.id)).toBe(false);
    expect(vb.custom_fields).toEqual(expect.arrayContaining([expect.objectContaining({ id: f.id, value: 'B1' })]));
    // the definition still exists
    expect((await t.get(BASE, { query: { per_page: 200 } })).body.some((d: any) => d.id === f.id)).toBe(true);
  });

  it('§4/§5.13 DELETE /products/variants/custom-fields/{id} deletes the definition and its values', async () => {
    const f = await define({ name: 'Season', value_type: 'text' });
    const { product, variant } = await createSimpleProduct(t);
    await t.put(`/products/${product.id}/variants/${variant.id}/custom-fields`, [{ id: f.id, value: 'Summer' }]);
    expectOk(await t.del(`${BASE}/${f.id}`));
    expect((await t.get(BASE, { query: { per_page: 200 } })).body.some((d: any) => d.id === f.id)).toBe(false);
    const v = (await t.get(`/products/${product.id}/variants/${variant.id}`)).body;
    expect(v.custom_fields.some((c: any) => c.id === f.id)).toBe(false);
  });

  it('§7 422: a definition without name → 422', async () => {
    const res = await t.post(BASE, { value_type: 'text' });
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toBeDefined();
  });
});
