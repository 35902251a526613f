import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/run-cli.js';
import { requestRecorder, writesOf } from '../helpers/sandbox.js';

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
    const exported = await runCli(['products', 'export', file], { env: env() });
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    const header = text.split('\n', 1)[0]!.split(',');
    expect(header).toEqual(expect.arrayContaining(['name:es', 'name:pt', 'name:en', 'description:es', 'stock:Depósito Central', 'stock:Local Palermo', 'stock:Depósito Córdoba']));
    expect(header).not.toContain('stock');
    const store = sandbox.state.defaultStore()!;
    const variantCount = store.products.list().reduce((n, p) => n + Math.max(1, p.variants.length), 0);
    expect(exported.stderr).toMatch(new RegExp(`Exported ${store.products.list().length} products \\(${variantCount} rows\\)`));

    recorder.take();
    const imported = await runCli(['products', 'import', file], { env: env() });
    expect(imported.code, imported.stderr).toBe(0);
    const received = recorder.take();
    expect(received.map((r) => r.path)).toContain('/products');
    expect(writesOf(received)).toEqual([]);
    expect(imported.stdout).toMatch(new RegExp(`0 created, 0 updated, ${store.products.list().length} unchanged, 0 failed`));
  });

  it('the admin format reads back without a write too (stock of the default location, main-language texts)', async () => {
    const file = join(dir, 'demo-admin.csv');
    const exported = await runCli(['products', 'export', file, '--format', 'admin'], { env: env() });
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').split('\r\n', 1)[0]).toMatch(/^Identificador de URL;Nombre;Categorías;/);
    recorder.take();
    const imported = await runCli(['products', 'import', file], { env: env() });
    expect(imported.code, imported.stderr).toBe(0);
    const received = recorder.take();
    expect(received.map((r) => r.path)).toContain('/products');
    expect(writesOf(received)).toEqual([]);
  });
});
