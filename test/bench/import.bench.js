// Bulk catalog import.
//
// 1. Planning at scale: a file of 100,000 variants (20,000 products × 5 sizes) against a sandbox without a
//    rate limit that already holds the same catalog. The real `store products import` runs as a child process;
//    it reads and validates the file, fetches the store's catalog (per_page 200), plans, and finds nothing to
//    send. Printed: its wall time and its peak resident memory (VmHWM, polled from /proc while it runs).
//    Targets: ≤ 15 s and ≤ 400 MB.
// 2. Writing at the rate limit: N products into an empty sandbox whose bucket is 40 at 20/s, and into a ×10 plan
//    (400 at 20/s) learned from the headers. Efficiency = requests sent ÷ the most the bucket allows in that time
//    (capacity + leak × seconds); reads count against the bucket like writes. Target ≥ 0.95.
//
// BENCH_IMPORT_VARIANTS, BENCH_IMPORT_N, BENCH_IMPORT_N10 change the sizes; BENCH_IMPORT_CASES=plan,rate picks cases.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = new URL('../../dist/', import.meta.url);
const { startSandbox } = await import(new URL('sandbox/index.js', dist).href);
const { createClient } = await import(new URL('client/index.js', dist).href);
const { runImport } = await import(new URL('services/catalog-files/import/run-import.js', dist).href);
const { RunRecorder } = await import(new URL('ledger/recorder.js', dist).href);
const { Ledger } = await import(new URL('ledger/store.js', dist).href);
const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

const SIZES = ['XS', 'S', 'M', 'L', 'XL'];

function simpleCatalog(n) {
  const lines = ['handle,name,sku,price,stock'];
  for (let i = 1; i <= n; i++) lines.push(`bench-${i},Bench ${i},B-${i},${100 + i},${i % 9}`);
  return `${lines.join('\n')}\n`;
}

/** Variant i (size) of product p: the same figures in the file and in the seeded store. */
function sizedVariant(p, i, size) {
  return { sku: `SH-${p}-${size}`, price: (1000 + (p % 500)).toFixed(2), stock: (p + i) % 50 };
}

function sizedCatalog(variants) {
  const lines = ['handle,name,categories,option1_name,option1_value,sku,price,stock'];
  const products = Math.ceil(variants / SIZES.length);
  for (let p = 1; p <= products; p++) {
    for (const [i, size] of SIZES.entries()) {
      if (lines.length > variants) break;
      const product = i === 0 ? `shirt-${p},Shirt ${p},Ropa > Camisas` : `shirt-${p},,`;
      const v = sizedVariant(p, i, size);
      lines.push(`${product},Size,${size},${v.sku},${v.price},${v.stock}`);
    }
  }
  return { text: `${lines.join('\n')}\n`, products };
}

function clientFor(sandbox) {
  return createClient({
    apiUrl: sandbox.apiUrl,
    storeId: sandbox.storeId,
    token: sandbox.accessToken,
    appName: sandbox.appName,
    appId: sandbox.clientId,
  });
}

/** Runs the real CLI; resolves with its exit code, output, wall time and peak RSS (VmHWM). */
function runCliMeasured(args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peakKb = 0;
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const poll = setInterval(() => {
      try {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (match) peakKb = Math.max(peakKb, Number(match[1]));
      } catch {
        // the process has just exited
      }
    }, 20);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poll);
      resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024 });
    });
  });
}

/** `store sandbox serve --json …` as a child process (its own core); resolves with its address and credentials and a stop(). */
function serveSandbox(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'sandbox', 'serve', '--json', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`sandbox serve exited ${code}`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!out.includes('\n')) return;
      child.removeAllListeners('exit');
      const info = JSON.parse(out.split('\n')[0]);
      const stop = () =>
        new Promise((done) => {
          child.once('exit', done);
          child.kill('SIGTERM');
        });
      // Named like a RunningSandbox of startSandbox, so clientFor serves both.
      resolve({
        apiUrl: info.api_url,
        storeId: info.store_id,
        accessToken: info.access_token,
        appName: info.app_name,
        clientId: info.client_id,
        stop,
      });
    });
  });
}

/**
 * A sandbox state dir holding the catalog of sizedCatalog(variants), created through the API (one POST per
 * product, one per variant, 64 in flight), then kept under the system's temp dir and replayed by later runs.
 * The key covers the sandbox's state code, so a change there seeds afresh.
 */
