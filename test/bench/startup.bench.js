// Start-up time of the commands people type most: median of N runs of the real binary.
// Targets (issue 9): `store --version` ≤ 150 ms, `store orders list --help` ≤ 250 ms.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 15);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function time(args) {
  const samples = [];
  for (let i = 0; i < runs + 1; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    if (i > 0) samples.push(ms); // the first run warms the file cache
  }
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
}

const cases = [
  ['node -e 0 (baseline)', ['-e', '0'], null],
  ['store --version', [bin, '--version'], 150],
  ['store api --help', [bin, 'api', '--help'], 250],
  ['store orders list --help', [bin, 'orders', 'list', '--help'], 250],
];
console.log(`runs per case: ${runs} (median, min–max in ms)`);
for (const [name, args, target] of cases) {
  try {
    const t = time(args);
    const verdict = target === null ? '' : t.median <= target ? `  (target ≤ ${target} ms: met)` : `  (target ≤ ${target} ms: MISSED)`;
    console.log(`${name.padEnd(28)} ${t.median.toFixed(1).padStart(7)} ms  ${t.min.toFixed(1)}–${t.max.toFixed(1)}${verdict}`);
  } catch (error) {
    console.log(`${name.padEnd(28)} skipped: ${error.message}`);
  }
}
