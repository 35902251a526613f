// The run ledger's cost (issue 28; figures in docs/benchmarks.md "Run ledger").
//
// 1. A `variants sync` of 100,000 variants, every stock changed, against test/helpers/bulk-store-server.ts with no
//    rate limit: with the ledger against a record that keeps nothing. Each run is its own process
//    (test/bench/ledger-sync.js); with farm-bench on PATH the two alternate under it (wall time, peak memory,
//    the ratio pair by pair), else each runs three times, timed here.
// 2. `store history SKU` on a ledger of 10 million changes: the ledger's own query (open, read, close) timed here,
//    and the whole command through farm-bench.
// 3. `store runs show RUN` of a 100,000-change run: when its first line and its last arrive.
//
// BENCH_BULK_PRODUCTS (default 20,000 × 5 variants), BENCH_LEDGER_CHANGES (default 10,000,000) change the sizes;
// BENCH_LEDGER_ONLY=sync|history|show runs one part.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const dist = new URL('../../dist/', import.meta.url);
const { createClient } = await import(new URL('client/index.js', dist).href);
const { runImport } = await import(new URL('services/catalog-files/import/run-import.js', dist).href);
const { RunRecorder } = await import(new URL('ledger/recorder.js', dist).href);
const { Ledger } = await import(new URL('ledger/store.js', dist).href);

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const SYNC = fileURLToPath(new URL('./ledger-sync.js', import.meta.url));
const PRODUCTS = Number(process.env.BENCH_BULK_PRODUCTS ?? 20_000);
const CHANGES = Number(process.env.BENCH_LEDGER_CHANGES ?? 10_000_000);
const ONLY = process.env.BENCH_LEDGER_ONLY;
const SIZES = ['XS', 'S', 'M', 'L', 'XL'];
const work = mkdtempSync(join(tmpdir(), 'ledger-bench-'));
const hasFarmBench = spawnSync('sh', ['-c', 'command -v farm-bench'], { encoding: 'utf8' }).status === 0;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs a command asynchronously (the store answers from this process meanwhile); resolves to its output. */
function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

