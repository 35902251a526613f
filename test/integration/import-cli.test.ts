import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runImport } from '../../src/services/catalog-files/import/run-import.js';
import { FileInvalidError, formatRowError } from '../../src/services/bulk/row-error.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { type Received, clientFor, imageNames, requestRecorder, writesOf } from '../helpers/sandbox.js';

/**
 * `store products import` / `export` as the real binary against an in-process sandbox. Requests are counted
 * where they arrive: the sandbox records every request it receives.
 */

const fixtures = fileURLToPath(new URL('../fixtures/csv/', import.meta.url));
let sandbox: RunningSandbox;
let dir: string;
const recorder = requestRecorder();

function env(extra: Record<string, string> = {}) {
  return {
    STORE_TOKEN: sandbox.accessToken,
    STORE_ID: String(sandbox.storeId),
    STORE_API_URL: sandbox.apiUrl,
    STORE_APP_NAME: sandbox.appName,
    STORE_APP_ID: sandbox.clientId,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
    ...extra,
  };
}

const writes = writesOf;
const count = (s: Received[], method: string, pattern: RegExp) => s.filter((r) => r.method === method && pattern.test(r.path)).length;

/** Runs the import; `sent` is what the sandbox received during the run. */
async function importCli(file: string, ...flags: string[]) {
  recorder.take();
  const result = await runInProcess(['products', 'import', file, ...flags], { env: env() });
  return { ...result, sent: recorder.take() };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'import-cli-'));
  sandbox = await startSandbox({ seed: 'empty', rate: 'off', onRequest: recorder.onRequest });
});
afterAll(async () => {
  await sandbox?.close();
});

/** The sandbox's own record of a product (not read through the API). */
const stored = (handle: string) => sandbox.state.defaultStore()!.products.list().find((p) => Object.values(p.handle).includes(handle));

describe('products import: request economy', () => {
  it('into an empty store: one create per product (its variants and images inside) and per new category, plus the list pages', async () => {
    const r = await importCli(`${fixtures}valid/canonical.csv`);
    expect(r.code, r.stderr).toBe(0);
    expect(count(r.sent, 'POST', /^\/categories$/)).toBe(5);
    expect(count(r.sent, 'POST', /^\/products$/)).toBe(2);
    expect(writes(r.sent)).toHaveLength(7);
    // The sandbox kept what the POSTs carried: 3 variants and 2 images on the remera, 1 image on the taza.
    expect(stored('remera-lisa')!.variants.map((v) => v.sku)).toEqual(['REM-S-BL', 'REM-M-BL', 'REM-M-NG']);
    expect(stored('remera-lisa')!.images).toHaveLength(2);
    expect(stored('taza-ceramica')!.images).toHaveLength(1);
    // The list pages: store, products, categories, locations, 200 a page — nothing else.
    const reads = r.sent.filter((s) => s.method === 'GET');
    expect(reads.map((s) => s.path).sort()).toEqual(['/categories', '/locations', '/products', '/store']);
    for (const list of reads.filter((s) => s.path !== '/store')) expect(list.query.get('per_page'), list.path).toBe('200');
    // The summary's request count is what the sandbox received.
    expect(r.stdout).toMatch(new RegExp(`requests: +${r.sent.length} sent \\(0 retried\\), 0 × 429, \\d`));
    expect(r.stdout).toMatch(/2 created, 0 updated, 0 unchanged, 0 failed/);
    expect(r.stdout).toMatch(/categories: 5 created/);
  });

  it('re-importing the unchanged catalog, in any dialect, sends no write, only the list pages', async () => {
    for (const name of ['canonical.csv', 'admin-es.csv', 'admin-pt.csv', 'shopify.csv', 'shopify-new.csv']) {
      const r = await importCli(`${fixtures}valid/${name}`);
      expect(r.code, r.stderr).toBe(0);
      expect(writes(r.sent), name).toEqual([]);
      expect(r.sent).toHaveLength(4);
      expect(r.stdout).toMatch(/0 created, 0 updated, 2 unchanged/);
    }
  });

  it('changing the price and stock of N variants of several products sends one PATCH /products/stock-price', async () => {
    const csv = readFileSync(`${fixtures}valid/canonical.csv`, 'utf8')
      .replace('REM-S-BL,12000.00,,10', 'REM-S-BL,12990.00,,10')
      .replace('REM-M-BL,12000.00,,8', 'REM-M-BL,12000.00,,7')
      .replace('TAZA-350,4500.50,,25', 'TAZA-350,4700,,30');
    const file = join(dir, 'changed.csv');
    writeFileSync(file, csv);
    const r = await importCli(file);
    expect(r.code, r.stderr).toBe(0);
    expect(writes(r.sent).map((s) => `${s.method} ${s.path}`)).toEqual(['PATCH /products/stock-price']);
    expect(stored('remera-lisa')!.variants.find((v) => v.sku === 'REM-S-BL')!.price).toBe('12990.00');
    expect(stored('taza-ceramica')!.variants[0]!.price).toBe('4700.00');
    // And the next run of the same file has nothing left to do.
    const again = await importCli(file);
    expect(writes(again.sent)).toEqual([]);
  });

  it('--dry-run counts the writes and sends none', async () => {
    const file = join(dir, 'dry.csv');
    writeFileSync(file, 'handle,name,sku,price,stock\nnuevo,Nuevo,NUEVO-1,10,1\nremera-lisa,,REM-S-BL,1,\n');
    const r = await importCli(file, '--dry-run');
    expect(r.code, r.stderr).toBe(0);
    expect(writes(r.sent)).toEqual([]);
    expect(r.stdout).toMatch(/Would import.*\n.*1 created, 1 updated/);
    expect(r.stdout).toMatch(/2 would be sent/);
  });
});

