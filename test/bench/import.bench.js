// Bulk import at the rate limit: N products into an empty sandbox at the standard rate (bucket 40, leak 2/s)
// and at ×10 (400, 20/s, plan "next"). Prints requests/s achieved overall and once the bucket is full, against
// the leak rate, and the 429s met (the client's scheduler should meet none). Runs the built dist/ in process.
// BENCH_IMPORT_N / BENCH_IMPORT_N10 change the sizes (defaults keep the whole bench under a minute).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = new URL('../../dist/', import.meta.url);
const { startSandbox } = await import(new URL('sandbox/index.js', dist).href);
const { createClient } = await import(new URL('client/index.js', dist).href);
const { runImport } = await import(new URL('services/import/index.js', dist).href);

function catalog(n) {
  const lines = ['handle,name,sku,price,stock'];
  for (let i = 1; i <= n; i++) lines.push(`bench-${i},Bench ${i},B-${i},${100 + i},${i % 9}`);
  return `${lines.join('\n')}\n`;
}

async function run(label, n, rate, plan) {
  const dir = mkdtempSync(join(tmpdir(), 'import-bench-'));
  const file = join(dir, 'catalog.csv');
  writeFileSync(file, catalog(n));
  // The sandbox's default bucket, multiplied by 10 by the plan itself for next/evolution.
  const sandbox = await startSandbox({ seed: 'empty', plan });
  const sentAt = [];
  const client = createClient({
    apiUrl: sandbox.apiUrl,
    storeId: sandbox.storeId,
    token: sandbox.accessToken,
    appName: sandbox.appName,
    appId: sandbox.clientId,
    debug: (line) => {
      if (line.startsWith('→ ')) sentAt.push(performance.now());
    },
  });
  const started = performance.now();
  const summary = await runImport(client, { file, apiUrl: sandbox.apiUrl, storeId: sandbox.storeId, env: { XDG_STATE_HOME: join(dir, 'state') } });
  const seconds = (performance.now() - started) / 1000;
  await sandbox.close();
  const capacity = rate.capacity;
  // The pace once the burst has drained the bucket's room: the last quarter of the requests.
  const from = Math.max(capacity, Math.floor(sentAt.length * 0.75));
  const steady = sentAt.length > from + 1 ? (sentAt.length - from - 1) / ((sentAt.at(-1) - sentAt[from]) / 1000) : NaN;
  console.log(
    `${label.padEnd(26)} ${String(n).padStart(4)} products  ${String(summary.requests).padStart(4)} requests  ${seconds.toFixed(1).padStart(5)} s  ` +
      `${(summary.requests / seconds).toFixed(2).padStart(6)} req/s overall  ${steady.toFixed(2).padStart(6)} req/s at the end (leak ${rate.leakPerSecond}/s)  ` +
      `${summary.rateLimited} × 429  created ${summary.created}`,
  );
}

const n = Number(process.env.BENCH_IMPORT_N ?? 100);
const n10 = Number(process.env.BENCH_IMPORT_N10 ?? 600);
await run('standard (40, 2/s)', n, { capacity: 40, leakPerSecond: 2 }, 'enterprise');
await run('×10 plan next (400, 20/s)', n10, { capacity: 400, leakPerSecond: 20 }, 'next');
