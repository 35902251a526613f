import { basename } from 'node:path';
import type { StoreClient } from '../../../client/index.js';
import { type EarlierRun, Journal, type RunEntry, findEarlierRun } from '../../bulk/journal.js';
import { type BulkTarget, lockStore } from '../../bulk/lock.js';
import { type VariantWrite, VariantWriter, minimumRequests } from '../variant-writes.js';
import type { StoreSnapshot } from '../planner.js';
import { type BulkProgress, type ProgressStep, progressEmitter } from '../../bulk/progress.js';
import { type ReportRow, writeReportKeepingResult } from '../../bulk/report.js';
import { FileInvalidError, type RowError, errorCount, validationRow } from '../../bulk/row-error.js';
import { type BulkRunSummary, recordRequests } from '../../bulk/summary.js';
import { applyOnlyToFeed } from '../only.js';
import { type PlannedChange, describeSyncPlan } from '../plan-changes.js';
import { SYNC_PRODUCT_FIELDS, fetchSnapshot } from '../snapshot.js';
import { type SyncFeed } from '../sync-types.js';
import { readSyncFile } from './feed.js';
import { type SyncPlan, type SyncWrite } from '../sync-types.js';
import { planSync } from './planner.js';

/**
 * `store variants sync FILE` (docs/csv.md, "Stock and prices"): stock and prices by SKU. The feed is read
 * and checked whole, the store fetched once, the writes planned (planner.ts) and sent through the bulk
 * executor. Never prints: progress goes out as events, the result as a summary.
 */

export interface SyncOptions extends BulkTarget {
  file: string;
  zeroMissing?: boolean;
  /** `--only COLUMNS`: apply only these columns of the feed (import/only.ts). */
  only?: string;
  force?: boolean;
  dryRun?: boolean;
  /** Continue an interrupted sync of the same file (its journal counts what it finished). */
  resume?: boolean;
  report?: string;
  signal?: AbortSignal;
  concurrency?: number;
  onProgress?: (event: BulkProgress) => void;
}

export interface SyncSummary extends BulkRunSummary {
  updated: number;
  unchanged: number;
  notFound: number;
  zeroed: number;
  failed: number;
  notFoundSkus: string[];
  failures: ReportRow[];
  /** Requests the plan's writes take at best (the batch endpoints): what `requests` is measured against. */
  plannedRequests: number;
  /** Variants an interrupted run finished and the store still holds (--resume). */
  resumedRows: number;
  /** Variants an interrupted run finished that differ in the store again (changed since): planned again. */
  replanned: number;
  earlierRunUnfinished: boolean;
  journal?: string;
  /** A dry run's plan, change by change (import/plan-changes.ts). */
  plan?: PlannedChange[];
}

class SyncInvalidError extends FileInvalidError {
  constructor(errors: RowError[], file: string) {
    super(errors, `${file} has ${errorCount(errors)}; nothing was sent.`);
  }
}

export async function runSync(client: StoreClient, options: SyncOptions): Promise<SyncSummary> {
  const started = Date.now();
  const file = basename(options.file);
  const emit = progressEmitter(client, options.onProgress);
  const feed = await readSyncFile(options.file);
  if (feed.errors.length > 0) {
    const refusal = new SyncInvalidError(feed.errors, file);
    if (options.report) await writeReportKeepingResult(refusal, options.report, feed.errors.map(validationRow));
    throw refusal;
  }
  if (options.only !== undefined) applyOnlyToFeed(feed, options.only, file);
  const lock = options.dryRun ? undefined : lockStore(options, 'variants sync');
  try {
    emit({ phase: 'fetching', done: 0, writesDone: 0, writesTotal: 0 });
    const needsLocations = feed.locationColumns.length > 0 || feed.rows.some((r) => r.stock !== undefined) || options.zeroMissing;
    const snapshot = await fetchSnapshot(
      client,
      (loaded, total) => emit({ phase: 'fetching', done: loaded, total, writesDone: 0, writesTotal: 0 }),
      {
        store: false,
        categories: false,
        locations: Boolean(needsLocations),
        customFields: false,
        // A dry run names each variant's product by its handle, as an import's does.
        productFields: options.dryRun ? [...SYNC_PRODUCT_FIELDS, 'handle'] : SYNC_PRODUCT_FIELDS,
      },
    );
    const plan = planSync(file, feed, snapshot, options);
    const summary = baseSummary(file, feed, plan, options);
    summary.plannedRequests = minimumRequests(plan.writes.map(variantWrite));
    if (options.dryRun) {
      for (const w of plan.writes) w.zero ? summary.zeroed++ : summary.updated++;
      summary.plan = describeSyncPlan(plan, snapshot);
    } else {
      const earlier = await findEarlierRun({ ...options, kind: 'sync' });
      countResumed(plan, earlier, summary);
      summary.earlierRunUnfinished = earlier.unfinished && !options.resume;
      summary.journal = earlier.path;
      const journal = Journal.open(earlier.path, { append: Boolean(earlier.resumed) });
      try {
        journal.append({ t: 'begin', at: new Date().toISOString(), file, pid: process.pid });
        await sendWrites(client, plan, snapshot, options, summary, journal, emit);
        journal.append({ t: 'end', at: new Date().toISOString(), interrupted: summary.interrupted || undefined });
      } finally {
        journal.close();
      }
    }
    recordRequests(summary, client, started);
    if (options.report) await writeReportKeepingResult(summary, options.report, summary.failures);
    return summary;
  } finally {
    lock?.release();
  }
}

