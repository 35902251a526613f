import type { StoreClient } from '../../../client/index.js';
import { type BulkJob, type BulkJobOptions, runBulkJob } from '../../bulk/job.js';
import type { EarlierRun } from '../../bulk/journal.js';
import type { BulkProgress } from '../../bulk/progress.js';
import { type ReportRow, validationRow } from '../../bulk/report.js';
import { refuseInvalidFile } from '../../bulk/row-error.js';
import type { BulkRunSummary } from '../../bulk/summary.js';
import { StoreError } from '../../../errors.js';
import { type KeptChange, keepStoreChanges } from '../baseline.js';
import { applyOnlyToCatalog } from '../only.js';
import { type PlannedChange, describePlan } from '../plan-changes.js';
import { type Catalog } from '../catalog-model.js';
import { readCatalog } from '../catalog.js';
import { type ImportJournalEntry, type ProductResult, executePlan, plannedOutcome } from '../executor.js';
import { type Mode, type Plan, type StoreSnapshot } from '../plan-model.js';
import { planImport, planRequests } from '../planner.js';
import { fetchSnapshot } from '../snapshot.js';
import { catalogPopulation, judgeInterruptedIn, importPlannedWrites } from '../planned-writes.js';
import { importPlanEntries } from '../saved-plans.js';
import { verifyJob } from '../verify.js';

/**
 * `store products import FILE`: read and validate the whole file, fetch the store once, plan, execute with
 * a journal, summarise. Never prints: progress goes out as events, the result as a summary.
 */

export interface ImportOptions extends BulkJobOptions<ImportProgress> {
  mode?: Mode;
  ignoreUnknownColumns?: boolean;
  /** Where image files named by a relative path are (the file's directory by default). */
  imagesDir?: string;
  /** Write the file as it is, even fields it holds as exported that the store changed since (baseline.ts). */
  overwriteStoreChanges?: boolean;
}

export interface ImportProgress extends BulkProgress {
  phase: 'reading' | 'fetching' | 'writing';
}

export interface ImportSummary extends BulkRunSummary {
  dialect: string;
  products: number;
  created: number;
  updated: number;
  /** Products deleted by their DELETE rows; `variantsDeleted` the variants DELETE and REPLACE rows removed. */
  deleted: number;
  variantsDeleted: number;
  /** Rows whose command is IGNORE. */
  ignoredRows: number;
  unchanged: number;
  skipped: number;
  failed: number;
  categoriesCreated: number;
  ignoredColumns: string[];
  /** Products finished by an earlier, interrupted run of the same file (--resume). */
  resumedProducts: number;
  /** Products the interrupted run finished that differ in the store now (deleted or changed since): planned again. */
  replanned: number;
  failures: ReportRow[];
  /** Fields the file held as exported and the store changed since: left as the store has them (baseline.ts). */
  keptStoreChanges: KeptChange[];
  /** A dry run's plan, change by change (plan-changes.ts). */
  plan?: PlannedChange[];
  /** `--verify`: records the store confirmed and does not hold as written (counted in `failed`), and the fields read back. */
  unverified?: number;
  verified?: number;
}


/** The file does not fit the store (unknown location or custom field column…): nothing was sent (exit 2). */
class PlanRefusedError extends StoreError {
  constructor(readonly problems: string[]) {
    super(`${problems[0]!}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''} Nothing was sent.`, 2);
  }
}

async function readAndValidate(options: ImportOptions): Promise<Catalog> {
  const { ignoreUnknownColumns, encoding, map, onNotice, name, imagesDir } = options;
  const catalog = await readCatalog(options.file, { ignoreUnknownColumns, encoding, map, onNotice, name, imagesDir });
  // --skip-invalid leaves out products with a bad row; a bad header (unknown or duplicate column) spoils every row.
  refuseInvalidFile(catalog, catalog.products.length, { skipInvalid: options.skipInvalid, verb: 'import', unit: 'product' });
  return catalog;
}

export async function runImport(client: StoreClient, options: ImportOptions): Promise<ImportSummary> {
  return runBulkJob(client, options, importJob(client, options));
}

