import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../../src/api/products.js';
import type { Variant } from '../../../../src/api/variants.js';
import { readCatalog } from '../../../../src/services/catalog-files/catalog.js';
import { describePlan } from '../../../../src/services/catalog-files/plan-changes.js';
import { type ProductPlan, type Step, type StoreSnapshot } from '../../../../src/services/catalog-files/plan-model.js';
import { planImport } from '../../../../src/services/catalog-files/planner.js';

/** A product's variant updates without their field-by-field diff (checked on its own). */
const updatesOf = (p: ProductPlan) => p.variantUpdates.map(({ changes: _changes, ...u }) => u);

const dir = mkdtempSync(`${tmpdir()}/import-planner-`);
let n = 0;
async function catalogOf(csv: string) {
  const path = `${dir}/f${n++}.csv`;
  writeFileSync(path, csv);
  const catalog = await readCatalog(path);
  expect(catalog.errors).toEqual([]);
  return catalog;
}
const fixture = (name: string) => fileURLToPath(new URL(`../../../fixtures/csv/valid/${name}`, import.meta.url));

function variant(id: number, productId: number, fields: Partial<Variant>): Variant {
  return {
    id,
    product_id: productId,
    sku: null,
    price: null,
    promotional_price: null,
    cost: null,
    stock: null,
    weight: null,
    values: [],
    inventory_levels: [],
    custom_fields: [],
    ...fields,
  } as Variant;
}

function product(id: number, handle: string, name: string, fields: Partial<Product> = {}): Product {
  return {
    id,
    name: { es: name },
    description: { es: '' },
    handle: { es: handle },
    attributes: [],
    variants: [],
    images: [],
    categories: [],
    ...fields,
  } as Product;
}

const LOC = '01JD0000000000000000000000';
const LOC2 = '01JD0000000000000000000001';

function emptyStore(): StoreSnapshot {
  return {
    store: { languages: ['es'], main_language: 'es' },
    products: [],
    categories: [],
    locations: [{ id: LOC, name: { es: 'Principal' }, is_default: true, priority: 0 }],
    customFields: [],
  };
}

/** The store as it is after importing canonical.csv. */
function storeMatchingCanonical(): StoreSnapshot {
  const s = emptyStore();
  s.categories = [
    { id: 1, name: { es: 'Ropa' }, parent: null },
    { id: 2, name: { es: 'Remeras' }, parent: 1 },
    { id: 3, name: { es: 'Ofertas' }, parent: null },
    { id: 4, name: { es: 'Hogar' }, parent: null },
    { id: 5, name: { es: 'Cocina' }, parent: 4 },
  ];
  const level = (stock: number) => ({ stock, inventory_levels: [{ location_id: LOC, stock }] });
  s.products = [
    product(10, 'remera-lisa', 'Remera lisa', {
      description: { es: 'Algodón peinado' },
      attributes: [{ es: 'Talle' }, { es: 'Color' }],
      categories: [2, 3],
      images: [
        { id: 1, src: 'https://img.example.com/remera-1.jpg' },
        { id: 2, src: 'https://img.example.com/remera-2.jpg' },
      ],
      variants: [
        variant(100, 10, { sku: 'REM-S-BL', price: '12000.00', weight: '0.20', values: [{ es: 'S' }, { es: 'Blanco' }], ...level(10) }),
        variant(101, 10, { sku: 'REM-M-BL', price: '12000.00', weight: '0.20', values: [{ es: 'M' }, { es: 'Blanco' }], ...level(8) }),
        variant(102, 10, {
          sku: 'REM-M-NG',
          price: '12000.00',
          promotional_price: '10500.00',
          weight: '0.20',
          values: [{ es: 'M' }, { es: 'Negro' }],
          ...level(0),
        }),
      ],
    }),
    product(11, 'taza-ceramica', 'Taza cerámica', {
      description: { es: 'Taza de 350 ml, apta lavavajillas' },
      categories: [5],
      images: [{ id: 3, src: 'https://img.example.com/taza.jpg' }],
      variants: [variant(110, 11, { sku: 'TAZA-350', price: '4500.50', weight: '0.40', ...level(25) })],
    }),
  ];
  return s;
}