describe('products export', () => {
  it('exporting and importing the same file sends no write (canonical and admin formats)', async () => {
    for (const format of ['canonical', 'admin']) {
      const file = join(dir, `export-${format}.csv`);
      const exported = await runInProcess(['products', 'export', file, '--format', format], { env: env() });
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stderr).toMatch(/Exported \d+ products/);
      const r = await importCli(file);
      expect(r.code, r.stderr).toBe(0);
      expect(writes(r.sent), format).toEqual([]);
      expect(r.sent.map((q) => q.path).sort(), format).toEqual(['/categories', '/locations', '/products', '/store']);
    }
  });

  it('writes to stdout without a file, formula cells escaped', async () => {
    const file = join(dir, 'formula.csv');
    writeFileSync(file, 'handle,name,description,sku,price\nformula,"=HYPERLINK(""x"")",- con guión,F-1,1\n');
    expect((await importCli(file)).code).toBe(0);
    const r = await runInProcess(['products', 'export'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.startsWith('formula,'))!;
    expect(line).toContain(`"'=HYPERLINK(""x"")"`);
    expect(line).toContain(`'- con guión`);
    // The escaped cells read back as the original text: nothing to write.
    writeFileSync(join(dir, 'formula-export.csv'), r.stdout);
    expect(writes((await importCli(join(dir, 'formula-export.csv'))).sent)).toEqual([]);
  });
});

