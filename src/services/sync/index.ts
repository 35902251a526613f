import { basename } from 'node:path';
import { updateVariant } from '../../api/variants.js';
import { AuthError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import { executeItems } from '../bulk/executor.js';
import { type BulkTarget, lockStore } from '../bulk/lock.js';
import { checkAbort } from '../bulk/pool.js';
import { type BulkProgress, type ProgressStep, progressEmitter } from '../bulk/progress.js';
import { type ReportRow, writeReport } from '../bulk/report.js';
import { FileInvalidError, type RowError, errorCount, validationRow } from '../bulk/row-error.js';
import { type BulkRunSummary, recordRequests } from '../bulk/summary.js';
import { applyOnlyToFeed } from '../import/only.js';
import { type PlannedChange, describeSyncPlan } from '../import/plan-changes.js';
import { fetchSnapshot } from '../import/snapshot.js';
import { type SyncFeed, readSyncFile } from './feed.js';
import { type SyncPlan, type SyncWrite, planSync } from './planner.js';

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
    if (options.report) await writeReport(options.report, feed.errors.map(validationRow));
    throw new SyncInvalidError(feed.errors, file);
  }
  if (options.only !== undefined) applyOnlyToFeed(feed, options.only, file);
  const lock = options.dryRun ? undefined : lockStore(options, 'variants sync');
  try {
    emit({ phase: 'fetching', done: 0, writesDone: 0, writesTotal: 0 });
    const needsLocations = feed.locationColumns.length > 0 || feed.rows.some((r) => r.stock !== undefined) || options.zeroMissing;
    const snapshot = await fetchSnapshot(
      client,
      (loaded, total) => emit({ phase: 'fetching', done: loaded, total, writesDone: 0, writesTotal: 0 }),
      { categories: false, locations: Boolean(needsLocations), customFields: false },
    );
    const plan = planSync(file, feed, snapshot, options);
    const summary = baseSummary(file, feed, plan, options);
    if (options.dryRun) for (const w of plan.writes) w.zero ? summary.zeroed++ : summary.updated++;
    if (options.dryRun) summary.plan = describeSyncPlan(plan, snapshot);
    else await sendWrites(client, plan.writes, options, summary, emit);
    recordRequests(summary, client, started);
    if (options.report) await writeReport(options.report, summary.failures);
    return summary;
  } finally {
    lock?.release();
  }
}

/** One PUT per write; a write that fails is reported and the others go ahead (a rejected token stops them all). */
async function sendWrites(
  client: StoreClient,
  writes: SyncWrite[],
  options: SyncOptions,
  summary: SyncSummary,
  emit: (step: ProgressStep) => void,
): Promise<void> {
  let done = 0;
  emit({ phase: 'writing', done: 0, total: writes.length, writesDone: 0, writesTotal: writes.length });
  const { interrupted } = await executeItems(writes, options, async (w) => {
    checkAbort(options.signal);
    try {
      await updateVariant(client, w.variant.product_id, w.variant.id, w.body);
      w.zero ? summary.zeroed++ : summary.updated++;
    } catch (error) {
      if (error instanceof AuthError) throw error;
      summary.failed++;
      summary.failures.push({ line: w.line, key: w.sku, stage: 'request', reason: error instanceof Error ? error.message : String(error) });
    }
    done++;
    emit({ phase: 'writing', done, total: writes.length, writesDone: done, writesTotal: writes.length });
  });
  summary.interrupted = interrupted;
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
  };
}