describe('planImport into an empty store', () => {
  it('creates each product once, each variant of a product with variations, each image and each new category, parents first', async () => {
    const plan = planImport(await catalogOf(readFixture('canonical.csv')), emptyStore());
    expect(plan.fatal).toEqual([]);
    expect(plan.categories.map((c) => [c.ref, c.parent])).toEqual([
      ['ropa', null],
      ['ofertas', null],
      ['hogar', null],
      ['ropa > remeras', 'ropa'],
      ['hogar > cocina', 'hogar'],
    ]);
    const [remera, taza] = plan.products;
    expect(remera!.action).toBe('create');
    // One POST carries the product, its option names, its variants and its images (docs/platform.md §8).
    expect(remera!.steps.map((s) => s.kind)).toEqual(['createProduct']);
    expect(remera!.steps[0]).toMatchObject({
      body: {
        name: 'Remera lisa',
        handle: 'remera-lisa',
        attributes: [{ es: 'Talle' }, { es: 'Color' }],
        images: [{ src: 'https://img.example.com/remera-1.jpg' }, { src: 'https://img.example.com/remera-2.jpg' }],
      },
      categories: ['ropa > remeras', 'ofertas'],
    });
    expect(remera!.steps[0]!.kind === 'createProduct' && 'sku' in remera!.steps[0]!.body).toBe(false);
    const create = remera!.steps[0] as Step & { kind: 'createProduct' };
    expect(create.body.variants).toHaveLength(3);
    expect(create.body.variants![2]).toEqual({ values: [{ es: 'M' }, { es: 'Negro' }], sku: 'REM-M-NG', price: '12000.00', promotional_price: '10500.00', weight: '0.20', stock: 0 });
    // Each nested variant keeps its row, and its one-by-one create for a store that drops them.
    expect(create.variants!.map((v) => [v.sku, v.line])).toEqual([['REM-S-BL', 2], ['REM-M-BL', 3], ['REM-M-NG', 4]]);
    expect(create.variants![2]!.fallback).toMatchObject({ attributes: [{ name: 'Talle', value: 'M' }, { name: 'Color', value: 'Negro' }], sku: 'REM-M-NG' });
    // A product without variations carries its one variant in the create.
    expect(taza!.steps.map((s) => s.kind)).toEqual(['createProduct']);
    expect(taza!.steps[0]).toMatchObject({ body: { sku: 'TAZA-350', price: '4500.50', stock: 25, weight: '0.40', images: [{ src: 'https://img.example.com/taza.jpg' }] } });
    expect(plan.writes).toBe(5 + 2);
  });

  it('--mode update fails products that do not exist; --mode create skips the ones that do', async () => {
    const catalog = await catalogOf(readFixture('canonical.csv'));
    const update = planImport(catalog, emptyStore(), { mode: 'update' });
    expect(update.products.map((p) => p.action)).toEqual(['fail', 'fail']);
    expect(update.products[0]!.reason).toMatch(/does not exist/);
    expect(update.categories).toEqual([]);
    expect(update.writes).toBe(0);
    const create = planImport(catalog, storeMatchingCanonical(), { mode: 'create' });
    expect(create.products.map((p) => p.action)).toEqual(['skip', 'skip']);
  });
});

function readFixture(name: string): string {
  return readFileSync(fixture(name), 'utf8');
}

