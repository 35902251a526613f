import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../src/platform/clock.js';
import { HttpError } from '../../../../src/sandbox/http.js';
import { parseFaults, VariantFaults } from '../../../../src/sandbox/faults.js';
import { bootstrap } from '../../../../src/sandbox/seed.js';
import { SandboxState, type StoreData } from '../../../../src/sandbox/state.js';
import { variantStock } from '../../../../src/sandbox/stock.js';
import { createLocation } from '../../../../src/sandbox/store/locations.js';
import { checkNewProduct, createProduct, type ProductInput } from '../../../../src/sandbox/store/products.js';
import { applyStockPrice, checkStockPriceBody, planStockPrice } from '../../../../src/sandbox/store/stock-price.js';
import { applyVariantBatch, checkVariantBatch } from '../../../../src/sandbox/store/variants.js';

/** The store operations of the batch endpoints (docs/platform.md §8), without HTTP. */

function setup(locations = 1) {
  const state = new SandboxState(new FakeClock(1_700_000_000_000));
  const store = bootstrap(state, 'empty', 'enterprise');
  const ids = Array.from({ length: locations }, (_, i) =>
    state.mutate('test.location', (tx) =>
      createLocation(tx, store, { name: { es_AR: `L${i}` }, address: { country: { code: 'AR' } }, is_default: i === 0, priority: i }),
    ).id,
  );
  return { state, store, locations: ids };
}

function makeProduct(state: SandboxState, store: StoreData, input: ProductInput) {
  const checked = checkNewProduct(store, input);
  return state.mutate('product.create', (tx) => createProduct(tx, store, input, checked, []));
}

const threeSizes: ProductInput = {
  name: 'Remera',
  attributes: [{ es: 'Talle' }],
  variants: ['S', 'M', 'L'].map((size, i) => ({ values: [{ es: size }], price: 10 + i, stock: i, sku: `R-${size}` })),
};