describe('invalid input sends nothing', () => {
  it('every file of the malformed corpus is refused with its own error, and the sandbox receives nothing (in process)', async () => {
    const files = readdirSync(`${fixtures}malformed`);
    expect(files.length).toBeGreaterThanOrEqual(30);
    recorder.take();
    for (const name of files) {
      const client = createClient({
        apiUrl: sandbox.apiUrl,
        storeId: sandbox.storeId,
        token: sandbox.accessToken,
        appName: sandbox.appName,
        appId: sandbox.clientId,
      });
      const error = await runImport(client, {
        file: `${fixtures}malformed/${name}`,
        apiUrl: sandbox.apiUrl,
        storeId: sandbox.storeId,
        env: env(),
      }).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(FileInvalidError);
      expect((error as FileInvalidError).exitCode).toBe(2);
      expect(formatRowError((error as FileInvalidError).errors[0]!), name).toMatch(new RegExp(`^${name.replace('.', '\\.')}, line \\d+`));
      expect(client.stats().requests, name).toBe(0);
      expect(recorder.take(), name).toEqual([]);
    }
  });

  it('the CLI lists every error with file, line and column, exits 2 and sends nothing', async () => {
    for (const [name, where] of [
      ['too-many-cells.csv', 'too-many-cells.csv, line 2, column 8: the cell holds "extra"'],
      ['duplicate-sku.csv', 'duplicate-sku.csv, line 3, column 5 (sku)'],
      ['unclosed-quote-end.csv', 'unclosed-quote-end.csv, line 3'],
      ['empty.csv', 'empty.csv, line 1'],
    ] as const) {
      const r = await importCli(`${fixtures}malformed/${name}`);
      expect(r.code, name).toBe(2);
      expect(r.stderr).toContain(where);
      expect(r.stderr).toMatch(/nothing was sent/);
      expect(r.sent, name).toEqual([]);
    }
  });

  it('--ignore-unknown-columns reports an unknown column once and imports the rest; --quiet prints nothing', async () => {
    const file = join(dir, 'unknown-column.csv');
    writeFileSync(file, 'handle,name,sku,price,colour\ndesconocida,Desconocida,DESC-1,10,rojo\ndesconocida-2,Desconocida 2,DESC-2,10,azul\n');
    const refused = await importCli(file);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('unknown-column.csv, line 1, column 5 (colour): unknown column "colour"');
    expect(refused.sent).toEqual([]);

    const dry = await importCli(file, '--ignore-unknown-columns', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.match(/colour/g)).toEqual(['colour']);
    expect(dry.stdout).toMatch(/not imported \(no API counterpart\): colour/);

    const quiet = await importCli(file, '--ignore-unknown-columns', '--quiet');
    expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([0, '', '']);
    expect(count(quiet.sent, 'POST', /^\/products$/)).toBe(2);
  });

  it('--skip-invalid imports the valid products and exits 3, with a report of the rest', async () => {
    const file = join(dir, 'partly-valid.csv');
    writeFileSync(file, 'handle,name,sku,price,stock\nvalido,Válido,VAL-1,10,1\nroto,Roto,ROTO-1,diez,1\n');
    const report = join(dir, 'report.csv');
    const r = await importCli(file, '--skip-invalid', '--report', report);
    expect(r.code, r.stderr).toBe(3);
    expect(count(r.sent, 'POST', /^\/products$/)).toBe(1);
    expect(readFileSync(report, 'utf8')).toMatch(/^handle,name,sku,price,stock,line,error,stage\nroto,Roto,ROTO-1,diez,1,3,"column 4 \(price\): ""diez"" is not a number.*",validation\n$/);
    // The report, fixed, imports cleanly as it is: the line, error and stage columns are not read.
    const fixed = join(dir, 'partly-valid-fixed.csv');
    writeFileSync(fixed, readFileSync(report, 'utf8').replace(',diez,', ',10,'));
    const again = await importCli(fixed);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^Imported partly-valid-fixed.csv \(canonical columns\): 1 row, 1 product\.\n.*1 created, 0 updated, 0 unchanged, 0 failed/);
  });

  it('a --report in a directory that does not exist is refused before any request (exit 2), not after the work', async () => {
    const file = join(dir, 'report-nowhere.csv');
    writeFileSync(file, 'handle,name,sku,price,stock\nnowhere,Nowhere,NOWHERE-1,10,1\n');
    const r = await importCli(file, '--report', join(dir, 'missing-dir', 'failed.csv'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: --report: Cannot write .*failed\.csv: the directory .*missing-dir does not exist\.\n$/);
    expect(r.sent).toEqual([]);
  });
});

