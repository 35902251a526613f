import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';

/**
 * Issue 31, "Reset moves the demo store": `sandbox reset` gives back the same demo store — the same port, and
 * the same ids for its products, variants, orders, locations and custom fields — so README's examples and
 * docs/examples/invoices.csv (which name order ids) work after a reset as before it.
 */

const root = mkdtempSync(join(tmpdir(), 'store-sandbox-reset-'));
const env = { XDG_CONFIG_HOME: join(root, 'config'), XDG_STATE_HOME: join(root, 'state'), XDG_DATA_HOME: join(root, 'data'), NO_COLOR: '1', STORE_TOKEN: '', STORE_PROFILE: '' };
const INVOICES = fileURLToPath(new URL('../../docs/examples/invoices.csv', import.meta.url));

const store = (...args: string[]) => runInProcess(args, { env });
const info = () => JSON.parse(readFileSync(join(env.XDG_STATE_HOME, 'store', 'sandbox.json'), 'utf8')) as { api_url: string; store_id: number };

async function ids(): Promise<Record<string, unknown>> {
  const read = async (...args: string[]) => {
    const r = await store(...args);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as unknown;
  };
  return {
    products: ((await read('products', 'list', '--all', '--json', 'id,variants')) as { id: number; variants: { id: number; sku: string | null }[] }[]).map((p) => ({
      id: p.id,
      variants: p.variants.map((v) => [v.id, v.sku]),
    })),
    orders: await read('orders', 'list', '--all', '--json', 'id,number'),
    locations: await read('locations', 'list', '--json', 'id,name'),
    customFields: await read('variants', 'custom-fields', 'list', '--json', 'id,name'),
  };
}

describe('sandbox reset', () => {
  afterAll(async () => {
    await store('sandbox', 'stop');
  });

  it('restores the same demo store on the same port: the same ids, and docs/examples/invoices.csv attaches again', async () => {
    const login = await store('auth', 'login', '--sandbox');
    expect(login.code, login.stderr).toBe(0);
    const before = await ids();
    const { api_url } = info();
    const first = await store('invoices', 'attach', '--file', INVOICES);
    expect(first.code, first.stderr).toBe(0);
    // The store changes: a product made, an order cancelled.
    expect((await store('products', 'create', '--name', 'Temporary', '--price', '10')).code).toBe(0);

    const reset = await store('sandbox', 'reset', '--yes');
    expect(reset.code, reset.stderr).toBe(0);
    expect(info().api_url).toBe(api_url);
    expect(await ids()).toEqual(before);
    // The example file names the demo's orders by id: after the reset they are there again, without invoices.
    const again = await store('invoices', 'attach', '--file', INVOICES);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^Attached/);
  });
});
