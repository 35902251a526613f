import { basename } from 'node:path';
import { plural } from '../output/format.js';
import { listLocations } from '../api/locations.js';
import { type Product, productPages } from '../api/products.js';
import { getStore } from '../api/store.js';
import { updateVariant, type Variant } from '../api/variants.js';
import { AuthError, StoreError, UsageError } from '../client/errors.js';
import type { StoreClient } from '../client/index.js';
import { type RowError, type VariantSpec, formatRowError, notUtf8, stock } from './import/catalog.js';
import { readCsv } from './import/csv-source.js';
import { readMoney } from './money.js';
import { pool } from './import/executor.js';
import type { BulkProgress } from './import/index.js';
import { stateDir } from './import/journal.js';
import { acquireLock, lockKey } from './import/lock.js';
import { type Body, type StoreSnapshot, ambiguousSku, indexSnapshot, variantDiff } from './import/planner.js';
import { type ReportRow, writeReport } from './import/report.js';

/**
 * `store variants sync FILE` (CSV.md §2): stock and prices by SKU. Only the columns present are compared
 * and only the variants that differ are written (one PUT each). SKUs the store does not have are reported,
 * never created. `--zero-missing` empties the stock of store variants the file leaves out, guarded against
 * truncated feeds.
 */

export interface SyncOptions {
  file: string;
  zeroMissing?: boolean;
  force?: boolean;
  dryRun?: boolean;
  report?: string;
  apiUrl: string;
  storeId: string | number;
  /** With the store id, the key of the lock shared with `products import`. */
  appId?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  concurrency?: number;
  onProgress?: (event: BulkProgress) => void;
}

export interface SyncSummary {
  file: string;
  dryRun: boolean;
  rows: number;
  updated: number;
  unchanged: number;
  notFound: number;
  zeroed: number;
  failed: number;
  plannedWrites: number;
  requests: number;
  retries: number;
  rateLimited: number;
  seconds: number;
  interrupted: boolean;
  notFoundSkus: string[];
  failures: ReportRow[];
}

export class SyncInvalidError extends StoreError {
  constructor(
    readonly errors: RowError[],
    file: string,
  ) {
    super(`${file} has ${errors.length} ${errors.length === 1 ? 'error' : 'errors'}; nothing was sent.`, 2);
  }
}

const SYNC_DECIMALS = ['price', 'promotional_price', 'cost'] as const;

interface SyncFile {
  rows: VariantSpec[];
  errors: RowError[];
  locationColumns: string[];
}

/** Reads and checks the whole feed: sku required and unique, stock whole and ≥ 0, prices decimal. */
export async function readSyncFile(path: string): Promise<SyncFile> {
  const file = basename(path);
  const errors: RowError[] = [];
  const rows: VariantSpec[] = [];
  const seen = new Map<string, number>();
  let header: { index: number; name: string; kind: 'sku' | 'stock' | 'decimal'; field?: string }[] | undefined;
  const locationColumns: string[] = [];
  let width = 0;
  for await (const event of readCsv(path)) {
    if (event.kind === 'problem') {
      errors.push({ file, line: event.line, column: event.column !== undefined ? event.column + 1 : undefined, message: event.message });
      continue;
    }
    if (!header) {
      header = [];
      width = event.cells.length;
      for (const [index, raw] of event.cells.entries()) {
        const name = raw.trim();
        const lower = name.toLowerCase();
        if (lower === 'sku') header.push({ index, name, kind: 'sku' });
        else if (lower === 'stock') header.push({ index, name, kind: 'stock' });
        else if (lower.startsWith('stock:') && name.length > 6) {
          header.push({ index, name, kind: 'stock', field: name.slice(6).trim() });
          locationColumns.push(name.slice(6).trim());
        } else if ((SYNC_DECIMALS as readonly string[]).includes(lower)) header.push({ index, name, kind: 'decimal', field: lower });
        else {
          errors.push({
            file,
            line: event.line,
            column: index + 1,
            header: name,
            message: `unknown column "${name}"; a sync file has sku, stock, stock:<location>, price, promotional_price and cost`,
          });
        }
      }
      if (!header.some((h) => h.kind === 'sku')) errors.push({ file, line: event.line, message: 'no "sku" column: every row names a variant by SKU' });
      continue;
    }
    const v: VariantSpec = { line: event.line, sku: '', values: [], decimals: {}, texts: {}, stockAt: {}, custom: {} };
    const before = errors.length;
    const fail = (h: { index: number; name: string }, message: string) =>
      errors.push({ file, line: event.line, column: h.index + 1, header: h.name, message });
    if (event.cells.length !== width) {
      errors.push({ file, line: event.line, message: `the row has ${event.cells.length} cells but the header has ${width} columns` });
    }
    for (const h of header) {
      const value = (event.cells[h.index] ?? '').trim();
      if (value.includes('\uFFFD')) {
        fail(h, notUtf8);
        continue;
      }
      if (h.kind === 'sku') {
        if (value === '') fail(h, 'the SKU is empty; every row needs one');
        else if (seen.has(value)) fail(h, `SKU "${value}" is already used on line ${seen.get(value)}`);
        else seen.set(value, event.line);
        v.sku = value;
        continue;
      }
      if (value === '') continue;
      if (h.kind === 'stock') {
        const parsed = stock(value);
        if (typeof parsed !== 'number') fail(h, parsed.error);
        else if (h.field) v.stockAt[h.field] = parsed;
        else v.stock = parsed;
      } else {
        const parsed = readMoney(value);
        if (typeof parsed !== 'string') fail(h, parsed.error);
        else v.decimals[h.field as (typeof SYNC_DECIMALS)[number]] = parsed;
      }
    }
    if (errors.length === before) rows.push(v);
  }
  if (!header && errors.length === 0) errors.push({ file, line: 1, message: 'the file is empty; expected a header row' });
  return { rows, errors, locationColumns };
}