describe('planImport against a store that has the catalog', () => {
  it('sends nothing when the store already matches, in every dialect', async () => {
    for (const name of ['canonical.csv', 'admin-es.csv', 'admin-pt.csv', 'shopify.csv', 'shopify-new.csv']) {
      const plan = planImport(await readCatalog(fixture(name)), storeMatchingCanonical());
      expect(plan.writes, name).toBe(0);
      expect(plan.products.map((p) => p.action)).toEqual(['unchanged', 'unchanged']);
    }
  });

  it('changing N variants gives exactly N variant updates, each with only the fields that differ', async () => {
    const csv = readFixture('canonical.csv')
      .replace('REM-S-BL,12000.00,,10', 'REM-S-BL,12500.00,,10')
      .replace('REM-M-NG,12000.00,10500.00,0', 'REM-M-NG,12000.00,10500.00,4')
      .replace('TAZA-350,4500.50,,25', 'TAZA-350,4500.50,,24');
    const plan = planImport(await catalogOf(csv), storeMatchingCanonical());
    expect(plan.products.flatMap((p) => p.steps)).toEqual([]);
    expect(plan.products.flatMap(updatesOf)).toEqual([
      { sku: 'REM-S-BL', line: 2, variantId: 100, body: { price: '12500.00' } },
      { sku: 'REM-M-NG', line: 4, variantId: 102, body: { stock: 4 } },
      { sku: 'TAZA-350', line: 5, variantId: 110, body: { stock: 24 } },
    ]);
    // The diff field by field, for a dry run to show.
    expect(plan.products.flatMap((p) => p.variantUpdates.map((u) => u.changes))).toEqual([
      [{ field: 'price', from: '12000.00', to: '12500.00' }],
      [{ field: 'stock', from: 0, to: 4 }],
      [{ field: 'stock', from: 25, to: 24 }],
    ]);
    // Price and stock of several products ride in one PATCH /products/stock-price.
    expect(plan.writes).toBe(1);
  });

  // Money is never rounded: "11999,999" is refused by the reader (issue 16), so only exact amounts compare here.
  it('treats empty cells as "leave as is" and money as numbers in cents (12000 and 12000,0 equal 12000.00)', async () => {
    const csv = 'handle,sku,price,stock\nremera-lisa,REM-S-BL,12000,\nremera-lisa,REM-M-BL,"12000,0",\n';
    const plan = planImport(await catalogOf(csv), storeMatchingCanonical());
    expect(plan.writes).toBe(0);
  });

  it('updates only the product fields that differ, and adds only images not yet on the product, in file order', async () => {
    const csv =
      'handle,name,images,categories,sku\n' +
      'taza-ceramica,Taza de cerámica,https://img.example.com/taza-2.jpg|https://img.example.com/taza.jpg|https://img.example.com/taza-3.jpg,Hogar > Cocina; Hogar > Regalos,TAZA-350\n';
    const plan = planImport(await catalogOf(csv), storeMatchingCanonical());
    expect(plan.categories.map((c) => [c.ref, c.parent])).toEqual([['hogar > regalos', 4]]);
    expect(plan.products[0]!.steps).toEqual([
      { kind: 'updateProduct', body: { name: 'Taza de cerámica' }, categories: [5, 'hogar > regalos'] },
      { kind: 'addImage', src: 'https://img.example.com/taza-2.jpg' },
      { kind: 'addImage', src: 'https://img.example.com/taza-3.jpg' },
    ]);
  });

  it('creates a missing variant of an existing product with its options', async () => {
    const csv = readFixture('canonical.csv') + 'remera-lisa,,,,,Talle,L,Color,Negro,REM-L-NG,12000.00,,3,0.2\n';
    const plan = planImport(await catalogOf(csv), storeMatchingCanonical());
    expect(plan.products[0]!.steps).toEqual([
      {
        kind: 'createVariant',
        sku: 'REM-L-NG',
        line: 6,
        body: { sku: 'REM-L-NG', attributes: [{ name: 'Talle', value: 'L' }, { name: 'Color', value: 'Negro' }], price: '12000.00', weight: '0.20', stock: 3 },
        options: ['L', 'Negro'],
      },
    ]);
  });
});

