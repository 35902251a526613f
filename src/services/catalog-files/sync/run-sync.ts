import { basename } from 'node:path';
import type { StoreClient } from '../../../client/index.js';
import { type BulkJob, type BulkJobOptions, runBulkJob } from '../../bulk/job.js';
import type { EarlierRun, Journal, RunEntry } from '../../bulk/journal.js';
import { type VariantWrite, VariantWriter, minimumRequests } from '../variant-writes.js';
import type { StoreSnapshot } from '../plan-model.js';
import type { ProgressStep } from '../../bulk/progress.js';
import { type ReportRow, validationRow } from '../../bulk/report.js';
import { refuseInvalidFile } from '../../bulk/row-error.js';
import type { BulkRunSummary } from '../../bulk/summary.js';
import { applyOnlyToFeed } from '../only.js';
import { type PlannedChange, describeSyncPlan } from '../plan-changes.js';
import { SYNC_PRODUCT_FIELDS, fetchSnapshot } from '../snapshot.js';
import { type SyncFeed } from '../sync-types.js';
import { readSyncFile } from './feed.js';
import { type SyncPlan, type SyncWrite } from '../sync-types.js';
import { planSync } from './planner.js';
import { catalogPopulation, judgeInterruptedIn, syncPlannedWrites } from '../planned-writes.js';
import { verifyJob } from '../verify.js';
import { syncPlanEntries } from '../saved-plans.js';

/**
 * `store variants sync FILE` (docs/csv.md, "Stock and prices"): stock and prices by SKU. The feed is read
 * and checked whole, the store fetched once, the writes planned (planner.ts) and sent through the bulk
 * executor. Never prints: progress goes out as events, the result as a summary.
 */

export interface SyncOptions extends BulkJobOptions {
  zeroMissing?: boolean;
  force?: boolean;
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
  /** A dry run's plan, change by change (import/plan-changes.ts). */
  plan?: PlannedChange[];
  /** `--verify`: variants the store confirmed and does not hold as written (counted in `failed`). */
  unverified?: number;
  /** `--verify`: fields read back. */
  verified?: number;
}


export async function runSync(client: StoreClient, options: SyncOptions): Promise<SyncSummary> {
  return runBulkJob(client, options, syncJob(client, options));
}

