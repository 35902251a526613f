import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv, requestRecorder, writesOf } from '../helpers/sandbox.js';

/** SKUs as stores hold them (issue 31): a near miss in the store is reported as such and never zeroed or written. */

let sandbox: RunningSandbox;
let dir: string;
const recorder = requestRecorder();

/** The sandbox's own variant records (changed in place, as an admin would). */
const liveVariants = () => sandbox.state.defaultStore()!.products.list().flatMap((p) => p.variants);
const stockOf = (sku: string) => liveVariants().find((v) => v.sku === sku)!.inventory_levels.reduce((n, l) => n + l.stock, 0);

async function run(args: string[], csv: string) {
  const file = join(dir, `file-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(file, csv);
  recorder.take();
  const r = await runInProcess([...args.slice(0, 2), file, ...args.slice(2)], { env: cliEnv(sandbox, 'odd-skus') });
  return { ...r, writes: writesOf(recorder.take()) };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sync-odd-skus-'));
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', onRequest: recorder.onRequest });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('SKUs compared as the store holds them', () => {
  it('variants sync --zero-missing naming CAM-LIN-S against a store holding "CAM-LIN-S " zeroes nothing and says why', async () => {
    const tracked = liveVariants().filter((v) => v.sku && v.stock_management && v.inventory_levels.some((l) => l.stock > 0));
    // The demo store's CAM-LIN-S, as an admin retyped it with a trailing space.
    const spaced = tracked.find((v) => v.sku === 'CAM-LIN-S')!;
    const composed = tracked.find((v) => v !== spaced);
    spaced!.sku = 'CAM-LIN-S ';
    composed!.sku = 'CAFE\u0301-NFD';
    const spacedStock = stockOf('CAM-LIN-S ');
    const composedStock = stockOf('CAFE\u0301-NFD');
    // Every other SKU as the store holds it, so the feed is not truncated; the two odd ones in their plain forms.
    const others = liveVariants().filter((v) => v.sku && v !== spaced && v !== composed).map((v) => `${v.sku},,`);
    const csv = `sku,stock,price\nCAM-LIN-S,5,\nCAF\u00C9-NFD,7,\n${others.join('\n')}\n`;
    const r = await run(['variants', 'sync', '--zero-missing'], csv);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`SKU CAM-LIN-S is not in the store as written: the store's SKU "CAM-LIN-S " has a trailing space`);
    expect(r.stderr).toContain('SKU CAF\u00C9-NFD is not in the store as written: the store\'s SKU "CAFE\u0301-NFD" is written in another Unicode form (decomposed, NFD)');
    expect(r.stderr).not.toMatch(/CAM-LIN-S is not in the store \(/);
    expect(r.writes).toEqual([]);
    expect(stockOf('CAM-LIN-S ')).toBe(spacedStock);
    expect(stockOf('CAFE\u0301-NFD')).toBe(composedStock);
  });

  it('products import neither renames nor creates a variant beside a SKU the store holds with a trailing space', async () => {
    const product = sandbox.state.defaultStore()!.products.list().find((p) => p.variants.length === 1 && p.variants[0]!.sku)!;
    product.variants[0]!.sku = 'TAZA-1 ';
    const handle = typeof product.handle === 'string' ? product.handle : Object.values(product.handle)[0]!;
    const r = await run(['products', 'import'], `handle,sku,price\n${handle},TAZA-1,123.00\n`);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`SKU TAZA-1 is not in the store as written: the store's SKU "TAZA-1 " has a trailing space`);
    expect(r.writes).toEqual([]);
    expect(product.variants.map((v) => v.sku)).toEqual(['TAZA-1 ']);
  });
});