describe('variants without SKU and stock splits the store does not report (platform.md §3)', () => {
  it('matches a row without SKU by handle and option values: no refusal, no duplicate, no SKU sent', async () => {
    const store = storeMatchingCanonical();
    store.products[0]!.variants[1]!.sku = null;
    const csv = 'handle,option1_name,option1_value,option2_name,option2_value,sku,price\nremera-lisa,Talle,M,Color,Blanco,,12000.00\n';
    expect((await catalogOf(csv)).errors).toEqual([]);
    const same = planImport(await catalogOf(csv), store);
    expect(same.writes).toBe(0);
    expect(same.products[0]!.action).toBe('unchanged');
    const changed = planImport(await catalogOf(csv.replace('12000.00', '13000')), store);
    expect(updatesOf(changed.products[0]!)).toEqual([{ sku: '', line: 2, variantId: 101, body: { price: '13000.00' } }]);
    // A new combination without SKU is created without one, known by its values.
    const added = planImport(await catalogOf(csv.replace('Talle,M,', 'Talle,L,')), store);
    expect(added.products[0]!.steps).toEqual([
      { kind: 'createVariant', sku: '', line: 2, options: ['L', 'Blanco'], body: { attributes: [{ name: 'Talle', value: 'L' }, { name: 'Color', value: 'Blanco' }], price: '12000.00' } },
    ]);
  });

  it('matches the one variant of a product without options and without SKU', async () => {
    const store = storeMatchingCanonical();
    store.products[1]!.variants[0]!.sku = null;
    const plan = planImport(await catalogOf('handle,sku,price,stock\ntaza-ceramica,,4500.50,25\n'), store);
    expect(plan.writes).toBe(0);
    const create = planImport(await catalogOf('handle,name,sku,price\nllavero,Llavero,,900\n'), emptyStore());
    expect(create.products[0]!.steps[0]).toEqual({ kind: 'createProduct', body: { name: 'Llavero', handle: 'llavero', price: '900.00' }, categories: undefined });
  });

  it('never reads a level the store does not report as zero: only what the file sets is sent', async () => {
    const store = storeMatchingCanonical();
    const other = { id: 'LOC-2', name: { es_AR: 'Palermo' }, is_default: false, priority: 1 } as (typeof store.locations)[number];
    store.locations.push(other);
    const taza = store.products[1]!.variants[0]!;
    delete taza.inventory_levels;
    // The total alone reads back unchanged.
    expect(planImport(await catalogOf('handle,sku,stock\ntaza-ceramica,TAZA-350,25\n'), store).writes).toBe(0);
    // Blank location cells send nothing; a location the file sets is sent, alone.
    expect(planImport(await catalogOf('handle,sku,stock,stock:Palermo\ntaza-ceramica,TAZA-350,25,\n'), store).writes).toBe(0);
    const set = planImport(await catalogOf('handle,sku,stock:Palermo\ntaza-ceramica,TAZA-350,0\n'), store);
    expect(updatesOf(set.products[0]!)).toEqual([{ sku: 'TAZA-350', line: 2, variantId: 110, body: { inventory_levels: [{ location_id: 'LOC-2', stock: 0 }] } }]);
  });
});