describe('the matching rules of CSV.md, end to end', () => {
  async function importText(name: string, csv: string, ...flags: string[]) {
    const file = join(dir, name);
    writeFileSync(file, csv);
    return importCli(file, ...flags);
  }

  it('--mode create, --mode update, a change of variations, images by URL, a SKU held twice', async () => {
    const first = await importText(
      'rules.csv',
      'handle,name,images,option1_name,option1_value,sku,price,stock\n' +
        'regla-lisa,Regla lisa,https://img.example.com/r1.jpg,,,RL-1,10,1\n' +
        'regla-talles,Regla talles,,Talle,S,RT-S,10,1\n' +
        'regla-talles,,,Talle,M,RT-M,10,1\n',
    );
    expect(first.code, first.stderr).toBe(0);

    // --mode create: the missing product is created, the existing one is skipped and reported, not updated.
    const create = await importText('rules-create.csv', 'handle,name,sku,price\nregla-lisa,Regla lisa,RL-1,11\nregla-nueva,Regla nueva,RN-1,5\n', '--mode', 'create');
    expect(create.code, create.stderr).toBe(0);
    expect(create.stdout).toMatch(/1 created, 0 updated, 0 unchanged, 1 skipped, 0 failed/);
    expect(writes(create.sent).map((s) => `${s.method} ${s.path}`)).toEqual(['POST /products']);
    expect(stored('regla-lisa')!.variants[0]!.price).toBe('10.00');

    // --mode update: the existing product is updated, the missing one is a failure (exit 3) and not created.
    const report = join(dir, 'rules-update-report.csv');
    const update = await importText('rules-update.csv', 'handle,name,sku,price\nregla-lisa,,RL-1,12\nregla-falta,Regla falta,RF-1,5\n', '--mode', 'update', '--report', report);
    expect(update.code).toBe(3);
    expect(update.stdout).toMatch(/0 created, 1 updated, 0 unchanged, 1 failed/);
    expect(update.stderr).toMatch(/rules-update.csv, line 3 \(regla-falta\): product regla-falta does not exist in the store \(--mode update\)/);
    expect(readFileSync(report, 'utf8')).toMatch(/\nregla-falta,Regla falta,RF-1,5,3,product regla-falta does not exist.*,plan\n$/);
    expect(writes(update.sent).map((s) => `${s.method} ${s.path}`)).toEqual(['PATCH /products/stock-price']);
    expect(stored('regla-falta')).toBeUndefined();

    // With ↔ without variations: refused for that product, with a clear message, nothing sent.
    const switched = await importText('rules-switch.csv', 'handle,option1_name,option1_value,sku\nregla-lisa,Color,Azul,RL-1\nregla-talles,,,RT-S\n');
    expect(switched.code).toBe(3);
    expect(switched.stderr).toMatch(/line 2 \(regla-lisa\): product regla-lisa has no variations in the store but the file gives it options \(Color\)/);
    expect(switched.stderr).toMatch(/line 3 \(regla-talles\): product regla-talles has variations \(Talle\) in the store but the file gives it none/);
    expect(writes(switched.sent)).toEqual([]);

    // Images: matched by URL; the new ones are added in file order, the one already there stays.
    const images = await importText('rules-images.csv', 'handle,images,sku\nregla-lisa,https://img.example.com/r3.jpg|https://img.example.com/r1.jpg|https://img.example.com/r2.jpg,RL-1\n');
    expect(images.code, images.stderr).toBe(0);
    expect(writes(images.sent).map((s) => `${s.method} ${s.path.replace(/\d+/, 'ID')}`)).toEqual(['POST /products/ID/images', 'POST /products/ID/images']);
    expect(imageNames(stored('regla-lisa')!.images.map((i) => i.src))).toEqual(['r1', 'r3', 'r2']);

    // A SKU the store holds twice: that row fails (the store is ambiguous), the product's other rows go ahead.
    const nueva = stored('regla-nueva')!;
    const api = clientFor(sandbox);
    expect((await api.put(`/products/${nueva.id}/variants/${nueva.variants[0]!.id}`, { sku: 'RT-M' })).status).toBe(200);
    const twice = await importText('rules-twice.csv', 'handle,option1_name,option1_value,sku,price\nregla-talles,Talle,S,RT-S,20\nregla-talles,Talle,M,RT-M,20\n');
    expect(twice.code).toBe(3);
    expect(twice.stderr).toMatch(/rules-twice.csv, line 3 \(RT-M\): SKU RT-M is held by 2 variants in the store .*ambiguous/);
    expect(writes(twice.sent).map((s) => `${s.method} ${s.path}`)).toEqual(['PATCH /products/stock-price']);
    expect(stored('regla-talles')!.variants.map((v) => [v.sku, v.price])).toEqual([['RT-S', '20.00'], ['RT-M', '10.00']]);
  });
});

describe('failures and the lock', () => {
  it('a SKU of another product fails that product (exit 3) and the report names it', async () => {
    const file = join(dir, 'conflict.csv');
    writeFileSync(file, 'handle,name,sku,price\notro,Otro,TAZA-350,1\nbien,Bien,BIEN-1,2\n');
    const report = join(dir, 'conflict-report.csv');
    const r = await importCli(file, '--report', report);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/conflict.csv, line 2 \(otro\): SKU TAZA-350 belongs to product \d+ \(taza-ceramica\)/);
    expect(count(r.sent, 'POST', /^\/products$/)).toBe(1);
    expect(readFileSync(report, 'utf8')).toMatch(/^handle,name,sku,price,line,error,stage\notro,Otro,TAZA-350,1,2,SKU TAZA-350 belongs to product .*,plan\n$/);
  });

  it('refuses while another import of the store runs, and takes over a lock whose process is gone', async () => {
    const locks = join(dir, 'state', 'store', 'imports');
    mkdirSync(locks, { recursive: true });
    // Earlier runs released their lock.
    expect(readdirSync(locks).filter((f) => f.endsWith('.lock'))).toEqual([]);
    const { lockKey } = await import('../../src/services/bulk/lock.js');
    const path = join(locks, `${lockKey(sandbox.storeId, sandbox.clientId)}.lock`);
    const { hostname } = await import('node:os');
    // This test process is alive: its lock holds.
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-11-22T06:00:00Z', command: 'products import' }));
    const held = await importCli(`${fixtures}valid/canonical.csv`);
    expect(held.code).toBe(1);
    expect(held.stderr).toMatch(new RegExp(`Another \`store products import\` for this store is running \\(pid ${process.pid}`));
    expect(held.sent).toEqual([]);
    // A pid that no longer exists: stale, taken over.
    writeFileSync(path, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), since: '2026-11-22T06:00:00Z', command: 'products import' }));
    const stale = await importCli(`${fixtures}valid/canonical.csv`);
    expect(stale.code, stale.stderr).toBe(0);
    expect(readdirSync(locks).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });
});