async function seededStateDir(variants) {
  const hash = createHash('sha256').update(String(variants)).update(sizedCatalog.toString()).update(sizedVariant.toString());
  for (const file of ['state.js', 'persistence.js', 'seed.js']) hash.update(readFileSync(new URL(`sandbox/${file}`, dist)));
  const dir = join(tmpdir(), `store-bench-catalog-${variants}-${hash.digest('hex').slice(0, 12)}`);
  if (existsSync(join(dir, 'seeded'))) {
    console.log(`the store's catalog: replayed from ${dir}`);
    return dir;
  }
  rmSync(dir, { recursive: true, force: true });
  const work = mkdtempSync(join(tmpdir(), 'import-bench-seed-'));
  const sandbox = await serveSandbox(['--seed', 'empty', '--rate', 'off', '--state', join(work, 'state')]);
  const client = clientFor(sandbox);
  const { id: categoryId } = (await client.post('/categories', { name: 'Ropa' })).body;
  const { id: childId } = (await client.post('/categories', { name: 'Camisas', parent: categoryId })).body;
  const started = performance.now();
  const products = Math.ceil(variants / SIZES.length);
  let next = 1;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next <= products) {
        const p = next++;
        const { id } = (await client.post('/products', { name: `Shirt ${p}`, handle: `shirt-${p}`, categories: [childId] })).body;
        for (const [i, size] of SIZES.entries()) {
          if ((p - 1) * SIZES.length + i >= variants) break;
          const v = sizedVariant(p, i, size);
          await client.post(`/products/${id}/variants`, { sku: v.sku, price: v.price, stock: v.stock, attributes: [{ name: 'Size', value: size }] });
        }
      }
    }),
  );
  await sandbox.stop();
  console.log(
    `the store's catalog: created through the API, ${products} products and ${variants} variants in ${client.stats().requests} requests, ` +
      `${((performance.now() - started) / 1000).toFixed(0)} s (no rate limit; kept in ${dir} for later runs)`,
  );
  writeFileSync(join(work, 'state', 'seeded'), '');
  renameSync(join(work, 'state'), dir);
  rmSync(work, { recursive: true, force: true });
  return dir;
}

async function planAtScale(variants) {
  const dir = mkdtempSync(join(tmpdir(), 'import-bench-plan-'));
  const file = join(dir, 'catalog.csv');
  const { text, products } = sizedCatalog(variants);
  writeFileSync(file, text);
  const stateDir = await seededStateDir(variants);
  // A copy, so the run leaves the cached state as it was.
  cpSync(stateDir, join(dir, 'sandbox'), { recursive: true });
  const sandbox = await serveSandbox(['--rate', 'off', '--state', join(dir, 'sandbox')]);
  try {
    const run = await runCliMeasured(['products', 'import', file, '--json', '--quiet'], {
      STORE_TOKEN: sandbox.accessToken,
      STORE_ID: String(sandbox.storeId),
      STORE_API_URL: sandbox.apiUrl,
      STORE_APP_NAME: sandbox.appName,
      STORE_APP_ID: sandbox.clientId,
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_STATE_HOME: join(dir, 'state'),
      XDG_DATA_HOME: join(dir, 'data'),
    });
    if (run.code !== 0) throw new Error(`import exited ${run.code}: ${run.stderr}`);
    const summary = JSON.parse(run.stdout);
    console.log(
      `re-import of ${variants} variants (${products} products) against the same catalog: ${run.seconds.toFixed(1)} s, ` +
        `peak RSS ${run.peakMb.toFixed(0)} MB (targets ≤ 15 s, ≤ 400 MB); ${summary.unchanged} unchanged, ` +
        `${summary.plannedWrites} writes planned, ${summary.requests} requests (list pages only)`,
    );
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function writeAtRate(label, n, sandboxOptions, bucket) {
  const dir = mkdtempSync(join(tmpdir(), 'import-bench-rate-'));
  const file = join(dir, 'catalog.csv');
  writeFileSync(file, simpleCatalog(n));
  const sandbox = await startSandbox({ seed: 'empty', ...sandboxOptions });
  try {
    const started = performance.now();
    const summary = await runImport(clientFor(sandbox), {
      file,
      apiUrl: sandbox.apiUrl,
      storeId: sandbox.storeId,
      recorder: new RunRecorder(() => Ledger.open(join(dir, 'ledger.db')), { command: 'products import', argv: [file] }),
      env: { XDG_STATE_HOME: join(dir, 'state') },
    });
    const seconds = (performance.now() - started) / 1000;
    const allowed = bucket.capacity + bucket.leakPerSecond * seconds;
    const writes = summary.created;
    console.log(
      `${label.padEnd(30)} ${String(n).padStart(4)} products: ${summary.requests} requests (${writes} writes) in ${seconds.toFixed(1)} s; ` +
        `the bucket allows ${allowed.toFixed(0)} → efficiency ${(summary.requests / allowed).toFixed(3)} (target ≥ 0.95); ` +
        `${(writes / seconds).toFixed(2)} writes/s; ${summary.rateLimited} × 429`,
    );
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const cases = (process.env.BENCH_IMPORT_CASES ?? 'plan,rate').split(',');
if (cases.includes('plan')) await planAtScale(Number(process.env.BENCH_IMPORT_VARIANTS ?? 100_000));
if (cases.includes('rate')) {
  // 40 + 20 × 20 s ≈ 440 requests: about 20 s.
  const fast = { capacity: 40, leakPerSecond: 20 };
  await writeAtRate('bucket 40 at 20/s', Number(process.env.BENCH_IMPORT_N ?? 420), { rate: fast }, fast);
  await writeAtRate('plan next (400 at 20/s)', Number(process.env.BENCH_IMPORT_N10 ?? 600), { plan: 'next' }, { capacity: 400, leakPerSecond: 20 });
}
