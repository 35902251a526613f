import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/run-cli.js';

/** Export of the demo store: three languages, three locations, custom fields, options; read back unchanged. */

let sandbox: RunningSandbox;
let dir: string;

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
  sandbox = await startSandbox({ seed: 'demo', rate: 'off' });
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

    const imported = await runCli(['products', 'import', file, '--debug'], { env: env() });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr.split('\n').filter((l) => /^→ (POST|PUT|PATCH|DELETE) /.test(l))).toEqual([]);
    expect(imported.stdout).toMatch(new RegExp(`0 created, 0 updated, ${store.products.list().length} unchanged, 0 failed`));
  });

  it('the admin format reads back without a write too (stock of the default location, main-language texts)', async () => {
    const file = join(dir, 'demo-admin.csv');
    const exported = await runCli(['products', 'export', file, '--format', 'admin'], { env: env() });
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').split('\r\n', 1)[0]).toMatch(/^Identificador de URL;Nombre;Categorías;/);
    const imported = await runCli(['products', 'import', file, '--debug'], { env: env() });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr.split('\n').filter((l) => /^→ (POST|PUT|PATCH|DELETE) /.test(l))).toEqual([]);
  });
});
