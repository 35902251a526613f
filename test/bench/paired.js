// Whole-process figures of Node commands for the benchmarks (docs/benchmarks.md): each run is a child process, its
// wall time read here from start to exit, its CPU time and peak memory its own (test/helpers/usage-hook.js). Given
// two commands, A and B run in turn (A B A B …) and A/B is taken pair by pair, so a machine whose speed drifts
// during the call weighs on both alike; the median is the figure to quote, min and max show the noise.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HOOK = fileURLToPath(new URL('../helpers/usage-hook.js', import.meta.url));

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One run of `node ARGS`: wall, user, sys, cpu (s) and peak (MiB); its output is read and dropped. */
function once(args, env, dir) {
  const file = join(dir, `usage-${process.hrtime.bigint()}.json`);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', HOOK, ...args], {
      env: { ...process.env, ...env, BENCH_USAGE_FILE: file },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err = (err + d).slice(-2_000)));
    child.on('error', reject);
    child.on('close', (code) => {
      const wall = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.trim()}`));
      const usage = JSON.parse(readFileSync(file, 'utf8'));
      rmSync(file, { force: true });
      resolve({ wall, user: usage.user, sys: usage.sys, cpu: usage.user + usage.sys, peak: usage.peakMiB });
    });
  });
}

const row = (name, values, digits = 3) =>
  `${name.padEnd(14)}${[Math.min(...values), median(values), Math.max(...values)].map((v) => v.toFixed(digits).padStart(11)).join(' ')}`;

/**
 * Runs A (and B, in turn) `runs` times after `warmup` runs each that are not counted, and prints min, median and
 * max of each figure, and of A/B pair by pair. `a` and `b`: { args (node's), env }. Resolves to the medians.
 */
export async function measure({ a, b, runs = 5, warmup = 1 }) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-usage-'));
  const results = { A: [], B: [] };
  try {
    for (let i = 0; i < warmup + runs; i++) {
      const ra = await once(a.args, a.env ?? {}, dir);
      const rb = b ? await once(b.args, b.env ?? {}, dir) : undefined;
      if (i < warmup) continue;
      results.A.push(ra);
      if (rb) results.B.push(rb);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const lines = [`${''.padEnd(14)}${['min', 'median', 'max'].map((h) => h.padStart(11)).join(' ')}   n: ${runs} each${b ? ', A and B in turn' : ''}, after ${warmup} not counted`];
  for (const name of b ? ['A', 'B'] : ['A']) {
    const list = results[name];
    for (const key of ['wall', 'user', 'sys', 'cpu']) lines.push(row(`${name} ${key} s`, list.map((r) => r[key])));
    lines.push(row(`${name} peak MiB`, list.map((r) => r.peak), 1));
  }
  const medians = {};
  if (b) {
    for (const key of ['wall', 'cpu', 'peak']) {
      const ratios = results.A.map((r, i) => r[key] / results.B[i][key]);
      lines.push(row(`A/B ${key}`, ratios, 4));
      medians[key] = median(ratios);
    }
    const of = (key) => median(results.A.map((r) => r[key])) / median(results.B.map((r) => r[key]));
    lines.push(`ratio of the medians: wall ${of('wall').toFixed(4)}, cpu ${of('cpu').toFixed(4)}; peak A − B ${(median(results.A.map((r) => r.peak)) - median(results.B.map((r) => r.peak))).toFixed(1)} MiB`);
  }
  console.log(lines.join('\n'));
  return medians;
}
