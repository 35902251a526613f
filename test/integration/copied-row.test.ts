import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { type TestSandbox, clientFor, cliEnv } from '../helpers/sandbox.js';

/**
 * Issue 31, "A copied row writes zeros": an exported row copied to add a variant carries the `baseline` of the
 * row it was copied from. A baseline counts only for the row's own record (baseline.ts): the copy, with other
 * option values, is a new variant and gets the values the user wrote, even those equal to the exported ones
 * that the store has changed since on the original.
 */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'copied-row-'));
  sandbox = await startSandbox({ seed: 'demo', rate: 'off' });
  api = clientFor(sandbox);
  env = cliEnv(sandbox, 'copied-row');
});
afterAll(async () => {
  await sandbox?.close();
});

interface StoredVariant {
  id: number;
  sku: string | null;
  price: string;
  stock: number;
  values: Record<string, string>[];
}

async function variantsOf(handle: string): Promise<StoredVariant[]> {
  const products = (await api.get('/products', { query: { handle } })).body as { handle: Record<string, string>; variants: StoredVariant[] }[];
  const product = products.find((p) => Object.values(p.handle).includes(handle))!;
  return product.variants;
}

const colourOf = (v: StoredVariant) => Object.values(v.values[0]!)[0];

describe('a row copied from an export to add a variant', () => {
  it('creates the new variant with the price and stock written on it, while the original keeps the store\'s changes', async () => {
    // A product whose variant has no SKU: the copied row can only be told apart by its option values.
    const seedFile = join(dir, 'seed.csv');
    writeFileSync(seedFile, 'handle,name,option1_name,option1_value,sku,price,stock\nremera-lisa,Remera Lisa,Color,Rojo,,100.00,5\n');
    const created = await runInProcess(['products', 'import', seedFile], { env });
    expect(created.code, created.stderr).toBe(0);

    const file = join(dir, 'catalog.csv');
    expect((await runInProcess(['products', 'export', file], { env })).code).toBe(0);
    const rows: string[][] = parse(readFileSync(file, 'utf8'));
    const header = rows[0]!;
    const col = (name: string) => header.indexOf(name);
    const original = rows.find((r) => r[col('handle')] === 'remera-lisa')!;
    expect([original[col('sku')], original[col('price')], original[col('option1_value')]]).toEqual(['', '100.00', 'Rojo']);
    expect(original[col('baseline')]).not.toBe('');

    // The store changes the original after the export: a new price and a sale.
    const [rojo] = await variantsOf('remera-lisa');
    const products = (await api.get('/products', { query: { handle: 'remera-lisa' } })).body as { id: number }[];
    await api.put(`/products/${products[0]!.id}/variants/${rojo!.id}`, { price: '90.00', stock: 3 });

    // The row copied for a new colour: only the option value changed; price 100.00 and stock 5 as exported.
    const copy = [...original];
    copy[col('option1_value')] = 'Verde';
    rows.splice(rows.indexOf(original) + 1, 0, copy);
    writeFileSync(file, stringify(rows));

    const run = await runInProcess(['products', 'import', file], { env });
    expect(run.code, run.stderr).toBe(0);
    const variants = await variantsOf('remera-lisa');
    const byColour = Object.fromEntries(variants.map((v) => [colourOf(v), { price: v.price, stock: v.stock }]));
    // The original keeps what the store changed (its cells are unedited); the copy is what the user wrote.
    expect(byColour).toEqual({ Rojo: { price: '90.00', stock: 3 }, Verde: { price: '100.00', stock: 5 } });
  });
});
