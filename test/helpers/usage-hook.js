// Preloaded (`node --import`) into a process a benchmark (test/bench/paired.js) or a test starts: at exit, the
// process's own CPU time and peak memory (every thread's: a worker's included) go, as JSON, to the file
// BENCH_USAGE_FILE names.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  // Not for what this process starts: their figures are their own.
  delete process.env.BENCH_USAGE_FILE;
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ user: usage.userCPUTime / 1e6, sys: usage.systemCPUTime / 1e6, peakMiB: usage.maxRSS / 1024 }));
  });
}
