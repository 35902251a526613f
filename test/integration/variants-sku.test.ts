import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { type TestSandbox, clientFor, cliEnv } from '../helpers/sandbox.js';

/** Variants addressed by SKU (`variants get|update|delete SKU`, `products get SKU`, `products list --sku`), and what an update says it changed. */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runInProcess(args, { env });

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'demo', rate: 'off' });
  api = clientFor(sandbox);
  env = cliEnv(sandbox, 'variants-sku');
});
afterAll(async () => {
  await sandbox?.close();
});

async function variantBySku(sku: string) {
  const product = (await api.get(`/products/sku/${sku}`)).body;
  return { product, variant: product.variants.find((v: { sku: string }) => v.sku === sku) };
}

describe('variants by SKU', () => {
  it('variants update SKU --price changes that variant and says old → new', async () => {
    const before = await variantBySku('ACC-MED');
    const r = await store('variants', 'update', 'ACC-MED', '--price', '7000');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`\\nPrice +${before.variant.price.replace('.', '\\.')} → 7000\\.00\\n`));
    const after = await variantBySku('ACC-MED');
    expect(after.variant.price).toBe('7000.00');
    const got = JSON.parse((await store('variants', 'get', 'ACC-MED', '--json')).stdout);
    expect(got).toMatchObject({ id: before.variant.id, product_id: before.product.id, price: '7000.00' });
  });

  it('a stock change is said per location, old → new, with the new total', async () => {
    const { product, variant } = await variantBySku('REM-BAS-M-BLANCO');
    const locations = (await api.get('/locations')).body as { id: string; name: Record<string, string> | string; is_default: boolean }[];
    const main = locations.find((l) => l.is_default)!;
    const mainName = typeof main.name === 'string' ? main.name : Object.values(main.name)[0]!;
    const old = variant.inventory_levels.find((l: { location_id: string }) => l.location_id === main.id)?.stock ?? 0;
    const target = old + 12;
    const r = await store('variants', 'update', 'REM-BAS-M-BLANCO', '--stock', String(target));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`\\n +at ${mainName} +${old} → ${target}\\n`));
    expect(r.stdout).toMatch(new RegExp(`\\nStock +${variant.stock} → ${variant.stock + 12}\\n`));
    // By ids, the same.
    const byIds = await store('variants', 'update', String(product.id), String(variant.id), '--stock', String(old));
    expect(byIds.stdout).toMatch(new RegExp(`\\n +at ${mainName} +${target} → ${old}\\n`));
  });

  it('products get takes an id, a handle or a SKU; products list --sku shows the matched variant on its row', async () => {
    const { product } = await variantBySku('REM-BAS-M-BLANCO');
    const handle = typeof product.handle === 'string' ? product.handle : Object.values(product.handle)[0];
    for (const ref of [String(product.id), handle, 'REM-BAS-M-BLANCO']) {
      const r = await store('products', 'get', ref, '--json', 'id');
      expect(r.code, `${ref}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ id: product.id });
    }
    const missing = await store('products', 'get', 'NO-SUCH-SKU');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No product has the id, handle or SKU "NO-SUCH-SKU"/);
    const listed = await store('products', 'list', '--sku', 'REM-BAS-M-BLANCO');
    expect(listed.code, listed.stderr).toBe(0);
    const [header, row] = listed.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(row![header!.indexOf('sku')]).toBe('REM-BAS-M-BLANCO');
  });

  it('a SKU held by two variants is refused naming both; an unknown SKU is not found', async () => {
    const one = await api.post('/products', { name: { es: 'Duplicado uno' }, sku: 'DUP-SKU', price: '10.00' });
    const two = await api.post('/products', { name: { es: 'Duplicado dos' }, sku: 'DUP-SKU', price: '11.00' });
    expect([one.status, two.status]).toEqual([201, 201]);
    for (const args of [['variants', 'update', 'DUP-SKU', '--price', '12'], ['variants', 'get', 'DUP-SKU'], ['variants', 'delete', 'DUP-SKU', '--yes']]) {
      const r = await store(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('SKU DUP-SKU is held by 2 variants');
      expect(r.stderr).toContain(`of product ${one.body.id} "Duplicado uno"`);
      expect(r.stderr).toContain(`of product ${two.body.id} "Duplicado dos"`);
    }
    expect((await api.get(`/products/${one.body.id}`)).body.variants[0].price).toBe('10.00');
    const unknown = await store('variants', 'update', 'NOPE-404', '--price', '1');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No variant has SKU NOPE-404/);
  });

  it('variants delete SKU --yes deletes that variant and names it', async () => {
    const { product, variant } = await variantBySku('CAM-LIN-L');
    const r = await store('variants', 'delete', 'CAM-LIN-L', '--yes');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`Deleted variant ${variant.id} \\(SKU CAM-LIN-L\\) of product ${product.id} "Camisa de Lino — L"`));
    expect((await api.get(`/products/${product.id}/variants/${variant.id}`)).status).toBe(404);
  });

  it('products update of a product without options says its price and stock changes old → new', async () => {
    const { product, variant } = await variantBySku('ACC-CIN');
    const r = await store('products', 'update', String(product.id), '--price', '17000', '--stock', '5');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`\\nPrice +${variant.price.replace('.', '\\.')} → 17000\\.00\\n`));
    expect(r.stdout).toMatch(/\n +at Depósito Central +\d+ → 5\n/);
    expect(r.stdout).toMatch(/\nStock \(total\) +\d+ → \d+\n/);
  });
});
