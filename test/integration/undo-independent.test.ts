import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BulkStore, type StoreVariant, startBulkStore } from '../helpers/bulk-store-server.js';
import { catalog, csvOf } from '../helpers/bulk-catalog.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { serverEnv } from '../helpers/server-env.js';

/**
 * Issue 28, "Done when", against a store written from docs/platform.md alone (test/helpers/bulk-store-server.ts,
 * which shares no code with the sandbox): undo after sales and an admin's edits; a stale plan refused with 0
 * writes; a feed multiplying prices by 100 stopped by --max-price-change (exit 5, 0 writes); --verify naming every
 * write the store acknowledged and dropped. The sandbox's versions are undo.test.ts and plans-brakes.test.ts.
 */

interface ChangeJson {
  resource: string;
  id: string | null;
  key: string | null;
  field: string;
  kind: string;
  before: unknown;
  after: unknown;
  outcome: string;
}

let dir: string;
let bulk: BulkStore;
const env = () => serverEnv(bulk, dir);
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
/** Runs a command; answers its result and the write requests the store received meanwhile. */
async function store(...args: string[]) {
  const from = bulk.writes().length;
  const r = await runInProcess(args, { env: env() });
  return { ...r, writes: bulk.writes().slice(from) };
}
const variants = () => bulk.products.flatMap((p) => p.variants);
const stockOf = (v: StoreVariant) => v.inventory_levels.reduce((n, l) => n + l.stock, 0);
/** A write as an admin makes it in the store's own panel: through the store's API, not the CLI. */
async function adminPrice(v: StoreVariant, price: number) {
  const res = await fetch(`${bulk.url}/v1/${bulk.storeId}/products/${v.product_id}/variants/${v.id}`, {
    method: 'PUT',
    headers: { authentication: `bearer ${bulk.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ price }),
  });
  expect(res.status).toBe(200);
}
/** A sale, as the store records one: the variant's stock goes down (this store has no orders). */
function sell(v: StoreVariant, quantity: number) {
  v.inventory_levels[0]!.stock -= quantity;
  v.stock = stockOf(v);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'undo-independent-'));
  bulk = await startBulkStore();
  const seeded = await runInProcess(['products', 'import', file('seed.csv', csvOf(catalog(24, 3)))], { env: { ...env(), XDG_STATE_HOME: join(dir, 'seed-state') } });
  expect(seeded.code, seeded.stderr).toBe(0);
});
afterAll(() => bulk?.close());

describe('store undo against the independent store', () => {
  it('puts back every untouched field, keeps the admin prices (listed), leaves stock at before minus sold; runs show listed every change exactly', async () => {
    const targets = variants().slice(0, 60);
    const before = new Map(targets.map((v) => [v.sku!, { price: v.price, stock: stockOf(v) }]));
    const feed = targets.map((v, i) => ({ sku: v.sku!, price: `${200 + i}.50`, stock: 30 + i }));
    const sync = await store('variants', 'sync', file('feed.csv', `sku,price,stock\n${feed.map((f) => `${f.sku},${f.price},${f.stock}`).join('\n')}\n`));
    expect(sync.code, sync.stderr).toBe(0);
    const runs = JSON.parse((await store('runs', 'list', '--json')).stdout) as { id: string; command: string }[];
    const runId = runs.find((r) => r.command === 'variants sync')!.id;

    // runs show: every change, exactly: one price and one stock per variant, its value before and the one written.
    const shown = JSON.parse((await store('runs', 'show', runId, '--json')).stdout) as { changes: ChangeJson[] };
    expect(shown.changes).toHaveLength(feed.length * 2);
    for (const f of feed) {
      const mine = shown.changes.filter((c) => c.key === f.sku);
      expect(mine.map((c) => c.field).sort(), f.sku).toEqual(['price', 'stock']);
      const price = mine.find((c) => c.field === 'price')!;
      const stock = mine.find((c) => c.field === 'stock')!;
      expect(Number(price.before), f.sku).toBe(Number(before.get(f.sku)!.price));
      expect(Number(price.after), f.sku).toBe(Number(f.price));
      expect(stock.before, f.sku).toBe(before.get(f.sku)!.stock);
      expect(stock.after, f.sku).toBe(f.stock);
      for (const c of mine) expect(c.outcome, `${f.sku} ${c.field}`).toBe('confirmed');
    }

    // Some variants sell; an admin edits some prices.
    const sold = new Map([[feed[2]!.sku, 4], [feed[31]!.sku, 1], [feed[59]!.sku, 7]]);
    for (const [sku, n] of sold) sell(bulk.variantBySku(sku)!, n);
    const edited = [feed[5]!.sku, feed[40]!.sku];
    for (const sku of edited) await adminPrice(bulk.variantBySku(sku)!, 999);

    const undo = await store('undo', runId, '--yes');
    expect(undo.code, undo.stderr).toBe(0);
    for (const [sku, was] of before) {
      const v = bulk.variantBySku(sku)!;
      if (edited.includes(sku)) expect(Number(v.price), `${sku} admin price kept`).toBe(999);
      else expect(Number(v.price), `${sku} price`).toBe(Number(was.price));
      expect(stockOf(v), `${sku} stock`).toBe(Math.max(0, was.stock - (sold.get(sku) ?? 0)));
    }
    for (const sku of edited) expect(undo.stderr).toMatch(new RegExp(`${sku} \\(variant \\d+\\) price: the run wrote [\\d.]+, the store holds 999(\\.00)? — changed since the run`));
    // The batch endpoints, as the job used them: no more write requests than the sync sent.
    expect(undo.writes.every((w) => w.path.endsWith('/products/stock-price'))).toBe(true);
    expect(undo.writes.length).toBeLessThanOrEqual(sync.writes.length);
  });
});

describe('plans, brakes and --verify against the independent store', () => {
  it('a plan whose records changed in the store since is refused with 0 writes, naming each (exit 5)', async () => {
    const [a, b] = variants().slice(62, 64);
    const plan = join(dir, 'stale.plan');
    const made = await store('variants', 'sync', file('stale.csv', `sku,price\n${a!.sku},1.25\n${b!.sku},2.25\n`), '--plan-out', plan);
    expect(made.code, made.stderr).toBe(0);
    expect(made.writes).toEqual([]);
    const planned = a!.price;
    await adminPrice(a!, 77);
    const applied = await store('apply', plan);
    expect(applied.code, applied.stderr).toBe(5);
    expect(applied.writes).toEqual([]);
    expect(applied.stderr).toContain(`${a!.sku} (variant ${a!.id}) price: planned from ${planned}, the store holds 77 now`);
    expect(applied.stderr).not.toContain(`${b!.sku} (variant`);
  });

  it('a feed that multiplies prices by 100, with --max-price-change 50%, exits 5 with 0 writes', async () => {
    const targets = variants().slice(64, 70);
    const csv = `sku,price\n${targets.map((v) => `${v.sku},${(Number(v.price) * 100).toFixed(2)}`).join('\n')}\n`;
    const r = await store('variants', 'sync', file('x100.csv', csv), '--max-price-change', '50%');
    expect(r.code, r.stderr).toBe(5);
    expect(r.writes).toEqual([]);
    for (const v of targets) expect(r.stdout + r.stderr).toContain(v.sku!);
  });

  it('--verify names every write the store acknowledged and dropped (exit 3)', async () => {
    const targets = variants().slice(0, 20);
    const dropped = [targets[3]!, targets[11]!, targets[17]!];
    for (const v of dropped) bulk.dropVariants.add(v.id);
    const report = join(dir, 'verify-report.csv');
    const csv = `sku,price\n${targets.map((v) => `${v.sku},${(Number(v.price) + 3).toFixed(2)}`).join('\n')}\n`;
    const r = await store('variants', 'sync', file('verify.csv', csv), '--verify', '--report', report);
    bulk.dropVariants.clear();
    expect(r.code, r.stderr).toBe(3);
    const failed = readFileSync(report, 'utf8').split('\n').slice(1).filter(Boolean).map((line) => line.split(',')[0]);
    expect(failed.sort()).toEqual(dropped.map((v) => v.sku!).sort());
  });
});
