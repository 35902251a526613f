import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv } from '../helpers/sandbox.js';

/** `store variants …` and `store variants custom-fields …` against the demo store. */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runInProcess(args, { env });

interface VariantJson {
  id: number;
  product_id: number;
  sku: string | null;
  price: string;
  promotional_price: string | null;
  stock: number | null;
  values: Record<string, string>[];
  inventory_levels: { location_id: string; stock: number }[];
  custom_fields: { id: string; value: string }[];
}

interface FieldJson {
  id: string;
  name: string;
  value_type: string;
  values: string[];
}

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  env = cliEnv(sandbox, 'variants');
});
afterAll(() => sandbox?.close());

describe('store variants', () => {
  it('lists and gets variants with stock per location; unknown ids are not found (exit 1)', async () => {
    const [list, one, json, noProduct, noVariant, byLocation] = await Promise.all([
      store('variants', 'list', '1'),
      store('variants', 'get', '1', '1'),
      store('variants', 'list', '1', '--json'),
      store('variants', 'list', '999'),
      store('variants', 'get', '1', '999'),
      store('variants', 'list', '1', '--by-location'),
    ]);
    const variants = JSON.parse(json.stdout) as VariantJson[];
    const byLocationLines = byLocation.stdout.trim().split('\n');
    expect(byLocationLines[0]).toBe('id\toptions\tsku\tDepósito Central\tLocal Palermo\tDepósito Córdoba\ttotal');
    // Each row's levels add up to its total.
    for (const line of byLocationLines.slice(1)) {
      const cells = line.split('\t');
      expect(Number(cells[3]) + Number(cells[4]) + Number(cells[5])).toBe(Number(cells[6]));
      expect(Number(cells[6])).toBe(variants.find((v) => v.id === Number(cells[0]))!.stock);
    }
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toBe('id\toptions\tsku\tprice\tpromotional_price\tstock');
    expect(list.stdout).toContain('1\tS / Blanco\tCAM-OXF-S-BLANCO\t32000.00\t\t');
    expect(variants.map((v) => v.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/\n {2}at Depósito Central +\d+\n {2}at Local Palermo +\d+\n {2}at Depósito Córdoba +\d+\n/);
    expect(one.stdout).toMatch(/\nField Material +Algodón\n/);
    expect(noProduct.code).toBe(1);
    expect(noProduct.stderr.trim()).toBe('Error: Product 999 not found.');
    expect(noVariant.code).toBe(1);
    expect(noVariant.stderr.trim()).toBe('Error: Variant 999 of product 1 not found.');
  });

  it('--barcode, --mpn, --age-group, --gender and --image-id on create and update: checked before sending, sent and shown', async () => {
    const shirt = JSON.parse((await store('products', 'get', '1', '--json')).stdout) as { images: { id: number }[] };
    const imageId = String(shirt.images[0]!.id);
    const created = await store(
      'variants', 'create', '1', '--option', 'Talle=XL', '--option', 'Color=Blanco', '--price', '32000', '--sku', 'CAM-OXF-XL-BLANCO',
      '--barcode', '7790001234567', '--mpn', 'OXF-XL', '--age-group', 'Adult', '--gender', 'male', '--image-id', imageId, '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    const variant = JSON.parse(created.stdout) as VariantJson & Record<string, unknown>;
    expect(variant).toMatchObject({ barcode: '7790001234567', mpn: 'OXF-XL', age_group: 'adult', gender: 'male', image_id: Number(imageId) });
    const vid = String(variant.id);

    const updated = await store('variants', 'update', '1', vid, '--gender', 'unisex', '--image-id', 'none', '--barcode', 'INT-0042');
    expect(updated.code, updated.stderr).toBe(0);
    // What changed is shown old → new.
    expect(updated.stdout).toMatch(/\nBarcode +\S+ → INT-0042\n/);
    expect(updated.stdout).toMatch(/\nGender +\S+ → unisex\n/);
    const after = JSON.parse((await store('variants', 'get', '1', vid, '--json')).stdout) as Record<string, unknown>;
    expect(after).toMatchObject({ gender: 'unisex', image_id: null, barcode: 'INT-0042', age_group: 'adult', mpn: 'OXF-XL' });

    const [gender, age, barcode, image, unknownImage] = await Promise.all([
      store('variants', 'update', '1', vid, '--gender', 'alien'),
      store('variants', 'update', '1', vid, '--age-group', 'old'),
      store('variants', 'update', '1', vid, '--barcode', '12 34'),
      store('variants', 'create', '1', '--option', 'Talle=XS', '--option', 'Color=Blanco', '--image-id', 'first'),
      store('variants', 'update', '1', vid, '--image-id', '987654'),
    ]);
    expect(gender.code).toBe(2);
    expect(gender.stderr).toContain('--gender "alien" is not valid; use female, male or unisex.');
    expect(age.code).toBe(2);
    expect(age.stderr).toContain('--age-group "old" is not valid; see --help for the values.');
    expect(barcode.code).toBe(2);
    expect(barcode.stderr).toContain('--barcode "12 34" is not a barcode');
    expect(image.code).toBe(2);
    expect(image.stderr).toContain('--image-id "first" is not a product image id');
    // An id that is not one of the product's images: the store refuses it.
    expect(unknownImage.code).not.toBe(0);
    expect(unknownImage.stderr).toContain('image_id');
    const unchanged = JSON.parse((await store('variants', 'get', '1', vid, '--json')).stdout) as Record<string, unknown>;
    expect(unchanged).toMatchObject({ gender: 'unisex', barcode: 'INT-0042' });
  });

  it('creates variants with options, price and stock per location; updates and deletes them', async () => {
    const product = await store('products', 'create', '--name', 'Buzo', '--json');
    expect(product.code).toBe(0);
    const pid = String((JSON.parse(product.stdout) as { id: number }).id);

    const created = await store(
      'variants', 'create', pid, '--option', 'Talle=M', '--option', 'Color=Gris',
      '--price', '21000,50', '--sku', 'BUZO-M-GRIS', '--stock-at', 'Local Palermo=4', '--stock', '6', '--json',
    );
    expect(created.code).toBe(0);
    const variant = JSON.parse(created.stdout) as VariantJson;
    expect(variant).toMatchObject({ price: '21000.50', sku: 'BUZO-M-GRIS', stock: 10 });
    expect(variant.values.map((v) => v.es)).toEqual(['M', 'Gris']);
    expect(variant.inventory_levels.map((l) => l.stock).sort()).toEqual([4, 6]);
    const vid = String(variant.id);

    const [duplicate, wrongOptions, badPrice] = await Promise.all([
      store('variants', 'create', pid, '--option', 'Talle=M', '--option', 'Color=Gris'),
      store('variants', 'create', pid, '--option', 'Material=Lana'),
      store('variants', 'update', pid, vid, '--price', '1.234,5'),
    ]);
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('attributes a variant with the values M / Gris already exists');
    expect(wrongOptions.code).toBe(2);
    expect(wrongOptions.stderr).toMatch(/attributes must name the product's options.*Talle, Color/);
    expect(badPrice.code).toBe(2);
    expect(badPrice.stderr).toContain('--price "1.234,5" is not a decimal number');

    const updated = await store('variants', 'update', pid, vid, '--promotional-price', '18000', '--stock-at', 'Local Palermo=0', '--weight', '0,8', '--json');
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ promotional_price: '18000.00', stock: 6, weight: '0.80' });
    const cleared = await store('variants', 'update', pid, vid, '--promotional-price', 'none', '--json');
    expect(JSON.parse(cleared.stdout)).toMatchObject({ promotional_price: null });

    // A location by id as well as by name; negative stock and unknown ids never reach the store.
    const locations = JSON.parse((await store('locations', 'list', '--json')).stdout) as { id: string; name: Record<string, string> }[];
    const cordoba = locations.find((l) => l.name.es_AR === 'Depósito Córdoba')!;
    const byId = await store('variants', 'update', pid, vid, '--stock-at', `${cordoba.id}=5`, '--json');
    expect(byId.code).toBe(0);
    expect((JSON.parse(byId.stdout) as VariantJson).inventory_levels.find((l) => l.location_id === cordoba.id)?.stock).toBe(5);
    const [negative, missingUpdate, missingDelete] = await Promise.all([
      store('variants', 'update', pid, vid, '--stock-at', 'Local Palermo=-3', '--debug'),
      store('variants', 'update', pid, '999', '--price', '10'),
      store('variants', 'delete', pid, '999', '--yes'),
    ]);
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('--stock-at Local Palermo must not be negative');
    expect(negative.stderr).not.toMatch(/→ PUT/);
    expect(missingUpdate.code).toBe(1);
    expect(missingUpdate.stderr.trim()).toBe(`Error: Variant 999 of product ${pid} not found.`);
    expect(missingDelete.code).toBe(1);
    expect(missingDelete.stderr.trim()).toBe(`Error: Variant 999 of product ${pid} not found.`);

    const noYes = await store('variants', 'delete', pid, vid);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    const deleted = await store('variants', 'delete', pid, vid, '--yes');
    expect(deleted.code).toBe(0);
    expect((await store('variants', 'get', pid, vid)).code).toBe(1);
  });
});

describe('store variants custom-fields', () => {
  it('lists, creates, extends and deletes definitions; checks input before sending', async () => {
    const list = await store('variants', 'custom-fields', 'list', '--json');
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as FieldJson[]).map((f) => f.name)).toEqual(['Material', 'Temporada']);

    const created = await store('variants', 'custom-fields', 'create', '--name', 'Corte', '--type', 'text_list', '--value', 'Recto', '--value', 'Slim', '--json');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'Corte', value_type: 'text_list', values: ['Recto', 'Slim'] });

    const [noValues, duplicate, notList] = await Promise.all([
      store('variants', 'custom-fields', 'create', '--name', 'Largo', '--type', 'text_list'),
      store('variants', 'custom-fields', 'create', '--name', 'material'),
      store('variants', 'custom-fields', 'update', 'Temporada', '--add-value', 'Verano'),
    ]);
    expect(noValues.code).toBe(2);
    expect(noValues.stderr).toContain('--type text_list needs its allowed values');
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('name a custom field named material already exists');
    expect(notList.code).toBe(2);
    expect(notList.stderr).toContain('--add-value needs a text_list field; "Temporada" is text');

    const [missingField, token] = await Promise.all([
      store('variants', 'custom-fields', 'update', 'Largo', '--name', 'Longitud'),
      runInProcess(['variants', 'custom-fields', 'list'], { env: { ...env, STORE_TOKEN: 'not-the-token' } }),
    ]);
    expect(missingField.code).toBe(1);
    expect(missingField.stderr).toContain('Custom field "Largo" not found');
    expect(token.code).toBe(4);
    expect(token.stderr).toContain('The store rejected the token');

    const extended = await store('variants', 'custom-fields', 'update', 'corte', '--add-value', 'Oversize', '--json');
    expect(extended.code).toBe(0);
    expect(JSON.parse(extended.stdout)).toMatchObject({ values: ['Recto', 'Slim', 'Oversize'] });

    const noYes = await store('variants', 'custom-fields', 'delete', 'Corte');
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    const deleted = await store('variants', 'custom-fields', 'delete', 'Corte', '--yes');
    expect(deleted.code).toBe(0);
    const missing = await store('variants', 'custom-fields', 'delete', 'Corte', '--yes');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Custom field "Corte" not found');
  });

  it('sets and unsets values on a variant by field name', async () => {
    const set = await store('variants', 'custom-fields', 'set', '1', '2', 'Material=Lino', 'Temporada=Invierno 2026', '--json');
    expect(set.code).toBe(0);
    const values = JSON.parse(set.stdout) as { name: string; value: string }[];
    expect(values.map((v) => [v.name, v.value])).toEqual([
      ['Material', 'Lino'],
      ['Temporada', 'Invierno 2026'],
    ]);

    const [notAllowed, unknownField, unknownVariant] = await Promise.all([
      store('variants', 'custom-fields', 'set', '1', '2', 'Material=Seda'),
      store('variants', 'custom-fields', 'set', '1', '2', 'Color=Rojo'),
      store('variants', 'custom-fields', 'set', '1', '999', 'Material=Lino'),
    ]);
    expect(notAllowed.code).toBe(2);
    expect(notAllowed.stderr).toContain('Material allows only "Algodón", "Lino", "Cuero", "Lana", "Denim"; "Seda" is not one of them');
    expect(unknownField.code).toBe(1);
    expect(unknownField.stderr).toContain('Custom field "Color" not found');
    expect(unknownVariant.code).toBe(1);
    expect(unknownVariant.stderr).toContain('Variant 999');

    const unset = await store('variants', 'custom-fields', 'unset', '1', '2', 'material');
    expect(unset.code).toBe(0);
    expect(unset.stdout.trim().split('\n').slice(1).map((l) => l.split('\t').slice(1))).toEqual([['Temporada', 'Invierno 2026']]);
    const again = await store('variants', 'custom-fields', 'unset', '1', '2', 'Material');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not found');
  });
});
