import { NotFoundError } from '../../client/errors.js';
import { UsageError } from '../../errors.js';
import { type Ledger, openLedger } from '../../ledger/store.js';
import { type ChangeRecord, type ChangeTarget, changeTarget, type RunRecord } from '../../ledger/types.js';
import { parseDate } from '../common/validate.js';

/**
 * Reading the run ledger (docs/ledger.md): `store runs list|show|prune` and `store history`. Nothing here sends a
 * request: the ledger is a local file.
 */

/** A change as `runs show` and `history` print it (JSON, CSV): an unsettled intent reads as unknown. */
export interface ShownChange extends ChangeTarget {
  run: string;
  /** When its run started. */
  at: string;
  seq: number;
  /** null when the value before was null, or was not known (`before_known` false). */
  before: unknown;
  before_known: boolean;
  after: unknown;
  outcome: 'confirmed' | 'failed' | 'unknown';
  reason: string | null;
  irreversible: string | null;
}

/** The reason an intent never settled gives: its process ended while the request was in flight. */
const NEVER_SETTLED = 'no reply was recorded: the run ended while the request was in flight (the store may have applied it)';

export function shownChange(c: ChangeRecord): ShownChange {
  return {
    run: c.run,
    at: c.at,
    seq: c.seq,
    ...changeTarget(c),
    before: c.before ?? null,
    before_known: c.before !== undefined,
    after: c.after ?? null,
    outcome: c.outcome === 'intended' ? 'unknown' : c.outcome,
    reason: c.outcome === 'intended' ? (c.reason ?? NEVER_SETTLED) : c.reason,
    irreversible: c.irreversible,
  };
}

/** The ledger, opened for a read; closed by `use`'s end. */
function use<T>(read: (ledger: Ledger) => T): T {
  const ledger = openLedger();
  try {
    return read(ledger);
  } finally {
    ledger.close();
  }
}

/** A `--since`/`--older-than` value as the ledger's times are written (UTC ISO), from the date forms every date flag takes. */
export function ledgerTime(flag: string, value: string, now = new Date()): string {
  return new Date(parseDate(flag, value, now)).toISOString();
}

export interface RunsQuery {
  command?: string;
  since?: string;
  failed?: boolean;
  limit?: number;
}

/** `runs list`: runs newest first, and the ledger's file and size. */
export function listRuns(query: RunsQuery): { runs: RunRecord[]; path: string; bytes: number } {
  const since = query.since === undefined ? undefined : ledgerTime('--since', query.since);
  const command = query.command?.trim().replace(/\s+/g, ' ').replace(/^store /, '');
  return use((ledger) => ({
    runs: ledger.runs({ command: command || undefined, since, failed: query.failed, limit: query.limit }),
    path: ledger.path,
    bytes: ledger.size(),
  }));
}

/** A run named by its id, a unique prefix of it, or `last`. */
function findRun(ledger: Ledger, ref: string): RunRecord {
  const run = ref.trim().toLowerCase() === 'last' ? ledger.lastRun() : ledger.run(ref);
  if (!run) throw new NotFoundError(`No run ${ref} in the ledger ${ledger.path}; \`store runs list\` shows the runs.`);
  return run;
}

/**
 * `runs show RUN`: the run, and its changes read as they are iterated (a 100,000-change run is streamed, never
 * held). `close()` when done.
 */
export function openRun(ref: string): { run: RunRecord; changes: Iterable<ShownChange>; close(): void } {
  const ledger = openLedger();
  try {
    const run = findRun(ledger, ref);
    function* changes(): Generator<ShownChange> {
      for (const change of ledger.changes(run.id)) yield shownChange(change);
    }
    return { run, changes: changes(), close: () => ledger.close() };
  } catch (error) {
    ledger.close();
    throw error;
  }
}

/** `history KEY`: every recorded change to one record (SKU, handle, id, order number), newest first. */
export function recordHistory(key: string, limit?: number): ShownChange[] {
  if (key.trim() === '') throw new UsageError('Give a SKU, handle, product or variant id, or an order id or number.');
  return use((ledger) => ledger.history(key, limit).map(shownChange));
}

/** `runs prune --older-than 90d`: removes ended runs started before then; says what went and what is left. */
export function pruneRuns(olderThan: string): { before: string; runs: number; changes: number; bytes: number } {
  const before = ledgerTime('--older-than', olderThan);
  if (Date.parse(before) > Date.now()) throw new UsageError(`--older-than "${olderThan}" is in the future; give an age such as 90d.`);
  return use((ledger) => ({ before, ...ledger.prune(before), bytes: ledger.size() }));
}
