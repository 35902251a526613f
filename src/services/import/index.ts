import { StoreError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import { type Catalog, type RowError, readCatalog } from './catalog.js';
import { executePlan, type ProductResult } from './executor.js';
import { Journal, hashFile, journalPath, readJournal, stateDir, storeKey, summarizeJournal } from './journal.js';
import { acquireLock, lockKey } from './lock.js';
import { type Mode, type Plan, planImport } from './planner.js';
import { type ReportRow, writeReport } from './report.js';
import { fetchSnapshot } from './snapshot.js';

/**
 * `store products import FILE`: read and validate the whole file, fetch the store once, plan, execute with
 * a journal, summarise. Never prints: progress goes out as events, the result as a summary.
 */

export interface ImportOptions {
  file: string;
  mode?: Mode;
  dryRun?: boolean;
  skipInvalid?: boolean;
  ignoreUnknownColumns?: boolean;
  resume?: boolean;
  report?: string;
  /** Identify the store for the journal and the lock. */
  apiUrl: string;
  storeId: string | number;
  /** The app writing: with the store id, the key of the lock (one import per store and app, whatever its URL). */
  appId?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  concurrency?: number;
  onProgress?: (event: ImportProgress) => void;
}

/** What a bulk service (import, sync) reports as it goes; the command decides how to show it. */
export interface BulkProgress {
  phase: string;
  /** Items (fetching: products loaded; writing: products or variants finished). */
  done: number;
  total?: number;
  writesDone: number;
  writesTotal: number;
  requests: number;
  rateLimited: number;
}

export interface ImportProgress extends BulkProgress {
  phase: 'reading' | 'fetching' | 'writing';
}

export interface ImportSummary {
  file: string;
  dialect: string;
  dryRun: boolean;
  rows: number;
  products: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
  categoriesCreated: number;
  /** Writes the plan holds (dry run) or held. */
  plannedWrites: number;
  requests: number;
  retries: number;
  rateLimited: number;
  seconds: number;
  ignoredColumns: string[];
  /** Products finished by an earlier, interrupted run of the same file (--resume). */
  resumedProducts: number;
  /** An interrupted run of the same file was found and not resumed (its work is in the store; this run plans around it). */
  earlierRunUnfinished: boolean;
  interrupted: boolean;
  journal?: string;
  failures: ReportRow[];
}

/** Rows failed validation: nothing was sent (exit 2). */
export class CatalogInvalidError extends StoreError {
  constructor(
    readonly errors: RowError[],
    file: string,
  ) {
    super(
      `${file} has ${errors.length} ${errors.length === 1 ? 'error' : 'errors'}; nothing was sent (fix the file, or use --skip-invalid to import the valid products).`,
      2,
    );
  }
}

/** The file does not fit the store (unknown location or custom field column…): nothing was sent (exit 2). */
export class PlanRefusedError extends StoreError {
  constructor(readonly problems: string[]) {
    super(`${problems[0]!}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''} Nothing was sent.`, 2);
  }
}

export async function readAndValidate(options: Pick<ImportOptions, 'file' | 'ignoreUnknownColumns' | 'skipInvalid'>): Promise<Catalog> {
  const catalog = await readCatalog(options.file, { ignoreUnknownColumns: options.ignoreUnknownColumns });
  // --skip-invalid leaves out products with a bad row; a bad header (unknown or duplicate column) spoils every row.
  const headerBroken = catalog.errors.some((e) => e.line === 1);
  const fatal = catalog.errors.length > 0 && (!options.skipInvalid || headerBroken || catalog.products.length === 0);
  if (fatal) throw new CatalogInvalidError(catalog.errors, catalog.file);
  return catalog;
}

export async function runImport(client: StoreClient, options: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const emit = (event: Omit<ImportProgress, 'requests' | 'rateLimited'>) => {
    const stats = client.stats();
    options.onProgress?.({ ...event, requests: stats.requests, rateLimited: stats.rateLimited });
  };
  emit({ phase: 'reading', done: 0, writesDone: 0, writesTotal: 0 });
  let catalog: Catalog;
  try {
    catalog = await readAndValidate(options);
  } catch (error) {
    if (error instanceof CatalogInvalidError && options.report) {
      await writeReport(options.report, error.errors.map((e) => validationRow(e)));
    }
    throw error;
  }
  const failures: ReportRow[] = catalog.errors.map(validationRow);

  const dir = stateDir(options.env);
  const store = storeKey(options.apiUrl, options.storeId);
  const lock = options.dryRun ? undefined : acquireLock(dir, lockKey(options.storeId, options.appId), 'products import');
  let journal: Journal | undefined;
  try {
    const path = journalPath(dir, store, await hashFile(options.file));
    // A journal that ended normally is a finished run, not one to resume: the store may have changed since.
    const earlier = summarizeJournal(readJournal(path));
    const unfinished = earlier.entries > 0 && !earlier.finished;
    const previous = options.resume && unfinished ? earlier : undefined;

    emit({ phase: 'fetching', done: 0, writesDone: 0, writesTotal: 0 });
    const snapshot = await fetchSnapshot(
      client,
      (loaded, total) => emit({ phase: 'fetching', done: loaded, total, writesDone: 0, writesTotal: 0 }),
      { customFields: catalog.customColumns.length > 0 },
    );
    const plan = planImport(catalog, snapshot, { mode: options.mode });
    if (plan.fatal.length > 0) throw new PlanRefusedError(plan.fatal);

    // Products an earlier run finished are not planned again: the journal already counts them.
    const resumed: ProductResult[] = [];
    if (previous) {
      plan.products = plan.products.filter((p) => {
        const done = previous.done.get(p.key);
        if (!done || done.outcome === 'failed') return true;
        resumed.push({ key: p.key, line: p.line, outcome: done.outcome, failures: [] });
        return false;
      });
      plan.writes = plan.categories.length + plan.products.reduce((n, p) => n + p.steps.length, 0);
    }

    const summary = baseSummary(catalog, plan, options, failures);
    summary.resumedProducts = resumed.length;
    summary.earlierRunUnfinished = unfinished && !options.resume;
    if (options.dryRun) {
      for (const p of plan.products) tally(summary, planOutcome(p.action));
      for (const p of plan.products) for (const f of failuresOf(p)) failures.push(f);
      for (const r of resumed) tally(summary, r.outcome);
      summary.categoriesCreated = plan.categories.length;
      return finish(summary, client, started, options);
    }

    journal = Journal.open(path, { append: Boolean(previous) });
    summary.journal = path;
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
    for (const r of [...resumed, ...result.products]) {
      tally(summary, r.outcome);
      failures.push(...r.failures);
    }
    return await finish(summary, client, started, options);
  } finally {
    journal?.close();
    lock?.release();
  }
}

function validationRow(e: RowError): ReportRow {
  const where = e.column !== undefined ? `column ${e.column}${e.header ? ` (${e.header})` : ''}: ` : '';
  return { line: e.line, key: e.key ?? '', stage: 'validation', reason: `${where}${e.message}` };
}

function failuresOf(p: Plan['products'][number]): ReportRow[] {
  if (p.action === 'fail' && p.rowFailures.length === 0) return [{ line: p.line, key: p.key, stage: 'plan', reason: p.reason ?? 'failed' }];
  return p.rowFailures.map((f) => ({ ...f, stage: 'plan' as const }));
}

function planOutcome(action: Plan['products'][number]['action']): ProductResult['outcome'] {
  return ({ create: 'created', update: 'updated', unchanged: 'unchanged', skip: 'skipped', fail: 'failed' } as const)[action];
}

function tally(summary: ImportSummary, outcome: ProductResult['outcome']): void {
  summary[outcome]++;
}

function baseSummary(catalog: Catalog, plan: Plan, options: ImportOptions, failures: ReportRow[]): ImportSummary {
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
    earlierRunUnfinished: false,
    interrupted: false,
    failures,
  };
}

async function finish(summary: ImportSummary, client: StoreClient, started: number, options: ImportOptions): Promise<ImportSummary> {
  const stats = client.stats();
  summary.requests = stats.requests;
  summary.retries = stats.retries;
  summary.rateLimited = stats.rateLimited;
  summary.seconds = Math.round((Date.now() - started) / 100) / 10;
  if (options.report) await writeReport(options.report, summary.failures);
  return summary;
}
