// The run ledger's cost (issue 28; figures in docs/benchmarks.md "Run ledger").
//
// 1. A `variants sync` of 100,000 variants, every stock changed, against test/helpers/bulk-store-server.ts with no
//    rate limit: with the ledger against a record that keeps nothing. Each run is its own process
//    (test/bench/ledger-sync.js); the two alternate, BENCH_PAIRS pairs (default 5) after a warm-up each, and the
//    ratio is taken pair by pair (test/bench/paired.js: wall time, CPU, peak memory of each whole process).
// 2. `store history SKU` on a ledger of 10 million changes: the ledger's own query (open, read, close) timed here,
//    and the whole command (paired.js, 10 runs).
// 3. `store runs show RUN` of a 100,000-change run: when its first line and its last arrive.
//
// BENCH_BULK_PRODUCTS (default 20,000 × 5 variants), BENCH_LEDGER_CHANGES (default 10,000,000) change the sizes;
// BENCH_LEDGER_ONLY=sync|history|show|undo runs one part (undo only when asked: 4. below); BENCH_LEDGER_A=none
// runs the sync part's B against itself (the machine's noise floor for its ratio).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import ts from 'typescript';
import { measure, median } from './paired.js';

const dist = new URL('../../dist/', import.meta.url);
const { createClient } = await import(new URL('client/index.js', dist).href);
const { RunRecorder } = await import(new URL('ledger/recorder.js', dist).href);
const { Ledger, ledgerDriverName } = await import(new URL('ledger/store.js', dist).href);
const { fillSubjects } = await import(new URL('ledger/schema.js', dist).href);
const { INDEX_SLICE } = await import(new URL('ledger/writer.js', dist).href);

// The module the ledger itself loads on this Node (13 on Node 22 and later, 12 on 20).
const Database = createRequire(import.meta.url)(ledgerDriverName());
const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const SYNC = fileURLToPath(new URL('./ledger-sync.js', import.meta.url));
const PRODUCTS = Number(process.env.BENCH_BULK_PRODUCTS ?? 20_000);
const CHANGES = Number(process.env.BENCH_LEDGER_CHANGES ?? 10_000_000);
const ONLY = process.env.BENCH_LEDGER_ONLY;
const SIZES = ['XS', 'S', 'M', 'L', 'XL'];
const work = mkdtempSync(join(tmpdir(), 'ledger-bench-'));

