import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { type TestSandbox, clientFor, cliEnv, requestRecorder, writesOf } from '../helpers/sandbox.js';

/**
 * The issue's round trip against the demo sandbox: export, a stock sync changes the store, the export is
 * imported back with three prices edited. The edited prices are written, the synced stock is kept (the file
 * still holds the exported stock), the dry run before said so; --overwrite-store-changes writes the file's stock.
 */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;
const recorder = requestRecorder();
const store = async (...args: string[]) => {
  recorder.take();
  const r = await runInProcess(args, { env });
  return { ...r, writes: writesOf(recorder.take()) };
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'keeps-store-'));
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', onRequest: recorder.onRequest });
  api = clientFor(sandbox);
  env = cliEnv(sandbox, 'keeps-store');
});
afterAll(async () => {
  await sandbox?.close();
});

async function variant(sku: string) {
  const product = (await api.get(`/products/sku/${sku}`)).body;
  return product.variants.find((v: { sku: string }) => v.sku === sku) as { id: number; price: string; stock: number; inventory_levels?: { location_id: string; stock: number }[] };
}

const EDITED = ['CAM-OXF-S-BLANCO', 'ZAP-URB-40', 'GOR-TRU'];
const SYNCED = { 'ACC-MED': 12, 'REM-BAS-M-BLANCO': 3 };

