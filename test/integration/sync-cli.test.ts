import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, requestRecorder, writesOf } from '../helpers/sandbox.js';

/** `store variants sync` against the demo store (three locations), counting the requests the sandbox receives. */

let sandbox: RunningSandbox;
let dir: string;
const recorder = requestRecorder();

function env() {
  return {
    STORE_TOKEN: sandbox.accessToken,
    STORE_ID: String(sandbox.storeId),
    STORE_API_URL: sandbox.apiUrl,
    STORE_APP_NAME: sandbox.appName,
    STORE_APP_ID: sandbox.clientId,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
  };
}

/** `text` in Windows-1252 (the accents of Spanish and Portuguese are all in its upper half, as Latin-1). */
function encode1252(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}

/** A copy of every variant as the sandbox holds it now (its records change in place). */
function variants() {
  const store = sandbox.state.defaultStore()!;
  return structuredClone(store.products.list().flatMap((p) => p.variants));
}
const bySku = (sku: string) => variants().find((v) => v.sku === sku)!;
const total = (sku: string) => bySku(sku).inventory_levels.reduce((n, l) => n + l.stock, 0);

async function sync(csv: string, ...flags: string[]) {
  const file = join(dir, `feed-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(file, csv);
  recorder.take();
  const r = await runInProcess(['variants', 'sync', file, ...flags], { env: env() });
  const received = recorder.take();
  return { ...r, received, writes: writesOf(received) };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sync-cli-'));
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', onRequest: recorder.onRequest });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('variants sync', () => {
  it('writes only the variants that differ, in one PATCH /products/stock-price, and reports SKUs the store does not have', async () => {
    const [a, b, c] = variants().filter((v) => v.sku && v.stock_management);
    const store = sandbox.state.defaultStore()!;
    const palermo = store.locations.list().find((l) => Object.values(l.name).includes('Local Palermo'))!;
    const palermoBefore = c!.inventory_levels.find((l) => l.location_id === palermo.id)?.stock ?? 0;
    const csv =
      'sku,stock,stock:Local Palermo,price\n' +
      `${a!.sku},,,${Number(a!.price) + 1}\n` + // price only
      `${b!.sku},,,${b!.price}\n` + // unchanged
      `${c!.sku},,${palermoBefore + 5},\n` + // one location
      'NO-EXISTE,3,,\n';
    const report = join(dir, 'unknown-sku-report.csv');
    const r = await sync(csv, '--report', report);
    // The SKU the store lacks is a failed row: exit 3, in the report with its line; the others are written.
    expect(r.code, r.stderr).toBe(3);
    // The report repeats the row as the feed has it, then where and why: fixed, it is the next feed.
    expect(readFileSync(report, 'utf8')).toBe(
      'sku,stock,stock:Local Palermo,price,line,error,stage\nNO-EXISTE,3,,,5,SKU NO-EXISTE is not in the store (variants sync never creates variants),plan\n',
    );
    expect(r.writes.map((w) => `${w.method} ${w.path}`)).toEqual(['PATCH /products/stock-price']);
    // The summary's request count is what the sandbox received.
    expect(r.stdout).toMatch(new RegExp(`requests: ${r.received.length} sent`));
    expect(r.stdout).toMatch(/2 updated, 1 unchanged, 1 failed \(1 not in the store\)/);
    expect(r.stderr).toMatch(/line 5 \(NO-EXISTE\): SKU NO-EXISTE is not in the store/);
    expect(Number(bySku(a!.sku!).price)).toBe(Number(a!.price) + 1);
    expect(bySku(c!.sku!).inventory_levels.find((l) => l.location_id === palermo.id)?.stock).toBe(palermoBefore + 5);
    // Only the columns present change: the price-only row left the stock alone.
    expect(total(a!.sku!)).toBe(a!.inventory_levels.reduce((n, l) => n + l.stock, 0));
    // The same feed again: nothing differs any more.
    const again = await sync(csv);
    expect(again.writes).toEqual([]);
  });

  it('--dry-run sends no write, --report lists the rows that failed, --quiet prints nothing', async () => {
    const [a, b] = variants().filter((v) => v.sku && v.stock_management);
    const feed = `sku,price\n${a!.sku},${Number(a!.price) + 7}\n`;
    const dry = await sync(feed, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.writes).toEqual([]);
    expect(dry.stdout).toMatch(/^Would sync .*\n.*1 updated, 0 unchanged/);
    expect(dry.stdout).toMatch(/1 variants would be written in 1 request/);
    expect(bySku(a!.sku!).price).toBe(a!.price);
    const quiet = await sync(feed, '--dry-run', '--quiet');
    expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([0, '', '']);

    // A SKU the store holds twice fails its row (exit 3); the report names line, SKU, stage and reason.
    const api = clientFor(sandbox);
    const setSku = (v: typeof b, sku: string) => api.put(`/products/${v!.product_id}/variants/${v!.id}`, { sku });
    expect((await setSku(b, a!.sku!)).status).toBe(200);
    try {
      const report = join(dir, 'sync-report.csv');
      const r = await sync(feed, '--report', report);
      expect(r.code).toBe(3);
      expect(r.writes).toEqual([]);
      expect(readFileSync(report, 'utf8')).toMatch(
        new RegExp(`^sku,price,line,error,stage\n${a!.sku},${Number(a!.price) + 7},2,"?SKU ${a!.sku} is held by 2 variants in the store \\(products? ${[...new Set([a!.product_id, b!.product_id])].join(', ')}\\); the store is ambiguous`),
      );
    } finally {
      await setSku(b, b!.sku!);
    }
  });

  it('--zero-missing refuses a feed naming fewer than half of the SKUs, unless --force', async () => {
    const tracked = variants().filter((v) => v.sku && v.stock_management);
    const keep = tracked[0]!;
    // The feed names one SKU, with its current price: nothing to change on it.
    const csv = `sku,price\n${keep.sku},${keep.price}\n`;
    const refused = await sync(csv, '--zero-missing');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/names 1 of the store's \d+ SKUs, fewer than half.*--force/);
    expect(refused.writes).toEqual([]);

    const toZero = tracked.filter((v) => v.sku !== keep.sku && v.inventory_levels.some((l) => l.stock !== 0));
    const forced = await sync(csv, '--zero-missing', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    // Stock only: 50 variants per PATCH /products/stock-price.
    expect(forced.writes.map((w) => `${w.method} ${w.path}`)).toEqual(Array(Math.ceil(toZero.length / 50)).fill('PATCH /products/stock-price'));
    expect(forced.stdout).toMatch(new RegExp(`${toZero.length} zeroed`));
    for (const v of variants()) if (v.sku && v.sku !== keep.sku && v.stock_management) expect(total(v.sku), v.sku).toBe(0);
    expect(total(keep.sku!)).toBeGreaterThan(0);
    // A variant without SKU cannot be named by a feed keyed by SKU, so it is not "missing" from it: left alone.
    const withoutSku = variants().find((v) => v.sku === null && v.stock_management)!;
    expect(withoutSku.inventory_levels.reduce((n, l) => n + l.stock, 0)).toBeGreaterThan(0);
  });

  it('a Spanish Excel stock file (Windows-1252, ";;" columns, blank rows, the ERP\'s own headers mapped with --map) syncs exactly', async () => {
    const store = sandbox.state.defaultStore()!;
    const home = store.locations.list().find((l) => l.is_default)!;
    const [a, b] = variants().filter((v) => v.sku && v.stock_management && v.inventory_levels.some((l) => l.location_id === home.id));
    const atHome = (sku: string) => bySku(sku).inventory_levels.find((l) => l.location_id === home.id)?.stock;
    const elsewhere = (sku: string) => bySku(sku).inventory_levels.filter((l) => l.location_id !== home.id);
    const othersBefore = [elsewhere(a!.sku!), elsewhere(b!.sku!)];
    // What Excel's "CSV (delimitado por comas)" writes on a Spanish Windows: ";" separators, decimal commas,
    // Windows-1252 text, CRLF, the ";;" of columns once used, and rows left blank.
    const text = [
      'Código;Descripción;Existencia;Precio;;',
      `${a!.sku};Camisón de algodón;${atHome(a!.sku!)! + 3};1234,50;;`,
      ';;;;;',
      '',
      `${b!.sku};Piña colada, 1 l;0;99,9;;`,
      ';;;;;',
      '',
    ].join('\r\n');
    const file = join(dir, 'existencias.csv');
    writeFileSync(file, encode1252(text));
    recorder.take();
    const r = await runInProcess(['variants', 'sync', file, '--map', 'Código=sku,Existencia=stock,Precio=price,Descripción='], { env: env() });
    const received = recorder.take();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      'existencias.csv is not UTF-8 (line 1 holds the byte 0xF3): read as Windows-1252, as Excel saves CSV on Windows (--encoding chooses another).\n' +
        'existencias.csv: columns 5–6 have no name in the header and are skipped.\n' +
        'existencias.csv: 3 blank rows skipped (lines 3, 4, 6).\n',
    );
    expect(r.stdout).toMatch(/^Synced existencias\.csv: 2 rows\.\n {2}variants: 2 updated, 0 unchanged, 0 failed\n/);
    expect(writesOf(received).map((w) => `${w.method} ${w.path}`)).toEqual(['PATCH /products/stock-price']);
    expect(atHome(a!.sku!)).toBe(a!.inventory_levels.find((l) => l.location_id === home.id)!.stock + 3);
    expect(atHome(b!.sku!)).toBe(0);
    expect([bySku(a!.sku!).price, bySku(b!.sku!).price].map(Number)).toEqual([1234.5, 99.9]);
    // The other locations keep their stock: the file's "Existencia" is the default location's.
    expect([elsewhere(a!.sku!), elsewhere(b!.sku!)]).toEqual(othersBefore);
    // The same file again: the store already holds it, nothing is written.
    const again = await runInProcess(['variants', 'sync', file, '--map', 'Código=sku,Existencia=stock,Precio=price,Descripción=', '--quiet'], { env: env() });
    expect([again.code, again.stdout, again.stderr]).toEqual([0, '', '']);
    expect(writesOf(recorder.take())).toEqual([]);
  });

  it('an invalid feed is refused with line and column, and nothing is sent', async () => {
    const r = await sync('sku,stock,colour,precio\nA,-1,3,x\nA,2,x,5\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/feed-\w+\.csv, line 1, column 3 \(colour\): unknown column "colour"; a sync file has sku, stock/);
    expect(r.stderr).toMatch(/line 2, column 2 \(stock\): stock "-1" is negative/);
    // Precio is the admin export's name of price: read as price.
    expect(r.stderr).toMatch(/line 2, column 4 \(precio\): "x" is not a number/);
    expect(r.stderr).toMatch(/line 3, column 1 \(sku\): SKU "A" is already used on line 2/);
    // --skip-invalid would not help while a column is unknown: no hint to use it.
    expect(r.stderr).toMatch(/has 4 errors; nothing was sent \(fix the file and run it again\)/);
    expect(r.received).toEqual([]);
  });
});
