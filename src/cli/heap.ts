import { setFlagsFromString } from 'node:v8';

/**
 * Lets V8 grow the heap by half of what survives a collection instead of its default of up to 4×. A bulk
 * command holds the whole file and the store's catalog at once while it makes much short-lived garbage
 * (every list page parsed, checked and copied), so by default its resident memory climbs to about 2.5× what
 * it uses: 100,000 variants peaked near 400 MB and plan in about 290 MB with this, for a few more collections
 * (docs/benchmarks.md). Process-wide; harmless for a process that runs one command and exits.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=50');
}
