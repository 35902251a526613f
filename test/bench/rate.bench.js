// Throughput of the HTTP core against the sandbox's real leaky bucket: how close a burst of requests gets to
// the best the bucket allows (capacity at once, then the leak rate), and how many 429s it meets on the way.
// Best possible time for N requests on a fresh bucket: max(0, N − capacity) / leak seconds.
import { createClient } from '../../dist/client/index.js';
import { startSandbox } from '../../dist/sandbox/index.js';

async function measure({ plan, requests, concurrency }) {
  const sandbox = await startSandbox({ seed: 'empty', plan });
  try {
    const client = createClient({
      apiUrl: sandbox.apiUrl,
      storeId: sandbox.storeId,
      token: sandbox.accessToken,
      appName: sandbox.appName,
      appId: sandbox.clientId,
    });
    const first = await client.request({ method: 'GET', path: '/store' });
    const capacity = Number(first.headers['x-rate-limit-limit']);
    // Both of the spec's buckets drain in 20 s (40 at 2/s, 400 at 20/s).
    const leak = capacity / 20;
    const start = process.hrtime.bigint();
    let next = 0;
    const worker = async () => {
      while (next < requests) {
        next++;
        await client.request({ method: 'GET', path: '/locations' });
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    // One request was already in the bucket before the clock started.
    const best = Math.max(0, requests + 1 - capacity) / leak;
    const stats = client.stats();
    return { plan, capacity, leak, requests, concurrency, seconds, best, stats };
  } finally {
    await sandbox.close();
  }
}

const cases = [
  { plan: 'enterprise', requests: Number(process.env.BENCH_RATE_REQUESTS ?? 80), concurrency: 16 },
  { plan: 'next', requests: Number(process.env.BENCH_RATE_REQUESTS_X10 ?? 800), concurrency: 32 },
];
for (const c of cases) {
  const r = await measure(c);
  const sustained = r.requests > r.capacity ? (r.requests - r.capacity) / Math.max(0.001, r.seconds) : NaN;
  console.log(
    `plan ${r.plan.padEnd(10)} bucket ${r.capacity}/${r.leak} per s: ${r.requests} GETs, ${r.concurrency} in flight → ` +
      `${r.seconds.toFixed(1)} s (best possible ${r.best.toFixed(1)} s, ${((r.best / r.seconds) * 100).toFixed(0)}%), ` +
      `sustained ${sustained.toFixed(2)} req/s after the burst, ${r.stats.rateLimited} × 429, ${r.stats.retries} retries, ` +
      `${r.stats.requests} sent`,
  );
}
