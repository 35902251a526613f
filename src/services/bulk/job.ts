import type { StoreClient } from '../../client/index.js';
import { StoppedBeforeWriting } from '../../errors.js';
import { type BrakePopulation, type BrakeSettings, type PlannedWrite, type TrippedBrake, checkBrakes, hasBrakes } from './brakes.js';
import type { HeldJudgement } from '../../ledger/jobs.js';
import type { Recorder } from '../../ledger/recorder.js';
import type { ChangeRecord } from '../../ledger/types.js';
import { type EarlierRun, Journal, type RunEntry, findEarlierRun } from './journal.js';
import { type BulkTarget, lockStore } from './lock.js';
import { type BulkProgress, type ProgressStep, progressEmitter } from './progress.js';
import type { BulkFile, BulkFileOptions } from './bulk-file.js';
import { type ReportRow, validationRow, writeReportKeepingResult } from './report.js';
import { FileInvalidError } from './row-error.js';
import { type BulkRunSummary, recordRequests } from './summary.js';
import { PLAN_FORMAT, PLAN_VERSION, type PlanEntry, writePlanFile } from './plan-file.js';

/**
 * The one skeleton of a bulk run (`products import`, `variants sync`, `invoices attach --file`): read the file
 * whole, apply `--only`, take the store's lock, find an earlier run of the same file, fetch a snapshot of the
 * store, keep the store's changes, plan, skip what a resumed run finished, then a dry run's plan or the
 * execution with its journal, and the summary (request counts, `--report`). A job says what each step is for
 * its file; `runBulkJob` says when steps run and owns the lock, the journal's begin and end, and the report.
 * Before anything is written, the brakes of an unattended run (bulk/brakes.ts) are checked against the plan; a
 * dry run can save its plan (`--plan-out`, bulk/plan-file.ts) for `store apply`; after writing, `--verify` reads
 * back what was written. Never prints: progress goes out as events, the result as the summary.
 */

/** The flags of a bulk command the skeleton itself acts on; a job's own options extend these. */
export interface BulkJobOptions<P extends BulkProgress = BulkProgress> extends BulkTarget, BulkFileOptions {
  /** The file to read (a private copy when it was standard input, or of a feed downloaded from a URL). */
  file: string;
  /** The run ledger's recorder: every write request's changes are intended before it is sent (docs/ledger.md). */
  recorder: Recorder;
  /** How messages name the file, when not its base name (a feed is named after its URL). */
  name?: string;
  /** Send the valid rows and report the invalid ones, instead of refusing the file (bulk/row-error.ts refuseInvalidFile). */
  skipInvalid?: boolean;
  dryRun?: boolean;
  resume?: boolean;
  /** `--only COLUMNS`: handed to the job's `applyOnly`. */
  only?: string;
  /** `--report FILE`: the failed rows, written after the run (and the invalid rows when the file is refused). */
  report?: string;
  signal?: AbortSignal;
  concurrency?: number;
  onProgress?: (event: P) => void;
  /** The brakes (flags over the profile's defaults): a plan that passes one writes nothing (exit 5). */
  brakes?: BrakeSettings;
  /** `--plan-out FILE` (with `--dry-run`): the plan and the store values it was computed against, for `store apply`. */
  planOut?: string;
  /** `--verify`: after writing, read back what was written; what the store does not hold is a failed row. */
  verify?: boolean;
}

/** A bulk run its brakes stopped before the first write: what the command prints besides the sentence. */
export interface BrakedRun<Summary> {
  summary: Summary;
  tripped: TrippedBrake[];
}

/** What `--plan-out` keeps of a plan, besides its writes (the job says). */
export interface SavedPlan {
  /** Entries that make the plan again (`store apply` hands them back to the job). */
  entries: Iterable<PlanEntry>;
  /** The options that shaped the plan. */
  options: Record<string, unknown>;
  /** The dry run's counts. */
  counts: Record<string, number>;
}

export type Emit<P extends BulkProgress = BulkProgress> = (step: ProgressStep<P>) => void;

/** What the execution step gets: the journal is open and its `begin` written; the skeleton writes `end`. */
export interface ExecuteContext<Snapshot, Summary, P extends BulkProgress, Entry extends { t: string }> {
  snapshot: Snapshot;
  summary: Summary;
  journal: Journal<Entry>;
  emit: Emit<P>;
}

/**
 * The steps of one bulk job, in the order `runBulkJob` runs them. A job is made per run (its options in a
 * closure), so steps may share what they found (import keeps the store changes it found for its dry-run plan).
 */
