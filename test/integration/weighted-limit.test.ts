import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BulkStore, type BulkRequest, startBulkStore } from '../helpers/bulk-store-server.js';
import { catalog, csvOf, syncFeed } from '../helpers/bulk-catalog.js';
import { runInProcess } from '../helpers/run-in-process.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { cliEnv, clientFor, requestRecorder } from '../helpers/sandbox.js';

/**
 * docs/platform.md §12: variant writes draw from a weighted bucket, and its 429 means "send fewer variants per
 * request". A 429 on a batch of several variants halves it before it is sent again, never dropping a variant, and
 * the run ledger holds each variant's change once, settled by the half that carried it. Against a store written
 * from the documents alone (test/helpers/bulk-store-server.ts, `weightedLimit`) and against the sandbox with a
 * small weighted bucket (`weightedRate`).
 */

let dir: string;
let store: BulkStore | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'weighted-'));
});
afterEach(async () => {
  await store?.close();
  store = undefined;
});

function env(s: BulkStore, state: string) {
  return { STORE_TOKEN: s.token, STORE_ID: String(s.storeId), STORE_API_URL: s.url, XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, state), XDG_DATA_HOME: join(dir, 'data') };
}

function file(name: string, text: string): string {
  const path = join(dir, `${name}-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(path, text);
  return path;
}

/** The variants a batch write carries. */
function variantsOf(request: BulkRequest): number[] {
  const body = request.body as ({ variants?: { id: number }[] } & { id: number })[];
  return /stock-price$/.test(request.path) ? body.flatMap((p) => (p.variants ?? []).map((v) => v.id)) : body.map((v) => v.id);
}

interface ChangeJson {
  id: string;
  field: string;
  after: unknown;
  outcome: string;
}

describe('a weighted 429 from an independent store', () => {
  it('variants sync: a stock-price batch over the limit is halved until it fits; every variant written once, the ledger all confirmed', async () => {
    const s = (store = await startBulkStore());
    const seed = await runInProcess(['products', 'import', file('seed', csvOf(catalog(40, 3)))], { env: env(s, 'seed') });
    expect(seed.code, seed.stderr).toBe(0);
    s.weightedLimit = 20;
    const feed = s.products.flatMap((p) => p.variants).map((v, i) => ({ sku: v.sku!, stock: 300 + i, price: `${29 + (i % 3)}.90` }));
    const before = s.requests.length;
    const state = 'sync';
    const r = await runInProcess(['variants', 'sync', file('sync', syncFeed(feed))], { env: env(s, state) });
    expect(r.code, r.stderr).toBe(0);
    const writes = s.requests.slice(before).filter((q) => q.method !== 'GET');
    const refused = writes.filter((w) => w.status === 429);
    const applied = writes.filter((w) => w.status === 200);
    // The first batches (50, 50, 20) were refused until halved: 50 → 25 → 13 + 12.
    expect(refused.length).toBeGreaterThan(0);
    for (const w of refused) expect(variantsOf(w).length).toBeGreaterThan(20);
    for (const w of applied) expect(variantsOf(w).length).toBeLessThanOrEqual(20);
    // Never a variant dropped, never one sent twice once it fitted.
    const sent = applied.flatMap(variantsOf);
    expect(sent.sort()).toEqual(s.products.flatMap((p) => p.variants).map((v) => v.id).sort());
    for (const f of feed) {
      const v = s.variantBySku(f.sku)!;
      expect([v.stock, v.price], f.sku).toEqual([f.stock, f.price]);
    }
    expect(r.stdout).toMatch(/120 updated, 0 unchanged/);
    // The ledger: each variant's price and stock once, confirmed (the halves settled what the batch intended).
    const shown = await runInProcess(['runs', 'show', 'last', '--json'], { env: env(s, state) });
    expect(shown.code, shown.stderr).toBe(0);
    const changes = (JSON.parse(shown.stdout) as { changes: ChangeJson[] }).changes;
    expect(changes).toHaveLength(240);
    expect(changes.filter((c) => c.outcome !== 'confirmed')).toEqual([]);
    expect(new Set(changes.map((c) => `${c.id}/${c.field}`)).size).toBe(240);
  });

  it('a batch of one variant still refused waits its turn like any 429, and is written', async () => {
    const s = (store = await startBulkStore());
    const seed = await runInProcess(['products', 'import', file('seed', csvOf(catalog(2, 3)))], { env: env(s, 'seed-one') });
    expect(seed.code, seed.stderr).toBe(0);
    let refusals = 0;
    // Even one variant is refused, until 8 refusals have passed: a store whose bucket then drained.
    s.weightedLimit = 0;
    const feed = s.products.flatMap((p) => p.variants).map((v, i) => ({ sku: v.sku!, stock: 7 + i }));
    const timer = setInterval(() => {
      refusals = s.requests.filter((q) => q.status === 429).length;
      if (refusals >= 8) s.weightedLimit = undefined;
    }, 5);
    try {
      const r = await runInProcess(['variants', 'sync', file('one', syncFeed(feed, 'sku,stock'))], { env: env(s, 'one') });
      expect(r.code, r.stderr).toBe(0);
    } finally {
      clearInterval(timer);
    }
    expect(refusals).toBeGreaterThanOrEqual(8);
    for (const f of feed) expect(s.variantBySku(f.sku)!.stock, f.sku).toBe(f.stock);
  });
});

describe('the sandbox\'s weighted bucket (weightedRate)', () => {
  let sandbox: RunningSandbox;
  const recorder = requestRecorder();

  afterEach(async () => {
    await sandbox?.close();
  });

  it('variants sync with a small weighted capacity: the batches are halved until they fit, every variant written', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    // 24 units: a variant with one inventory level weighs 2, so at most 12 variants a request (weights in docs/sandbox.md).
    sandbox = await startSandbox({ seed: 'demo', rate: 'off', weightedRate: { capacity: 24, leakPerSecond: 1000 }, host: '127.0.0.1', port: 0, onRequest: recorder.onRequest });
    const api = clientFor(sandbox);
    const products = (await api.get('/products', { query: { per_page: 200 } })).body as { variants: { id: number; sku: string | null; stock: number | null }[] }[];
    const variants = products.flatMap((p) => p.variants).filter((v) => v.sku && v.stock !== null);
    expect(variants.length).toBeGreaterThan(12);
    const feed = variants.map((v, i) => ({ sku: v.sku!, stock: 40 + i }));
    const cli = cliEnv(sandbox, 'weighted');
    recorder.take();
    const r = await runInProcess(['variants', 'sync', file('sandbox', syncFeed(feed, 'sku,stock'))], { env: cli });
    expect(r.code, r.stderr).toBe(0);
    const batches = recorder.take().filter((q) => q.method === 'PATCH' && q.path === '/products/stock-price');
    // More requests than the fewest possible (one batch of ≤ 50): the weighted 429s made the client send halves.
    expect(batches.length).toBeGreaterThan(Math.ceil(feed.length / 50));
    // Every variant written: the same feed again has nothing left to change.
    const again = await runInProcess(['variants', 'sync', file('sandbox-again', syncFeed(feed, 'sku,stock'))], { env: cli });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`0 updated, ${feed.length} unchanged`));
  });
});
