import type { StoreClient } from '../../../client/index.js';
import { Journal, type EarlierRun, findEarlierRun } from '../../bulk/journal.js';
import { type BulkTarget, lockStore } from '../../bulk/lock.js';
import { type BulkProgress, type ProgressStep, progressEmitter } from '../../bulk/progress.js';
import { type ReportRow, writeReportKeepingResult } from '../../bulk/report.js';
import { FileInvalidError, type RowError, errorCount, validationRow } from '../../bulk/row-error.js';
import { type BulkRunSummary, recordRequests } from '../../bulk/summary.js';
import { StoreError } from '../../../errors.js';
import { type KeptChange, keepStoreChanges } from '../baseline.js';
import { applyOnlyToCatalog } from '../only.js';
import { type PlannedChange, describePlan } from '../plan-changes.js';
import { type Catalog, readCatalog } from '../catalog.js';
import { type ImportJournalEntry, type ProductResult, executePlan, plannedOutcome } from '../executor.js';
import { type Mode, type Plan, planImport, planRequests } from '../planner.js';
import { fetchSnapshot } from '../snapshot.js';

/**
 * `store products import FILE`: read and validate the whole file, fetch the store once, plan, execute with
 * a journal, summarise. Never prints: progress goes out as events, the result as a summary.
 */

export interface ImportOptions extends BulkTarget {
  file: string;
  mode?: Mode;
  dryRun?: boolean;
  skipInvalid?: boolean;
  ignoreUnknownColumns?: boolean;
  resume?: boolean;
  /** `--only COLUMNS`: apply only these columns of the file (only.ts). */
  only?: string;
  /** Write the file as it is, even fields it holds as exported that the store changed since (baseline.ts). */
  overwriteStoreChanges?: boolean;
  report?: string;
  signal?: AbortSignal;
  concurrency?: number;
  onProgress?: (event: ImportProgress) => void;
}

export interface ImportProgress extends BulkProgress {
  phase: 'reading' | 'fetching' | 'writing';
}

export interface ImportSummary extends BulkRunSummary {
  dialect: string;
  products: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
  categoriesCreated: number;
  ignoredColumns: string[];
  /** Products finished by an earlier, interrupted run of the same file (--resume). */
  resumedProducts: number;
  /** Products the interrupted run finished that differ in the store now (deleted or changed since): planned again. */
  replanned: number;
  /** An interrupted run of the same file was found and not resumed (its work is in the store; this run plans around it). */
  earlierRunUnfinished: boolean;
  journal?: string;
  failures: ReportRow[];
  /** Fields the file held as exported and the store changed since: left as the store has them (baseline.ts). */
  keptStoreChanges: KeptChange[];
  /** A dry run's plan, change by change (plan-changes.ts). */
  plan?: PlannedChange[];
}

/** Rows failed validation: nothing was sent (exit 2). */
export class CatalogInvalidError extends FileInvalidError {
  constructor(errors: RowError[], file: string) {
    super(errors, `${file} has ${errorCount(errors)}; nothing was sent (fix the file, or use --skip-invalid to import the valid products).`);
  }
}

/** The file does not fit the store (unknown location or custom field column…): nothing was sent (exit 2). */
class PlanRefusedError extends StoreError {
  constructor(readonly problems: string[]) {
    super(`${problems[0]!}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''} Nothing was sent.`, 2);
  }
}

async function readAndValidate(options: Pick<ImportOptions, 'file' | 'ignoreUnknownColumns' | 'skipInvalid'>): Promise<Catalog> {
  const catalog = await readCatalog(options.file, { ignoreUnknownColumns: options.ignoreUnknownColumns });
  // --skip-invalid leaves out products with a bad row; a bad header (unknown or duplicate column) spoils every row.
  const headerBroken = catalog.errors.some((e) => e.line === 1);
  const fatal = catalog.errors.length > 0 && (!options.skipInvalid || headerBroken || catalog.products.length === 0);
  if (fatal) throw new CatalogInvalidError(catalog.errors, catalog.file);
  return catalog;
}

export async function runImport(client: StoreClient, options: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const emit = progressEmitter(client, options.onProgress);
  emit({ phase: 'reading', done: 0, writesDone: 0, writesTotal: 0 });
  const catalog = await readOrReport(options);
  if (options.only !== undefined) applyOnlyToCatalog(catalog, options.only);
  const lock = options.dryRun ? undefined : lockStore(options, 'products import');
  try {
    const earlier = await findEarlierRun({ ...options, kind: 'import' });
    emit({ phase: 'fetching', done: 0, writesDone: 0, writesTotal: 0 });
    const snapshot = await fetchSnapshot(
      client,
      (loaded, total) => emit({ phase: 'fetching', done: loaded, total, writesDone: 0, writesTotal: 0 }),
      { customFields: catalog.customColumns.length > 0 },
    );
    const kept = options.overwriteStoreChanges ? [] : keepStoreChanges(catalog, snapshot);
    const plan = planImport(catalog, snapshot, { mode: options.mode });
    if (plan.fatal.length > 0) throw new PlanRefusedError(plan.fatal);
    const { resumed, replanned } = skipResumed(plan, earlier);
    const summary = baseSummary(catalog, plan, options);
    summary.keptStoreChanges = kept;
    if (options.dryRun) summary.plan = describePlan(plan, snapshot, kept);
    summary.resumedProducts = resumed.length;
    summary.replanned = replanned;
    summary.earlierRunUnfinished = earlier.unfinished && !options.resume;
    const results = options.dryRun ? plannedResults(plan, summary) : await execute(client, plan, catalog, earlier, options, summary, emit);
    for (const r of [...resumed, ...results]) {
      summary[r.outcome]++;
      summary.failures.push(...r.failures);
    }
    recordRequests(summary, client, started);
    if (options.report) await writeReportKeepingResult(summary, options.report, summary.failures);
    return summary;
  } finally {
    lock?.release();
  }
}