/** The independent bench store, seeded with BENCH_BULK_PRODUCTS × 5 variants through the real import. */
async function seededStore() {
  const source = readFileSync(new URL('../helpers/bulk-store-server.ts', import.meta.url), 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  writeFileSync(join(work, 'bulk-store-server.mjs'), js);
  const { startBulkStore } = await import(join(work, 'bulk-store-server.mjs'));
  const store = await startBulkStore();
  const skus = [];
  const bodies = [];
  for (let p = 1; p <= PRODUCTS; p++) {
    const variants = SIZES.map((size, i) => ({ values: [{ es: size }], sku: `SH-${p}-${size}`, price: `${1000 + (p % 500)}.00`, stock: (p + i) % 50 }));
    skus.push(...variants.map((v) => v.sku));
    bodies.push({ name: { es: `Shirt ${p}` }, handle: { es: `shirt-${p}` }, attributes: [{ es: 'Size' }], variants });
  }
  writeFileSync(join(work, 'skus.json'), JSON.stringify(skus));
  // Straight POSTs (16 at a time): the seed is not what is measured, and the import's own work would take most of
  // the bench's time at 20,000 products.
  const started = performance.now();
  let next = 0;
  const post = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const res = await fetch(`${store.url}/v1/${store.storeId}/products`, { method: 'POST', headers: { authentication: `bearer ${store.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`seed: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, post));
  store.requests.length = 0;
  console.log(`store seeded: ${PRODUCTS} products, ${skus.length} variants (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  return { store, skus };
}

async function syncCost() {
  const { store, skus } = await seededStore();
  // Every run is its own sync of every variant; the store's log of requests is not what is measured.
  store.requests.length = 0;
  const args = (mode) => [SYNC, store.url, String(store.storeId), store.token, work, mode];
  // BENCH_LEDGER_A=none runs B against itself: how far from 1.00 this machine's noise alone puts the ratio.
  const aMode = process.env.BENCH_LEDGER_A === 'none' ? 'none' : 'ledger';
  const pairs = Number(process.env.BENCH_PAIRS ?? 5);
  console.log(`$ node ledger-sync.js … ${aMode} (A) and … none (B) in turn, ${pairs} pairs (${skus.length} variants, every stock changed)`);
  await measure({ a: { args: args(aMode) }, b: { args: args('none') }, runs: pairs, warmup: 1 });
  console.log(`ledger file after the runs: ${(statSync(join(work, 'ledger.db')).size / 1e6).toFixed(1)} MB`);
  await store.close();
}

/**
 * A ledger of `total` changes: runs of 100,000 variant changes (price and stock of 50,000 SKUs), as a sync records
 * them. The schema is the ledger's own (Ledger.open makes it); the rows go in through better-sqlite3 in one
 * transaction, each run indexed as a sync's writer thread indexes it (schema.ts fillSubjects, a slice at a time),
 * which builds 10 million in minutes where a commit per request, as a sync makes them, takes an hour.
 */
function bigLedger(path, total) {
  Ledger.open(path).close();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  const perRun = 100_000;
  const started = performance.now();
  let runId;
  const addRun = db.prepare(`INSERT INTO runs (id, command, argv, started_at, ended_at, exit_code, pid, changes, confirmed, failed, unknown) VALUES (?, 'variants sync', ?, ?, ?, 0, 1, ?, ?, 0, 0)`);
  const statements = new Map();
  const prepare = (sql) => statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql);
  const addChange = db.prepare(`INSERT INTO changes (run, resource, id, parent, key, field, kind, before, after, outcome) VALUES (?, 'variant', ?, ?, ?, ?, 'update', ?, ?, 'confirmed')`);
  db.transaction(() => {
    for (let made = 0, r = 0; made < total; r++) {
      const at = new Date(Date.UTC(2026, 0, 1) + r * 3_600_000);
      const count = Math.min(perRun, total - made);
      const id = `01K${String(r).padStart(23, '0')}`;
      const n = addRun.run(id, JSON.stringify([`feed-${r}.csv`]), at.toISOString(), new Date(at.getTime() + 60_000).toISOString(), count, count).lastInsertRowid;
      runId ??= id;
      for (let i = 0; i < count; i++) {
        const v = i >> 1;
        const stock = i % 2 === 1;
        addChange.run(n, String(1_000_000 + v), String(10_000 + (v >> 2)), `SH-${v}`, stock ? 'stock' : 'price', stock ? String(r) : `"${r}.00"`, stock ? String(r + 1) : `"${r + 1}.00"`);
      }
      // As a sync's writer thread does (ledger/writer-thread.ts): its changes into the index history reads a slice
      // of INDEX_SLICE at a time, each a region of its own (100 a run, 10,000 in 10 million changes).
      // The run's seqs are made + 1 … made + count.
      for (let after = made; after < made + count; after += INDEX_SLICE) fillSubjects(prepare, Number(n), after, Math.min(after + INDEX_SLICE, made + count));
      made += count;
    }
  })();
  db.close();
  const size = statSync(path).size + (() => { try { return statSync(`${path}-wal`).size; } catch { return 0; } })();
  console.log(`ledger of ${total.toLocaleString('en')} changes built in ${((performance.now() - started) / 1000).toFixed(0)} s: ${(size / 1e6).toFixed(0)} MB`);
  return runId;
}

async function historyCost() {
  const path = join(work, 'big-ledger.db');
  bigLedger(path, CHANGES);
  const times = [];
  let found = 0;
  for (let i = 0; i < 21; i++) {
    const key = `SH-${(i * 7919) % 50_000}`;
    const t = performance.now();
    const ledger = Ledger.open(path);
    found = ledger.history(key).length;
    ledger.close();
    times.push(performance.now() - t);
  }
  console.log(`history of one SKU (${found} changes) in ${CHANGES.toLocaleString('en')}: open + query + close median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (21 SKUs)`);
  console.log(`$ STORE_LEDGER=… node bin/run.js history SH-4242 --json (the whole command, 10 runs)`);
  await measure({ a: { args: [BIN, 'history', 'SH-4242', '--json'], env: { STORE_LEDGER: path } }, runs: 10 });
  rmSync(path, { force: true });
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
}

async function showCost() {
  const path = join(work, 'show-ledger.db');
  const runId = bigLedger(path, 100_000);
  // A run of one change beside it: its first bytes are start-up alone, what the big run's are compared with.
  const ledger = Ledger.open(path);
  const tiny = ledger.startRun({ command: 'variants update', argv: [] });
  ledger.intend(tiny.n, [{ resource: 'variant', id: 1, parent: 1, key: 'T-1', field: 'price', kind: 'update', before: '1.00', after: '2.00' }]);
  ledger.endRun(tiny.n, 0);
  ledger.close();
  const show = (id, format) =>
    new Promise((resolve) => {
      const t = performance.now();
      let first;
      let bytes = 0;
      const child = spawn(process.execPath, [BIN, 'runs', 'show', id, ...format], { env: { ...process.env, STORE_LEDGER: path } });
      child.stdout.on('data', (d) => {
        first ??= performance.now() - t;
        bytes += d.length;
      });
      child.on('close', () => resolve({ first, bytes, all: performance.now() - t }));
    });
  for (const format of [[], ['--csv'], ['--json']]) {
    // Alternated, three of each, so the machine's load weighs on both alike.
    const big = [];
    const small = [];
    for (let i = 0; i < 3; i++) {
      big.push(await show(runId, format));
      small.push(await show(tiny.id, format));
    }
    const m = (list, key) => median(list.map((x) => x[key]));
    console.log(
      `runs show ${format[0] ?? '(text)'}: 100,000-change run first bytes after ${m(big, 'first').toFixed(0)} ms (all ${(big[0].bytes / 1e6).toFixed(1)} MB after ${m(big, 'all').toFixed(0)} ms); 1-change run first bytes after ${m(small, 'first').toFixed(0)} ms (medians of 3, alternated)`,
    );
  }
  console.log(`$ STORE_LEDGER=… node bin/run.js runs show RUN --json (the whole command, 5 runs: peak memory of a streamed 100,000-change run)`);
  await measure({ a: { args: [BIN, 'runs', 'show', runId, '--json'], env: { STORE_LEDGER: path } }, runs: 5 });
}

/**
 * 4. Undo of a 100 %-changed sync (price and stock of every variant): the requests it sends against the sync's
 *    (issue 28: at most 1.05 ×), both through the real services with the ledger, against the bench store.
 */
async function undoCost() {
  const { store, skus } = await seededStore();
  const { runSync } = await import(new URL('services/catalog-files/sync/run-sync.js', dist).href);
  const { runUndo } = await import(new URL('services/undo/run-undo.js', dist).href);
  const path = join(work, 'undo-ledger.db');
  const feed = join(work, 'undo-feed.csv');
  writeFileSync(feed, `sku,price,stock\n${skus.map((sku, i) => `${sku},${2000 + (i % 700)}.50,${100 + (i % 89)}`).join('\n')}\n`);
  const client = () => createClient({ apiUrl: store.url, storeId: store.storeId, token: store.token, appName: 'bench', appId: 'bench' });
  const count = () => ({ reads: store.requests.filter((r) => r.method === 'GET').length, writes: store.requests.filter((r) => r.method !== 'GET').length });
  store.requests.length = 0;
  const syncRecorder = new RunRecorder(() => Ledger.open(path), { command: 'variants sync', argv: [feed] });
  let t = performance.now();
  const synced = await runSync(client(), { apiUrl: store.url, storeId: store.storeId, file: feed, recorder: syncRecorder, env: { ...process.env, XDG_STATE_HOME: join(work, 'undo-state') } });
  syncRecorder.finish(0);
  const syncSeconds = (performance.now() - t) / 1000;
  const sync = count();
  store.requests.length = 0;
  const ledger = Ledger.open(path);
  const undoRecorder = new RunRecorder(() => Ledger.open(path), { command: 'undo', argv: [syncRecorder.runId], undoes: syncRecorder.runId });
  t = performance.now();
  const undone = await runUndo(client(), ledger, undoRecorder, { runId: syncRecorder.runId });
  undoRecorder.finish(0);
  ledger.close();
  const undo = count();
  const total = (c) => c.reads + c.writes;
  console.log(`sync of ${skus.length} variants (price and stock, ${synced.updated} updated): ${total(sync)} requests (${sync.reads} reads, ${sync.writes} writes), ${syncSeconds.toFixed(0)} s`);
  console.log(`undo of it (${undone.reverted.length} fields back, ${undone.failures.length} failed): ${total(undo)} requests (${undo.reads} reads, ${undo.writes} writes), ${((performance.now() - t) / 1000).toFixed(0)} s`);
  console.log(`undo / sync: requests ${(total(undo) / total(sync)).toFixed(3)}, writes ${(undo.writes / sync.writes).toFixed(3)}`);
  await store.close();
}

try {
  if (ONLY === 'undo') await undoCost();
  if (!ONLY || ONLY === 'show') await showCost();
  if (!ONLY || ONLY === 'history') await historyCost();
  if (!ONLY || ONLY === 'sync') await syncCost();
} finally {
  rmSync(work, { recursive: true, force: true });
}
