import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { type HeldProduct, catalog, csvOf, expectCatalogIn, syncFeed } from '../helpers/bulk-catalog.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv, requestRecorder, writesOf } from '../helpers/sandbox.js';

/**
 * The jobs of bulk-economy.test.ts against the sandbox (which serves docs/platform.md §8): the same request
 * counts, the same end state value by value, and a variant the sandbox fails (`variant-fail-sku`) is a failed
 * row that `--resume` sends again alone.
 */

let sandbox: RunningSandbox;
let dir: string;
let env: NodeJS.ProcessEnv;
const recorder = requestRecorder();
// A variant the re-import leaves alone (its price and stock are unchanged there).
const FAILING = 'SKU-3-2';

async function run(command: string[], text: string, ...flags: string[]) {
  const file = join(dir, `${command[1]}-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(file, text);
  recorder.take();
  const r = await runInProcess([...command, file, ...flags], { env });
  const writes = writesOf(recorder.take()).map((w) => `${w.method} ${w.path.replace(/\/\d+/g, '/{id}')}`);
  return { ...r, file, writes };
}

const held = () => structuredClone(sandbox.state.defaultStore()!.products.list()) as unknown as HeldProduct[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bulk-sandbox-'));
  sandbox = await startSandbox({ seed: 'empty', rate: 'off', faults: `variant-fail-sku=${FAILING}`, onRequest: recorder.onRequest });
  env = cliEnv(sandbox, 'bulk-sandbox');
});
afterAll(async () => {
  await sandbox?.close();
});

describe('bulk jobs against the sandbox', () => {
  const rows = catalog(30);

  it('a new catalog: categories, one POST per product, the images past 9 one by one', async () => {
    const r = await run(['products', 'import'], csvOf(rows));
    expect(r.code, r.stderr).toBe(0);
    expect(r.writes.filter((w) => w === 'POST /categories')).toHaveLength(3);
    expect(r.writes.filter((w) => w === 'POST /products')).toHaveLength(30);
    expect(r.writes.filter((w) => w === 'POST /products/{id}/images')).toHaveLength(3);
    expect(r.writes).toHaveLength(36);
    expectCatalogIn(held(), rows);
  });

  it('a re-import with changes: stock-price across products, one PATCH per product with a cost', async () => {
    for (const [i, row] of rows.entries()) {
      if (i % 3 === 0) row.price = `${Number(row.price.split('.')[0]) + 1}.90`;
      if (i % 3 === 1) row.stock = String(Number(row.stock) + 5);
    }
    rows[0]!.cost = '40.10';
    // 60 changes: prod-0's 2 go in its PATCH (with the cost), the 58 others in ⌈58/50⌉ = 2 stock-price requests.
    const r = await run(['products', 'import'], csvOf(rows));
    expect(r.code, r.stderr).toBe(0);
    expect([...r.writes].sort()).toEqual(['PATCH /products/stock-price', 'PATCH /products/stock-price', 'PATCH /products/{id}/variants']);
    expectCatalogIn(held(), rows);
  });

  it('a sync: one failed variant of a batch is a failed row with its line, exit 3; --resume sends it alone', async () => {
    const feed = rows.map((row, i) => ({ sku: row.sku, stock: 300 + i }));
    const r = await run(['variants', 'sync'], syncFeed(feed, 'sku,stock'));
    expect(r.code).toBe(3);
    expect(r.writes).toEqual(['PATCH /products/stock-price', 'PATCH /products/stock-price']);
    const line = feed.findIndex((f) => f.sku === FAILING) + 2;
    expect(r.stderr).toContain(`line ${line} (${FAILING})`);
    expect(r.stdout).toMatch(/89 updated, 0 unchanged, 1 failed\n/);
    for (const [i, row] of rows.entries()) if (row.sku !== FAILING) row.stock = String(300 + i);
    expectCatalogIn(held(), rows);
    // The sandbox still fails that SKU: the resumed run sends it, alone, and fails it again.
    recorder.take();
    const again = await runInProcess(['variants', 'sync', r.file, '--resume'], { env });
    expect(again.code).toBe(3);
    expect(writesOf(recorder.take()).map((w) => `${w.method} ${w.path}`)).toEqual(['PATCH /products/stock-price']);
    expect(again.stdout).toMatch(/0 updated, 89 unchanged, 1 failed\n/);
  });
});
