import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, requestRecorder, writesOf } from '../helpers/sandbox.js';

/** Export of the demo store: three languages, three locations, custom fields, options; read back unchanged. */

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

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'export-demo-'));
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', onRequest: recorder.onRequest });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('products export of a multilingual, multi-location store', () => {
  it('writes a column per language and per location, one row per variant, and reads back without a write', async () => {
    const file = join(dir, 'demo.csv');
    const exported = await runInProcess(['products', 'export', file], { env: env() });
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    const header = text.split('\n', 1)[0]!.split(',');
    expect(header).toEqual(expect.arrayContaining(['name:es', 'name:pt', 'name:en', 'description:es', 'stock:Depósito Central', 'stock:Local Palermo', 'stock:Depósito Córdoba']));
    // Some demo variants do not report their split (no inventory_levels): their total goes in `stock`.
    expect(header).toContain('stock');
    const store = sandbox.state.defaultStore()!;
    const variantCount = store.products.list().reduce((n, p) => n + Math.max(1, p.variants.length), 0);
    expect(exported.stderr).toMatch(new RegExp(`Exported ${store.products.list().length} products \\(${variantCount} rows\\)`));

    recorder.take();
    const imported = await runInProcess(['products', 'import', file], { env: env() });
    expect(imported.code, imported.stderr).toBe(0);
    const received = recorder.take();
    expect(received.map((r) => r.path)).toContain('/products');
    expect(writesOf(received)).toEqual([]);
    expect(imported.stdout).toMatch(new RegExp(`0 created, 0 updated, ${store.products.list().length} unchanged, 0 failed`));
  });

  it('writes the odd cases of a real catalog so they read back: options only in another language, no SKU, unreported splits', async () => {
    const file = join(dir, 'demo-odd.csv');
    const exported = await runInProcess(['products', 'export', file], { env: env() });
    expect(exported.code, exported.stderr).toBe(0);
    const [head, ...rows] = readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split(','));
    const cell = (row: string[], column: string) => row[head!.indexOf(column)];
    const of = (handle: string) => rows.filter((r) => r[0] === handle);
    // Options named only in pt on an es store: exported with that text, not blank.
    expect(of('gorra-clasica').map((r) => [cell(r, 'option1_name'), cell(r, 'option1_value')])).toEqual([
      ['Cor', 'Branco'],
      ['Cor', 'Preto'],
      ['Cor', 'Azul'],
    ]);
    // The product without SKU is exported, with a blank SKU.
    const wallet = of('billetera');
    expect(wallet).toHaveLength(1);
    expect(cell(wallet[0]!, 'sku')).toBe('');
    expect(cell(wallet[0]!, 'price')).toBe('21000.00');
    // An unreported split: the total in `stock`, blank location cells (no split invented).
    const socks = of('medias-x3')[0]!;
    const store = sandbox.state.defaultStore()!;
    const socksRecord = store.products.list().find((p) => p.handle.es === 'medias-x3')!;
    expect(cell(socks, 'stock')).toBe(String(socksRecord.variants[0]!.inventory_levels.reduce((n, l) => n + l.stock, 0)));
    expect(['stock:Depósito Central', 'stock:Local Palermo', 'stock:Depósito Córdoba'].map((c) => cell(socks, c))).toEqual(['', '', '']);
    // A reported split: per-location cells, blank total.
    expect(cell(of('camisa-oxford')[0]!, 'stock')).toBe('');

    recorder.take();
    const dry = await runInProcess(['products', 'import', file, '--dry-run'], { env: env() });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/0 would be sent/);
    expect(dry.stdout).toMatch(new RegExp(`0 created, 0 updated, ${store.products.list().length} unchanged, 0 failed`));
    expect(writesOf(recorder.take())).toEqual([]);
  });

  it('the admin format reads back without a write too (stock of the default location, main-language texts)', async () => {
    const file = join(dir, 'demo-admin.csv');
    const exported = await runInProcess(['products', 'export', file, '--format', 'admin'], { env: env() });
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').split('\r\n', 1)[0]).toMatch(/^Identificador de URL;Nombre;Categorías;/);
    recorder.take();
    const imported = await runInProcess(['products', 'import', file], { env: env() });
    expect(imported.code, imported.stderr).toBe(0);
    const received = recorder.take();
    expect(received.map((r) => r.path)).toContain('/products');
    expect(writesOf(received)).toEqual([]);
  });
});

describe('a store that sends no inventory_levels at all (platform.md §3)', () => {
  let bare: RunningSandbox;
  const bareRecorder = requestRecorder();
  const bareEnv = () => ({ ...env(), STORE_TOKEN: bare.accessToken, STORE_ID: String(bare.storeId), STORE_API_URL: bare.apiUrl });

  beforeAll(async () => {
    bare = await startSandbox({ seed: 'empty', rate: 'off', onRequest: bareRecorder.onRequest });
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('export writes one stock column and no per-location ones; import never reads a missing level as zero', async () => {
    const api = clientFor(bare);
    const post = async (path: string, body: unknown) => {
      const res = await api.post<{ id: string }>(path, body);
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const central = await post('/locations', { name: 'Central', address: { city: 'Rosario' } });
    await post('/locations', { name: 'Norte', address: { city: 'Salta' } });
    await post('/products', { name: 'Yerba', sku: 'YER-1', price: 10, inventory_levels: [{ location_id: central.id, stock: 7 }] });
    await post('/products', { name: 'Mate', sku: 'MAT-1', price: 20, inventory_levels: [{ location_id: central.id, stock: 3 }] });
    // This store does not report the split of any variant.
    const store = bare.state.defaultStore()!;
    bare.state.mutate('test.unreport', (tx) => {
      for (const p of store.products.list()) {
        for (const v of p.variants) v.levels_unreported = true;
        tx.put(store.products, p);
      }
    });

    const file = join(dir, 'bare.csv');
    const exported = await runInProcess(['products', 'export', file], { env: bareEnv() });
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const header = lines[0]!.split(',');
    expect(header.filter((h) => h.startsWith('stock'))).toEqual(['stock']);
    expect(lines.slice(1).map((l) => l.split(',')[header.indexOf('stock')])).toEqual(['7', '3']);

    bareRecorder.take();
    const again = await runInProcess(['products', 'import', file], { env: bareEnv() });
    expect(again.code, again.stderr).toBe(0);
    expect(writesOf(bareRecorder.take())).toEqual([]);

    // A file that sets one location sends that level only: the unknown ones are not zeroed.
    const partial = join(dir, 'bare-norte.csv');
    writeFileSync(partial, 'handle,sku,stock:Norte\nyerba,YER-1,2\n');
    const set = await runInProcess(['products', 'import', partial], { env: bareEnv() });
    expect(set.code, set.stderr).toBe(0);
    const sent = writesOf(bareRecorder.take());
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['PATCH /products/stock-price']);
    const yerba = store.products.list().find((p) => p.handle.es === 'yerba')!;
    expect(yerba.variants[0]!.inventory_levels.map((l) => l.stock).sort()).toEqual([2, 7]);
  });
});
