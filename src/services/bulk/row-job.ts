import { basename } from 'node:path';
import { AuthError } from '../../client/errors.js';
import { StoreError } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import { executeItems } from './executor.js';
import { type BulkJob, type BulkJobOptions, type ExecuteContext, runBulkJob } from './job.js';
import type { EarlierRun, RunEntry } from './journal.js';
import { checkAbort } from './pool.js';
import type { BulkProgress, ProgressStep } from './progress.js';
import { type ReportRow, validationRow } from './report.js';
import { refuseInvalidFile } from './row-error.js';
import type { ReadRowFileOptions, Row, RowFile } from './row-file.js';
import type { BulkRunSummary } from './summary.js';

/**
 * The job of a row file (`invoices attach --file`, `orders ship --file`) on the bulk skeleton (job.ts): every row
 * checked first (row-file.ts), nothing sent while one is invalid unless --skip-invalid; then the rows an interrupted
 * run finished left out (--resume); then the kind plans the rest by order, reading what it needs from the store; a
 * dry run counts the plan, a run sends one order's rows in file order, several orders at a time, journaling each row
 * finished. The kind says what its rows are, how they are planned by order and how one is sent.
 */

/** What every row file's summary holds besides the bulk run's; the kind adds its counts, one per outcome. */
export interface RowFileSummary extends BulkRunSummary {
  /** The failed rows; a row's key is its order as the file gives it. */
  failed: ReportRow[];
  /** Rows finished by an earlier, interrupted run of the same file (--resume). */
  resumedRows: number;
}

export type RowFailedEvent = { type: 'failed'; failure: ReportRow };

/** The file is the path given beside these (`--only` does not apply). */
export interface RowFileJobOptions<Event> extends Omit<BulkJobOptions, 'file' | 'only'> {
  onEvent?: (event: Event | RowFailedEvent) => void;
}

/** The rows to send, in file order (those an interrupted run finished left out by --resume), then by order once planned. */
export interface RowFilePlan<Request, Planned> {
  rows: Row<Request>[];
  /** The rows to send, by order (each order's in file order), once planned (beforeWriting). */
  orders: Planned[][];
}

type Fail = (failure: ReportRow) => void;

/** What one kind of row file is, for its job: the commands' own logic, the rest being the same for all. */
export interface RowFileJob<Request, Planned extends Row<Request>, Outcome extends string, Summary extends RowFileSummary & Record<Outcome, number>, Event> {
  /** The command the lock names, its lock scope, its journal's kind. */
  command: string;
  lockScope: string;
  journalKind: string;
  /** What `--skip-invalid` would do to the valid rows ("attach"). */
  verb: string;
  /** The column that holds a row's key, for the report. */
  keyColumn: string;
  /** Orders whose rows are sent at once, unless --concurrency says. */
  concurrency: number;
  readFile(path: string, options: ReadRowFileOptions): Promise<RowFile<Request>>;
  /** The summary with nothing counted yet (rowFileSummary with the kind's counts). */
  emptySummary(file: string): Summary;
  /**
   * Reads what the plan needs from the store and plans the rows, by order; counts `plannedWrites`. A row that
   * cannot go fails (at `stage`), sending nothing.
   */
  planOrders(rows: Row<Request>[], summary: Summary, fail: Fail, stage: ReportRow['stage']): Promise<Planned[][]>;
  /** `--dry-run`: what the planned rows would do, counted in the summary; nothing is written. */
  dryRun(orders: Planned[][], summary: Summary, fail: Fail): void | Promise<void>;
  /** Sends one row and says its outcome; `wrote` is told each write the store confirmed (a row may send several). */
  send(row: Planned, summary: Summary, wrote: (label: string) => void): Promise<Outcome>;
  /** The event of a row sent. */
  sent(row: Planned, outcome: Outcome): Event;
  /** A failed row's key: its order as the file gives it. */
  key(row: Planned): string;
  /** Why a row failed, from the store's answer and the writes the row made before it. */
  reason(error: StoreError, written: string[]): string;
  /** The counts of the writing step once `rowsDone` of the `rowsTotal` rows to send are done. */
  progress(rowsDone: number, rowsTotal: number, summary: Summary): Omit<ProgressStep, 'phase'>;
}

export async function runRowFileJob<Request, Planned extends Row<Request>, Outcome extends string, Summary extends RowFileSummary & Record<Outcome, number>, Event>(
  client: StoreClient,
  path: string,
  options: RowFileJobOptions<NoInfer<Event>>,
  kind: RowFileJob<Request, Planned, Outcome, Summary, Event>,
): Promise<Summary> {
  return runBulkJob(client, { ...options, file: path }, rowFileJob(path, options, kind));
}

