import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReplayServer, startReplayServer } from '../helpers/replay-server.js';
import { runInProcess } from '../helpers/run-in-process.js';

/**
 * SKU lookups against a server written from docs/platform.md (test/helpers/replay-server.ts, GET only), not the
 * sandbox: `GET /products/sku/{sku}` plus the `q` search that finds a SKU held elsewhere.
 */

let server: ReplayServer;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runInProcess(args, { env });

beforeAll(async () => {
  server = await startReplayServer();
  env = server.env('sku-contract');
});
afterAll(() => server?.close());

describe('SKUs against the platform as documented', () => {
  it('variants get SKU, products get SKU and products list --sku find the variant that has it', async () => {
    const variant = JSON.parse((await store('variants', 'get', 'CAM-AZ-G', '--json')).stdout);
    expect(variant).toMatchObject({ id: 401234502, sku: 'CAM-AZ-G' });
    const product = await store('products', 'get', 'CAM-BR-M', '--json', 'id');
    expect(JSON.parse(product.stdout)).toEqual({ id: 101234567 });
    const byHandle = await store('products', 'get', 'gorra-visera-plana', '--json', 'id');
    expect(JSON.parse(byHandle.stdout)).toEqual({ id: 101234568 });
    const listed = await store('products', 'list', '--sku', 'CAM-AZ-G');
    const [header, row] = listed.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(row![header!.indexOf('sku')]).toBe('CAM-AZ-G');
    const missing = await store('variants', 'get', 'NOPE');
    expect([missing.code, missing.stderr.trim()]).toEqual([1, 'Error: No variant has SKU NOPE.']);
  });
});
