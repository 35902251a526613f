import { beforeAll, describe, expect, it } from 'vitest';
import { ISO_WITH_OFFSET, errorShape, useSandbox } from '../helpers/sandbox.js';
import { createLocation, createSimpleProduct, expectCreated, expectOk, uniq } from './support.js';

/** Spec §2 Variant, §4 Variants; DESIGN.md §5.12. */

async function productWithVariation(t: ReturnType<typeof useSandbox>, name = `Shirt ${uniq()}`): Promise<any> {
  const res = await t.post('/products', { name });
  expectCreated(res);
  return res.body;
}

describe('spec §4 Variants', () => {
  const t = useSandbox();
  let main: any;
  let second: any;
  let store: any;

  beforeAll(async () => {
    main = await createLocation(t, 'Main');
    second = await createLocation(t, 'Second');
    store = (await t.get('/store')).body;
  });

  it('§4 POST /products/{product_id}/variants {price, stock, sku, attributes} → the variant', async () => {
    const p = await productWithVariation(t);
    const res = await t.post(`/products/${p.id}/variants`, {
      price: 30,
      stock: 5,
      sku: `TS-${uniq()}`,
      attributes: [
        { name: 'Size', value: 'M' },
        { name: 'Color', value: 'Red' },
      ],
    });
    expectCreated(res);
    const v = res.body;
    expect(Number.isInteger(v.id)).toBe(true);
    expect(v.product_id).toBe(p.id);
    expect(v.price).toBe('30.00');
    expect(v.stock).toBe(5);
    expect(v.values).toHaveLength(2);
    expect(v.values[0][store.main_language]).toBe('M');
    expect(v.values[1][store.main_language]).toBe('Red');
    expect(v.created_at).toMatch(ISO_WITH_OFFSET);
    expect(v.updated_at).toMatch(ISO_WITH_OFFSET);
    expect(Array.isArray(v.custom_fields)).toBe(true);
    const product = (await t.get(`/products/${p.id}`)).body;
    expect(product.attributes.map((a: any) => a[store.main_language])).toEqual(['Size', 'Color']);
  });

  it('§5.12: the first variant fixes the option names; a later one with other names → 422', async () => {
    const p = await productWithVariation(t);
    expectCreated(await t.post(`/products/${p.id}/variants`, { price: 1, stock: 1, attributes: [{ name: 'Size', value: 'S' }] }));
    const res = await t.post(`/products/${p.id}/variants`, { price: 1, stock: 1, attributes: [{ name: 'Color', value: 'Blue' }] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
  });

  it('§5.12: option order is fixed too (same names in another order → 422)', async () => {
    const p = await productWithVariation(t);
    await t.post(`/products/${p.id}/variants`, { price: 1, stock: 1, attributes: [{ name: 'Size', value: 'S' }, { name: 'Color', value: 'Red' }] });
    const res = await t.post(`/products/${p.id}/variants`, { price: 1, stock: 1, attributes: [{ name: 'Color', value: 'Blue' }, { name: 'Size', value: 'M' }] });
    expect(res.status).toBe(422);
  });

  it('§5.12: a duplicate value combination → 422', async () => {
    const p = await productWithVariation(t);
    await t.post(`/products/${p.id}/variants`, { price: 1, stock: 1, attributes: [{ name: 'Size', value: 'L' }] });
    const res = await t.post(`/products/${p.id}/variants`, { price: 2, stock: 1, attributes: [{ name: 'Size', value: 'L' }] });
    expect(res.status).toBe(422);
  });

  it('§5.12: attributes posted to a product without variation → 422', async () => {
    const { product } = await createSimpleProduct(t);
    const res = await t.post(`/products/${product.id}/variants`, { price: 1, stock: 1, attributes: [{ name: 'Size', value: 'S' }] });
    expect(res.status).toBe(422);
  });

  it('§5.12: at most 3 options → 4 attributes → 422', async () => {
    const p = await productWithVariation(t);
    const attributes = ['A', 'B', 'C', 'D'].map((name) => ({ name, value: 'x' }));
    const res = await t.post(`/products/${p.id}/variants`, { price: 1, stock: 1, attributes });
    expect(res.status).toBe(422);
  });

  it('§5.12: at most 1,000 variants per product → the 1,001st → 422', async () => {
    const p = await productWithVariation(t);
    const combos: string[][] = [];
    for (let a = 0; a < 10; a++) for (let b = 0; b < 10; b++) for (let c = 0; c < 10; c++) combos.push([`${a}`, `${b}`, `${c}`]);
    for (let i = 0; i < combos.length; i += 50) {
      const batch = combos.slice(i, i + 50).map(([a, b, c]) =>
        t.post(`/products/${p.id}/variants`, {
          price: 1,
          stock: 0,
          attributes: [{ name: 'A', value: a }, { name: 'B', value: b }, { name: 'C', value: c }],
        }),
      );
      for (const res of await Promise.all(batch)) expect([200, 201], res.text).toContain(res.status);
    }
    const extra = await t.post(`/products/${p.id}/variants`, {
      price: 1,
      stock: 0,
      attributes: [{ name: 'A', value: 'x' }, { name: 'B', value: 'y' }, { name: 'C', value: 'z' }],
    });
    expect(extra.status).toBe(422);
  });

  it('§4 GET /products/{product_id}/variants → list', async () => {
    const p = await productWithVariation(t);
    for (const size of ['S', 'M', 'L']) await t.post(`/products/${p.id}/variants`, { price: 1, stock: 1, attributes: [{ name: 'Size', value: size }] });
    const res = await t.get(`/products/${p.id}/variants`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
    expect(res.headers.get('x-total-count')).toBe('3');
  });

  it('§4 GET /products/{product_id}/variants/{variant_id} → one variant', async () => {
    const { product, variant } = await createSimpleProduct(t);
    const res = await t.get(`/products/${product.id}/variants/${variant.id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(variant.id);
    expect(res.body.product_id).toBe(product.id);
  });

  it('§4 PUT /products/{product_id}/variants/{variant_id} → updates the variant fields of §2', async () => {
    const { product, variant } = await createSimpleProduct(t, { price: 10, stock: 2 });
    const res = await t.put(`/products/${product.id}/variants/${variant.id}`, {
      price: '11.00',
      promotional_price: '9.50',
      cost: 4,
      stock: 8,
      stock_management: true,
      weight: '0.5',
      sku: `NEW-${uniq()}`,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ price: '11.00', promotional_price: '9.50', cost: '4.00', stock: 8, stock_management: true });
    expect(String(res.body.weight)).toMatch(/^0\.50?0?$/);
    const again = (await t.get(`/products/${product.id}/variants/${variant.id}`)).body;
    expect(again.stock).toBe(8);
  });

  it('§5.12: a plain stock applies to the default location', async () => {
    const { product, variant } = await createSimpleProduct(t, { stock: 0 });
    const res = await t.put(`/products/${product.id}/variants/${variant.id}`, { stock: 6 });
    const def = (await t.get('/locations')).body.find((l: any) => l.is_default);
    expect(res.body.inventory_levels).toEqual(expect.arrayContaining([expect.objectContaining({ location_id: def.id, stock: 6 })]));
  });

  it('§5.12: inventory_levels sets stock per location and stock is their sum', async () => {
    const { product, variant } = await createSimpleProduct(t, { stock: 0 });
    const res = await t.put(`/products/${product.id}/variants/${variant.id}`, {
      inventory_levels: [
        { location_id: main.id, stock: 2 },
        { location_id: second.id, stock: 5 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.stock).toBe(7);
  });

  it('§5.12: inventory_levels with an unknown location → 422', async () => {
    const { product, variant } = await createSimpleProduct(t);
    const res = await t.put(`/products/${product.id}/variants/${variant.id}`, {
      inventory_levels: [{ location_id: '01JZZZZZZZZZZZZZZZZZZZZZZZ', stock: 2 }],
    });
    expect(res.status).toBe(422);
  });

  it('§5.12: DELETE /products/{pid}/variants/{vid} (added) → gone', async () => {
    const p = await productWithVariation(t);
    const v = (await t.post(`/products/${p.id}/variants`, { price: 1, stock: 0, attributes: [{ name: 'Size', value: 'XS' }] })).body;
    expectOk(await t.del(`/products/${p.id}/variants/${v.id}`));
    expect((await t.get(`/products/${p.id}/variants/${v.id}`)).status).toBe(404);
  });

  it('§7 404: unknown product or variant → 404; a variant of another product → 404', async () => {
    const a = await createSimpleProduct(t);
    const b = await createSimpleProduct(t);
    expect((await t.get(`/products/987654321/variants`)).status).toBe(404);
    expect((await t.get(`/products/${a.product.id}/variants/987654321`)).status).toBe(404);
    const cross = await t.get(`/products/${a.product.id}/variants/${b.variant.id}`);
    expect(cross.status).toBe(404);
    expect(cross.body).toMatchObject(errorShape(404));
  });

  it('§7 422: negative stock or a non-numeric price → 422 naming the field', async () => {
    const { product, variant } = await createSimpleProduct(t);
    const stock = await t.put(`/products/${product.id}/variants/${variant.id}`, { stock: -1 });
    expect(stock.status).toBe(422);
    expect(stock.body.errors.stock).toBeDefined();
    const price = await t.put(`/products/${product.id}/variants/${variant.id}`, { price: 'cheap' });
    expect(price.status).toBe(422);
    expect(price.body.errors.price).toBeDefined();
  });
});
