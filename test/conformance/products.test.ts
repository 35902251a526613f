import { beforeAll, describe, expect, it } from 'vitest';
import { ISO_WITH_OFFSET, errorShape, useSandbox } from '../helpers/sandbox.js';
import { createLocation, createSimpleProduct, expectCreated, expectOk, uniq } from './support.js';

/** Spec §2 Product / Product image, §4 Products; DESIGN.md §5.7, §5.8, §5.11. */

describe('spec §4 Products', () => {
  const t = useSandbox();
  let main: any;
  let second: any;
  let category: any;

  beforeAll(async () => {
    main = await createLocation(t, 'Main');
    second = await createLocation(t, 'Second');
    category = (await t.post('/categories', { name: 'Tools' })).body;
  });

  it('§4 POST /products with sku/price/stock → a product without variation: one variant without values holds them', async () => {
    const res = await t.post('/products', {
      name: 'Hammer',
      description: 'A hammer',
      price: 25,
      sku: 'HAM-1',
      stock: 7,
      categories: [category.id],
      images: [],
    });
    expectCreated(res);
    const p = res.body;
    expect(Number.isInteger(p.id)).toBe(true);
    expect(p.variants).toHaveLength(1);
    const v = p.variants[0];
    expect(v.sku).toBe('HAM-1');
    expect(v.price).toBe('25.00');
    expect(v.stock).toBe(7);
    expect(v.values).toEqual([]);
    expect(v.product_id).toBe(p.id);
    // product-level price/sku/stock mirror the first variant
    expect(p.sku).toBe('HAM-1');
    expect(String(p.price)).toBe('25.00');
    expect(p.stock).toBe(7);
    // platform.md §3: categories come as full category records.
    expect(p.categories).toEqual([expect.objectContaining({ id: category.id, name: category.name, parent: null })]);
  });

  it('§5.11: GET /products/{id} returns variants, images, attributes, handle, categories, created_at, updated_at', async () => {
    const { product } = await createSimpleProduct(t, { name: 'Screwdriver' });
    const res = await t.get(`/products/${product.id}`);
    expect(res.status).toBe(200);
    for (const key of ['variants', 'images', 'attributes', 'handle', 'categories', 'created_at', 'updated_at']) {
      expect(res.body, key).toHaveProperty(key);
    }
    expect(res.body.created_at).toMatch(ISO_WITH_OFFSET);
    expect(res.body.updated_at).toMatch(ISO_WITH_OFFSET);
  });

  it('§5.11: a create without sku/price/stock → a product with variation and no variants', async () => {
    const res = await t.post('/products', { name: 'T-Shirt' });
    expectCreated(res);
    expect(res.body.variants).toEqual([]);
  });

  it('§5.11: name is required → 422 errors.name', async () => {
    const res = await t.post('/products', { price: 10 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
    expect(res.body.errors.name).toBeDefined();
  });

  it('platform.md §8 (replaces §5.11): images given at creation are the product\'s, in order; a src that is not http(s) → 422', async () => {
    const res = await t.post('/products', { name: 'Pictured', images: [{ src: 'https://example.com/a.jpg' }, { src: 'https://example.com/b.jpg' }] });
    expectCreated(res);
    // The platform keeps its own copy under a CDN URL named after the file (platform.md §12), never the URL given.
    expect(res.body.images.map((i: any) => [i.src, i.position, i.product_id])).toEqual([
      [expect.stringMatching(/^https:\/\/.+\/products\/a-640-0\.jpg$/), 1, res.body.id],
      [expect.stringMatching(/^https:\/\/.+\/products\/b-640-0\.jpg$/), 2, res.body.id],
    ]);
    const bad = await t.post('/products', { name: 'Pictured', images: [{ src: 'ftp://example.com/a.jpg' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['images.0.src']).toBeDefined();
  });

  it('§5.7: money accepted as number or decimal string, returned as a decimal string', async () => {
    const res = await t.post('/products', { name: `Money ${uniq()}`, price: '19.9', sku: `M-${uniq()}`, stock: 1 });
    expectCreated(res);
    expect(res.body.variants[0].price).toBe('19.90');
  });

  it('§5.8: a localized name object uses the store languages; plain string goes to the main language', async () => {
    const store = (await t.get('/store')).body;
    const res = await t.post('/products', { name: 'Llave' });
    expect(res.body.name).toMatchObject({ [store.main_language]: 'Llave' });
    const obj = await t.post('/products', { name: { [store.main_language]: 'Pinza' } });
    expect(obj.body.name[store.main_language]).toBe('Pinza');
    const bad = await t.post('/products', { name: { xx: 'Nope' } });
    expect(bad.status).toBe(422);
  });

  it('§5.11: handle is generated from the name when absent', async () => {
    const store = (await t.get('/store')).body;
    const res = await t.post('/products', { name: 'Red Rubber Boots' });
    const handle = typeof res.body.handle === 'string' ? res.body.handle : res.body.handle[store.main_language];
    expect(handle).toMatch(/red-rubber-boots/);
  });

  it('§5.11: handle is unique per store → 422 on a duplicate', async () => {
    const first = await t.post('/products', { name: 'Unique', handle: 'unique-handle' });
    expectCreated(first);
    const dup = await t.post('/products', { name: 'Unique 2', handle: 'unique-handle' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.handle).toBeDefined();
  });

  it('§4 POST /products with inventory_levels → stock per location, stock = their sum', async () => {
    const res = await t.post('/products', {
      name: 'Levels',
      sku: `LV-${uniq()}`,
      price: 5,
      inventory_levels: [
        { location_id: main.id, stock: 3 },
        { location_id: second.id, stock: 4 },
      ],
    });
    expectCreated(res);
    expect(res.body.stock).toBe(7);
    const levels = res.body.variants[0].inventory_levels;
    expect(levels).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ location_id: main.id, stock: 3 }),
        expect.objectContaining({ location_id: second.id, stock: 4 }),
      ]),
    );
  });

  it('§5.12: inventory_levels with an unknown location → 422', async () => {
    const res = await t.post('/products', {
      name: 'Bad level',
      sku: `BL-${uniq()}`,
      price: 5,
      inventory_levels: [{ location_id: '01JZZZZZZZZZZZZZZZZZZZZZZZ', stock: 1 }],
    });
    expect(res.status).toBe(422);
  });

  it('§4 GET /products → lists all products of the store', async () => {
    const res = await t.get('/products', { query: { per_page: 200 } });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(Number(res.headers.get('x-total-count')));
    expect(res.body.some((p: any) => p.sku === 'HAM-1')).toBe(true);
  });

  it('platform.md §3: GET /products/sku/{sku} → the product holding that variant; 404 when none', async () => {
    const res = await t.get('/products/sku/HAM-1');
    expect(res.status).toBe(200);
    expect(res.body.variants.map((v: any) => v.sku)).toContain('HAM-1');
    const none = await t.get('/products/sku/NO-SUCH-SKU');
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject(errorShape(404));
  });

  it('platform.md §3: there is no sku filter — GET /products ignores unknown parameters and answers the whole list', async () => {
    const all = await t.get('/products', { query: { per_page: 200 } });
    const withSku = await t.get('/products', { query: { per_page: 200, sku: 'HAM-1', no_such_filter: 'x' } });
    expect(withSku.status).toBe(200);
    expect(withSku.body.length).toBe(all.body.length);
    expect(all.body.length).toBeGreaterThan(1);
  });

  it('platform.md §3: GET /products?q= searches name, description and SKU', async () => {
    const tag = uniq();
    await t.post('/products', { name: `Wrench ${tag}`, price: 1, sku: `WR-${tag}`, stock: 1 });
    await t.post('/products', { name: 'Saw', description: `Cuts wood ${tag}`, price: 1, sku: `SAW-${tag}`, stock: 1 });
    const byText = await t.get('/products', { query: { q: tag } });
    expect(byText.body.map((p: any) => p.variants[0].sku).sort()).toEqual([`SAW-${tag}`, `WR-${tag}`]);
    const bySku = await t.get('/products', { query: { q: `wr-${tag}` } });
    expect(bySku.body.map((p: any) => p.variants[0].sku)).toEqual([`WR-${tag}`]);
    const none = await t.get('/products', { query: { q: `nothing-${tag}` } });
    expect(none.status).toBe(404);
    expect(none.body.description).toBe('Last page is 0');
  });

  it('platform.md §3: a variant carries barcode, mpn, age_group, gender; stock is null when not managed', async () => {
    const res = await t.post('/products', { name: `Gift ${uniq()}`, price: 10, sku: `GF-${uniq()}`, stock_management: false });
    expectCreated(res);
    const v = res.body.variants[0];
    for (const key of ['barcode', 'mpn', 'age_group', 'gender', 'width', 'height', 'depth', 'image_id']) expect(v[key], key).toBeNull();
    expect(v.stock).toBeNull();
    const put = await t.put(`/products/${res.body.id}/variants/${v.id}`, { barcode: '7790001234567', mpn: 'M-1', age_group: 'adult', gender: 'unisex' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ barcode: '7790001234567', mpn: 'M-1', age_group: 'adult', gender: 'unisex' });
  });

  it('§5.11: GET /products?handle= (added) finds one product', async () => {
    const res = await t.get('/products', { query: { handle: 'unique-handle' } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
  });

  it('§4 PUT /products/{product_id} with a subset (price and stock) → updated', async () => {
    const { product } = await createSimpleProduct(t, { price: 10, stock: 1 });
    const res = await t.put(`/products/${product.id}`, { price: 12.5, stock: 9 });
    expect(res.status).toBe(200);
    const after = (await t.get(`/products/${product.id}`)).body;
    expect(after.variants[0].price).toBe('12.50');
    expect(after.variants[0].stock).toBe(9);
    expect(after.name).toEqual(product.name);
  });

  it('§7 404: GET/PUT/DELETE /products/{unknown} → 404', async () => {
    expect((await t.get('/products/987654321')).status).toBe(404);
    expect((await t.put('/products/987654321', { price: 1 })).status).toBe(404);
    const res = await t.del('/products/987654321');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject(errorShape(404));
  });

  it('§4 DELETE /products/{product_id} → gone', async () => {
    const { product } = await createSimpleProduct(t);
    expectOk(await t.del(`/products/${product.id}`));
    expect((await t.get(`/products/${product.id}`)).status).toBe(404);
  });

  it('§4 POST /products/{product_id}/images {src} → {id, product_id, src, position, alt, created_at, updated_at}', async () => {
    const { product } = await createSimpleProduct(t);
    const res = await t.post(`/products/${product.id}/images`, { src: 'https://cdn.example.com/hammer.jpg' });
    expectCreated(res);
    expect(res.body).toMatchObject({ product_id: product.id, src: expect.stringMatching(/\/products\/hammer-640-0\.jpg$/), position: expect.any(Number), alt: [] });
    expect(res.body.created_at).toMatch(ISO_WITH_OFFSET);
    expect(res.body.updated_at).toMatch(ISO_WITH_OFFSET);
    expect(res.body.id).toBeDefined();
    const second = await t.post(`/products/${product.id}/images`, { src: 'https://cdn.example.com/hammer-2.jpg' });
    expect(second.body.position).toBeGreaterThan(res.body.position);
    const after = (await t.get(`/products/${product.id}`)).body;
    expect(after.images.map((i: any) => i.src.split('/').pop())).toEqual(['hammer-640-0.jpg', 'hammer-2-640-0.jpg']);
  });

  it('platform.md §12: a file as base64 attachment + filename (gif/jpg/png/webp under 10 MB), stored under a CDN URL named after the file', async () => {
    const { product } = await createSimpleProduct(t);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]).toString('base64');
    const res = await t.post(`/products/${product.id}/images`, { attachment: png, filename: 'Foto Frente.png', position: 1 });
    expectCreated(res);
    expect(res.body).toMatchObject({ product_id: product.id, position: 1, src: expect.stringMatching(/^https:\/\/.+\/products\/foto-frente-640-0\.png$/) });
    // The same name again is another image, numbered by the CDN; so is a URL ending in that name.
    const again = await t.post(`/products/${product.id}/images`, { src: 'https://example.com/x/Foto%20Frente.png' });
    expect(again.body.src).toMatch(/\/products\/foto-frente-640-1\.png$/);
    for (const [body, field] of [
      [{ attachment: png }, 'filename'],
      [{ attachment: Buffer.from('not an image at all').toString('base64'), filename: 'a.png' }, 'attachment'],
      [{ attachment: '***', filename: 'a.png' }, 'attachment'],
      [{ attachment: Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(10_000_000)]).toString('base64'), filename: 'big.gif' }, 'attachment'],
      [{}, 'src'],
    ] as const) {
      const bad = await t.post(`/products/${product.id}/images`, body);
      expect(bad.status, JSON.stringify(field)).toBe(422);
      expect(bad.body.errors[field]).toBeDefined();
    }
  });

  it('§5.11: image src must be an http(s) URL → 422', async () => {
    const { product } = await createSimpleProduct(t);
    const res = await t.post(`/products/${product.id}/images`, { src: 'ftp://example.com/a.jpg' });
    expect(res.status).toBe(422);
    expect(res.body.errors.src).toBeDefined();
  });

  it('§7 404: POST /products/{unknown}/images → 404', async () => {
    const res = await t.post('/products/987654321/images', { src: 'https://example.com/a.jpg' });
    expect(res.status).toBe(404);
  });
});