describe('matching rules', () => {
  it('fails a product whose SKU belongs to another product', async () => {
    const csv = 'handle,name,sku,price\ntaza-nueva,Taza nueva,TAZA-350,10\n';
    const plan = planImport(await catalogOf(csv), storeMatchingCanonical());
    expect(plan.products[0]).toMatchObject({ action: 'fail', reason: expect.stringMatching(/SKU TAZA-350 belongs to product 11/) });
    expect(plan.writes).toBe(0);
  });

  it('fails the row whose SKU the store holds twice, and goes ahead with the others', async () => {
    const store = storeMatchingCanonical();
    store.products.push(product(12, 'otra', 'Otra', { variants: [variant(120, 12, { sku: 'REM-M-BL' })] }));
    const csv = 'handle,sku,price\nremera-lisa,REM-S-BL,1\nremera-lisa,REM-M-BL,2\n';
    const plan = planImport(await catalogOf(csv), store);
    const remera = plan.products[0]!;
    expect(remera.rowFailures).toEqual([{ line: 3, key: 'REM-M-BL', reason: expect.stringMatching(/held by 2 variants.*ambiguous/) }]);
    expect(updatesOf(remera)).toEqual([{ sku: 'REM-S-BL', line: 2, variantId: 100, body: { price: '1.00' } }]);
  });

  it('refuses to turn a product without variations into one with variations, and back', async () => {
    const plan = planImport(
      await catalogOf('handle,option1_name,option1_value,sku\ntaza-ceramica,Color,Azul,TAZA-350\nremera-lisa,,,REM-S-BL\n'),
      storeMatchingCanonical(),
    );
    expect(plan.products.map((p) => p.action)).toEqual(['fail', 'fail']);
    expect(plan.products[0]!.reason).toMatch(/has no variations in the store but the file gives it options \(Color\)/);
    expect(plan.products[1]!.reason).toMatch(/has variations \(Talle, Color\) in the store but the file gives it none/);
  });

  it('posts the variants of a product created with variation whose variants never arrived (an interrupted import)', async () => {
    const store = emptyStore();
    store.products = [product(10, 'remera-lisa', 'Remera lisa', { description: { es: 'Algodón peinado' } })];
    const csv = 'handle,name,option1_name,option1_value,sku\nremera-lisa,Remera lisa,Talle,S,A\nremera-lisa,,Talle,M,B\n';
    const plan = planImport(await catalogOf(csv), store);
    expect(plan.products[0]!.steps.map((s) => s.kind)).toEqual(['createVariant', 'createVariant']);
  });

  it('matches products by the slug of the name without a handle column', async () => {
    const plan = planImport(await catalogOf('name,sku,price\nTaza cerámica,TAZA-350,4500.5\n'), storeMatchingCanonical());
    expect(plan.products[0]).toMatchObject({ key: 'taza-ceramica', action: 'unchanged', productId: 11 });
    const renamed = planImport(await catalogOf('name,sku\nTaza Cerámica,TAZA-350\n'), storeMatchingCanonical());
    expect(renamed.products[0]!.steps).toEqual([{ kind: 'updateProduct', body: { name: 'Taza Cerámica' }, categories: undefined }]);
  });

  it('sends per-location stock as inventory_levels of the locations that differ; unknown locations stop the import', async () => {
    const store = storeMatchingCanonical();
    store.locations.push({ id: LOC2, name: { es: 'Depósito' }, is_default: false, priority: 1 });
    const plan = planImport(await catalogOf('handle,sku,stock:Principal,stock:depósito\ntaza-ceramica,TAZA-350,25,7\n'), store);
    expect(updatesOf(plan.products[0]!)).toEqual([{ sku: 'TAZA-350', line: 2, variantId: 110, body: { inventory_levels: [{ location_id: LOC2, stock: 7 }] } }]);
    const unknown = planImport(await catalogOf('handle,sku,stock:Galpón\ntaza-ceramica,TAZA-350,1\n'), store);
    expect(unknown.fatal).toEqual([expect.stringMatching(/column "stock:Galpón" names no location/)]);
    expect(unknown.products).toEqual([]);
  });

  it('sets custom field values that differ, and stops on a custom field the store does not have', async () => {
    const store = storeMatchingCanonical();
    store.customFields = [{ id: 'f-1', name: 'Material', value_type: 'text' }];
    store.products[1]!.variants[0]!.custom_fields = [{ id: 'f-1', value: 'Cerámica' }];
    const same = planImport(await catalogOf('handle,sku,custom:material\ntaza-ceramica,TAZA-350,Cerámica\n'), store);
    expect(same.writes).toBe(0);
    const changed = planImport(await catalogOf('handle,sku,custom:Material\ntaza-ceramica,TAZA-350,Gres\n'), store);
    expect(changed.products[0]!.steps).toEqual([
      { kind: 'setCustomFields', sku: 'TAZA-350', line: 2, variantId: 110, options: [], values: [{ id: 'f-1', value: 'Gres' }] },
    ]);
    const unknown = planImport(await catalogOf('handle,sku,custom:Origen\ntaza-ceramica,TAZA-350,AR\n'), store);
    expect(unknown.fatal).toEqual([expect.stringMatching(/"custom:Origen" names no custom field/)]);
  });

  it('compares and sends localized names per language on a multilingual store', async () => {
    const store = storeMatchingCanonical();
    store.store = { languages: ['es', 'pt'], main_language: 'es' };
    store.products[1]!.name = { es: 'Taza cerámica', pt: '' };
    const plan = planImport(await catalogOf('handle,name,name:pt,sku\ntaza-ceramica,Taza cerámica,Caneca de cerâmica,TAZA-350\n'), store);
    expect(plan.products[0]!.steps).toEqual([
      { kind: 'updateProduct', body: { name: { es: 'Taza cerámica', pt: 'Caneca de cerâmica' } }, categories: undefined },
    ]);
    const wrong = planImport(await catalogOf('handle,name:en,sku\ntaza-ceramica,Mug,TAZA-350\n'), store);
    expect(wrong.fatal).toEqual([expect.stringMatching(/":en" name a language the store does not use/)]);
  });
});

