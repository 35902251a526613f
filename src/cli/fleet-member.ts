import type { ClientStats } from '../client/index.js';
import type { Column } from '../output/format.js';

/**
 * The side of a fleet inside one store's run (docs/fleet.md): the fleet runner starts this program once per store
 * with STORE_FLEET_MEMBER set to the profile. Its tables gain a leading STORE column, and it leaves what it did in
 * STORE_FLEET_RESULT for the fleet's summary. Kept free of heavy imports: every command loads it.
 */

/** The profile this run is the store of, in a fleet; undefined for a run of its own. */
export function fleetMember(): string | undefined {
  return process.env.STORE_FLEET_MEMBER || undefined;
}

/** A fleet's tables lead with the store (the profile): merged, every row still says whose it is. */
export function withStoreColumn<Row>(columns: Column<Row>[], profile: string): Column<Row>[] {
  return [{ header: 'store', get: () => profile, kind: 'id' }, ...columns];
}

let rowsPrinted = 0;

/** Records a table or a JSON result printed (the fleet summary's rows of a read). */
export function countRows(n: number): void {
  rowsPrinted += n;
}

/**
 * Writes this store's result for the fleet runner: its exit code and sentence, the rows (printed, or of the file a
 * bulk command read), failed rows, and the client's requests and writes. Never fails the run: the runner falls
 * back on the exit code.
 */
export async function writeMemberResult(end: {
  exitCode: number;
  error?: string;
  result: unknown;
  stats?: ClientStats;
}): Promise<void> {
  const file = process.env.STORE_FLEET_RESULT;
  if (!file) return;
  const summary = (end.result && typeof end.result === 'object' && !Array.isArray(end.result) ? end.result : {}) as {
    rows?: unknown;
    failures?: unknown;
    failed?: unknown;
  };
  const rows = typeof summary.rows === 'number' ? summary.rows : rowsPrinted;
  const failures = Array.isArray(summary.failures) ? summary.failures.length : typeof summary.failed === 'number' ? summary.failed : 0;
  const record = {
    exit_code: end.exitCode,
    ...(end.error ? { error: end.error } : {}),
    rows,
    writes: end.stats?.writes ?? 0,
    failures,
    requests: end.stats?.requests ?? 0,
    rate_limited: end.stats?.rateLimited ?? 0,
  };
  const { writeFile } = await import('node:fs/promises');
  await writeFile(file, JSON.stringify(record)).catch(() => undefined);
}
