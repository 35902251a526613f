import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { createLocation, createSimpleProduct, expectErrorBody, reloadedStateMatches, tempStateDir, uniq } from './support.js';

/**
 * platform.md §12, relative stock: `POST /products/{id}/variants/stock {action: replace|variation, value, id?}` —
 * replace sets (null = infinite), variation adds or removes, removing more than there is leaves 0, without `id`
 * every variant of the product; 200 with the variants updated, 422 "Valid actions are 'replace', 'variation'.",
 * 404 for an unknown product. And the `ack-drop` fault (docs/sandbox.md): writes answered as applied, not applied.
 */

const es = (text: string) => ({ es: text });

async function productWithSizes(t: ReturnType<typeof useSandbox>, stocks: number[]): Promise<any> {
  const res = await t.post('/products', {
    name: `Remera ${uniq()}`,
    attributes: [es('Talle')],
    variants: stocks.map((stock, i) => ({ values: [es(`T${i}`)], price: 10, stock, sku: `REL-${uniq()}-${i}` })),
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const stockOf = async (t: ReturnType<typeof useSandbox>, productId: number) =>
  (await t.get(`/products/${productId}/variants`)).body.map((v: any) => v.stock);

describe('platform.md §12 POST /products/{id}/variants/stock', () => {
  const t = useSandbox();

  it('variation adds or removes on one variant (id); the answer is the variants updated, as stored', async () => {
    const p = await productWithSizes(t, [10, 4]);
    const [a, b] = p.variants;
    const less = await t.post(`/products/${p.id}/variants/stock`, { action: 'variation', value: -3, id: a.id });
    expect(less.status, less.text).toBe(200);
    expect(less.body.map((v: any) => [v.id, v.stock])).toEqual([[a.id, 7]]);
    const more = await t.post(`/products/${p.id}/variants/stock`, { action: 'variation', value: 5, id: b.id });
    expect(more.body.map((v: any) => [v.id, v.stock])).toEqual([[b.id, 9]]);
    const read = (await t.get(`/products/${p.id}/variants`)).body;
    expect(read.map((v: any) => v.stock)).toEqual([7, 9]);
    expect(read[0]).toEqual(less.body[0]);
  });

  it('removing more than there is leaves 0, not an error; so does a replace below 0', async () => {
    const p = await productWithSizes(t, [3, 8]);
    const res = await t.post(`/products/${p.id}/variants/stock`, { action: 'variation', value: -5, id: p.variants[0].id });
    expect(res.status, res.text).toBe(200);
    expect(res.body[0].stock).toBe(0);
    const negative = await t.post(`/products/${p.id}/variants/stock`, { action: 'replace', value: -2, id: p.variants[1].id });
    expect(negative.body[0].stock).toBe(0);
    expect(await stockOf(t, p.id)).toEqual([0, 0]);
  });

  it('without id it applies to every variant of the product', async () => {
    const p = await productWithSizes(t, [1, 2, 3]);
    const res = await t.post(`/products/${p.id}/variants/stock`, { action: 'variation', value: 2 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((v: any) => v.stock)).toEqual([3, 4, 5]);
    const replaced = await t.post(`/products/${p.id}/variants/stock`, { action: 'replace', value: 20 });
    expect(replaced.body.map((v: any) => v.stock)).toEqual([20, 20, 20]);
  });

  it('replace null makes the stock infinite (stock null, not managed); a variation leaves it so; replace N manages it again', async () => {
    const { product, variant } = await createSimpleProduct(t, { stock: 6 });
    const infinite = await t.post(`/products/${product.id}/variants/stock`, { action: 'replace', value: null, id: variant.id });
    expect(infinite.status, infinite.text).toBe(200);
    expect(infinite.body[0]).toMatchObject({ stock: null, stock_management: false });
    const untouched = await t.post(`/products/${product.id}/variants/stock`, { action: 'variation', value: -1, id: variant.id });
    expect(untouched.status).toBe(200);
    expect(untouched.body).toEqual([]);
    expect((await stockOf(t, product.id))[0]).toBeNull();
    const counted = await t.post(`/products/${product.id}/variants/stock`, { action: 'replace', value: 4 });
    expect(counted.body[0]).toMatchObject({ stock: 4, stock_management: true });
  });

  it('on a store with several locations it acts on the default location; the other levels keep their stock', async () => {
    const t2 = t; // same sandbox: its first location became the default with the first stock above
    const other = await createLocation(t2, `Depósito ${uniq()}`);
    const locations = (await t2.get('/locations')).body;
    const main = locations.find((l: any) => l.is_default);
    const made = await t2.post('/products', {
      name: `Multi ${uniq()}`,
      variants: [{ price: 1, sku: `ML-${uniq()}`, inventory_levels: [{ location_id: main.id, stock: 2 }, { location_id: other.id, stock: 10 }] }],
    });
    expect(made.status, made.text).toBe(201);
    const res = await t2.post(`/products/${made.body.id}/variants/stock`, { action: 'variation', value: -5 });
    expect(res.body[0].stock).toBe(10);
    expect(res.body[0].inventory_levels).toEqual([{ location_id: main.id, stock: 0 }, { location_id: other.id, stock: 10 }]);
  });

  it('422: an unknown or missing action (the documented sentence), a value that is not an integer, null with variation, an id not of this product', async () => {
    const p = await productWithSizes(t, [5]);
    const path = `/products/${p.id}/variants/stock`;
    for (const body of [{ action: 'add', value: 1 }, { value: 1 }]) {
      const res = await t.post(path, body);
      expectErrorBody(res, 422);
      expect(res.body.description).toBe("Valid actions are 'replace', 'variation'.");
    }
    for (const [body, field] of [
      [{ action: 'replace', value: '5' }, 'value'],
      [{ action: 'variation', value: 1.5 }, 'value'],
      [{ action: 'variation' }, 'value'],
      [{ action: 'variation', value: null }, 'value'],
      [{ action: 'replace', value: 1, id: 999999999 }, 'id'],
      [[], 'body'],
    ] as const) {
      const res = await t.post(path, body);
      expectErrorBody(res, 422, JSON.stringify(body));
      expect(Object.keys(res.body.errors), JSON.stringify(body)).toEqual([field]);
    }
    expect(await stockOf(t, p.id)).toEqual([5]);
  });

  it('404 for an unknown product', async () => {
    const res = await t.post('/products/987654321/variants/stock', { action: 'replace', value: 1 });
    expectErrorBody(res, 404);
    expect(res.body.description).toMatch(/987654321/);
  });
});

describe('--faults ack-drop=P: writes acknowledged and not applied', () => {
  const stateDir = tempStateDir();
  const t = useSandbox({ faults: 'ack-drop=1', stateDir });

  it('PATCH /products/stock-price answers success: true for each variant and writes none', async () => {
    const p = await productWithSizes(t, [5, 6]);
    const res = await t.patch('/products/stock-price', [{ id: p.id, variants: p.variants.map((v: any) => ({ id: v.id, price: 99, inventory_levels: [{ stock: 1 }] })) }]);
    expect(res.status, res.text).toBe(200);
    expect(res.body[0].variants.map((v: any) => v.success)).toEqual([true, true]);
    const read = (await t.get(`/products/${p.id}/variants`)).body;
    expect(read.map((v: any) => [v.price, v.stock])).toEqual([['10.00', 5], ['10.00', 6]]);
  });

  it('PATCH /products/{id}/variants, PUT a variant, PUT a product and relative stock answer 200 as applied and change nothing', async () => {
    const p = await productWithSizes(t, [5]);
    const v = p.variants[0];
    const before = (await t.get(`/products/${p.id}`)).body;
    const batch = await t.patch(`/products/${p.id}/variants`, [{ id: v.id, cost: '3.00' }]);
    expect(batch.status, batch.text).toBe(200);
    expect(batch.body[0].cost).toBe('3.00');
    const put = await t.put(`/products/${p.id}/variants/${v.id}`, { price: 42 });
    expect(put.body.price).toBe('42.00');
    const relative = await t.post(`/products/${p.id}/variants/stock`, { action: 'variation', value: -2 });
    expect(relative.body[0].stock).toBe(3);
    const product = await t.put(`/products/${p.id}`, { name: 'Otro nombre' });
    expect(product.status, product.text).toBe(200);
    expect(product.body.name.es).toBe('Otro nombre');
    expect((await t.get(`/products/${p.id}`)).body).toEqual(before);
  });

  it('the journal replays to the state that was not changed', () => {
    expect(reloadedStateMatches(t.sandbox, stateDir)).toBe(true);
  });
});

describe('--faults ack-drop=0.5: some writes of a batch dropped, the others applied', () => {
  const t = useSandbox({ faults: 'ack-drop=0.5,seed=3' });

  it('every variant of a 40-variant stock-price batch answers success: true; some hold the price, some do not', async () => {
    const p = await productWithSizes(t, Array.from({ length: 40 }, () => 1));
    const res = await t.patch('/products/stock-price', [{ id: p.id, variants: p.variants.map((v: any) => ({ id: v.id, price: 77 })) }]);
    expect(res.body[0].variants.every((v: any) => v.success === true)).toBe(true);
    const prices = (await t.get(`/products/${p.id}/variants`)).body.map((v: any) => v.price);
    const applied = prices.filter((price: string) => price === '77.00').length;
    expect(applied).toBeGreaterThan(0);
    expect(applied).toBeLessThan(40);
  });
});
