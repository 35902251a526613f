// Fleets (issue 33; figures in docs/benchmarks.md "Fleets").
//
// 1. `variants sync` of every variant, every stock and price changed, on local stores at the platform's rate
//    (test/helpers/bulk-store-server.ts, each with its own store id and a bucket of 40 leaking 2/s): one store alone (`store variants sync FEED`), then
//    BENCH_FLEET_STORES stores at once (`store variants sync {feed} --fleet stores.csv --concurrency N`). Printed:
//    the wall time of each, their ratio, the 429s every store met (from --results-dir), and the peak memory of the
//    fleet — the sum over its processes (the parent and every store's) sampled every 250 ms, and the largest one.
// 2. A sharded read over BENCH_FLEET_SHARD_STORES stores in 4 shards (`orders list --all-profiles --shard i/4
//    --results-dir`), then the same unsharded: every store exactly once, and `store fleet merge` of the shards equal
//    to the unsharded run's (seconds aside).
//
// BENCH_FLEET_STORES (default 20), BENCH_FLEET_VARIANTS (default 10,000 a store, 5 per product),
// BENCH_FLEET_SHARD_STORES (default 100), BENCH_FLEET_ONLY=sync|shards.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const dist = new URL('../../dist/', import.meta.url);
const { startSandbox } = await import(new URL('sandbox/index.js', dist).href);

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const STORES = Number(process.env.BENCH_FLEET_STORES ?? 20);
const VARIANTS = Number(process.env.BENCH_FLEET_VARIANTS ?? 10_000);
const SHARD_STORES = Number(process.env.BENCH_FLEET_SHARD_STORES ?? 100);
const ONLY = process.env.BENCH_FLEET_ONLY;
const SIZES = ['XS', 'S', 'M', 'L', 'XL'];
const PRODUCTS = Math.ceil(VARIANTS / SIZES.length);
const work = mkdtempSync(join(tmpdir(), 'fleet-bench-'));
const cores = (await import('node:os')).availableParallelism();

// The store is TypeScript (a test helper): transpiled on the fly, it imports only node:http and node:net.
const source = readFileSync(new URL('../helpers/bulk-store-server.ts', import.meta.url), 'utf8');
const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
writeFileSync(join(work, 'bulk-store-server.mjs'), js);
const { startBulkStore } = await import(join(work, 'bulk-store-server.mjs'));

/** Runs the CLI asynchronously (the stores answer from this process meanwhile), sampling the memory of its tree. */
function run(args, env) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let peakSum = 0;
    let peakOne = 0;
    const cpu = new Map();
    const sample = setInterval(() => {
      const rss = treeRss(child.pid, cpu);
      peakSum = Math.max(peakSum, rss.sum);
      peakOne = Math.max(peakOne, rss.max);
    }, 250);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      clearInterval(sample);
      // CPU seconds of the whole tree, as last seen per process (clock ticks of 1/100 s).
      const cpuSeconds = [...cpu.values()].reduce((n, t) => n + t, 0) / 100;
      resolve({ code, out, err, seconds: (performance.now() - started) / 1000, peakSumMb: peakSum / 1024, peakOneMb: peakOne / 1024, cpuSeconds });
    });
  });
}

/** The resident memory (kB) of a process and every descendant: their sum and the largest; their CPU ticks into `cpu`. */
function treeRss(root, cpu) {
  const parent = new Map();
  const rss = new Map();
  const ticks = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      parent.set(Number(name), Number(/PPid:\s+(\d+)/.exec(status)?.[1]));
      rss.set(Number(name), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks.set(Number(name), Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone meanwhile
    }
  }
  let sum = 0;
  let max = 0;
  for (const [pid, kb] of rss) {
    let p = pid;
    while (p && p !== root && p !== 1) p = parent.get(p);
    if (p !== root) continue;
    cpu.set(pid, Math.max(cpu.get(pid) ?? 0, ticks.get(pid) ?? 0));
    sum += kb;
    max = Math.max(max, kb);
  }
  return { sum, max };
}

/** A store of its own id holding VARIANTS variants (created through its POST /products), then at the platform's rate. */
async function seededStore(i) {
  const store = await startBulkStore({ storeId: 5000 + i });
  const headers = { authentication: `bearer ${store.token}`, 'content-type': 'application/json' };
  const post = (p) =>
    fetch(`${store.url}/v1/${store.storeId}/products`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: { es: `Remera ${p}` },
        handle: { es: `remera-${p}` },
        attributes: [{ es: 'Talle' }],
        variants: SIZES.map((size) => ({ values: [{ es: size }], sku: `SH-${p}-${size}`, price: '100.00', stock: 5 })),
      }),
    }).then((r) => {
      if (r.status !== 201) throw new Error(`seeding: POST /products answered ${r.status}`);
    });
  for (let p = 1; p <= PRODUCTS; p += 20) await Promise.all(Array.from({ length: Math.min(20, PRODUCTS - p + 1) }, (_, k) => post(p + k)));
  store.requests.length = 0;
  store.rate = { capacity: 40, leakPerSecond: 2 };
  return store;
}

function feedOf(i, round) {
  const lines = ['sku,stock,price'];
  for (let p = 1; p <= PRODUCTS; p++) for (const [k, size] of SIZES.entries()) lines.push(`SH-${p}-${size},${10 + round * 7 + i + k},${101 + round + i}.${String(p % 100).padStart(2, '0')}`);
  return `${lines.join('\n')}\n`;
}

