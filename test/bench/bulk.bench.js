// Bulk jobs at the platform's minimum request count (issue 20).
//
// Each job runs the real service (dist/) against test/helpers/bulk-store-server.ts — the store written from
// docs/platform.md §8 alone, without a rate limit — and counts the requests it receives. Printed per job: the
// writes and reads sent, the documented minimum (worked out here from the job, not from the plan), and the time
// those requests take at the standard bucket (40, leaking 2/s) and at ×10 (400, 20/s): a burst of the capacity,
// then the leak rate. Targets: within 1 % of the minimum; a 100 %-changed sync of 100,000 variants ≤ 2,100.
//
//   new catalog   20,000 products × 5 variants into an empty store
//   re-import     the same file with 10 % of the prices changed
//   sync 1 %      `variants sync` of the 100,000 SKUs, 1 % of them with another stock
//   sync 100 %    the same, every stock changed
//
// BENCH_BULK_PRODUCTS changes the size (default 20,000).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';

const dist = new URL('../../dist/', import.meta.url);
const { createClient } = await import(new URL('client/index.js', dist).href);
const { runImport } = await import(new URL('services/catalog-files/import/run-import.js', dist).href);
const { runSync } = await import(new URL('services/catalog-files/sync/run-sync.js', dist).href);
const { RunRecorder } = await import(new URL('ledger/recorder.js', dist).href);
const { Ledger } = await import(new URL('ledger/store.js', dist).href);

const dir = mkdtempSync(join(tmpdir(), 'bulk-bench-'));

// The store is TypeScript (a test helper): transpiled on the fly, it imports only node:http and node:net.
const source = readFileSync(new URL('../helpers/bulk-store-server.ts', import.meta.url), 'utf8');
const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
writeFileSync(join(dir, 'bulk-store-server.mjs'), js);
const { startBulkStore } = await import(join(dir, 'bulk-store-server.mjs'));

const PRODUCTS = Number(process.env.BENCH_BULK_PRODUCTS ?? 20_000);
const SIZES = ['XS', 'S', 'M', 'L', 'XL'];
const VARIANTS = PRODUCTS * SIZES.length;
const PAGE = 200;

function catalog(priceOf) {
  const lines = ['handle,name,categories,option1_name,option1_value,sku,price,stock'];
  for (let p = 1; p <= PRODUCTS; p++) {
    for (const [i, size] of SIZES.entries()) {
      const head = i === 0 ? `shirt-${p},Shirt ${p},Ropa > Camisas` : `shirt-${p},,`;
      lines.push(`${head},Size,${size},SH-${p}-${size},${priceOf(p, i)},${(p + i) % 50}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function feed(changed) {
  const lines = ['sku,stock'];
  for (let p = 1; p <= PRODUCTS; p++) {
    for (const [i, size] of SIZES.entries()) {
      const n = (p - 1) * SIZES.length + i;
      const stock = (p + i) % 50;
      lines.push(`SH-${p}-${size},${changed(n) ? stock + 100 : stock}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const store = await startBulkStore();
const client = createClient({ apiUrl: store.url, storeId: store.storeId, token: store.token, appName: 'bench', appId: 'bench' });
// The journal on tmpfs when there is one: its fsyncs are not what this measures.
const stateHome = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/bulk-bench-') : join(dir, 'state');
// Every write on the run ledger, as the commands record them (its cost: ledger.bench.js).
const recorder = new RunRecorder(() => Ledger.open(join(dir, 'ledger.db')), { command: 'bench', argv: [] });
const target = { apiUrl: store.url, storeId: store.storeId, recorder, env: { ...process.env, XDG_STATE_HOME: stateHome } };

/** Seconds `n` requests take through a bucket of `capacity` leaking `leak` a second: the burst, then the leak. */
const bucketSeconds = (n, capacity, leak) => Math.max(0, n - capacity) / leak;
const duration = (s) => (s < 120 ? `${s.toFixed(0)} s` : s < 7200 ? `${(s / 60).toFixed(1)} min` : `${(s / 3600).toFixed(1)} h`);

async function job(name, minimum, run) {
  const before = store.requests.length;
  const started = performance.now();
  const summary = await run();
  const seconds = (performance.now() - started) / 1000;
  const sent = store.requests.slice(before);
  const writes = sent.filter((r) => r.method !== 'GET').length;
  const reads = sent.length - writes;
  const total = writes + reads;
  const min = minimum.writes + minimum.reads;
  const over = ((total / min - 1) * 100).toFixed(2);
  console.log(
    `${name.padEnd(12)} requests ${String(total).padStart(6)} (${writes} writes + ${reads} reads)  minimum ${String(min).padStart(6)} (${minimum.writes} + ${minimum.reads})  +${over} %  ` +
      `at 40+2/s ${duration(bucketSeconds(total, 40, 2)).padStart(8)}  at ×10 ${duration(bucketSeconds(total, 400, 20)).padStart(8)}  ` +
      `(ran in ${seconds.toFixed(1)} s unpaced${summary.failed ? `, ${summary.failed} FAILED` : ''})`,
  );
}

const pages = Math.ceil(PRODUCTS / PAGE);
const newFile = join(dir, 'new.csv');
writeFileSync(newFile, catalog((p) => (1000 + (p % 500)).toFixed(2)));
// New catalog: GET /store, /locations, /categories, one (empty) products page; 2 categories; one POST per product.
await job('new catalog', { writes: 2 + PRODUCTS, reads: 4 }, () => runImport(client, { ...target, file: newFile }));

const changedEvery = 10;
const reFile = join(dir, 're-import.csv');
writeFileSync(reFile, catalog((p, i) => (((p - 1) * SIZES.length + i) % changedEvery === 0 ? 2000 + (p % 500) + 0.9 : 1000 + (p % 500)).toFixed(2)));
// Re-import: the same reads with every page of products; 10 % of the variants' prices, 50 per request.
await job('re-import', { writes: Math.ceil(VARIANTS / changedEvery / 50), reads: 3 + pages }, () => runImport(client, { ...target, file: reFile }));

for (const [name, every] of [
  ['sync 1 %', 100],
  ['sync 100 %', 1],
]) {
  const file = join(dir, `sync-${every}.csv`);
  writeFileSync(file, feed((n) => n % every === 0));
  // Sync: /locations and every products page; the changed stocks, 50 per request.
  await job(name, { writes: Math.ceil(VARIANTS / every / 50), reads: 1 + pages }, () => runSync(client, { ...target, file }));
  // Back to the catalog's stock for the next job.
  if (every !== 1) {
    writeFileSync(file, feed(() => false));
    await runSync(client, { ...target, file });
  }
}

recorder.finish(0);
await store.close();
rmSync(stateHome, { recursive: true, force: true });
rmSync(dir, { recursive: true, force: true });
