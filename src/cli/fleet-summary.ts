import { io } from '../output/io.js';
import { isTTY, terminalWidth } from '../output/terminal.js';
import type { Column } from '../output/format.js';
import type { StoreResult } from '../services/fleet/results.js';

/** One store's line as it ends (cron logs get one line per store): its exit code, counts, time, and why it failed. */
export function storeLine(r: StoreResult): string {
  const counts = `${r.rows} rows, ${r.writes} writes, ${r.failures} failures, ${r.requests} requests, ${r.seconds} s`;
  return `[${r.store}] store ${r.store_id}: exit ${r.exit_code} (${counts})${r.error ? `: ${r.error}` : ''}`;
}

/** The columns of the fleet summary (`store fleet merge` prints the same). */
export const SUMMARY_COLUMNS: Column<StoreResult>[] = [
  { header: 'store', get: (r) => r.store, kind: 'id' },
  { header: 'store_id', get: (r) => r.store_id, kind: 'id' },
  { header: 'exit_code', label: 'EXIT', get: (r) => r.exit_code, kind: 'count' },
  { header: 'rows', get: (r) => r.rows, kind: 'count' },
  { header: 'writes', get: (r) => r.writes, kind: 'count' },
  { header: 'failures', get: (r) => r.failures, kind: 'count' },
  { header: 'requests', get: (r) => r.requests, kind: 'count' },
  { header: 'seconds', label: 'TIME S', get: (r) => r.seconds, kind: 'count' },
  { header: 'shard', get: (r) => r.shard ?? '', kind: 'id', priority: 2 },
  { header: 'error', get: (r) => r.error ?? '', kind: 'text' },
];

/** The sentence under the summary: how many stores ended how, and the fleet's exit code. */
export function fleetVerdict(results: StoreResult[], exitCode: number): string {
  const failed = results.filter((r) => r.exit_code !== 0);
  const byCode = new Map<number, string[]>();
  for (const r of failed) byCode.set(r.exit_code, [...(byCode.get(r.exit_code) ?? []), r.store]);
  const parts = [...byCode.entries()].map(([code, stores]) => `exit ${code}: ${stores.join(', ')}`);
  const ok = results.length - failed.length;
  return `Fleet: ${results.length} store${results.length === 1 ? '' : 's'}, ${ok} succeeded${parts.length > 0 ? `; ${parts.join('; ')}` : ''}. Exit ${exitCode}.`;
}

/**
 * The fleet summary on stderr (stdout holds the stores' data): a table of every store, then one sentence naming
 * the stores that failed and the fleet's exit code. With --quiet, only the sentence when a store failed.
 */
export async function printFleetSummary(results: StoreResult[], exitCode: number, opts: { quiet: boolean; shard?: string }): Promise<void> {
  const stderr = io().stderr;
  if (opts.quiet && exitCode === 0) return;
  if (!opts.quiet && results.length > 0) {
    const { renderRows } = await import('../output/render.js');
    stderr.write(`\nFleet summary${opts.shard ? ` (${opts.shard})` : ''}:\n`);
    await renderRows(results, SUMMARY_COLUMNS.filter((c) => c.header !== 'shard' || results.some((r) => r.shard)), 'table', (t) => stderr.write(t), {
      width: isTTY() ? terminalWidth() : undefined,
    });
  }
  stderr.write(`${fleetVerdict(results, exitCode)}\n`);
}
