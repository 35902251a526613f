import type { StoreClient } from '../../../client/index.js';
import { StoppedBeforeWriting, UsageError } from '../../../errors.js';
import type { PlannedWrite } from '../../bulk/brakes.js';
import { type BulkJob, type BulkJobOptions, runBulkJob } from '../../bulk/job.js';
import type { EarlierRun } from '../../bulk/journal.js';
import { type PlanFile, checkPlanStore, readPlanFile } from '../../bulk/plan-file.js';
import type { BulkProgress } from '../../bulk/progress.js';
import type { BulkRunSummary } from '../../bulk/summary.js';
import { type ImportSummary, importJob, savedImportSummary } from '../import/run-import.js';
import { loadImportPlan, loadSyncPlan } from '../saved-plans.js';
import { type SyncSummary, savedSyncSummary, syncJob } from '../sync/run-sync.js';
import { type StaleRecord, staleRecords } from './unchanged.js';

/**
 * `store apply FILE` (issue 28): writes exactly the plan a dry run saved with `--plan-out` — the same job's
 * execution (batch writers, journal, `--resume`, `--report`, `--verify`, the brakes), fed the saved plan instead of
 * one made now. Refused with nothing sent when the file is not a sealed plan of this store (exit 2), or when a
 * record it touches changed in the store since it was made (exit 5, each record named): plan again.
 */

export type ApplyOptions = BulkJobOptions;

export type ApplyResult = { command: 'variants sync'; summary: SyncSummary } | { command: 'products import'; summary: ImportSummary };

/** What a refused stale plan carries for the command to list. */
export interface StalePlan {
  file: string;
  stale: StaleRecord[];
}

export async function runApply(client: StoreClient, options: ApplyOptions): Promise<ApplyResult> {
  const saved = await readPlanFile(options.file, options.env);
  checkPlanStore(options.file, saved.header, { storeId: options.storeId, apiHost: new URL(options.apiUrl).host });
  const common = { ...options, dryRun: false, planOut: undefined };
  switch (saved.header.command) {
    case 'variants sync': {
      const { plan, snapshot } = loadSyncPlan(saved.entries);
      const job = syncJob(client, { ...common, zeroMissing: Boolean(saved.header.options.zeroMissing), force: Boolean(saved.header.options.force) });
      const summary = await runBulkJob(client, options, {
        ...fromSavedPlan(client, options, saved, job, plan, snapshot),
        summarize: (_, p) => savedSyncSummary(saved.header.source.file, saved.header.counts.rows ?? 0, p),
        skipResumed: (p, earlier, s) => {
          const done = doneKeys(earlier);
          p.writes = p.writes.filter((w) => !done.has(w.sku));
          s.resumedRows = done.size;
        },
      });
      return { command: 'variants sync', summary };
    }
    case 'products import': {
      const { plan, snapshot } = loadImportPlan(saved.entries);
      const job = importJob(client, { ...common, mode: saved.header.options.mode as never });
      const summary = await runBulkJob(client, options, {
        ...fromSavedPlan(client, options, saved, job, plan, snapshot),
        summarize: (_, p) => savedImportSummary(saved.header.source.file, saved.header.counts, p),
        skipResumed: (p, earlier, s) => {
          const done = doneKeys(earlier);
          p.products = p.products.filter((product) => !done.has(product.key));
          s.resumedProducts = done.size;
        },
      });
      return { command: 'products import', summary };
    }
    default:
      throw new UsageError(`${options.file} is a plan of \`${saved.header.command}\`, which \`store apply\` does not write. Nothing was sent.`);
  }
}

/** The keys an interrupted apply of the same file finished (its journal). */
function doneKeys(earlier: EarlierRun): Set<string> {
  return new Set([...(earlier.resumed?.done ?? new Map()).entries()].filter(([, d]) => d.outcome !== 'failed').map(([key]) => key));
}

/**
 * The job, reading the saved plan instead of a file and the store: its "snapshot" is the check that nothing the
 * plan touches changed (a stale plan stops here, before the lock's work begins), its plan the saved one.
 */
function fromSavedPlan<Input, Snapshot, Plan, Summary extends BulkRunSummary, P extends BulkProgress, Entry extends { t: string }>(
  client: StoreClient,
  options: ApplyOptions,
  saved: PlanFile,
  job: BulkJob<Input, Snapshot, Plan, Summary, P, Entry>,
  plan: Plan,
  snapshot: Snapshot,
): BulkJob<PlanFile, Snapshot, Plan, Summary, P, Entry> {
  const writes = saved.entries.filter((e) => e.t === 'write').map(({ t: _t, ...w }) => w as unknown as PlannedWrite);
  return {
    ...(job as unknown as BulkJob<PlanFile, Snapshot, Plan, Summary, P, Entry>),
    journalKind: 'apply',
    earlierRunInDryRun: false,
    read: async () => saved,
    applyOnly: undefined,
    keepStoreChanges: undefined,
    savePlan: undefined,
    fetchSnapshot: async () => {
      const locations = (snapshot as { locations?: { id: string; is_default?: boolean | null }[] }).locations ?? [];
      const stale = await staleRecords(client, writes, {
        catalogProducts: saved.header.catalog.products,
        defaultLocation: (locations.find((l) => l.is_default) ?? locations[0])?.id,
        resume: options.resume,
      });
      if (stale.length > 0) {
        const detail: StalePlan = { file: options.file, stale };
        throw new StoppedBeforeWriting(
          `${options.file}: ${stale.length} ${stale.length === 1 ? 'field the plan writes has' : 'fields the plan writes have'} changed in the store since the plan was made; nothing was sent. Make the plan again.`,
          detail,
        );
      }
      return snapshot;
    },
    plan: () => plan,
    // The brakes see what the plan writes, against the store's size when it was made.
    plannedWrites: () => writes,
    population: () => saved.header.catalog,
  };
}
