import { UsageError } from '../../errors.js';
import type { Ledger } from '../../ledger/store.js';
import type { RunRecord } from '../../ledger/types.js';
import { pidAlive } from '../../util/process.js';
import type { PlannedWrite } from '../bulk/brakes.js';
import { jobRuns } from '../../ledger/jobs.js';
import { type Slot, byProduct, collectSlots, markEarlierUndo } from './slots.js';

/**
 * The ledger's half of `store undo RUN`, before anything is read from the store: which run, which undo runs of it
 * came before (`--resume` finishes one; without it a second undo is refused, since taking stock differences off
 * twice would be wrong), the run's changes as slots, and what undo would write were the store as the run left it —
 * what the brakes and the confirmation look at.
 */

export interface PreparedUndo {
  run: RunRecord;
  /**
   * The runs undone together, oldest first: the run, and the runs of the same job that `--resume` continued it
   * with (or that it continued). A job killed and resumed is one job to undo: its runs may each have sent the same
   * write (the killed run's never answered, the resumed run's again), and undone one by one a stock difference
   * would be taken off twice.
   */
  job: RunRecord[];
  /** Earlier undo runs of the same run (`--resume`). */
  earlier: RunRecord[];
  slots: Slot[];
  /** The slots on products, variants and images, by product id. */
  products: Map<number, Slot[]>;
  /** The rest: orders, webhooks, raw requests… */
  others: Slot[];
}

export interface PrepareOptions {
  resume?: boolean;
  /** `--only FIELDS`. */
  only?: ReadonlySet<string>;
}

export function prepareUndo(ledger: Ledger, runId: string, options: PrepareOptions = {}): PreparedUndo {
  const run = ledger.run(runId);
  if (!run) throw new UsageError(`No run ${runId} in the ledger (\`store runs list\` shows the runs).`);
  if (run.ended_at === null && pidAlive(run.pid ?? undefined) && run.pid !== process.pid) {
    throw new UsageError(`Run ${run.id} (${run.command}) is still running (pid ${run.pid}): undo it once it has ended.`);
  }
  const all = ledger.runs();
  const job = jobRuns(all, run);
  for (const r of job) {
    if (r.id !== run.id && r.ended_at === null && r.pid !== process.pid && pidAlive(r.pid ?? undefined)) {
      throw new UsageError(`Run ${r.id}, which resumes the same job as run ${run.id}, is still running (pid ${r.pid}): undo the job once it has ended.`);
    }
  }
  const ids = new Set(job.map((r) => r.id));
  const earlier = all.filter((r) => r.undoes !== null && ids.has(r.undoes));
  for (const e of earlier) {
    if (e.ended_at === null && e.pid !== process.pid && pidAlive(e.pid ?? undefined)) throw new UsageError(`An undo of run ${run.id} is running (run ${e.id}, pid ${e.pid}): wait for it to end.`);
  }
  if (earlier.length > 0 && !options.resume) {
    const last = earlier[0]!;
    const finished = last.ended_at !== null && last.exit_code === 0;
    throw new UsageError(
      finished
        ? `Run ${run.id} was undone already by run ${last.id}: \`store undo ${last.id}\` redoes it. Nothing was sent.`
        : `An undo of run ${run.id} (run ${last.id}) did not finish: \`store undo ${run.id} --resume\` finishes it. Nothing was sent.`,
    );
  }
  if (options.resume && earlier.length === 0) throw new UsageError(`Run ${run.id} has no interrupted undo to resume: run \`store undo ${run.id}\`. Nothing was sent.`);
  const collected = collectSlots(job.flatMap((r) => [...ledger.changes(r.id)]));
  // Oldest first: the first undo's before-value, the last one's write.
  for (const e of [...earlier].reverse()) markEarlierUndo(collected, ledger.changes(e.id));
  const slots = [...collected.values()].filter((s) => !options.only || options.only.has(s.field) || (s.field.startsWith('stock') && options.only.has('stock')) || s.field === '*');
  const { products, others } = byProduct(slots);
  return { run, job, earlier, slots, products, others };
}

/**
 * What undo would write were the store as the run left it, as the brakes read a plan: a field back from what the
 * run wrote to what it was, a created record deleted, a deleted one created. The store can only make it smaller
 * (a field changed since is left), except stock, which sales since can take lower.
 */
export function* predictedChanges(prepared: PreparedUndo): Generator<PlannedWrite> {
  for (const slot of prepared.slots) {
    if (slot.irreversible || slot.kind === 'action' || slot.kind === 'request') continue;
    if (slot.earlier?.applied === 'yes') continue;
    const record = { resource: slot.resource, id: slot.id ?? undefined, key: slot.key ?? slot.id ?? '' };
    if (slot.kind === 'create') yield { ...record, action: 'delete', field: '*', before: slot.after, after: null };
    else if (slot.kind === 'delete') yield { ...record, action: 'create', field: '*', before: null, after: slot.before };
    else {
      const field = slot.location ? `stock:${slot.location}` : slot.field;
      yield { ...record, action: 'update', field, before: slot.after, after: slot.before };
    }
  }
}

/** Product and variant records in the run (what a percentage brake is of, as the ledger knows it). */
export function recordCount(prepared: PreparedUndo): number {
  const records = new Set(prepared.slots.map((s) => `${s.resource}\u0000${s.id ?? s.key}`));
  return records.size;
}
