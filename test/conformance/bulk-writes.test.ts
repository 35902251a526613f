import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/platform/clock.js';
import { errorShape, startTestSandbox, useSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { createLocation, createSimpleProduct, expectCreated, tempStateDir, uniq } from './support.js';

/**
 * platform.md §8: the documented batch endpoints — POST /products with its variants and images, PATCH (and PUT)
 * /products/{id}/variants, PATCH /products/stock-price — plus `fields=` and `since_id` on a product's variants and
 * images. Every shape, limit, 422, per-variant answer and the atomicity of each request, over HTTP.
 */

const es = (text: string) => ({ es: text });

/** A product with attributes Talle/Color and `n` variants (S/M/L… × Rojo), `stock` each at the default location. */
function newProductBody(n = 3, extra: Record<string, unknown> = {}) {
  const sizes = ['S', 'M', 'L', 'XL', 'XXL'];
  return {
    name: `Remera ${uniq()}`,
    attributes: [es('Talle'), es('Color')],
    variants: Array.from({ length: n }, (_, i) => ({
      values: [es(sizes[i] ?? `T${i}`), es('Rojo')],
      price: '100.50',
      promotional_price: 90,
      cost: '40.00',
      stock: 5 + i,
      sku: `REM-${uniq()}-${i}`,
      weight: '0.3',
      width: 10,
      height: '2',
      depth: '30',
      barcode: `779${i}`,
      mpn: `MPN-${i}`,
      age_group: 'adult',
      gender: 'female',
    })),
    ...extra,
  };
}

async function productCount(t: TestSandbox): Promise<number> {
  const res = await t.get('/products', { query: { per_page: 1 } });
  return res.status === 404 ? 0 : Number(res.headers.get('x-total-count'));
}

describe('platform.md §8 POST /products with attributes, variants and images', () => {
  const t = useSandbox();

  it('201 with the whole product: option names, every variant with every field, images in order', async () => {
    const body = newProductBody(3, { images: [{ src: 'https://img.example.com/a.jpg' }, { src: 'https://img.example.com/b.jpg' }] });
    const res = await t.post('/products', body);
    expect(res.status, res.text).toBe(201);
    const p = res.body;
    expect(p.attributes).toEqual([es('Talle'), es('Color')]);
    expect(p.variants).toHaveLength(3);
    p.variants.forEach((v: any, i: number) => {
      const sent = body.variants[i]!;
      expect(v).toMatchObject({
        product_id: p.id,
        values: sent.values,
        price: '100.50',
        promotional_price: '90.00',
        cost: '40.00',
        stock: 5 + i,
        sku: sent.sku,
        weight: '0.3',
        width: '10',
        height: '2',
        depth: '30',
        barcode: sent.barcode,
        mpn: sent.mpn,
        age_group: 'adult',
        gender: 'female',
      });
    });
    // Kept under the store's own CDN URL named after each file (platform.md §12), in the order sent.
    expect(p.images.map((i: any) => [new URL(i.src).pathname.split('/').pop(), i.position])).toEqual([
      [expect.stringMatching(/^a(-\d+-\d+)?\.jpg$/), 1],
      [expect.stringMatching(/^b(-\d+-\d+)?\.jpg$/), 2],
    ]);
    expect(p.images.every((i: any) => !i.src.startsWith('https://img.example.com/'))).toBe(true);
    // What was answered is what is stored.
    const read = (await t.get(`/products/${p.id}`)).body;
    expect(read.variants).toEqual(p.variants);
    expect(read.images).toEqual(p.images);
  });

  it('stock per location: inventory_levels are kept per location and stock is their sum', async () => {
    const a = await createLocation(t, `A ${uniq()}`);
    const b = await createLocation(t, `B ${uniq()}`);
    const res = await t.post('/products', {
      name: `Multi ${uniq()}`,
      attributes: [es('Talle')],
      variants: [
        { values: [es('S')], price: 10, inventory_levels: [{ location_id: a.id, stock: 3 }, { location_id: b.id, stock: 4 }] },
        { values: [es('M')], price: 10, stock: 9, inventory_levels: [{ location_id: b.id, stock: 9 }] },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const [s, m] = res.body.variants;
    const mismatch = await t.post('/products', { name: `Sum ${uniq()}`, variants: [{ price: 1, stock: 3, inventory_levels: [{ location_id: a.id, stock: 1 }] }] });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors['variants.0.stock']).toBeDefined();
    expect(s.stock).toBe(7);
    expect(s.inventory_levels).toEqual([{ location_id: a.id, stock: 3 }, { location_id: b.id, stock: 4 }]);
    expect(m.stock).toBe(9);
  });

  it('a product without variation: one variant without values, or the seed form (sku/price/stock on the product)', async () => {
    const viaVariants = await t.post('/products', { name: `Simple ${uniq()}`, variants: [{ price: 5, stock: 2, sku: `S-${uniq()}` }] });
    expect(viaVariants.status, viaVariants.text).toBe(201);
    expect(viaVariants.body.attributes).toEqual([]);
    expect(viaVariants.body.variants).toHaveLength(1);
    expect(viaVariants.body.variants[0]).toMatchObject({ values: [], price: '5.00', stock: 2 });
    const seedForm = await t.post('/products', { name: `Seed ${uniq()}`, sku: `SF-${uniq()}`, price: 7, stock: 3 });
    expect(seedForm.status, seedForm.text).toBe(201);
    expect(seedForm.body.variants[0]).toMatchObject({ values: [], price: '7.00', stock: 3 });
    const seedFormEmptyList = await t.post('/products', { name: `Seed ${uniq()}`, sku: `SE-${uniq()}`, price: 8, stock: 1, variants: [] });
    expect(seedFormEmptyList.status, seedFormEmptyList.text).toBe(201);
    expect(seedFormEmptyList.body.variants).toHaveLength(1);
    expect(seedFormEmptyList.body.variants[0]).toMatchObject({ values: [], price: '8.00', stock: 1 });
  });

  it('422 envelopes of the limits: more than 1,000 variants, more than 250 images; nothing is created', async () => {
    const before = await productCount(t);
    const many = await t.post('/products', {
      name: `Huge ${uniq()}`,
      attributes: [es('N')],
      variants: Array.from({ length: 1001 }, (_, i) => ({ values: [es(String(i))], price: 1 })),
    });
    expect(many.status).toBe(422);
    expect(many.body).toEqual({ code: 422, message: 'Unprocessable Entity', description: 'Product is not allowed to have more than 1000 variants' });
    const pictures = await t.post('/products', {
      name: `Gallery ${uniq()}`,
      images: Array.from({ length: 251 }, (_, i) => ({ src: `https://img.example.com/${i}.jpg` })),
    });
    expect(pictures.status).toBe(422);
    expect(pictures.body).toEqual({ code: 422, message: 'Unprocessable Entity', description: 'Product is not allowed to have more than 250 images' });
    expect(await productCount(t)).toBe(before);
  });

  it('1,000 variants and 250 images are allowed', async () => {
    const res = await t.post('/products', {
      name: `Full ${uniq()}`,
      attributes: [es('N')],
      variants: Array.from({ length: 1000 }, (_, i) => ({ values: [es(String(i))], price: 1, stock: 1 })),
      images: Array.from({ length: 250 }, (_, i) => ({ src: `https://img.example.com/${i}.jpg` })),
    });
    expect(res.status, res.text.slice(0, 200)).toBe(201);
    expect(res.body.variants).toHaveLength(1000);
    expect(res.body.images).toHaveLength(250);
    const more = await t.post(`/products/${res.body.id}/images`, { src: 'https://img.example.com/251.jpg' });
    expect(more.status).toBe(422);
    expect(more.body.description).toBe('Product is not allowed to have more than 250 images');
  });

  it.each([
    ['a value count that does not match the attributes', { attributes: [es('Talle'), es('Color')], variants: [{ values: [es('S')], price: 1 }] }, 'variants.0.values'],
    ['a repeated value combination', { attributes: [es('Talle')], variants: [{ values: [es('S')], price: 1 }, { values: [es(' s ')], price: 2 }] }, 'variants.1.values'],
    ['an unknown location', { variants: [{ price: 1, inventory_levels: [{ location_id: '01HXXXXXXXXXXXXXXXXXXXXXXX', stock: 1 }] }] }, 'variants.0.inventory_levels.0.location_id'],
    ['a bad price in one variant', { attributes: [es('T')], variants: [{ values: [es('A')], price: 1 }, { values: [es('B')], price: 'x' }] }, 'variants.1.price'],
    ['more than 3 attributes', { attributes: [es('A'), es('B'), es('C'), es('D')], variants: [] }, 'attributes'],
    ['variant fields on the product and variants too', { price: 3, variants: [{ price: 1 }] }, 'variants'],
    ['a variant image_id (no image exists yet)', { variants: [{ price: 1, image_id: 5 }] }, 'variants.0.image_id'],
  ])('422 for %s; nothing is created', async (_what, extra, field) => {
    const before = await productCount(t);
    const res = await t.post('/products', { name: `Bad ${uniq()}`, ...extra });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
    expect(res.body.errors?.[field], res.text).toBeDefined();
    expect(await productCount(t)).toBe(before);
  });
});

describe('platform.md §8 PATCH /products/{id}/variants', () => {
  const t = useSandbox();
  let product: any;

  beforeAll(async () => {
    product = (await t.post('/products', newProductBody(3))).body;
  });

  it('changes many variants in one request and answers 200 with the whole collection', async () => {
    const [s, m, l] = product.variants;
    const res = await t.patch(`/products/${product.id}/variants`, [
      { id: s.id, price: '111.11', promotional_price: null, cost: 50, stock: 20, sku: 'NEW-SKU-S', weight: '1.5' },
      { id: l.id, values: [es('XL'), es('Azul')], barcode: '123' },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((v: any) => v.id)).toEqual([s.id, m.id, l.id]);
    expect(res.body[0]).toMatchObject({ price: '111.11', promotional_price: null, cost: '50.00', stock: 20, sku: 'NEW-SKU-S', weight: '1.5' });
    expect(res.body[1]).toMatchObject({ price: m.price, sku: m.sku, stock: m.stock, values: m.values });
    expect(res.body[2]).toMatchObject({ values: [es('XL'), es('Azul')], barcode: '123', sku: l.sku });
    const read = (await t.get(`/products/${product.id}/variants`)).body;
    expect(read).toEqual(res.body);
    product = (await t.get(`/products/${product.id}`)).body;
  });

  it('never creates or deletes: an element without id → 422; the variants not sent stay', async () => {
    const res = await t.patch(`/products/${product.id}/variants`, [{ values: [es('Q'), es('Rojo')], price: 1 }]);
    expect(res.status).toBe(422);
    expect(res.body.errors['0.id']).toBeDefined();
    expect((await t.get(`/products/${product.id}/variants`)).body).toHaveLength(3);
  });

  it('a variant of another product → 422 and nothing changes (atomic)', async () => {
    const other = await createSimpleProduct(t);
    const before = (await t.get(`/products/${product.id}/variants`)).body;
    const res = await t.patch(`/products/${product.id}/variants`, [
      { id: product.variants[0].id, price: 999 },
      { id: other.variant.id, price: 1 },
    ]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
    expect(res.body.errors['1.id']).toBeDefined();
    expect((await t.get(`/products/${product.id}/variants`)).body).toEqual(before);
    expect((await t.get(`/products/${other.product.id}/variants/${other.variant.id}`)).body.price).toBe(other.variant.price);
  });

  it('values that would repeat another variant\'s → the documented 422 with duplicate_variant_ids; nothing changes', async () => {
    const [s, m] = product.variants;
    const before = (await t.get(`/products/${product.id}/variants`)).body;
    const res = await t.patch(`/products/${product.id}/variants`, [
      { id: s.id, price: 1 },
      { id: m.id, values: s.values },
    ]);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 422, message: 'Unprocessable Entity', description: 'Variants cannot be repeated', duplicate_variant_ids: [s.id, m.id] });
    expect((await t.get(`/products/${product.id}/variants`)).body).toEqual(before);
    // Swapping two variants' values in one request is fine: uniqueness is checked on the result.
    const swap = await t.patch(`/products/${product.id}/variants`, [
      { id: s.id, values: m.values },
      { id: m.id, values: s.values },
    ]);
    expect(swap.status, swap.text).toBe(200);
    expect(swap.body[0].values).toEqual(m.values);
    expect(swap.body[1].values).toEqual(s.values);
  });

  it('the same variant twice in the body → "Variants cannot be repeated" naming it', async () => {
    const s = product.variants[0];
    const res = await t.patch(`/products/${product.id}/variants`, [{ id: s.id, price: 1 }, { id: s.id, price: 2 }]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ description: 'Variants cannot be repeated', duplicate_variant_ids: [s.id] });
  });

  it('other validation errors use the usual 422 shape naming the element; nothing changes', async () => {
    const before = (await t.get(`/products/${product.id}/variants`)).body;
    const bad = await t.patch(`/products/${product.id}/variants`, [
      { id: product.variants[0].id, price: 5 },
      { id: product.variants[1].id, cost: 'abc' },
    ]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors['1.cost']).toBeDefined();
    const count = await t.patch(`/products/${product.id}/variants`, [{ id: product.variants[0].id, values: [es('S')] }]);
    expect(count.status).toBe(422);
    expect(count.body.errors['0.values']).toBeDefined();
    const location = await t.patch(`/products/${product.id}/variants`, [
      { id: product.variants[0].id, inventory_levels: [{ location_id: 'nope', stock: 1 }] },
    ]);
    expect(location.status).toBe(422);
    expect(location.body.errors['0.inventory_levels.0.location_id']).toBeDefined();
    expect((await t.get(`/products/${product.id}/variants`)).body).toEqual(before);
  });

  it('404 for an unknown product', async () => {
    const res = await t.patch('/products/999999999/variants', [{ id: 1, price: 1 }]);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject(errorShape(404));
  });
});

describe('platform.md §8 PUT /products/{id}/variants replaces the collection', () => {
  const t = useSandbox();

  it('elements with id change that variant, without id make a new one, and the variants not sent are deleted', async () => {
    const p = (await t.post('/products', newProductBody(3))).body;
    const [s, , l] = p.variants;
    const res = await t.put(`/products/${p.id}/variants`, [
      { id: s.id, price: 1 },
      { id: l.id },
      { values: [es('XS'), es('Verde')], price: 3, stock: 4 },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((v: any) => v.id).slice(0, 2)).toEqual([s.id, l.id]);
    expect(res.body).toHaveLength(3);
    expect(res.body[0].price).toBe('1.00');
    expect(res.body[2]).toMatchObject({ values: [es('XS'), es('Verde')], price: '3.00', stock: 4 });
    expect((await t.get(`/products/${p.id}/variants`)).body).toEqual(res.body);
  });
});

describe('platform.md §8 PATCH /products/stock-price', () => {
  const t = useSandbox();
  let a: any;
  let b: any;

  beforeAll(async () => {
    a = (await t.post('/products', newProductBody(3))).body;
    b = (await t.post('/products', newProductBody(2))).body;
  });

  it('200 per variant across products; price as a JSON number, stock in inventory_levels (one location: no location_id needed)', async () => {
    const res = await t.patch('/products/stock-price', [
      { id: a.id, variants: [{ id: a.variants[0].id, price: 1000, inventory_levels: [{ stock: 300 }] }, { id: a.variants[1].id, price: 12.5 }] },
      { id: b.id, variants: [{ id: b.variants[1].id, inventory_levels: [{ stock: 0 }] }] },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      { id: a.id, variants: [{ id: a.variants[0].id, success: true }, { id: a.variants[1].id, success: true }] },
      { id: b.id, variants: [{ id: b.variants[1].id, success: true }] },
    ]);
    const va = (await t.get(`/products/${a.id}/variants`)).body;
    expect(va[0]).toMatchObject({ price: '1000.00', stock: 300 });
    expect(va[1]).toMatchObject({ price: '12.50', stock: a.variants[1].stock });
    expect(va[2]).toMatchObject({ price: a.variants[2].price, stock: a.variants[2].stock });
    expect((await t.get(`/products/${b.id}/variants/${b.variants[1].id}`)).body).toMatchObject({ price: b.variants[1].price, stock: 0 });
  });

  it('an unknown product or variant, or a variant of another product, fails alone (success: false) while the others are written', async () => {
    const res = await t.patch('/products/stock-price', [
      { id: a.id, variants: [{ id: a.variants[2].id, price: 77 }, { id: b.variants[0].id, price: 1 }, { id: 999999999, price: 1 }] },
      { id: 999999998, variants: [{ id: a.variants[0].id, price: 5 }] },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      { id: a.id, variants: [{ id: a.variants[2].id, success: true }, { id: b.variants[0].id, success: false }, { id: 999999999, success: false }] },
      { id: 999999998, variants: [{ id: a.variants[0].id, success: false }] },
    ]);
    expect((await t.get(`/products/${a.id}/variants/${a.variants[2].id}`)).body.price).toBe('77.00');
    expect((await t.get(`/products/${b.id}/variants/${b.variants[0].id}`)).body.price).toBe(b.variants[0].price);
    expect((await t.get(`/products/${a.id}/variants/${a.variants[0].id}`)).body.price).toBe('1000.00');
  });

  it('50 variants in total is the limit: 51 across products → 422 "Too many variants sent for update", nothing written', async () => {
    const ids = a.variants.map((v: any) => v.id);
    const variants = (n: number, price: number) => Array.from({ length: n }, (_, i) => ({ id: ids[i % ids.length], price }));
    const ok = await t.patch('/products/stock-price', [{ id: a.id, variants: variants(25, 3) }, { id: a.id, variants: variants(25, 3) }]);
    expect(ok.status, ok.text).toBe(200);
    const tooMany = await t.patch('/products/stock-price', [{ id: a.id, variants: variants(26, 4) }, { id: a.id, variants: variants(25, 4) }]);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toEqual({ code: 422, message: 'Unprocessable Entity', description: 'Too many variants sent for update' });
    expect((await t.get(`/products/${a.id}/variants/${ids[0]}`)).body.price).toBe('3.00');
  });

  it.each([
    ['a price sent as a string', { price: '1000' }, { price: ['The price must be a number.'] }],
    ['a negative stock', { inventory_levels: [{ stock: -1 }] }, { stock: ['The stock must be at least 0.'] }],
  ])('%s → the documented validation 422 for the whole request; nothing written', async (_what, change, fields) => {
    const before = (await t.get(`/products/${a.id}/variants`)).body;
    const res = await t.patch('/products/stock-price', [
      { id: a.id, variants: [{ id: a.variants[0].id, price: 5 }, { id: a.variants[1].id, ...change }] },
    ]);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 422, message: 'Unprocessable Entity', description: 'Validation error', ...fields });
    expect((await t.get(`/products/${a.id}/variants`)).body).toEqual(before);
  });

  it('a body that is not a list → the validation 422', async () => {
    const res = await t.patch('/products/stock-price', { id: a.id, variants: [] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 422, message: 'Unprocessable Entity', description: 'Validation error' });
  });
});

describe('platform.md §8 PATCH /products/stock-price on a store with several locations', () => {
  const t = useSandbox();

  it('each level names its location_id; a level without one fails that variant alone (success: false)', async () => {
    const main = await createLocation(t, 'Main');
    const second = await createLocation(t, 'Second');
    const p = (
      await t.post('/products', {
        name: `Loc ${uniq()}`,
        attributes: [es('Talle')],
        variants: [
          { values: [es('S')], price: 1, inventory_levels: [{ location_id: main.id, stock: 1 }, { location_id: second.id, stock: 2 }] },
          { values: [es('M')], price: 1, inventory_levels: [{ location_id: main.id, stock: 1 }] },
        ],
      })
    ).body;
    const [s, m] = p.variants;
    const res = await t.patch('/products/stock-price', [
      {
        id: p.id,
        variants: [
          { id: s.id, inventory_levels: [{ location_id: second.id, stock: 10 }] },
          { id: m.id, price: 9, inventory_levels: [{ stock: 5 }] },
        ],
      },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body[0].variants).toEqual([{ id: s.id, success: true }, { id: m.id, success: false }]);
    const read = (await t.get(`/products/${p.id}/variants`)).body;
    expect(read[0].inventory_levels).toEqual([{ location_id: main.id, stock: 1 }, { location_id: second.id, stock: 10 }]);
    expect(read[0].stock).toBe(11);
    expect(read[1]).toMatchObject({ price: '1.00', stock: 1 });
    const unknown = await t.patch('/products/stock-price', [{ id: p.id, variants: [{ id: m.id, inventory_levels: [{ location_id: 'NOPE', stock: 1 }] }] }]);
    expect(unknown.body[0].variants).toEqual([{ id: m.id, success: false }]);
  });
});

describe('--faults variant-fail-sku / variant-fail: single variants of a stock-price batch fail', () => {
  const t = useSandbox({ faults: 'variant-fail-sku=FAIL-ME|FAIL-TOO' });

  it('the variants with those SKUs answer success: false and keep their values; the others are written', async () => {
    const p = (
      await t.post('/products', {
        name: `Faulty ${uniq()}`,
        attributes: [es('N')],
        variants: [
          { values: [es('1')], price: 1, stock: 1, sku: 'FAIL-ME' },
          { values: [es('2')], price: 1, stock: 1, sku: 'OK-1' },
          { values: [es('3')], price: 1, stock: 1, sku: 'FAIL-TOO' },
        ],
      })
    ).body;
    const res = await t.patch('/products/stock-price', [
      { id: p.id, variants: p.variants.map((v: any) => ({ id: v.id, price: 2, inventory_levels: [{ stock: 7 }] })) },
    ]);
    expect(res.status).toBe(200);
    expect(res.body[0].variants.map((v: any) => v.success)).toEqual([false, true, false]);
    const read = (await t.get(`/products/${p.id}/variants`)).body;
    expect(read.map((v: any) => [v.price, v.stock])).toEqual([['1.00', 1], ['2.00', 7], ['1.00', 1]]);
  });
});

describe('variant-fail=1 fails every variant and counts one request in the bucket', () => {
  it('every variant fails; x-rate-limit-remaining drops by exactly one for the whole batch (clock stopped)', async () => {
    const t = await startTestSandbox({ faults: 'variant-fail=1', rate: undefined, clock: new FakeClock(Date.parse('2026-11-21T12:00:00Z')) });
    try {
      const p = (await t.post('/products', newProductBody(5))).body;
      const before = (await t.get('/store')).headers.get('x-rate-limit-remaining');
      expect(before).toBe('38');
      const res = await t.patch('/products/stock-price', [{ id: p.id, variants: p.variants.map((v: any) => ({ id: v.id, price: 3 })) }]);
      expect(res.status).toBe(200);
      expect(res.body[0].variants.map((v: any) => v.success)).toEqual([false, false, false, false, false]);
      expect(res.headers.get('x-rate-limit-remaining')).toBe('37');
    } finally {
      await t.close();
    }
  });
});

describe('platform.md §8 fields= and since_id', () => {
  const t = useSandbox();
  let p: any;

  beforeAll(async () => {
    p = (
      await t.post('/products', newProductBody(4, { images: [1, 2, 3].map((i) => ({ src: `https://img.example.com/${i}.jpg` })) }))
    ).body;
  });

  it('GET /products?fields=id,variants and GET /products/{id}?fields=… send only those fields (id always; unknown names ignored)', async () => {
    const list = await t.get('/products', { query: { fields: 'id,variants,nonsense' } });
    expect(list.status).toBe(200);
    for (const record of list.body) expect(Object.keys(record).sort()).toEqual(['id', 'variants']);
    expect(list.body.find((r: any) => r.id === p.id).variants).toEqual(p.variants);
    const one = await t.get(`/products/${p.id}`, { query: { fields: 'name, handle' } });
    expect(one.body).toEqual({ id: p.id, name: p.name, handle: p.handle });
    const none = await t.get(`/products/${p.id}`, { query: { fields: '' } });
    expect(none.body).toEqual(p);
  });

  it('GET /products/{id}/variants?since_id= and /images?since_id= list only the later ids', async () => {
    const variants = await t.get(`/products/${p.id}/variants`, { query: { since_id: p.variants[1].id } });
    expect(variants.body.map((v: any) => v.id)).toEqual(p.variants.slice(2).map((v: any) => v.id));
    expect(variants.headers.get('x-total-count')).toBe('2');
    const images = await t.get(`/products/${p.id}/images`, { query: { since_id: p.images[0].id } });
    expect(images.body.map((i: any) => i.id)).toEqual(p.images.slice(1).map((i: any) => i.id));
    const past = await t.get(`/products/${p.id}/variants`, { query: { since_id: p.variants[3].id } });
    expect(past.status).toBe(404);
    expect(past.body.description).toBe('Last page is 0');
  });
});

/** A loopback receiver of webhook deliveries. */
async function receiver(): Promise<{ url: string; bodies: any[]; close(): Promise<void> }> {
  const bodies: any[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      bodies.push(JSON.parse(raw));
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function waitFor(predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for webhook deliveries');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('webhooks: product/updated once per product a batch changed', () => {
  const t = useSandbox();
  let hooks: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    hooks = await receiver();
  });
  afterAll(() => hooks.close());

  it('stock-price: one per product with a written variant (none for a product whose variants all failed); PATCH variants: one', async () => {
    const a = (await t.post('/products', newProductBody(3))).body;
    const b = (await t.post('/products', newProductBody(2))).body;
    const c = (await t.post('/products', newProductBody(1))).body;
    expect((await t.post('/webhooks', { event: 'product/updated', url: `${hooks.url}/updated` })).status).toBe(201);
    const res = await t.patch('/products/stock-price', [
      { id: a.id, variants: a.variants.map((v: any) => ({ id: v.id, price: 9 })) },
      { id: b.id, variants: b.variants.map((v: any) => ({ id: v.id, price: 9 })) },
      { id: c.id, variants: [{ id: 999999999, price: 9 }] },
    ]);
    expect(res.status).toBe(200);
    expect((await t.patch(`/products/${b.id}/variants`, b.variants.map((v: any) => ({ id: v.id, cost: 1 })))).status).toBe(200);
    // A last single update marks the end of what the batches sent.
    expect((await t.put(`/products/${c.id}`, { published: false })).status).toBe(200);
    await waitFor(() => hooks.bodies.some((h) => h.id === c.id));
    const ids = hooks.bodies.filter((h) => h.event === 'product/updated').map((h) => h.id);
    expect(ids.filter((id) => id === a.id)).toHaveLength(1);
    expect(ids.filter((id) => id === b.id)).toHaveLength(2);
    expect(ids.filter((id) => id === c.id)).toHaveLength(1);
  });
});

describe('persistence: every batch change is journaled and replayed on restart', () => {
  it('POST with variants, PATCH variants and stock-price survive a restart, each one journal entry', async () => {
    const dir = tempStateDir();
    const first = await startTestSandbox({ stateDir: dir });
    let expected: any;
    let productId: number;
    try {
      const p = (await first.post('/products', newProductBody(3, { images: [{ src: 'https://img.example.com/x.jpg' }] }))).body;
      productId = p.id;
      expect((await first.patch(`/products/${p.id}/variants`, [{ id: p.variants[0].id, cost: 12, sku: 'J-1' }])).status).toBe(200);
      const sp = await first.patch('/products/stock-price', [{ id: p.id, variants: [{ id: p.variants[1].id, price: 55, inventory_levels: [{ stock: 42 }] }] }]);
      expect(sp.body[0].variants[0].success).toBe(true);
      expected = (await first.get(`/products/${p.id}`)).body;
      const ops = readFileSync(join(dir, 'journal.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).op);
      expect(ops.filter((op) => op === 'product.create' || op.startsWith('variant.'))).toEqual([
        'product.create',
        'variant.batch-update',
        'variant.stock-price',
      ]);
      // Replay the journal alone (no close, so no snapshot): a second sandbox on a copy of the directory.
      const { cpSync } = await import('node:fs');
      const copy = tempStateDir();
      cpSync(dir, copy, { recursive: true });
      const replayed = await startTestSandbox({ stateDir: copy });
      try {
        expect((await replayed.get(`/products/${productId}`)).body).toEqual(expected);
      } finally {
        await replayed.close();
      }
    } finally {
      await first.close();
    }
    const second = await startTestSandbox({ stateDir: dir });
    try {
      const read = (await second.get(`/products/${productId!}`)).body;
      expect(read).toEqual(expected);
      expect(read.variants[0]).toMatchObject({ cost: '12.00', sku: 'J-1' });
      expect(read.variants[1]).toMatchObject({ price: '55.00', stock: 42 });
    } finally {
      await second.close();
    }
  });
});