/** `products import` as the steps of the bulk skeleton (services/bulk/job.ts); `store apply` runs its plan again. */
export function importJob(client: StoreClient, options: ImportOptions): BulkJob<Catalog, StoreSnapshot, Plan, ImportSummary, ImportProgress, ImportJournalEntry> {
  let kept: KeptChange[] = [];
  return {
    command: 'products import',
    journalKind: 'import',
    read: async (emit) => {
      emit({ phase: 'reading', done: 0, writesDone: 0, writesTotal: 0 });
      return readAndValidate(options);
    },
    applyOnly: applyOnlyToCatalog,
    fetchSnapshot: async (catalog, emit) => {
      emit({ phase: 'fetching', done: 0, writesDone: 0, writesTotal: 0 });
      return fetchSnapshot(client, (loaded, total) => emit({ phase: 'fetching', done: loaded, total, writesDone: 0, writesTotal: 0 }), {
        customFields: catalog.customColumns.length > 0,
      });
    },
    keepStoreChanges: (catalog, snapshot) => {
      kept = options.overwriteStoreChanges ? [] : keepStoreChanges(catalog, snapshot);
    },
    plan: (catalog, snapshot) => {
      const plan = planImport(catalog, snapshot, { mode: options.mode });
      if (plan.fatal.length > 0) throw new PlanRefusedError(plan.fatal);
      return plan;
    },
    summarize: (catalog, plan) => ({ ...baseSummary(catalog, plan, options), keptStoreChanges: kept }),
    skipResumed: (plan, earlier, summary) => {
      const { resumed, replanned } = skipResumed(plan, earlier);
      summary.plannedWrites = plan.writes;
      summary.resumedProducts = resumed.length;
      summary.replanned = replanned;
      count(summary, resumed);
    },
    dryRun: (plan, snapshot, summary) => {
      summary.plan = describePlan(plan, snapshot, kept);
      count(summary, plannedResults(plan, summary));
    },
    journalBegin: (catalog) => ({ file: catalog.file, mode: options.mode ?? 'upsert' }),
    execute: async (plan, { journal, summary, emit, snapshot }) => {
      const result = await executePlan(client, plan, {
        journal,
        recorder: options.recorder,
        products: snapshot.products,
        signal: options.signal,
        concurrency: options.concurrency,
        onProgress: (p) => emit({ phase: 'writing', done: p.productsDone, total: p.productsTotal, writesDone: p.writesDone, writesTotal: p.writesTotal }),
      });
      summary.categoriesCreated = result.categoriesCreated;
      count(summary, result.products);
      return result;
    },
    failures: (summary, catalog) => withProductLines(catalog, summary.failures),
    source: (catalog) => catalog.source,
    plannedWrites: importPlannedWrites,
    population: catalogPopulation,
    judgeInterrupted: judgeInterruptedIn,
    savePlan: (plan, snapshot, summary) => ({
      entries: importPlanEntries(plan, snapshot),
      options: { mode: options.mode ?? 'upsert', only: options.only ?? null, overwriteStoreChanges: Boolean(options.overwriteStoreChanges) },
      counts: { rows: summary.rows, products: summary.products, created: summary.created, updated: summary.updated, unchanged: summary.unchanged, failed: summary.failed },
    }),
    verify: async (plan, snapshot, summary, since) => {
      const lines = new Map(plan.products.flatMap((p) => [[p.key, p.line] as const, ...p.variantUpdates.map((u) => [u.sku, u.line] as const)]));
      await verifyJob(client, importPlannedWrites(plan, snapshot), summary, { since, snapshot, lineOf: (key) => lines.get(key) ?? 0 });
      summary.updated -= Math.min(summary.updated, summary.unverified ?? 0);
    },
  };
}

/**
 * The failures with the lines of their product when none of it was done (left out by --skip-invalid, or failed
 * whole), so that the report brings the product back whole; a failed variant of a product otherwise written
 * stays one row.
 */
function withProductLines(catalog: Catalog, failures: ReportRow[]): ReportRow[] {
  const products = new Map<string, { line: number; lines: number[] }>();
  for (const p of catalog.products) products.set(p.key, p);
  for (const p of catalog.invalidProducts) products.set(p.key, { line: p.lines[0]!, lines: p.lines });
  return failures.map((f) => {
    const product = products.get(f.key);
    if (!product || product.lines.length < 2 || (f.stage !== 'validation' && f.line !== product.line)) return f;
    return { ...f, lines: product.lines };
  });
}

/** Each product's outcome counted, its failed rows listed. */
function count(summary: ImportSummary, results: ProductResult[]): void {
  for (const r of results) {
    summary[r.outcome]++;
    summary.variantsDeleted += r.variantsDeleted ?? 0;
    summary.failures.push(...r.failures);
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
  return plan.products.map((p) => {
    const variantsDeleted = p.steps.filter((s) => s.kind === 'deleteVariant').length;
    return { key: p.key, line: p.line, outcome: plannedOutcome(p.action), failures: failuresOf(p), ...(variantsDeleted ? { variantsDeleted } : {}) };
  });
}

function failuresOf(p: Plan['products'][number]): ProductResult['failures'] {
  if (p.action === 'fail' && p.rowFailures.length === 0) return [{ line: p.line, key: p.key, stage: 'plan', reason: p.reason ?? 'failed' }];
  return p.rowFailures.map((f) => ({ ...f, stage: 'plan' as const }));
}

/** The summary of a saved plan's import (`store apply`): the file's counts as the plan counted them. */
export function savedImportSummary(file: string, counts: Record<string, number>, plan: Plan): ImportSummary {
  const stub = { file, dialect: 'plan', rows: counts.rows ?? 0, products: plan.products, invalidProducts: [], ignoredColumns: [], errors: [] } as unknown as Catalog;
  return { ...baseSummary(stub, plan, {} as ImportOptions), keptStoreChanges: [] };
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
    deleted: 0,
    variantsDeleted: 0,
    ignoredRows: catalog.ignoredRows ?? 0,
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