function fleetEnvOf(stores, name) {
  const dir = join(work, name);
  mkdirSync(join(dir, 'config', 'store'), { recursive: true });
  const profiles = Object.fromEntries(
    stores.map((s, i) => [`s${i}`, { store_id: String(s.storeId), api_url: s.apiUrl ?? s.url, app_name: s.appName ?? 'Fleet Bench', app_id: s.clientId ?? '77', scopes: [], secrets_store: 'file' }]),
  );
  writeFileSync(join(dir, 'config', 'store', 'config.json'), JSON.stringify({ profiles }));
  return {
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
    STORE_TOKEN: '',
    STORE_ID: '',
    ...Object.fromEntries(stores.map((s, i) => [`STORE_TOKEN_S${i}`, s.accessToken ?? s.token])),
  };
}

function resultsOf(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
}

async function syncBench() {
  console.log(`${STORES} stores of ${PRODUCTS * SIZES.length} variants (${PRODUCTS} products) each, at 40 + 2/s each…`);
  const alone = await seededStore(STORES);
  writeFileSync(join(work, 'alone.csv'), feedOf(0, 1));
  const aloneEnv = { ...fleetEnvOf([alone], 'alone'), STORE_TOKEN: alone.token, STORE_ID: String(alone.storeId), STORE_API_URL: alone.url, STORE_APP_NAME: 'Fleet Bench', STORE_APP_ID: '77' };
  const one = await run(['variants', 'sync', join(work, 'alone.csv'), '--json'], aloneEnv);
  await alone.close();
  if (one.code !== 0) throw new Error(`one store alone: exit ${one.code}\n${one.err.slice(-2000)}`);
  const oneSummary = JSON.parse(one.out);
  console.log(`one store alone:  ${one.seconds.toFixed(1)} s wall, ${one.cpuSeconds.toFixed(1)} s CPU, ${oneSummary.requests} requests (${oneSummary.retries} retries), ${alone.rateLimited} × 429 answered, peak ${one.peakOneMb.toFixed(0)} MB`);

  const stores = await Promise.all(Array.from({ length: STORES }, (_, i) => seededStore(i)));
  const env = fleetEnvOf(stores, 'fleet');
  const lines = ['profile,feed'];
  stores.forEach((_, i) => {
    writeFileSync(join(work, `feed-${i}.csv`), feedOf(i, 1));
    lines.push(`s${i},${join(work, `feed-${i}.csv`)}`);
  });
  writeFileSync(join(work, 'stores.csv'), `${lines.join('\n')}\n`);
  const results = join(work, 'results');
  const fleet = await run(['variants', 'sync', '{feed}', '--fleet', join(work, 'stores.csv'), '--yes', '--quiet', '--concurrency', String(STORES), '--results-dir', results], env);
  for (const s of stores) await s.close();
  const per = resultsOf(results);
  const limited = stores.reduce((n, s) => n + s.rateLimited, 0);
  const requests = per.reduce((n, r) => n + r.requests, 0);
  const slowest = Math.max(...per.map((r) => r.seconds));
  console.log(
    `${STORES} stores at once: ${fleet.seconds.toFixed(1)} s wall (exit ${fleet.code}; slowest store ${slowest.toFixed(1)} s), ${fleet.cpuSeconds.toFixed(1)} s CPU, ${requests} requests, ${limited} × 429 answered, ` +
      `peak ${fleet.peakSumMb.toFixed(0)} MB summed over the fleet's processes (largest one ${fleet.peakOneMb.toFixed(0)} MB)`,
  );
  console.log(`ratio: ${(fleet.seconds / one.seconds).toFixed(2)} × one store alone (target ≤ 1.2); the fleet's CPU over ${cores} cores alone takes ${(fleet.cpuSeconds / cores).toFixed(1)} s`);
  if (fleet.code !== 0) console.log(fleet.err.slice(-3000));
}

async function shardBench() {
  console.log(`\nStarting ${SHARD_STORES} demo stores…`);
  const stores = await Promise.all(Array.from({ length: SHARD_STORES }, () => startSandbox({ seed: 'demo', host: '127.0.0.1', port: 0 })));
  const env = fleetEnvOf(stores, 'shards');
  const args = ['orders', 'list', '--all-profiles', '--status', 'open', '--limit', '20', '--concurrency', '8'];
  const sharded = join(work, 'sharded');
  const seen = [];
  for (let i = 1; i <= 4; i++) {
    const shard = await run([...args, '--shard', `${i}/4`, '--results-dir', sharded], env);
    const ran = resultsOf(sharded).filter((r) => r.shard === `${i}/4`);
    seen.push(...ran.map((r) => r.store));
    console.log(`shard ${i}/4: ${ran.length} stores, ${shard.seconds.toFixed(1)} s wall, exit ${shard.code}, peak ${shard.peakSumMb.toFixed(0)} MB summed`);
  }
  const whole = join(work, 'whole');
  const unsharded = await run([...args, '--results-dir', whole], env);
  console.log(`unsharded: ${SHARD_STORES} stores, ${unsharded.seconds.toFixed(1)} s wall, exit ${unsharded.code}`);
  const merged = await run(['fleet', 'merge', sharded, '--json'], env);
  const mergedWhole = await run(['fleet', 'merge', whole, '--json'], env);
  const comparable = (text) => JSON.stringify(JSON.parse(text).map(({ seconds, shard, ...rest }) => rest));
  const once = seen.length === SHARD_STORES && new Set(seen).size === SHARD_STORES;
  console.log(`every store exactly once: ${once ? 'yes' : `NO (${seen.length} runs, ${new Set(seen).size} stores)`}`);
  console.log(`merged summary equals the unsharded run's: ${comparable(merged.out) === comparable(mergedWhole.out) ? 'yes' : 'NO'} (merge exit ${merged.code})`);
  for (const s of stores) await s.close();
}

try {
  if (ONLY !== 'shards') await syncBench();
  if (ONLY !== 'sync') await shardBench();
} finally {
  rmSync(work, { recursive: true, force: true });
}