/** What a sync journals besides its begin and end: one `done` per variant the store confirmed. */
type SyncJournal = Journal;

/**
 * The writes in the fewest documented requests (services/catalog-files/variant-writes.ts); each variant the store
 * confirms is journaled, a refused one is a failed row with its line (never journaled, never counted).
 */
async function sendWrites(
  client: StoreClient,
  plan: SyncPlan,
  snapshot: StoreSnapshot,
  options: SyncOptions,
  summary: SyncSummary,
  journal: SyncJournal,
  emit: (step: ProgressStep) => void,
): Promise<void> {
  const { writes } = plan;
  let done = 0;
  const progress = () => emit({ phase: 'writing', done, total: writes.length, writesDone: done, writesTotal: writes.length });
  progress();
  const zeroed = new Set(writes.filter((w) => w.zero).map((w) => w.variant.id));
  // The variants a request confirmed are journaled together, with one fsync.
  const confirmed: RunEntry[] = [];
  const writer = new VariantWriter(client, {
    signal: options.signal,
    concurrency: options.concurrency,
    locations: snapshot.locations,
    onFallback: (message) => client.warn(message),
    onRequestSettled: () => journal.appendAll(confirmed.splice(0)),
    onDone: (w) => {
      const zero = zeroed.has(w.variantId);
      zero ? summary.zeroed++ : summary.updated++;
      confirmed.push({ t: 'done', key: w.key, outcome: zero ? 'zeroed' : 'updated' });
      done++;
      progress();
    },
    onFailed: (w, reason) => {
      summary.failed++;
      summary.failures.push({ line: w.line, key: w.key, stage: 'request', reason });
      done++;
      progress();
    },
  });
  const { interrupted } = await writer.send(writes.map(variantWrite));
  summary.interrupted = interrupted;
}

function variantWrite(w: SyncWrite): VariantWrite {
  return { productId: w.variant.product_id, variantId: w.variant.id, line: w.line, key: w.sku, body: w.body };
}

/**
 * `--resume`: the plan was made against the store as it is now, so what the interrupted run wrote and still
 * holds is unchanged and not sent again. What it journaled as done but differs again (changed or reset in the
 * store since) is planned again: counted apart.
 */
function countResumed(plan: SyncPlan, earlier: EarlierRun, summary: SyncSummary): void {
  const previous = earlier.resumed;
  if (!previous) return;
  const planned = new Set(plan.writes.map((w) => w.sku));
  for (const key of previous.done.keys()) {
    if (planned.has(key)) summary.replanned++;
    else summary.resumedRows++;
  }
}

function baseSummary(file: string, feed: SyncFeed, plan: SyncPlan, options: SyncOptions): SyncSummary {
  return {
    file,
    dryRun: Boolean(options.dryRun),
    rows: feed.rows.length,
    updated: 0,
    unchanged: plan.unchanged,
    notFound: plan.notFoundSkus.length,
    zeroed: 0,
    failed: plan.failures.length,
    plannedWrites: plan.writes.length,
    requests: 0,
    retries: 0,
    rateLimited: 0,
    seconds: 0,
    interrupted: false,
    notFoundSkus: plan.notFoundSkus,
    failures: plan.failures,
    plannedRequests: 0,
    resumedRows: 0,
    replanned: 0,
    earlierRunUnfinished: false,
  };
}