/** `variants sync` as the steps of the bulk skeleton (services/bulk/job.ts); `store apply` runs its plan again. */
export function syncJob(client: StoreClient, options: SyncOptions): BulkJob<SyncFeed, StoreSnapshot, SyncPlan, SyncSummary> {
  const file = options.name ?? basename(options.file);
  return {
    command: 'variants sync',
    journalKind: 'sync',
    // A dry run compares the feed with the store only: what an interrupted run finished is not counted.
    earlierRunInDryRun: false,
    read: async () => {
      const { encoding, map, onNotice } = options;
      const feed = await readSyncFile(options.file, { encoding, map, onNotice, name: file });
      refuseInvalidFile(feed, feed.rows.length, { skipInvalid: options.skipInvalid, verb: 'sync', unit: 'row' });
      return feed;
    },
    applyOnly: (feed, columns) => applyOnlyToFeed(feed, columns, file),
    fetchSnapshot: async (feed, emit) => {
      emit({ phase: 'fetching', done: 0, writesDone: 0, writesTotal: 0 });
      const needsLocations = feed.locationColumns.length > 0 || feed.rows.some((r) => r.stock !== undefined) || options.zeroMissing;
      return fetchSnapshot(client, (loaded, total) => emit({ phase: 'fetching', done: loaded, total, writesDone: 0, writesTotal: 0 }), {
        store: false,
        categories: false,
        locations: Boolean(needsLocations),
        customFields: false,
        // A dry run names each variant's product by its handle, as an import's does.
        productFields: options.dryRun ? [...SYNC_PRODUCT_FIELDS, 'handle'] : SYNC_PRODUCT_FIELDS,
      });
    },
    plan: (feed, snapshot) => planSync(file, feed, snapshot, options),
    summarize: (feed, plan) => {
      const summary = baseSummary(file, feed, plan, options);
      summary.plannedRequests = minimumRequests(plan.writes.map(variantWrite));
      return summary;
    },
    skipResumed: countResumed,
    dryRun: (plan, snapshot, summary) => {
      for (const w of plan.writes) w.zero ? summary.zeroed++ : summary.updated++;
      summary.plan = describeSyncPlan(plan, snapshot);
    },
    journalBegin: () => ({ file }),
    execute: (plan, { snapshot, summary, journal, emit }) => sendWrites(client, plan, snapshot, options, summary, journal, emit),
    failures: (summary) => summary.failures,
    plannedWrites: syncPlannedWrites,
    population: catalogPopulation,
    judgeInterrupted: judgeInterruptedIn,
    savePlan: (plan, snapshot, summary) => ({
      entries: syncPlanEntries(plan, snapshot),
      options: { zeroMissing: Boolean(options.zeroMissing), force: Boolean(options.force), only: options.only ?? null },
      counts: { rows: summary.rows, updated: summary.updated, zeroed: summary.zeroed, unchanged: summary.unchanged, notFound: summary.notFound, failed: summary.failed },
    }),
    verify: async (plan, snapshot, summary, since) => {
      const lines = new Map(plan.writes.map((w) => [w.sku, w.line]));
      await verifyJob(client, syncPlannedWrites(plan, snapshot), summary, { since, snapshot, lineOf: (key) => lines.get(key) ?? 0 });
      summary.updated -= summary.unverified ?? 0;
    },
    source: (feed) => feed.source,
    keyColumn: 'sku',
  };
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
): Promise<{ interrupted: boolean }> {
  const { writes } = plan;
  let done = 0;
  const progress = () => emit({ phase: 'writing', done, total: writes.length, writesDone: done, writesTotal: writes.length });
  progress();
  const zeroed = new Set(writes.filter((w) => w.zero).map((w) => w.variant.id));
  // The variants a request confirmed are journaled together, with one fsync.
  const confirmed: RunEntry[] = [];
  const writer = new VariantWriter(client, {
    recorder: options.recorder,
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
  return writer.send(writes.map(variantWrite));
}

function variantWrite(w: SyncWrite): VariantWrite {
  return { productId: w.variant.product_id, variantId: w.variant.id, line: w.line, key: w.sku, body: w.body, before: w.variant };
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

/** The summary of a saved plan's sync (`store apply`): the feed's rows as the plan counted them. */
export function savedSyncSummary(file: string, rows: number, plan: SyncPlan): SyncSummary {
  const summary = baseSummary(file, { rows: { length: rows }, invalidRows: [], errors: [] }, plan, {});
  summary.plannedRequests = minimumRequests(plan.writes.map(variantWrite));
  return summary;
}

function baseSummary(file: string, feed: Pick<SyncFeed, 'invalidRows' | 'errors'> & { rows: { length: number } }, plan: SyncPlan, options: Pick<SyncOptions, 'dryRun'>): SyncSummary {
  return {
    file,
    dryRun: Boolean(options.dryRun),
    rows: feed.rows.length + feed.invalidRows.length,
    updated: 0,
    unchanged: plan.unchanged,
    notFound: plan.notFoundSkus.length,
    zeroed: 0,
    // Rows left out by --skip-invalid count as failed, and come first in the report.
    failed: feed.invalidRows.length + plan.failures.length,
    plannedWrites: plan.writes.length,
    requests: 0,
    retries: 0,
    rateLimited: 0,
    seconds: 0,
    interrupted: false,
    notFoundSkus: plan.notFoundSkus,
    failures: [...feed.errors.map(validationRow), ...plan.failures],
    plannedRequests: 0,
    resumedRows: 0,
    replanned: 0,
    earlierRunUnfinished: false,
  };
}
