/**
 * A job is one command line run until it finishes: a bulk job killed or interrupted, then continued with
 * `--resume`, is several runs of the ledger (each process records its own). Undo takes them back as one
 * (services/undo/prepare.ts), and a resumed run first settles what the runs before it left unsettled, by what
 * the store holds when it reads it (`settleInterrupted`): a write killed before its reply is then on the record
 * as applied or not, instead of unknown for good.
 */
import type { Ledger } from './store.js';
import type { ChangeRecord, RunRecord, RunStart } from './types.js';

const RESUME = '--resume';

const text = (v: string | number | null | undefined) => (v === undefined || v === null || v === '' ? null : String(v));

/** What makes runs one job: the command, the store and the command line but for `--resume`. */
function jobKey(command: string, storeId: string | number | null | undefined, apiHost: string | null | undefined, argv: readonly string[]): string {
  return JSON.stringify([command, text(storeId), text(apiHost), argv.filter((a) => a !== RESUME)]);
}
const keyOfRun = (r: RunRecord) => jobKey(r.command, r.store_id, r.api_host, r.argv);

/** A run `--resume` can continue: one that died or was stopped (one that ended normally, or was refused, is finished). */
export const unfinished = (r: RunRecord) => r.ended_at === null || r.exit_code === null || r.exit_code === 1 || r.exit_code >= 128;

/**
 * `run` and the other runs of its job, oldest first: back while a run is a `--resume` of an unfinished earlier run
 * of the same command line, forward while the next run of that command line is a `--resume` of it. An undo is a
 * job of its own (its `--resume` is handled by undo). `runs`: the ledger's runs, newest first.
 */
export function jobRuns(runs: readonly RunRecord[], run: RunRecord): RunRecord[] {
  if (run.command === 'undo') return [run];
  const key = keyOfRun(run);
  const same = runs.filter((r) => keyOfRun(r) === key).reverse();
  const at = same.findIndex((r) => r.id === run.id);
  let first = at;
  while (first > 0 && same[first]!.argv.includes(RESUME) && unfinished(same[first - 1]!)) first--;
  let last = at;
  while (last + 1 < same.length && same[last + 1]!.argv.includes(RESUME) && unfinished(same[last]!)) last++;
  return same.slice(first, last + 1);
}

/** What the store holds of a change's field, as the resumed run read it: applied, not applied, or not known. */
export type HeldJudgement = 'applied' | 'not-applied' | undefined;

/**
 * `--resume`: the unfinished runs of this job just before it (`start` is the resuming run's), their changes never
 * settled (the process died before the reply) judged by what the store holds now: holding what was sent, they are
 * confirmed; holding the value before, failed (never applied: the resumed run sends them again, on its own
 * record). Returns how many were settled.
 */
export function settleInterrupted(ledger: Ledger, start: RunStart, judge: (change: ChangeRecord) => HeldJudgement): number {
  const key = jobKey(start.command, start.storeId, start.apiHost, start.argv);
  const earlier: RunRecord[] = [];
  for (const r of ledger.runs()) {
    if (keyOfRun(r) !== key) continue;
    if (!unfinished(r)) break;
    earlier.push(r);
    if (!r.argv.includes(RESUME)) break;
  }
  const settled: { seq: number; outcome: 'confirmed' | 'failed'; reason: string }[] = [];
  for (const run of earlier) {
    for (const change of ledger.changes(run.id)) {
      if (change.outcome !== 'intended' && change.outcome !== 'unknown') continue;
      const held = judge(change);
      if (held === 'applied') settled.push({ seq: change.seq, outcome: 'confirmed', reason: 'its reply was lost; the run that resumed the job found it applied' });
      else if (held === 'not-applied') settled.push({ seq: change.seq, outcome: 'failed', reason: 'its reply was lost; the run that resumed the job found it not applied' });
    }
  }
  if (settled.length > 0) ledger.settleEach(settled);
  // Their process died before indexing them: `history` finds them without, but reads all of their changes too.
  for (const run of earlier) ledger.indexRun(run.id);
  return settled.length;
}
