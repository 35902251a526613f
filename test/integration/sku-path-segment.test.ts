import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv, clientFor, requestRecorder } from '../helpers/sandbox.js';

/** Any SKU is safe as a path segment (issue 31): encoded, or refused in one sentence; never `GET /products/`. */

let sandbox: RunningSandbox;
const recorder = requestRecorder();

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', onRequest: recorder.onRequest });
});
afterAll(async () => {
  await sandbox?.close();
});

async function listBySku(sku: string) {
  recorder.take();
  const r = await runInProcess(['products', 'list', '--sku', sku], { env: cliEnv(sandbox, 'sku-path') });
  return { ...r, paths: recorder.take().map((q) => `${q.method} ${q.path}`) };
}

describe('a SKU as a path segment', () => {
  it.each(['..', '.'])('the SKU %s is refused in one sentence, and nothing reaches GET /products/', async (sku) => {
    const r = await listBySku(sku);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`Error: The SKU "${sku}" cannot be looked up: the store's API finds a SKU as a URL path segment (GET /products/sku/{sku}), which cannot be "${sku}".`);
    expect(r.paths).toEqual([]);
  });

  it('a SKU with / and % is encoded into one segment, and found', async () => {
    const product = sandbox.state.defaultStore()!.products.list().find((p) => p.variants[0]?.sku)!;
    await clientFor(sandbox).put(`/products/${product.id}/variants/${product.variants[0]!.id}`, { sku: 'A/B%20..' });
    const r = await listBySku('A/B%20..');
    expect(r.code, r.stderr).toBe(0);
    expect(r.paths).toEqual(['GET /products/sku/A%2FB%2520..']);
    expect(r.stdout).toContain('A/B%20..');
  });
});
