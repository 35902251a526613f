// Orders at the scale of a real store (issue 21): a sandbox of N orders (default 50,000; ORDERS=N to change),
// rate limit off; `store orders list --all --json`, `store orders export` and the first run of `store orders
// follow --since 2000-01-01 --output FILE` read every order past the cap of 10,000 results per query, then a
// second `orders follow` finds nothing new. Prints, for each: GET /orders requests sent (counted by a proxy in
// front of the sandbox) against the documented minimum ceil(N / 200), wall time, and the command's peak memory
// (max RSS, reported by the process itself at exit). Targets: requests ≤ 1.05 × the minimum; peak memory ≤ 200 MB.
// Last, `orders follow --exec` of a command writing 1 GB to its stdout, read by a reader that starts 5 s late
// (issue 31: the follower passes it on at the reader's pace): the follower's peak memory.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const orders = Number(process.env.ORDERS ?? 50_000);
const dir = mkdtempSync(join(tmpdir(), 'store-orders-bench-'));

function startSandbox() {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [bin, 'sandbox', 'serve', '--json', '--seed', 'empty', '--rate', 'off', '--orders', String(orders), '--state', join(dir, 'state')], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, XDG_DATA_HOME: join(dir, 'data'), XDG_STATE_HOME: join(dir, 'xstate'), XDG_CONFIG_HOME: join(dir, 'config') },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ child, info: JSON.parse(line), seconds: (Date.now() - started) / 1000 });
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
}

/** A proxy that counts the GET /orders requests it forwards. */
function countingProxy(target) {
  const counts = { orders: 0, other: 0, refused: 0 };
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    if (/\/orders(\?|$)/.test(req.url)) counts.orders++;
    else counts.other++;
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      if (up.statusCode === 422) counts.refused++;
      res.writeHead(up.statusCode, up.headers);
      up.pipe(res);
    });
    req.pipe(forward);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, counts, url: `http://127.0.0.1:${server.address().port}` })));
}

const preload = join(dir, 'max-rss.cjs');
writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n`);

// Asynchronous: the proxy runs in this process and must answer while the command runs.
async function run(label, args, env, proxy, minimum = Math.ceil(orders / 200)) {
  const rssFile = join(dir, `${label.replace(/\W+/g, '-')}.rss`);
  proxy.counts.orders = 0;
  proxy.counts.refused = 0;
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [bin, ...args], {
    stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
    env: { ...env, NODE_OPTIONS: `--require ${preload}`, BENCH_RSS_FILE: rssFile },
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const status = await new Promise((resolve) => child.on('exit', resolve));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (status !== 0) throw new Error(`${label} exited ${status}: ${stderr}`);
  const rssMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
  const ratio = proxy.counts.orders / minimum;
  process.stdout.write(
    `${label.padEnd(34)} ${String(proxy.counts.orders).padStart(5)} requests (minimum ${minimum}: ×${ratio.toFixed(3)}, target ≤ 1.05: ${ratio <= 1.05 ? 'met' : 'NOT met'}), ` +
      `${proxy.counts.refused} refused, ${seconds.toFixed(1)} s, peak ${rssMb.toFixed(0)} MB (target ≤ 200: ${rssMb <= 200 ? 'met' : 'NOT met'})\n`,
  );
}

/** `orders follow --exec` of a command writing 1 GB, its stdout read only after 5 s: the follower's peak memory. */
async function execToSlowReader(env) {
  const rssFile = join(dir, 'exec.rss');
  const started = process.hrtime.bigint();
  const since = new Date(Date.now() - 86_400_000).toISOString();
  const child = spawn(process.execPath, [bin, 'orders', 'follow', '--once', '--name', 'exec', '--since', since, '--exec', 'cat > /dev/null; if [ ! -e "$BENCH_DONE" ]; then touch "$BENCH_DONE"; head -c 1000000000 /dev/zero; fi'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, NODE_OPTIONS: `--require ${preload}`, BENCH_RSS_FILE: rssFile, BENCH_DONE: join(dir, 'exec.done') },
  });
  let bytes = 0;
  setTimeout(() => child.stdout.on('data', (d) => (bytes += d.length)), 5000);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const status = await new Promise((resolve) => child.on('close', resolve));
  if (status !== 0) throw new Error(`orders follow --exec exited ${status}: ${stderr}`);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rssMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
  process.stdout.write(`${'orders follow --exec (1 GB out)'.padEnd(34)} ${(bytes / 1e9).toFixed(2)} GB passed on, ${seconds.toFixed(1)} s, peak ${rssMb.toFixed(0)} MB\n`);
}

const { child, info, seconds } = await startSandbox();
process.stdout.write(`sandbox with ${orders} orders (rate off) ready in ${seconds.toFixed(1)} s\n`);
const proxy = await countingProxy(info.api_url);
const env = {
  ...process.env,
  STORE_TOKEN: info.access_token,
  STORE_ID: String(info.store_id),
  STORE_API_URL: proxy.url,
  XDG_DATA_HOME: join(dir, 'cli-data'),
  XDG_STATE_HOME: join(dir, 'cli-state'),
  XDG_CONFIG_HOME: join(dir, 'cli-config'),
};
try {
  await run('orders list --all --json', ['orders', 'list', '--all', '--json'], env, proxy);
  await run('orders export FILE', ['orders', 'export', '--quiet', join(dir, 'orders.csv')], env, proxy);
  const follow = ['orders', 'follow', '--once', '--name', 'bench', '--output', join(dir, 'follow.ndjson')];
  await run('orders follow (first run, all)', [...follow, '--since', '2000-01-01'], env, proxy);
  await run('orders follow (nothing new)', follow, env, proxy, 1);
  await execToSlowReader(env);
} finally {
  proxy.server.close();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}