/** The catalog, or CatalogInvalidError after its errors went to the report. */
async function readOrReport(options: ImportOptions): Promise<Catalog> {
  try {
    return await readAndValidate(options);
  } catch (error) {
    if (error instanceof CatalogInvalidError && options.report) await writeReportKeepingResult(error, options.report, error.errors.map(validationRow));
    throw error;
  }
}

/**
 * `--resume` checks the store: the plan was made against the catalog just read, so a product an earlier run
 * finished and the store still holds as the file says plans nothing and keeps that run's outcome. One the
 * journal marks done but that differs now (deleted or changed in the store since) stays in the plan and is
 * counted in `replanned`.
 */
function skipResumed(plan: Plan, earlier: EarlierRun): { resumed: ProductResult[]; replanned: number } {
  const previous = earlier.resumed;
  if (!previous) return { resumed: [], replanned: 0 };
  const resumed: ProductResult[] = [];
  let replanned = 0;
  plan.products = plan.products.filter((p) => {
    const done = previous.done.get(p.key);
    if (!done || done.outcome === 'failed') return true;
    if (p.steps.length > 0 || p.variantUpdates.length > 0) {
      replanned++;
      return true;
    }
    resumed.push({ key: p.key, line: p.line, outcome: done.outcome as ProductResult['outcome'], failures: [] });
    return false;
  });
  plan.writes = planRequests(plan);
  return { resumed, replanned };
}

/** A dry run's results: what each product's plan would do, nothing sent. */
function plannedResults(plan: Plan, summary: ImportSummary): ProductResult[] {
  summary.categoriesCreated = plan.categories.length;
  return plan.products.map((p) => ({ key: p.key, line: p.line, outcome: plannedOutcome(p.action), failures: failuresOf(p) }));
}

async function execute(
  client: StoreClient,
  plan: Plan,
  catalog: Catalog,
  earlier: EarlierRun,
  options: ImportOptions,
  summary: ImportSummary,
  emit: (step: ProgressStep<ImportProgress>) => void,
): Promise<ProductResult[]> {
  const journal = Journal.open<ImportJournalEntry>(earlier.path, { append: Boolean(earlier.resumed) });
  try {
    summary.journal = earlier.path;
    journal.append({ t: 'begin', at: new Date().toISOString(), file: catalog.file, mode: options.mode ?? 'upsert', pid: process.pid });
    const result = await executePlan(client, plan, {
      journal,
      signal: options.signal,
      concurrency: options.concurrency,
      onProgress: (p) => emit({ phase: 'writing', done: p.productsDone, total: p.productsTotal, writesDone: p.writesDone, writesTotal: p.writesTotal }),
    });
    journal.append({ t: 'end', at: new Date().toISOString(), interrupted: result.interrupted || undefined });
    summary.interrupted = result.interrupted;
    summary.categoriesCreated = result.categoriesCreated;
    return result.products;
  } finally {
    journal.close();
  }
}

function failuresOf(p: Plan['products'][number]): ProductResult['failures'] {
  if (p.action === 'fail' && p.rowFailures.length === 0) return [{ line: p.line, key: p.key, stage: 'plan', reason: p.reason ?? 'failed' }];
  return p.rowFailures.map((f) => ({ ...f, stage: 'plan' as const }));
}

function baseSummary(catalog: Catalog, plan: Plan, options: ImportOptions): ImportSummary {
  return {
    file: catalog.file,
    dialect: catalog.dialect,
    dryRun: Boolean(options.dryRun),
    rows: catalog.rows,
    products: catalog.products.length + catalog.invalidProducts.length,
    created: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    // Products left out by --skip-invalid count as failed.
    failed: catalog.invalidProducts.length,
    categoriesCreated: 0,
    plannedWrites: plan.writes,
    requests: 0,
    retries: 0,
    rateLimited: 0,
    seconds: 0,
    ignoredColumns: catalog.ignoredColumns,
    resumedProducts: 0,
    replanned: 0,
    earlierRunUnfinished: false,
    interrupted: false,
    // With --skip-invalid, the rows left out come first.
    failures: catalog.errors.map(validationRow),
    keptStoreChanges: [],
  };
}