export interface BulkJob<Input, Snapshot, Plan, Summary extends BulkRunSummary, P extends BulkProgress = BulkProgress, Entry extends { t: string } = RunEntry> {
  /** The command the lock names to another run ("products import"), its lock scope, and its journal's kind. */
  command: string;
  lockScope?: string;
  journalKind: string;
  /** Whether a dry run looks for an earlier run of the file (to count what `--resume` would skip); default yes. */
  earlierRunInDryRun?: boolean;
  /** Reads and checks the whole file; a FileInvalidError refuses it before anything else (its rows go to --report). */
  read(emit: Emit<P>): Promise<Input>;
  applyOnly?(input: Input, columns: string): void;
  fetchSnapshot(input: Input, emit: Emit<P>): Promise<Snapshot>;
  /** Fields the file holds as exported that the store changed since: left as the store has them. */
  keepStoreChanges?(input: Input, snapshot: Snapshot): void;
  plan(input: Input, snapshot: Snapshot): Plan;
  /** The summary before anything is done: what was read and planned. */
  summarize(input: Input, plan: Plan): Summary;
  /** Leaves out (and counts) what the earlier run finished, when `--resume` continues it. */
  skipResumed(plan: Plan, earlier: EarlierRun, summary: Summary): void;
  /** What the plan still needs from the store once resumed work is left out (invoices: its orders); nothing is written. */
  beforeWriting?(plan: Plan, summary: Summary): Promise<void>;
  /** `--dry-run`: what the plan would do, counted in the summary; nothing is written. */
  dryRun(plan: Plan, snapshot: Snapshot, summary: Summary): void | Promise<void>;
  /** The `begin` entry's own fields (the file's name, a mode). */
  journalBegin(input: Input): { file: string; mode?: string };
  /** Sends the plan, journaling each item the store confirmed; counts into the summary. */
  execute(plan: Plan, context: ExecuteContext<Snapshot, Summary, P, Entry>): Promise<{ interrupted: boolean }>;
  /** The rows `--report` lists (import adds the lines of the products not done to them). */
  failures(summary: Summary, input: Input): ReportRow[];
  /** The file as read, whose rows the report repeats, and the column that holds a row's key (bulk/report.ts). */
  source(input: Input): BulkFile | undefined;
  keyColumn?: string;
  /** Last touches before the request counts and the report (the order failures are listed in). */
  finish?(summary: Summary): void;
  /** The fields the plan writes and the store's values it was computed against (brakes, `--plan-out`, `--verify`). */
  plannedWrites?(plan: Plan, snapshot: Snapshot): Iterable<PlannedWrite>;
  /** What the brakes' percentages are of. */
  population?(snapshot: Snapshot): BrakePopulation;
  /**
   * Whether the snapshot holds a change an interrupted run of the job sent without a reply (applied, not applied,
   * or not known), by which `--resume` settles it on the record before writing anything (ledger/jobs.ts).
   */
  judgeInterrupted?(snapshot: Snapshot, change: ChangeRecord): HeldJudgement;
  /** `--plan-out`: the plan as entries of a plan file. */
  savePlan?(plan: Plan, snapshot: Snapshot, summary: Summary): SavedPlan;
  /** `--verify`, after writing: reads back what the store confirmed and adds what it does not hold to the failed rows. */
  verify?(plan: Plan, snapshot: Snapshot, summary: Summary, since: string): Promise<void>;
}

export async function runBulkJob<Input, Snapshot, Plan, Summary extends BulkRunSummary, P extends BulkProgress, Entry extends { t: string }>(
  client: StoreClient,
  options: BulkJobOptions<P>,
  job: BulkJob<Input, Snapshot, Plan, Summary, P, Entry>,
): Promise<Summary> {
  const started = Date.now();
  const emit = progressEmitter<P>(client, options.onProgress);
  const input = await readOrReport(job, emit, options.report);
  const reportSource = { file: job.source(input), keyColumn: job.keyColumn };
  if (options.only !== undefined) job.applyOnly?.(input, options.only);
  const lock = options.dryRun ? undefined : lockStore(options, job.command, job.lockScope);
  try {
    const earlier = options.dryRun && job.earlierRunInDryRun === false ? undefined : await findEarlierRun({ ...options, kind: job.journalKind });
    const snapshot = await job.fetchSnapshot(input, emit);
    if (earlier?.resumed && !options.dryRun && job.judgeInterrupted) options.recorder.settleInterrupted?.((change) => job.judgeInterrupted!(snapshot, change));
    job.keepStoreChanges?.(input, snapshot);
    const plan = job.plan(input, snapshot);
    const summary = job.summarize(input, plan);
    if (earlier) {
      job.skipResumed(plan, earlier, summary);
      summary.earlierRunUnfinished = earlier.unfinished && !options.resume;
    }
    await job.beforeWriting?.(plan, summary);
    await checkJobBrakes(job, options, plan, snapshot, summary);
    if (options.dryRun || !earlier) {
      await job.dryRun(plan, snapshot, summary);
      if (options.planOut) await savePlan(job, options, plan, snapshot, summary);
    } else {
      summary.interrupted = await execute(job, plan, { snapshot, summary, emit }, input, earlier);
      if (options.verify && !summary.interrupted) await job.verify?.(plan, snapshot, summary, new Date(started).toISOString());
    }
    job.finish?.(summary);
    recordRequests(summary, client, started);
    if (options.report) await writeReportKeepingResult(summary, options.report, reportSource, job.failures(summary, input));
    return summary;
  } finally {
    lock?.release();
  }
}