describe('platform.md §3: the demo store has the cases a real catalog has', () => {
  const t = useSandbox({ seed: 'demo' });
  const byHandle = async (handle: string) => (await t.get('/products', { query: { handle } })).body[0];

  it('a product whose options exist only in a non-main language: the localized objects lack the main language', async () => {
    const cap = await byHandle('gorra-clasica');
    expect(cap.attributes).toEqual([{ pt: 'Cor' }]);
    expect(cap.variants.map((v: any) => v.values)).toEqual([[{ pt: 'Branco' }], [{ pt: 'Preto' }], [{ pt: 'Azul' }]]);
  });

  it('a product without SKU (sku null), found neither by /products/sku nor with a blank SKU', async () => {
    const wallet = await byHandle('billetera');
    expect(wallet.variants).toHaveLength(1);
    expect(wallet.variants[0].sku).toBeNull();
    expect((await t.get('/products/sku/ACC-BIL')).status).toBe(404);
  });

  it('variants whose stock split the store does not report: no inventory_levels field, stock is the total', async () => {
    const socks = await byHandle('medias-x3');
    const v = socks.variants[0];
    expect(v).not.toHaveProperty('inventory_levels');
    expect(socks).not.toHaveProperty('inventory_levels');
    expect(Number.isInteger(v.stock)).toBe(true);
    // Setting stock keeps it one figure; sending inventory_levels makes the split known.
    const put = await t.put(`/products/${socks.id}/variants/${v.id}`, { stock: 9 });
    expect(put.body.stock).toBe(9);
    expect(put.body).not.toHaveProperty('inventory_levels');
    const location = (await t.get('/locations')).body[1];
    const split = await t.put(`/products/${socks.id}/variants/${v.id}`, { inventory_levels: [{ location_id: location.id, stock: 2 }] });
    expect(split.body.inventory_levels).toEqual(expect.arrayContaining([{ location_id: location.id, stock: 2 }]));
    expect(split.body.stock).toBe(11);
  });

  it('timestamps in both offset forms: +0000 on some products (with their variants and images), +00:00 on others', async () => {
    const all = (await t.get('/products', { query: { per_page: 200 } })).body;
    const compact = all.filter((p: any) => /\+0000$/.test(p.created_at));
    const colon = all.filter((p: any) => ISO_WITH_OFFSET.test(p.created_at));
    expect(compact.length).toBeGreaterThan(0);
    expect(colon.length).toBeGreaterThan(0);
    expect(compact.length + colon.length).toBe(all.length);
    expect(compact[0].variants[0].updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/);
    expect(compact[0].images[0].created_at).toMatch(/\+0000$/);
  });

  it('products carry full category records and images with product_id, position, alt and timestamps', async () => {
    const shirt = await byHandle('camisa-oxford');
    expect(shirt.categories[0]).toMatchObject({ id: expect.any(Number), name: { es: 'Camisas' }, handle: expect.any(Object), parent: expect.any(Number) });
    expect(shirt.images[0]).toMatchObject({ id: expect.any(Number), product_id: shirt.id, position: 1, alt: ['Camisa Oxford'] });
  });
});
