import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { startBulkStore } from '../helpers/bulk-store-server.js';
import { catalog, csvOf, syncFeed } from '../helpers/bulk-catalog.js';
import { BIN } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv, clientFor } from '../helpers/sandbox.js';
import { serverEnv } from '../helpers/server-env.js';

/**
 * Issue 28, "Done when" — crashes: the real `store` binary SIGKILLed at seeded random points during a
 * `variants sync` and again during its `store undo`. After each kill every write the store applied is on the
 * record (`runs show --json`, compared with the store itself); the job's `--resume`, then `store undo RUN`
 * and its `--resume`, leave the store exact: every price as before the sync, stock as before minus what sold.
 *
 * A kill point is the k-th write request the store receives, plus a few milliseconds (0 = while the store
 * handles it: applied, its reply never read). STORE_CRASH_SEED picks other points. Against the sandbox and
 * against the independent store of platform.md (test/helpers/bulk-store-server.ts).
 */

const SEED = Number(process.env.STORE_CRASH_SEED ?? 28);
const PRODUCTS = 84; // × 3 sizes = 252 variants: 6 stock-price batches of 50 (one short)

/** mulberry32: a small seeded generator, so a failing kill point can be run again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ChangeJson {
  resource: string;
  id: string | null;
  key: string | null;
  field: string;
  before: unknown;
  after: unknown;
  outcome: string;
}
interface RunJson {
  id: string;
  command: string;
  undoes?: string | null;
  ended_at: string | null;
}

/** A store to crash against: the CLI's environment, its variants as held, a sale, and a hook on each write. */
interface Target {
  env: NodeJS.ProcessEnv;
  held(): Map<string, { price: string | null; stock: number }>;
  sell(sku: string, quantity: number): Promise<void>;
  /** Set by the test: called as each write request arrives (sandbox) or is applied (independent store). */
  onWrite?: () => void;
  close(): Promise<void>;
}

const levelsSum = (levels: { stock: number }[]) => levels.reduce((n, l) => n + l.stock, 0);

async function sandboxTarget(): Promise<Target> {
  const target = {} as Target;
  const sandbox = await startSandbox({
    seed: 'empty',
    rate: 'off',
    host: '127.0.0.1',
    port: 0,
    onRequest: ({ method }) => {
      if (method !== 'GET') target.onWrite?.();
    },
  });
  const variants = () => sandbox.state.defaultStore()!.products.list().flatMap((p) => p.variants);
  const api = clientFor(sandbox);
  return Object.assign(target, {
    env: cliEnv(sandbox, 'crash'),
    held: () => new Map(variants().map((v) => [v.sku!, { price: v.price, stock: levelsSum(v.inventory_levels) }])),
    async sell(sku: string, quantity: number) {
      const v = variants().find((x) => x.sku === sku)!;
      const res = await api.post('/orders', { customer: { name: 'Ana', email: 'ana@example.com' }, products: [{ variant_id: v.id, quantity }] });
      expect(res.status, res.text).toBe(201);
    },
    close: () => sandbox.close(),
  });
}

async function independentTarget(dir: string): Promise<Target> {
  const target = {} as Target;
  const bulk = await startBulkStore();
  bulk.onWrite = () => target.onWrite?.();
  return Object.assign(target, {
    env: serverEnv(bulk, dir),
    held: () => new Map(bulk.products.flatMap((p) => p.variants).map((v) => [v.sku!, { price: v.price, stock: levelsSum(v.inventory_levels) }])),
    async sell(sku: string, quantity: number) {
      // A sale as this store records one: the stock goes down (it has no orders).
      const v = bulk.variantBySku(sku)!;
      v.inventory_levels[0]!.stock -= quantity;
      v.stock = levelsSum(v.inventory_levels);
    },
    close: () => bulk.close(),
  });
}

let target: Target | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