/** The 422 a call throws: its status, description and top-level fields. */
function refusal(fn: () => unknown): { status: number; description: string; extra?: Record<string, unknown>; fields?: string[] } {
  try {
    fn();
  } catch (error) {
    if (error instanceof HttpError) {
      return { status: error.status, description: error.description, extra: error.extra, fields: Object.keys(error.fieldErrors ?? {}) };
    }
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('checkNewProduct / createProduct', () => {
  it('makes the attributes, every variant with its fields, and the images in one change', () => {
    const { state, store, locations } = setup(2);
    const p = makeProduct(state, store, {
      ...threeSizes,
      variants: [{ values: [{ es: 'S' }], price: '5', inventory_levels: [{ location_id: locations[0]!, stock: 2 }, { location_id: locations[1]!, stock: 3 }] }],
      images: [{ src: 'https://x.example/a.jpg' }],
    });
    expect(p.attributes).toEqual([{ es: 'Talle' }]);
    expect(p.variants).toHaveLength(1);
    expect(variantStock(p.variants[0]!)).toBe(5);
    // Kept under the CDN's URL named after the file, never the URL given (docs/platform.md §12).
    expect(p.images.map((i) => [i.src, i.position])).toEqual([[`https://cdn.sandbox.invalid/stores/${store.id}/products/a-640-0.jpg`, 1]]);
    expect(store.productIndex.variantToProduct.get(p.variants[0]!.id)).toBe(p.id);
  });

  it('refuses before any change: the limits with the platform envelope, the rest naming the field', () => {
    const { store } = setup();
    const many = { name: 'x', attributes: [{ es: 'N' }], variants: Array.from({ length: 1001 }, (_, i) => ({ values: [{ es: String(i) }] })) };
    expect(refusal(() => checkNewProduct(store, many))).toMatchObject({ status: 422, description: 'Product is not allowed to have more than 1000 variants', fields: [] });
    const dup = { ...threeSizes, variants: [{ values: [{ es: 'S' }] }, { values: [{ es: 's' }] }] };
    expect(refusal(() => checkNewProduct(store, dup)).fields).toEqual(['variants.1.values']);
    expect(store.products.size).toBe(0);
  });
});

describe('checkVariantBatch / applyVariantBatch', () => {
  it('PATCH: changes the variants named, checks uniqueness on the result (a swap is fine)', () => {
    const { state, store } = setup();
    const p = makeProduct(state, store, threeSizes);
    const [s, m] = p.variants;
    const batch = checkVariantBatch(store, p, [{ id: s!.id, values: [{ es: 'M' }], cost: 3 }, { id: m!.id, values: [{ es: 'S' }] }], false);
    state.mutate('variant.batch-update', (tx) => applyVariantBatch(tx, store, p, batch, []));
    expect(p.variants.map((v) => v.values[0]!.es)).toEqual(['M', 'S', 'L']);
    expect(p.variants[0]!.cost).toBe('3.00');
  });

  it('PATCH: repeats → "Variants cannot be repeated" with the ids; unknown ids and missing ids → 422 naming the element', () => {
    const { state, store } = setup();
    const p = makeProduct(state, store, threeSizes);
    const [s, m] = p.variants;
    expect(refusal(() => checkVariantBatch(store, p, [{ id: m!.id, values: [{ es: 'S' }] }], false))).toMatchObject({
      description: 'Variants cannot be repeated',
      extra: { duplicate_variant_ids: [s!.id, m!.id] },
    });
    expect(refusal(() => checkVariantBatch(store, p, [{ id: s!.id }, { id: s!.id }], false)).extra).toEqual({ duplicate_variant_ids: [s!.id] });
    expect(refusal(() => checkVariantBatch(store, p, [{ id: 999 }], false)).fields).toEqual(['0.id']);
    expect(refusal(() => checkVariantBatch(store, p, [{ price: 1 }], false)).fields).toEqual(['0.id']);
  });

  it('PUT: keeps the variants sent, makes the new ones, deletes the rest', () => {
    const { state, store } = setup();
    const p = makeProduct(state, store, threeSizes);
    const [s, , l] = p.variants;
    const batch = checkVariantBatch(store, p, [{ id: l!.id }, { values: [{ es: 'XL' }], price: 9 }, { id: s!.id }], true);
    state.mutate('variant.batch-replace', (tx) => applyVariantBatch(tx, store, p, batch, []));
    expect(p.variants.map((v) => v.values[0]!.es)).toEqual(['S', 'L', 'XL']);
    expect(store.productIndex.bySku.has('R-M')).toBe(false);
  });
});

describe('checkStockPriceBody / planStockPrice', () => {
  it('refuses the whole body with the documented validation errors', () => {
    expect(refusal(() => checkStockPriceBody([{ id: 1, variants: [{ id: 2, price: '10' }] }]))).toMatchObject({
      description: 'Validation error',
      extra: { price: ['The price must be a number.'] },
    });
    expect(refusal(() => checkStockPriceBody([{ id: 1, variants: [{ id: 2, inventory_levels: [{ stock: -3 }] }] }])).extra).toEqual({
      stock: ['The stock must be at least 0.'],
    });
    const fiftyOne = [{ id: 1, variants: Array.from({ length: 30 }, () => ({ id: 2 })) }, { id: 3, variants: Array.from({ length: 21 }, () => ({ id: 4 })) }];
    expect(refusal(() => checkStockPriceBody(fiftyOne)).description).toBe('Too many variants sent for update');
    expect(checkStockPriceBody(fiftyOne.map((p) => ({ ...p, variants: p.variants.slice(1) })))).toHaveLength(2);
  });

  it('answers per variant and writes only the successes', () => {
    const { state, store, locations } = setup(2);
    const p = makeProduct(state, store, {
      ...threeSizes,
      variants: threeSizes.variants!.map((v) => ({ ...v, stock: undefined, inventory_levels: [{ location_id: locations[0]!, stock: 1 }] })),
    });
    const [s, m, l] = p.variants;
    const body = checkStockPriceBody([
      {
        id: p.id,
        variants: [
          { id: s!.id, price: 99.9, inventory_levels: [{ location_id: locations[1], stock: 4 }] },
          { id: m!.id, inventory_levels: [{ stock: 4 }] }, // several locations: must name one
          { id: l!.id, price: 1 }, // failed by the fault below
          { id: 424242, price: 1 },
        ],
      },
      { id: 777, variants: [{ id: s!.id, price: 1 }] },
    ]);
    const plan = planStockPrice(store, body, (v) => v.sku === 'R-L');
    expect(plan.answer).toEqual([
      { id: p.id, variants: [{ id: s!.id, success: true }, { id: m!.id, success: false }, { id: l!.id, success: false }, { id: 424242, success: false }] },
      { id: 777, variants: [{ id: s!.id, success: false }] },
    ]);
    const touched = state.mutate('variant.stock-price', (tx) => applyStockPrice(tx, store, plan, []));
    expect(touched.map((t) => t.id)).toEqual([p.id]);
    expect(s!.price).toBe('99.90');
    expect(s!.inventory_levels).toEqual([{ location_id: locations[0], stock: 1 }, { location_id: locations[1], stock: 4 }]);
    expect([m!.price, variantStock(m!), l!.price]).toEqual(['11.00', 1, '12.00']);
  });
});

describe('VariantFaults', () => {
  it('fails the listed SKUs always, and about the configured share of the others, the same for the same seed', () => {
    const bySku = new VariantFaults(parseFaults('variant-fail-sku=A|B'));
    expect(['A', 'B', 'C', null].map((sku) => bySku.fails(sku))).toEqual([true, true, false, false]);
    const rolls = (seed: number) => {
      const faults = new VariantFaults(parseFaults(`variant-fail=0.3,seed=${seed}`));
      return Array.from({ length: 2000 }, () => faults.fails('X'));
    };
    expect(rolls(5)).toEqual(rolls(5));
    expect(rolls(5).filter(Boolean).length / 2000).toBeCloseTo(0.3, 1);
  });
});
