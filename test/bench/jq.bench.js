// `--jq` against `--json | jq` (the system's jq), whole-process wall time, on 100 and on 10,000 orders.
// Target (issue 23): `store orders list --jq F` within 1.5× of `store orders list --json | jq -r F`.
//
// The orders are the demo sandbox's 100 (as its API sends them), copied with new ids and numbers up to N and
// served by a small recorded-pages server on loopback (pages of 200, x-total-count, no rate limit), so that both
// sides fetch exactly the same pages and the difference is the filtering. Runs alternate A B A B; medians.
// BENCH_RUNS (default 5), BENCH_SIZES (default "100,10000"), BENCH_TIMEOUT_S per run (default 120).
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 5);
const sizes = (process.env.BENCH_SIZES ?? '100,10000').split(',').map(Number);
const timeoutMs = Number(process.env.BENCH_TIMEOUT_S ?? 120) * 1000;
const filter = '[.[] | select(.payment_status == "paid") | .number] | length';

if (spawnSync('jq', ['--version']).status !== 0) {
  console.log('skipped: jq is not installed (apt-get install jq)');
  process.exit(0);
}

const { startSandbox } = await import('../../dist/sandbox/index.js');
const sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
const demo = await (
  await fetch(`${sandbox.apiUrl}/v1/${sandbox.storeId}/orders?per_page=200`, { headers: { authentication: `bearer ${sandbox.accessToken}` } })
).json();
await sandbox.close();

function ordersOf(n) {
  return Array.from({ length: n }, (_, i) => ({ ...demo[i % demo.length], id: 2000000000 + i, number: 10000 + i }));
}

let orders = [];
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const perPage = Number(url.searchParams.get('per_page') ?? 30);
  const page = Number(url.searchParams.get('page') ?? 1);
  const items = orders.slice((page - 1) * perPage, page * perPage);
  if (items.length === 0) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 404, message: 'Not Found', description: `Last page is ${Math.ceil(orders.length / perPage)}` }));
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': String(orders.length) }).end(JSON.stringify(items));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const env = {
  ...process.env,
  STORE_API_URL: `http://127.0.0.1:${server.address().port}`,
  STORE_ID: '1',
  STORE_TOKEN: 'bench-token',
  NO_COLOR: '1',
};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Wall time of one run in ms, from spawn to exit (async: the server answers from this process). */
function time(command, args) {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    import('node:child_process').then(({ spawn }) => {
      const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c) => (out += c));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, code, out: out.trim() });
      });
    });
  });
}

const engine = JSON.parse(
  (await import('node:fs')).readFileSync(fileURLToPath(new URL('../../node_modules/jq-wasm/package.json', import.meta.url)), 'utf8'),
).version;
console.log(`jq-wasm ${engine}, ${spawnSync('jq', ['--version']).stdout.toString().trim()}, Node ${process.version}; runs per case: ${runs} after one warm-up (median, min–max in ms)`);
for (const n of sizes) {
  orders = ordersOf(n);
  const paging = n <= 200 ? ['--limit', String(n)] : ['--all'];
  const a = [bin, 'orders', 'list', ...paging, '--jq', filter];
  const b = ['-c', `"${process.execPath}" "${bin}" orders list ${paging.join(' ')} --json | jq -r '${filter}'`];
  const flag = [];
  const pipe = [];
  for (let i = 0; i <= runs; i++) {
    const ra = await time(process.execPath, a);
    const rb = await time('sh', b);
    if (ra.code !== 0 || ra.out !== rb.out) {
      console.log(`${String(n).padStart(6)} orders: --jq ${ra.code === null ? `killed after ${timeoutMs / 1000} s` : `exit ${ra.code}, printed ${ra.out.slice(0, 40)}`} (--json | jq printed ${rb.out})`);
      break;
    }
    if (i > 0) {
      flag.push(ra.ms);
      pipe.push(rb.ms);
    }
  }
  if (flag.length === 0) continue;
  const ratios = flag.map((ms, i) => ms / pipe[i]);
  const fmt = (v) => `${median(v).toFixed(0).padStart(6)} ms (${Math.min(...v).toFixed(0)}–${Math.max(...v).toFixed(0)})`;
  const ratio = median(ratios);
  console.log(
    `${String(n).padStart(6)} orders: --jq ${fmt(flag)}   --json | jq ${fmt(pipe)}   ratio ${ratio.toFixed(2)} (target ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'MISSED'})`,
  );
}
server.close();