/** A row file's summary with nothing counted: the bulk run's fields, the kind's `counts` after `rows`, its `after` last. */
export function rowFileSummary<Counts extends Record<string, number>, After extends object = object>(file: string, counts: Counts, after?: After): RowFileSummary & Counts & After {
  return {
    file,
    dryRun: false,
    rows: 0,
    ...counts,
    failed: [],
    plannedWrites: 0,
    requests: 0,
    retries: 0,
    rateLimited: 0,
    seconds: 0,
    interrupted: false,
    resumedRows: 0,
    earlierRunUnfinished: false,
    ...(after as After),
  };
}

/** A rejected token fails every row alike: stop rather than report the same cause per row. */
export function rowError(error: unknown): StoreError {
  if (error instanceof AuthError || !(error instanceof StoreError)) throw error;
  return error;
}

function rowFileJob<Request, Planned extends Row<Request>, Outcome extends string, Summary extends RowFileSummary & Record<Outcome, number>, Event>(
  path: string,
  options: RowFileJobOptions<Event>,
  kind: RowFileJob<Request, Planned, Outcome, Summary, Event>,
): BulkJob<RowFile<Request>, undefined, RowFilePlan<Request, Planned>, Summary> {
  const file = options.name ?? basename(path);
  const failed = (summary: Summary) => (failure: ReportRow) => {
    summary.failed.push(failure);
    options.onEvent?.({ type: 'failed', failure });
  };
  return {
    command: kind.command,
    lockScope: kind.lockScope,
    journalKind: kind.journalKind,
    read: async (emit) => {
      emit({ phase: 'reading', done: 0, writesDone: 0, writesTotal: 0 });
      const { encoding, map, onNotice } = options;
      const read = await kind.readFile(path, { encoding, map, onNotice, name: file });
      // Nothing is sent while a row is invalid, unless --skip-invalid: as for every bulk file.
      refuseInvalidFile(read, read.good.length, { skipInvalid: options.skipInvalid, verb: kind.verb, unit: 'row' });
      for (const error of read.errors) options.onEvent?.({ type: 'failed', failure: validationRow(error) });
      return read;
    },
    fetchSnapshot: async () => undefined,
    plan: (input) => ({ rows: input.good, orders: [] }),
    summarize: (input) => ({ ...kind.emptySummary(file), dryRun: Boolean(options.dryRun), rows: input.rows, failed: input.errors.map(validationRow) }),
    skipResumed: (plan, earlier, summary) => {
      plan.rows = skipResumed<Request, Outcome>(plan.rows, earlier, summary);
    },
    beforeWriting: async (plan, summary) => {
      plan.orders = await kind.planOrders(plan.rows, summary, failed(summary), options.dryRun ? 'plan' : 'request');
    },
    dryRun: (plan, _snapshot, summary) => kind.dryRun(plan.orders, summary, failed(summary)),
    journalBegin: () => ({ file }),
    execute: (plan, context) => sendRows(kind, plan.orders, context, options, failed(context.summary)),
    finish: (summary) => summary.failed.sort((a, b) => a.line - b.line),
    failures: (summary) => summary.failed,
    source: (input) => input.source,
    keyColumn: kind.keyColumn,
  };
}

/** Rows an earlier, interrupted run of the same file finished are counted, not read nor sent again. */
function skipResumed<Request, Outcome extends string>(rows: Row<Request>[], earlier: EarlierRun, summary: RowFileSummary & Record<Outcome, number>): Row<Request>[] {
  const previous = earlier.resumed;
  if (!previous) return rows;
  return rows.filter(({ line }) => {
    const done = previous.done.get(String(line));
    if (!done || done.outcome === 'failed') return true;
    summary[done.outcome as Outcome]++;
    summary.resumedRows++;
    return false;
  });
}

/** One order's rows in file order, several orders at a time; each row finished is journaled, failed or not. */
async function sendRows<Request, Planned extends Row<Request>, Outcome extends string, Summary extends RowFileSummary & Record<Outcome, number>, Event>(
  kind: RowFileJob<Request, Planned, Outcome, Summary, Event>,
  orders: Planned[][],
  { summary, journal, emit }: ExecuteContext<undefined, Summary, BulkProgress, RunEntry>,
  options: RowFileJobOptions<Event>,
  fail: Fail,
): Promise<{ interrupted: boolean }> {
  const rowsTotal = orders.reduce((n, rows) => n + rows.length, 0);
  let rowsDone = 0;
  const step = () => emit({ phase: 'writing', ...kind.progress(rowsDone, rowsTotal, summary) });
  step();
  return executeItems(orders, { concurrency: options.concurrency ?? kind.concurrency }, async (rows) => {
    for (const row of rows) {
      checkAbort(options.signal);
      const written: string[] = [];
      try {
        const outcome = await kind.send(row, summary, (label) => {
          written.push(label);
          step();
        });
        summary[outcome]++;
        journal.append({ t: 'done', key: String(row.line), outcome });
        options.onEvent?.(kind.sent(row, outcome));
      } catch (error) {
        fail({ line: row.line, key: kind.key(row), stage: 'request', reason: kind.reason(rowError(error), written) });
        journal.append({ t: 'done', key: String(row.line), outcome: 'failed' });
      }
      rowsDone++;
      step();
    }
  });
}