async function syncCost() {
  const source = readFileSync(new URL('../helpers/bulk-store-server.ts', import.meta.url), 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  writeFileSync(join(work, 'bulk-store-server.mjs'), js);
  const { startBulkStore } = await import(join(work, 'bulk-store-server.mjs'));
  const store = await startBulkStore();
  const lines = ['handle,name,option1_name,option1_value,sku,price,stock'];
  const skus = [];
  for (let p = 1; p <= PRODUCTS; p++) {
    for (const [i, size] of SIZES.entries()) {
      lines.push(`${i === 0 ? `shirt-${p},Shirt ${p}` : `shirt-${p},`},Size,${size},SH-${p}-${size},${1000 + (p % 500)}.00,${(p + i) % 50}`);
      skus.push(`SH-${p}-${size}`);
    }
  }
  writeFileSync(join(work, 'catalog.csv'), `${lines.join('\n')}\n`);
  writeFileSync(join(work, 'skus.json'), JSON.stringify(skus));
  const client = createClient({ apiUrl: store.url, storeId: store.storeId, token: store.token, appName: 'bench', appId: 'bench' });
  const seedLedger = join(work, 'seed-ledger.db');
  const recorder = new RunRecorder(() => Ledger.open(seedLedger), { command: 'products import', argv: [] });
  const started = performance.now();
  await runImport(client, { apiUrl: store.url, storeId: store.storeId, file: join(work, 'catalog.csv'), recorder, env: { ...process.env, XDG_STATE_HOME: join(work, 'seed-state') } });
  recorder.finish(0);
  console.log(`store seeded: ${PRODUCTS} products, ${skus.length} variants (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  // Every run is its own sync of every variant; the store's log of requests is not what is measured.
  store.requests.length = 0;
  const args = (mode) => [SYNC, store.url, String(store.storeId), store.token, work, mode];
  if (hasFarmBench) {
    const none = ['node', ...args('none')].map((a) => `'${a}'`).join(' ');
    console.log(`$ farm-bench -n 5 --timeout 3600 --vs "node ledger-sync.js … none" -- node ledger-sync.js … ledger`);
    const { out } = await run('farm-bench', ['-n', '5', '--timeout', '3600', '--vs', none, '--', 'node', ...args('ledger')]);
    console.log(out.trim());
  } else {
    const times = { ledger: [], none: [] };
    for (let i = 0; i < 3; i++) {
      for (const mode of ['ledger', 'none']) {
        const t = performance.now();
        const { code, out } = await run(process.execPath, args(mode));
        if (code !== 0) throw new Error(out);
        times[mode].push((performance.now() - t) / 1000);
      }
    }
    const [a, b] = [median(times.ledger), median(times.none)];
    console.log(`sync 100 % of ${skus.length} variants: ledger ${a.toFixed(1)} s, none ${b.toFixed(1)} s, ratio ${(a / b).toFixed(3)} (median of 3; farm-bench not found)`);
  }
  console.log(`ledger file after the runs: ${(statSync(join(work, 'ledger.db')).size / 1e6).toFixed(1)} MB`);
  await store.close();
}

/** A ledger of `total` changes: runs of 100,000 variant changes (price and stock of 50,000 SKUs), as a sync records them. */
function bigLedger(path, total) {
  const ledger = Ledger.open(path);
  const perRun = 100_000;
  const started = performance.now();
  let runId;
  for (let made = 0, r = 0; made < total; r++) {
    const run = ledger.startRun({ command: 'variants sync', argv: [`feed-${r}.csv`] }, new Date(Date.UTC(2026, 0, 1) + r * 3_600_000));
    runId ??= run.id;
    for (let batch = 0; batch < perRun && made < total; batch += 100) {
      const changes = [];
      for (let i = 0; i < 100; i++) {
        const n = (batch + i) >> 1;
        changes.push({ resource: 'variant', id: 1_000_000 + n, parent: 10_000 + (n >> 2), key: `SH-${n}`, field: i % 2 ? 'stock' : 'price', kind: 'update', before: i % 2 ? r : `${r}.00`, after: i % 2 ? r + 1 : `${r + 1}.00` });
      }
      const first = ledger.intend(run.n, changes);
      ledger.settleRange(first, first + changes.length - 1, 'confirmed');
      made += changes.length;
    }
    ledger.endRun(run.n, 0);
  }
  ledger.close();
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
  if (hasFarmBench) {
    console.log(`$ STORE_LEDGER=… farm-bench -n 10 -- node bin/run.js history SH-4242 --json`);
    const { out } = await run('farm-bench', ['-n', '10', '--', 'node', BIN, 'history', 'SH-4242', '--json'], { STORE_LEDGER: path });
    console.log(out.trim());
  }
  rmSync(path, { force: true });
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
}

async function showCost() {
  const path = join(work, 'show-ledger.db');
  const runId = bigLedger(path, 100_000);
  for (const format of [[], ['--csv'], ['--json']]) {
    const t = performance.now();
    let first;
    let bytes = 0;
    await new Promise((resolve) => {
      const child = spawn(process.execPath, [BIN, 'runs', 'show', runId, ...format], { env: { ...process.env, STORE_LEDGER: path } });
      child.stdout.on('data', (d) => {
        first ??= performance.now() - t;
        bytes += d.length;
      });
      child.on('close', resolve);
    });
    console.log(`runs show of a 100,000-change run ${format[0] ?? '(text)'}: first bytes after ${first.toFixed(0)} ms, all ${(bytes / 1e6).toFixed(1)} MB after ${(performance.now() - t).toFixed(0)} ms`);
  }
  if (hasFarmBench) {
    console.log(`$ STORE_LEDGER=… farm-bench -n 5 -- node bin/run.js runs show RUN --json (peak memory of a streamed 100,000-change run)`);
    const { out } = await run('farm-bench', ['-n', '5', '--', 'sh', '-c', `exec node ${BIN} runs show ${runId} --json > /dev/null`], { STORE_LEDGER: path });
    console.log(out.trim());
  }
}

try {
  if (!ONLY || ONLY === 'show') await showCost();
  if (!ONLY || ONLY === 'history') await historyCost();
  if (!ONLY || ONLY === 'sync') await syncCost();
} finally {
  rmSync(work, { recursive: true, force: true });
}
