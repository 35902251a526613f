#!/usr/bin/env node
// `npm run bench`: runs every benchmark under test/bench/ and prints its figures.
// Benchmarks measure; they never fail a build on time (tests never assert on wall-clock time).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const file of benches) {
  process.stdout.write(`\n## ${file.replace('.bench.js', '')}\n`);
  const result = spawnSync(process.execPath, [`${dir}/${file}`], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