/**
 * The brakes against the plan as it would be sent: any tripped, and the run stops before its first write (exit 5),
 * its summary counted as a dry run's so the command can show what the plan held.
 */
async function checkJobBrakes<Plan, Snapshot, Summary extends BulkRunSummary>(
  job: Pick<BulkJob<unknown, Snapshot, Plan, Summary, never, never>, 'plannedWrites' | 'population' | 'dryRun' | 'command'>,
  options: BulkJobOptions<never>,
  plan: Plan,
  snapshot: Snapshot,
  summary: Summary,
): Promise<void> {
  if (!options.brakes || !hasBrakes(options.brakes) || !job.plannedWrites) return;
  const tripped = checkBrakes(job.plannedWrites(plan, snapshot), options.brakes, populationOf(job, snapshot));
  if (tripped.length === 0) return;
  summary.dryRun = true;
  await job.dryRun(plan, snapshot, summary);
  const braked: BrakedRun<Summary> = { summary, tripped };
  const names = tripped.map((t) => `--${t.brake} ${t.limit}`).join(', ');
  throw new StoppedBeforeWriting(`${job.command}: the plan passes ${tripped.length === 1 ? 'a brake' : 'brakes'} (${names}); nothing was sent.`, braked);
}

/** What the brakes' percentages are of (nothing known: a percentage of nothing trips on any change). */
function populationOf<Snapshot>(job: { population?(snapshot: Snapshot): BrakePopulation }, snapshot: Snapshot): BrakePopulation {
  return job.population?.(snapshot) ?? { records: 0, stockVariants: 0 };
}

/** `--plan-out`: the dry run's plan, its writes with the store's values, sealed (bulk/plan-file.ts). */
async function savePlan<Plan, Snapshot, Summary extends BulkRunSummary>(
  job: Pick<BulkJob<unknown, Snapshot, Plan, Summary, never, never>, 'plannedWrites' | 'population' | 'savePlan' | 'command'>,
  options: BulkJobOptions<never>,
  plan: Plan,
  snapshot: Snapshot,
  summary: Summary,
): Promise<void> {
  if (!job.savePlan || !job.plannedWrites) throw new Error(`${job.command} cannot save its plan`);
  const saved = job.savePlan(plan, snapshot, summary);
  const writes = job.plannedWrites(plan, snapshot);
  function* entries(): Generator<PlanEntry> {
    yield* saved.entries;
    for (const w of writes) yield { t: 'write', ...w };
  }
  await writePlanFile(
    options.planOut!,
    {
      format: PLAN_FORMAT,
      version: PLAN_VERSION,
      command: job.command,
      created_at: new Date().toISOString(),
      store: { store_id: String(options.storeId), api_host: new URL(options.apiUrl).host },
      source: { file: summary.file },
      options: saved.options,
      catalog: populationOf(job, snapshot),
      counts: saved.counts,
    },
    entries(),
    options.env,
  );
}

/** The job's input, or its FileInvalidError after the invalid rows went to the report. */
async function readOrReport<Input, P extends BulkProgress>(
  job: { read(emit: Emit<P>): Promise<Input>; keyColumn?: string },
  emit: Emit<P>,
  report: string | undefined,
): Promise<Input> {
  try {
    return await job.read(emit);
  } catch (error) {
    if (error instanceof FileInvalidError && report) await writeReportKeepingResult(error, report, { file: error.source, keyColumn: job.keyColumn }, error.errors.map(validationRow));
    throw error;
  }
}

/** The execution between the journal's `begin` and `end` (a resumed run appends to the earlier run's journal). */
async function execute<Input, Snapshot, Plan, Summary extends BulkRunSummary, P extends BulkProgress, Entry extends { t: string }>(
  job: BulkJob<Input, Snapshot, Plan, Summary, P, Entry>,
  plan: Plan,
  context: Omit<ExecuteContext<Snapshot, Summary, P, Entry>, 'journal'>,
  input: Input,
  earlier: EarlierRun,
): Promise<boolean> {
  context.summary.journal = earlier.path;
  const journal = Journal.open<Entry>(earlier.path, { append: Boolean(earlier.resumed) });
  try {
    journal.append({ t: 'begin', at: new Date().toISOString(), ...job.journalBegin(input), pid: process.pid });
    const { interrupted } = await job.execute(plan, { ...context, journal });
    journal.append({ t: 'end', at: new Date().toISOString(), interrupted: interrupted || undefined });
    return interrupted;
  } finally {
    journal.close();
  }
}
