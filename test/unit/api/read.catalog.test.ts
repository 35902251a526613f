import { describe, expect, it } from 'vitest';
import { CategorySchema } from '../../../src/api/categories.js';
import { CustomFieldSchema } from '../../../src/api/custom-fields.js';
import { ProductSchema, categoryIdOf } from '../../../src/api/products.js';
import { parseRecords } from '../../../src/api/read.js';
import { VariantSchema } from '../../../src/api/variants.js';

/**
 * The catalog schemas read what platform.md §3 says the platform sends, written here from the rules (numeric
 * strings, nulls, absent fields, full category records), not from the sandbox's output.
 */

const variant = {
  id: '112',
  product_id: '1234',
  image_id: null,
  price: '25.00',
  promotional_price: null,
  cost: null,
  stock_management: false,
  stock: null,
  sku: null,
  values: [{ en: 'Large' }],
  weight: '0.5',
  width: null,
  height: null,
  depth: null,
  barcode: null,
  mpn: null,
  age_group: null,
  gender: null,
  created_at: '2013-01-03T09:11:51-03:00',
  updated_at: '2022-02-23T12:25:18+0000',
};

describe('catalog schemas (platform.md §3)', () => {
  it('reads a variant with string ids, nulls, sku null, stock null and no inventory_levels; nulls stay for --json', () => {
    const v = VariantSchema.parse(variant);
    expect(v).toMatchObject({ id: 112, product_id: 1234, sku: null, stock: null, price: '25.00', promotional_price: null });
    expect(v.inventory_levels).toBeUndefined();
    expect(VariantSchema.parse({ ...variant, stock: '7', stock_management: true, inventory_levels: [{ location_id: 9, stock: '7' }] })).toMatchObject({
      stock: 7,
      inventory_levels: [{ location_id: '9', stock: 7 }],
    });
  });

  it('reads a product with full category records (or plain ids), images, localized handle and attributes', () => {
    const category = { id: '5', name: { pt: 'Roupas' }, description: null, handle: { pt: 'roupas' }, parent: null, subcategories: [], seo_title: { pt: 'Roupas' } };
    const p = ProductSchema.parse({
      id: 1234,
      name: { pt: 'Camiseta' },
      handle: { pt: 'camiseta' },
      attributes: [{ en: 'Size' }],
      categories: [category, 7],
      images: [{ id: '101', product_id: '1234', src: 'https://x/a.jpg', position: '1', alt: [], created_at: '2022-02-23T12:25:18+0000' }],
      variants: [variant],
      brand: null,
    });
    expect(p.categories.map(categoryIdOf)).toEqual([5, 7]);
    expect(p.images[0]).toMatchObject({ id: 101, product_id: 1234, position: 1 });
    expect(p.brand).toBeNull();
    expect(CategorySchema.parse(category)).toMatchObject({ id: 5, parent: null });
  });

  it('one odd record never fails a list: it is left out and one warning says why', () => {
    const warnings: string[] = [];
    const list = parseRecords(ProductSchema, [{ id: 1, name: 'A' }, { id: 'x', name: 'B' }, { id: 3, name: null }], 'product', (m) => warnings.push(m));
    expect(list.map((p) => p.id)).toEqual([1, 3]);
    expect(warnings).toEqual([expect.stringMatching(/^1 product record could not be read and was left out \(record x: /)]);
  });

  it('reads custom field definitions with owner_resource and allowed values of any type', () => {
    expect(
      CustomFieldSchema.parse({ id: 'a1', name: 'Peso', value_type: 'numeric', owner_resource: 'product_variant', read_only: null, values: [1, 2] }),
    ).toMatchObject({ id: 'a1', value_type: 'numeric', values: ['1', '2'] });
  });
});