describe('a dry run shows the planner\'s own diff (plan-changes.ts)', () => {
  it('an existing variant\'s changes are its variantUpdates\' changes, a stock level named by its location; a new product lists its nested variants', async () => {
    const store = emptyStore();
    store.locations.push({ id: LOC2, name: { es: 'Palermo' }, is_default: false, priority: 1 });
    store.products = [
      product(20, 'taza', 'Taza', {
        variants: [variant(200, 20, { sku: 'TAZA-1', price: '10.00', stock: 5, inventory_levels: [{ location_id: LOC, stock: 3 }, { location_id: LOC2, stock: 2 }] })],
      }),
    ];
    const csv =
      'handle,name:es,option1_name,option1_value,sku,price,stock,stock:Palermo\n' +
      'taza,Taza,,,TAZA-1,12.50,,7\n' +
      'vaso,Vaso,Talle,S,VASO-S,5.00,1,\n' +
      'vaso,,Talle,M,VASO-M,6.00,2,\n';
    const plan = planImport(await catalogOf(csv), store);
    expect(plan.products.find((p) => p.key === 'taza')!.variantUpdates[0]!.changes).toEqual([
      { field: 'price', from: '10.00', to: '12.50' },
      { field: `stock:${LOC2}`, from: 2, to: 7 },
    ]);
    const shown = describePlan(plan, store, []);
    expect(shown.find((c) => c.sku === 'TAZA-1')).toEqual({
      kind: 'updated',
      handle: 'taza',
      sku: 'TAZA-1',
      line: 2,
      changes: [
        { field: 'price', old: '10.00', new: '12.50' },
        { field: 'stock:Palermo', old: '2', new: '7' },
      ],
    });
    expect(shown.filter((c) => c.handle === 'vaso' && c.sku).map((c) => [c.kind, c.sku, c.line, c.changes])).toEqual([
      ['created', 'VASO-S', 3, [{ field: 'sku', old: '', new: 'VASO-S' }, { field: 'price', old: '', new: '5.00' }, { field: 'stock', old: '', new: '1' }]],
      ['created', 'VASO-M', 4, [{ field: 'sku', old: '', new: 'VASO-M' }, { field: 'price', old: '', new: '6.00' }, { field: 'stock', old: '', new: '2' }]],
    ]);
  });
});
