// Throughput of the HTTP core against the sandbox's real leaky bucket.
//
// Efficiency = requests answered 2xx ÷ the most the bucket allows in the same time (capacity + leak × seconds,
// measured from the first request sent to the last answer). Cases:
// - one client, bucket 40 at 20/s (about 20 s);
// - two clients in two processes sharing that bucket (same store and app, so each sees the other's requests
//   only through the x-rate-limit-* headers), started together;
// - one client on the standard bucket (40, 2/s) and on a ×10 plan learned from the headers alone (400, 20/s).
// Every request must end 2xx: "lost" counts those that did not.
//
// `node test/bench/rate.bench.js worker SPEC_JSON` is the child side of the two-client case.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from '../../dist/client/index.js';
import { startSandbox } from '../../dist/sandbox/index.js';

/** Sends `requests` GETs with `concurrency` in flight from `startAt` (epoch ms); answers with the figures. */
async function drive({ apiUrl, storeId, token, appName, appId, requests, concurrency, startAt }) {
  const client = createClient({ apiUrl, storeId, token, appName, appId });
  if (startAt > Date.now()) await new Promise((resolve) => setTimeout(resolve, startAt - Date.now()));
  const started = Date.now();
  let next = 0;
  let ok = 0;
  let lost = 0;
  const worker = async () => {
    while (next < requests) {
      next++;
      try {
        const response = await client.request({ method: 'GET', path: '/locations' });
        if (response.status < 300) ok++;
        else lost++;
      } catch {
        lost++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { started, ended: Date.now(), ok, lost, ...client.stats() };
}

if (process.argv[2] === 'worker') {
  const result = await drive(JSON.parse(process.argv[3]));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

function runWorker(spec) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'worker', JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`worker exited ${code}`))));
  });
}

async function measure({ label, sandboxOptions, clients, requests, concurrency }) {
  const sandbox = await startSandbox({ seed: 'empty', ...sandboxOptions });
  try {
    const spec = {
      apiUrl: sandbox.apiUrl,
      storeId: sandbox.storeId,
      token: sandbox.accessToken,
      appName: sandbox.appName,
      appId: sandbox.clientId,
      concurrency,
      requests: Math.ceil(requests / clients),
      // Child processes take a moment to load; they all start at this instant so they meet the same bucket.
      startAt: Date.now() + (clients > 1 ? 1500 : 0),
    };
    const results = clients > 1 ? await Promise.all(Array.from({ length: clients }, () => runWorker(spec))) : [await drive(spec)];
    const high = sandboxOptions.plan === 'next' || sandboxOptions.plan === 'evolution';
    const { capacity, leakPerSecond: leak } = sandboxOptions.rate ?? (high ? { capacity: 400, leakPerSecond: 20 } : { capacity: 40, leakPerSecond: 2 });
    const started = Math.min(...results.map((r) => r.started));
    const seconds = (Math.max(...results.map((r) => r.ended)) - started) / 1000;
    const ok = results.reduce((n, r) => n + r.ok, 0);
    const lost = results.reduce((n, r) => n + r.lost, 0);
    const rateLimited = results.reduce((n, r) => n + r.rateLimited, 0);
    const allowed = capacity + leak * seconds;
    console.log(
      `${label.padEnd(44)} ${String(ok).padStart(4)} ok in ${seconds.toFixed(1).padStart(4)} s; ` +
        `the bucket allows ${allowed.toFixed(0)} → efficiency ${(ok / allowed).toFixed(3)}; ` +
        `${rateLimited} × 429, ${lost} lost` +
        (clients > 1 ? ` (per client: ${results.map((r) => `${r.ok} ok, ${r.rateLimited} × 429`).join('; ')})` : ''),
    );
  } finally {
    await sandbox.close();
  }
}

const fast = { capacity: 40, leakPerSecond: 20 };
const cases = [
  // 40 + 20 × 20 s = 440 requests fit in 20 s.
  { label: 'one client, bucket 40 at 20/s', sandboxOptions: { rate: fast }, clients: 1, requests: 440, concurrency: 16 },
  { label: 'two clients (two processes), bucket 40 at 20/s', sandboxOptions: { rate: fast }, clients: 2, requests: 440, concurrency: 16 },
  { label: 'one client, standard bucket 40 at 2/s', sandboxOptions: {}, clients: 1, requests: 80, concurrency: 16 },
  { label: 'one client, plan next (400 at 20/s, learned)', sandboxOptions: { plan: 'next' }, clients: 1, requests: 800, concurrency: 32 },
];
const only = process.env.BENCH_RATE_CASES?.split(',').map(Number);
for (const [index, c] of cases.entries()) {
  if (only && !only.includes(index + 1)) continue;
  await measure(c);
}