/** Runs the binary and SIGKILLs it once the store has received `atWrite` write requests, `delayMs` later. */
function killedRun(args: string[], env: NodeJS.ProcessEnv, arm: (kill: () => void) => void): Promise<{ signal: NodeJS.Signals | null; code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    arm(() => child.kill('SIGKILL'));
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe.each([
  ['the sandbox', (_dir: string) => sandboxTarget()],
  ['the independent store', (dir: string) => independentTarget(dir)],
] as const)('SIGKILL during a sync and during its undo (issue 28), against %s', (_name, start) => {
  const rng = random(SEED);
  const points = [0, 1, 2].map(() => ({
    sync: { atWrite: 1 + Math.floor(rng() * 4), delayMs: rng() < 0.4 ? 0 : Math.floor(rng() * 10) },
    undo: { atWrite: 1 + Math.floor(rng() * 4), delayMs: rng() < 0.4 ? 0 : Math.floor(rng() * 10) },
  }));

  it.each(points.map((p, i) => [i + 1, p] as const))(
    'kill point %i: every applied write on the record; resume, undo and its resume leave the store exact',
    async (_n, point) => {
      const dir = mkdtempSync(join(tmpdir(), 'crash-undo-'));
      target = await start(dir);
      const { env, held } = target;
      const store = (...args: string[]) => runInProcess(args, { env });
      const seedCsv = join(dir, 'seed.csv');
      writeFileSync(seedCsv, csvOf(catalog(PRODUCTS, 3)));
      const seeded = await runInProcess(['products', 'import', seedCsv], { env: { ...env, XDG_STATE_HOME: join(dir, 'seed-state') } });
      expect(seeded.code, seeded.stderr).toBe(0);
      const original = held();
      const feedRows = [...original.keys()].map((sku, i) => ({ sku, stock: 40 + (i % 17), price: `${(i % 50) + 1}.75` }));
      const feed = join(dir, 'feed.csv');
      writeFileSync(feed, syncFeed(feedRows));

      const killAt = (p: { atWrite: number; delayMs: number }) => (kill: () => void) => {
        let writes = 0;
        target!.onWrite = () => {
          if (++writes !== p.atWrite) return;
          target!.onWrite = undefined;
          if (p.delayMs === 0) kill();
          else setTimeout(kill, p.delayMs);
        };
      };
      const changesOf = async (runId: string) => {
        const shown = await store('runs', 'show', runId, '--json');
        expect(shown.code, shown.stderr).toBe(0);
        return (JSON.parse(shown.stdout) as { changes: ChangeJson[] }).changes;
      };
      /** Every field the store holds at a value the run sent (and did not hold before) is a change of the run. */
      const expectApplied = (changes: ChangeJson[], from: Map<string, { price: string | null; stock: number }>) => {
        const now = held();
        const recorded = new Map(changes.map((c) => [`${c.key}|${c.field}|${JSON.stringify(c.after)}`, c]));
        let applied = 0;
        for (const [sku, was] of from) {
          const is = now.get(sku)!;
          if (Number(is.price) !== Number(was.price)) {
            applied++;
            const c = recorded.get(`${sku}|price|${JSON.stringify(is.price)}`);
            expect(c, `${sku} price ${was.price} → ${is.price} is on the record`).toBeDefined();
            expect(Number(c!.before), `${sku} price before`).toBe(Number(was.price));
            expect(['confirmed', 'unknown'], `${sku} price`).toContain(c!.outcome);
          }
          if (is.stock !== was.stock) {
            applied++;
            const c = recorded.get(`${sku}|stock|${is.stock}`);
            expect(c, `${sku} stock ${was.stock} → ${is.stock} is on the record`).toBeDefined();
            expect(c!.before, `${sku} stock before`).toBe(was.stock);
          }
        }
        // A confirmed change is held by the store (nothing else wrote these variants meanwhile).
        for (const c of changes.filter((x) => x.outcome === 'confirmed')) {
          const is = now.get(c.key!)!;
          if (c.field === 'price') expect(Number(is.price), `${c.key} confirmed price`).toBe(Number(c.after));
          if (c.field === 'stock') expect(is.stock, `${c.key} confirmed stock`).toBe(c.after);
        }
        return applied;
      };

      // The sync, killed.
      const sync = await killedRun(['variants', 'sync', feed], env, killAt(point.sync));
      expect(sync.signal, sync.stderr).toBe('SIGKILL');
      const runs = JSON.parse((await store('runs', 'list', '--json')).stdout) as RunJson[];
      const syncRun = runs.find((r) => r.command === 'variants sync')!;
      expect(syncRun.ended_at).toBeNull();
      const applied = expectApplied(await changesOf(syncRun.id), original);
      expect(applied).toBeGreaterThan(0);

      // The job's own --resume finishes it.
      const resumed = await store('variants', 'sync', feed, '--resume');
      expect(resumed.code, resumed.stderr).toBe(0);
      for (const row of feedRows) {
        const is = held().get(row.sku)!;
        expect(Number(is.price), row.sku).toBe(Number(row.price));
        expect(is.stock, row.sku).toBe(row.stock);
      }

      // A few variants sell.
      const sold = new Map<string, number>();
      for (const sku of [feedRows[3]!.sku, feedRows[77]!.sku, feedRows[200]!.sku]) {
        await target.sell(sku, 2);
        sold.set(sku, 2);
      }

      // The undo, killed; what it applied is on its record.
      const synced = held();
      const undo = await killedRun(['undo', syncRun.id, '--yes'], env, killAt(point.undo));
      expect(undo.signal, undo.stderr).toBe('SIGKILL');
      const undoRun = (JSON.parse((await store('runs', 'list', '--json')).stdout) as RunJson[]).find((r) => r.command === 'undo')!;
      expectApplied(await changesOf(undoRun.id), synced);

      // Without --resume a second undo is refused; with it, the undo finishes (a kill that came as the undo
      // was exiting left nothing to finish: it ended on the record).
      const again = await store('undo', syncRun.id, '--yes');
      expect(again.code).toBe(2);
      if (undoRun.ended_at === null) {
        const finished = await store('undo', syncRun.id, '--resume', '--yes');
        expect(finished.code, finished.stderr).toBe(0);
      }
      for (const [sku, was] of original) {
        const is = held().get(sku)!;
        expect(Number(is.price), `${sku} price`).toBe(Number(was.price));
        expect(is.stock, `${sku} stock`).toBe(Math.max(0, was.stock - (sold.get(sku) ?? 0)));
      }
    },
    120_000,
  );
});