export async function runSync(client: StoreClient, options: SyncOptions): Promise<SyncSummary> {
  const started = Date.now();
  const file = basename(options.file);
  const emit = (phase: string, done: number, total: number | undefined, writesDone: number, writesTotal: number) => {
    const stats = client.stats();
    options.onProgress?.({ phase, done, total, writesDone, writesTotal, requests: stats.requests, rateLimited: stats.rateLimited });
  };
  const feed = await readSyncFile(options.file);
  if (feed.errors.length > 0) {
    if (options.report) {
      await writeReport(options.report, feed.errors.map((e) => ({ line: e.line, key: '', stage: 'validation', reason: formatRowError(e).replace(`${file}, line ${e.line}, `, '') })));
    }
    throw new SyncInvalidError(feed.errors, file);
  }

  const lock = options.dryRun ? undefined : acquireLock(stateDir(options.env), lockKey(options.storeId, options.appId), 'variants sync');
  try {
    emit('fetching', 0, undefined, 0, 0);
    const products: Product[] = [];
    const needsLocations = feed.locationColumns.length > 0 || feed.rows.some((r) => r.stock !== undefined) || options.zeroMissing;
    const [store, locations] = await Promise.all([
      getStore(client),
      needsLocations ? listLocations(client) : Promise.resolve([]),
      (async () => {
        for await (const page of productPages(client)) {
          products.push(...page.products);
          emit('fetching', products.length, page.total, 0, 0);
        }
      })(),
    ]);
    const snapshot: StoreSnapshot = { store, products, categories: [], locations, customFields: [] };
    const ix = indexSnapshot(snapshot);
    for (const location of feed.locationColumns) {
      if (!ix.locationByKey.has(location.toLowerCase())) {
        throw new UsageError(`${file}: column "stock:${location}" names no location of the store (use a location's name or id). Nothing was sent.`);
      }
    }

    const summary: SyncSummary = {
      file,
      dryRun: Boolean(options.dryRun),
      rows: feed.rows.length,
      updated: 0,
      unchanged: 0,
      notFound: 0,
      zeroed: 0,
      failed: 0,
      plannedWrites: 0,
      requests: 0,
      retries: 0,
      rateLimited: 0,
      seconds: 0,
      interrupted: false,
      notFoundSkus: [],
      failures: [],
    };
    const writes: { line: number; sku: string; variant: Variant; body: Body; zero: boolean }[] = [];
    const fileSkus = new Set(feed.rows.map((r) => r.sku));
    for (const row of feed.rows) {
      const holders = ix.bySku.get(row.sku) ?? [];
      if (holders.length === 0) {
        summary.notFound++;
        summary.notFoundSkus.push(row.sku);
        continue;
      }
      if (holders.length > 1) {
        summary.failed++;
        summary.failures.push({
          line: row.line,
          key: row.sku,
          stage: 'plan',
          reason: ambiguousSku(row.sku, holders),
        });
        continue;
      }
      const body = variantDiff(row, holders[0]!.variant, ix);
      if (Object.keys(body).length === 0) summary.unchanged++;
      else writes.push({ line: row.line, sku: row.sku, variant: holders[0]!.variant, body, zero: false });
    }

    if (options.zeroMissing) {
      const storeSkus = new Set(ix.bySku.keys());
      const named = [...fileSkus].filter((s) => storeSkus.has(s)).length;
      if (named * 2 < storeSkus.size && !options.force) {
        throw new UsageError(
          `${file} names ${named} of the store's ${plural(storeSkus.size, 'SKU')}, fewer than half: --zero-missing would empty the stock of ${plural(storeSkus.size - named, 'variant')}. A truncated feed? Add --force if this is intended. Nothing was sent.`,
        );
      }
      for (const product of products) {
        for (const variant of product.variants) {
          if (!variant.sku || fileSkus.has(variant.sku)) continue;
          if (variant.stock === null || variant.stock === undefined || variant.stock === 0) continue;
          const levels = (variant.inventory_levels ?? []).filter((l) => (l.stock ?? 0) !== 0);
          const body: Body = levels.length > 0 ? { inventory_levels: levels.map((l) => ({ location_id: l.location_id, stock: 0 })) } : { stock: 0 };
          writes.push({ line: 0, sku: variant.sku, variant, body, zero: true });
        }
      }
    }
    summary.plannedWrites = writes.length;

    if (options.dryRun) {
      for (const w of writes) w.zero ? summary.zeroed++ : summary.updated++;
    } else {
      let done = 0;
      emit('writing', 0, writes.length, 0, writes.length);
      try {
        await pool(writes, options.concurrency ?? 12, async (w) => {
          if (options.signal?.aborted) throw new SyncInterrupted();
          try {
            await updateVariant(client, w.variant.product_id, w.variant.id, w.body);
            w.zero ? summary.zeroed++ : summary.updated++;
          } catch (error) {
            if (error instanceof AuthError) throw error;
            summary.failed++;
            summary.failures.push({ line: w.line, key: w.sku, stage: 'request', reason: error instanceof Error ? error.message : String(error) });
          }
          done++;
          emit('writing', done, writes.length, done, writes.length);
        });
      } catch (error) {
        if (!(error instanceof SyncInterrupted)) throw error;
        summary.interrupted = true;
      }
    }
    const stats = client.stats();
    summary.requests = stats.requests;
    summary.retries = stats.retries;
    summary.rateLimited = stats.rateLimited;
    summary.seconds = Math.round((Date.now() - started) / 100) / 10;
    if (options.report) await writeReport(options.report, summary.failures);
    return summary;
  } finally {
    lock?.release();
  }
}

class SyncInterrupted extends Error {}