describe('a round trip never reverts what the store changed since the export', () => {
  it('writes the edited prices, keeps the synced stock, and the dry run lists both; --overwrite-store-changes writes the file', async () => {
    const file = join(dir, 'catalog.csv');
    expect((await store('products', 'export', file)).code).toBe(0);
    const exportedStock = { 'ACC-MED': (await variant('ACC-MED')).stock, 'REM-BAS-M-BLANCO': (await variant('REM-BAS-M-BLANCO')).stock };
    const central = ((await api.get('/locations')).body as { id: string; is_default: boolean }[]).find((l) => l.is_default)!;
    const exportedAtCentral = (await variant('REM-BAS-M-BLANCO')).inventory_levels!.find((l) => l.location_id === central.id)!.stock;

    // A stock sync changes the store after the export.
    const feed = join(dir, 'feed.csv');
    writeFileSync(feed, `sku,stock\n${Object.entries(SYNCED).map(([sku, n]) => `${sku},${n}`).join('\n')}\n`);
    const synced = await store('variants', 'sync', feed);
    expect(synced.code, synced.stderr).toBe(0);
    // Both stock levels in one batch request.
    expect(synced.writes.map((w) => `${w.method} ${w.path}`)).toEqual(['PATCH /products/stock-price']);

    // Three prices edited in the exported file; nothing else touched.
    const rows: string[][] = parse(readFileSync(file, 'utf8'));
    const header = rows[0]!;
    const sku = header.indexOf('sku');
    const price = header.indexOf('price');
    const oldPrices: Record<string, string> = {};
    for (const row of rows.slice(1)) {
      if (!EDITED.includes(row[sku]!)) continue;
      oldPrices[row[sku]!] = row[price]!;
      row[price] = (Number(row[price]) + 111).toFixed(2);
    }
    expect(Object.keys(oldPrices).sort()).toEqual([...EDITED].sort());
    writeFileSync(file, stringify(rows));

    const dry = await store('products', 'import', file, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.writes).toEqual([]);
    expect(dry.stdout).toMatch(/kept: +2 store changes/);
    // The dry run lists exactly the edited prices, old → new, and the kept stock, with no stock write to warn of.
    expect(dry.stdout).toContain('To update (3):\n');
    for (const s of EDITED) {
      expect(dry.stdout).toMatch(new RegExp(`\n  \\S+ ${s} \\(line \\d+\\): price ${oldPrices[s]!.replace('.', '\\.')} → ${(Number(oldPrices[s]) + 111).toFixed(2).replace('.', '\\.')}\n`));
    }
    expect(dry.stdout).toMatch(/\nKept as the store has them .*\(2\):\n/);
    expect(dry.stdout).toMatch(new RegExp(`\n  medias-x3 ACC-MED \\(line \\d+\\): stock ${exportedStock['ACC-MED']} → 12\n`));
    expect(dry.stdout).toMatch(new RegExp(`\n  \\S+ REM-BAS-M-BLANCO \\(line \\d+\\): stock:Depósito Central ${exportedAtCentral} → 3\n`));
    expect(dry.stderr).not.toContain('would write the stock');

    // The whole plan of kept changes: ACC-MED's store does not report its split (a `stock` column), REM-BAS-M-BLANCO's
    // stock is per location and the sync set the default location's.
    const json = JSON.parse((await store('products', 'import', file, '--dry-run', '--json')).stdout);
    expect(json.plan.filter((p: { kind: string }) => p.kind === 'updated').map((p: { sku: string; changes: unknown[] }) => [p.sku, p.changes]).sort()).toEqual(
      EDITED.map((s) => [s, [{ field: 'price', old: oldPrices[s], new: (Number(oldPrices[s]) + 111).toFixed(2) }]]).sort(),
    );
    expect(json.plan.filter((p: { kind: string }) => p.kind !== 'updated' && p.kind !== 'kept')).toEqual([]);
    const kept = json.keptStoreChanges.map((k: { sku: string; column: string; exported: string; store: string }) => [k.sku, k.column, k.exported, k.store]);
    expect(kept.sort()).toEqual([
      ['ACC-MED', 'stock', String(exportedStock['ACC-MED']), '12'],
      ['REM-BAS-M-BLANCO', 'stock:Depósito Central', String(exportedAtCentral), '3'],
    ]);

    const run = await store('products', 'import', file);
    expect(run.code, run.stderr).toBe(0);
    // The three prices in one batch (bulk-client): PATCH /products/stock-price, no stock in it.
    expect(run.writes.map((w) => `${w.method} ${w.path}`)).toEqual(['PATCH /products/stock-price']);
    for (const s of EDITED) expect((await variant(s)).price, s).toBe((Number(oldPrices[s]) + 111).toFixed(2));
    expect((await variant('ACC-MED')).stock).toBe(SYNCED['ACC-MED']);
    expect((await variant('REM-BAS-M-BLANCO')).inventory_levels!.find((l) => l.location_id === central.id)!.stock).toBe(SYNCED['REM-BAS-M-BLANCO']);
    // Again: nothing left to write, the store changes still kept.
    const again = await store('products', 'import', file);
    expect(again.writes).toEqual([]);

    const overwriteDry = await store('products', 'import', file, '--overwrite-store-changes', '--dry-run');
    expect(overwriteDry.stderr).toContain('Warning: this import would write the stock of 2 variants');
    expect(overwriteDry.stdout).toMatch(new RegExp(`\n  medias-x3 ACC-MED \\(line \\d+\\): stock 12 → ${exportedStock['ACC-MED']}\n`));
    const overwrite = await store('products', 'import', file, '--overwrite-store-changes');
    expect(overwrite.code, overwrite.stderr).toBe(0);
    expect(overwrite.writes.map((w) => `${w.method} ${w.path}`)).toEqual(['PATCH /products/stock-price']);
    expect((await variant('ACC-MED')).stock).toBe(exportedStock['ACC-MED']);
    expect((await variant('REM-BAS-M-BLANCO')).inventory_levels!.find((l) => l.location_id === central.id)!.stock).toBe(exportedAtCentral);
  });

  it('a file without the baseline column (an ERP feed, or the column deleted) is written as it is', async () => {
    const file = join(dir, 'no-baseline.csv');
    expect((await store('products', 'export', file)).code).toBe(0);
    const rows: string[][] = parse(readFileSync(file, 'utf8'));
    const drop = rows[0]!.indexOf('baseline');
    expect(drop).toBeGreaterThan(0);
    writeFileSync(file, stringify(rows.map((r) => r.filter((_, i) => i !== drop))));
    const before = (await variant('ACC-MED')).stock;
    expect((await api.put(`/products/${(await api.get('/products/sku/ACC-MED')).body.id}/variants/${(await variant('ACC-MED')).id}`, { stock: before + 5 })).status).toBe(200);
    const run = await store('products', 'import', file);
    expect(run.code, run.stderr).toBe(0);
    expect(run.writes).toHaveLength(1);
    expect((await variant('ACC-MED')).stock).toBe(before);
  });

  it('a row copied to make another product keeps its baseline cell but not its effect: the copy is created as written', async () => {
    const file = join(dir, 'copied.csv');
    expect((await store('products', 'export', file)).code).toBe(0);
    const rows: string[][] = parse(readFileSync(file, 'utf8'));
    const h = rows[0]!;
    const original = rows.find((r) => r[h.indexOf('sku')] === 'ACC-BUF')!;
    const copy = [...original];
    copy[h.indexOf('handle')] = 'bufanda-copia';
    copy[h.indexOf('sku')] = 'ACC-BUF-2';
    writeFileSync(file, stringify([...rows, copy]));
    const exported = Number(original[h.indexOf('stock')]);
    // The store's ACC-BUF changes after the export: its own row keeps the store's value, the copy does not care.
    const buf = await variant('ACC-BUF');
    expect((await api.put(`/products/${(await api.get('/products/sku/ACC-BUF')).body.id}/variants/${buf.id}`, { stock: exported + 7 })).status).toBe(200);
    const r = await store('products', 'import', file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1 created, 0 updated/);
    expect(r.stdout).toMatch(/kept: +1 store change /);
    expect((await variant('ACC-BUF-2')).stock).toBe(exported);
    expect((await variant('ACC-BUF')).stock).toBe(exported + 7);
  });

  it('--only applies only the columns named (import and sync); a name the file lacks is a usage error', async () => {
    const file = join(dir, 'only.csv');
    expect((await store('products', 'export', file)).code).toBe(0);
    const rows: string[][] = parse(readFileSync(file, 'utf8'));
    const h = rows[0]!;
    const row = rows.find((r) => r[h.indexOf('sku')] === 'ACC-CIN')!;
    const before = await variant('ACC-CIN');
    row[h.indexOf('price')] = (Number(row[h.indexOf('price')]) + 5).toFixed(2);
    row[h.indexOf('stock')] = String(before.stock + 40);
    row[h.indexOf('name:es')] = 'Otro nombre';
    writeFileSync(file, stringify(rows));

    const bad = await store('products', 'import', file, '--only', 'price,pricee');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: --only names "pricee", which is not a column of only\.csv \(its columns: handle, name:es, /);
    expect(bad.writes).toEqual([]);

    const r = await store('products', 'import', file, '--only', 'price');
    expect(r.code, r.stderr).toBe(0);
    expect(r.writes).toHaveLength(1);
    const after = await variant('ACC-CIN');
    expect([after.price, after.stock]).toEqual([(Number(before.price) + 5).toFixed(2), before.stock]);
    expect(JSON.stringify((await api.get('/products/sku/ACC-CIN')).body.name)).not.toContain('Otro nombre');

    const feed = join(dir, 'only-feed.csv');
    writeFileSync(feed, `sku,stock,price
ACC-CIN,${before.stock + 9},${(Number(before.price) + 9).toFixed(2)}
`);
    const synced = await store('variants', 'sync', feed, '--only', 'PRICE');
    expect(synced.code, synced.stderr).toBe(0);
    const afterSync = await variant('ACC-CIN');
    expect([afterSync.price, afterSync.stock]).toEqual([(Number(before.price) + 9).toFixed(2), before.stock]);
    const unknown = await store('variants', 'sync', feed, '--only', 'cost');
    expect([unknown.code, unknown.writes.length]).toEqual([2, 0]);
  });

  it('variants sync --dry-run shows its plan: each variant\'s fields old → new, the failing rows, a warning for stock', async () => {
    const before = await variant('ACC-MOC');
    const feed = join(dir, 'dry-feed.csv');
    writeFileSync(feed, `sku,stock,price\nACC-MOC,${before.stock + 2},${(Number(before.price) + 1).toFixed(2)}\nNOPE-1,3,\n`);
    const r = await store('variants', 'sync', feed, '--dry-run');
    expect(r.code).toBe(3);
    expect(r.writes).toEqual([]);
    expect(r.stdout).toMatch(/To update \(1\):\n  mochila-urbana ACC-MOC \(line 2\): price \S+ → \S+; stock \d+ → \d+\n/);
    expect(r.stdout).toMatch(/Failing \(1\):\n  NOPE-1 \(line 3\): SKU NOPE-1 is not in the store/);
    expect(r.stderr).toContain('Warning: this sync would write the stock of 1 variant;');
    const json = JSON.parse((await store('variants', 'sync', feed, '--dry-run', '--json')).stdout);
    expect(json.plan[0]).toMatchObject({ kind: 'updated', sku: 'ACC-MOC', line: 2, changes: [{ field: 'price', old: before.price, new: (Number(before.price) + 1).toFixed(2) }, { field: 'stock', new: String(before.stock + 2) }] });
  });
});
