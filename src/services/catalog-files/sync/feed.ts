import { basename } from 'node:path';
import { readCsv } from '../../bulk/csv.js';
import type { RowError } from '../../bulk/row-error.js';
import { type VariantSpec } from '../catalog-model.js';
import { notUtf8 } from '../catalog.js';
import { stock } from '../catalog-cells.js';
import type { SyncFeed } from '../sync-types.js';
import { readMoney } from '../../common/money.js';

/**
 * The sync feed (docs/csv.md, "Stock and prices") read and checked whole: sku required and unique, stock
 * whole and ≥ 0, prices decimal. Only the columns present are read; an empty cell leaves the value as it is.
 */

const SYNC_DECIMALS = ['price', 'promotional_price', 'cost'] as const;

interface FeedColumn {
  index: number;
  name: string;
  kind: 'sku' | 'stock' | 'decimal';
  /** The location of a `stock:<location>` column; the field of a decimal column. */
  field?: string;
}

export async function readSyncFile(path: string): Promise<SyncFeed> {
  const file = basename(path);
  const feed: SyncFeed = { rows: [], errors: [], locationColumns: [], headers: [] };
  const seen = new Map<string, number>();
  let header: { columns: FeedColumn[]; width: number } | undefined;
  for await (const event of readCsv(path)) {
    if (event.kind === 'problem') {
      feed.errors.push({ file, line: event.line, column: event.column !== undefined ? event.column + 1 : undefined, message: event.message });
    } else if (!header) {
      header = { columns: readHeader(file, event, feed), width: event.cells.length };
      feed.headers = event.cells.map((h) => h.trim());
    } else {
      const row = readRow(file, event, header, seen, feed.errors);
      if (row) feed.rows.push(row);
    }
  }
  if (!header && feed.errors.length === 0) feed.errors.push({ file, line: 1, message: 'the file is empty; expected a header row' });
  return feed;
}

function readHeader(file: string, record: { line: number; cells: string[] }, feed: SyncFeed): FeedColumn[] {
  const columns: FeedColumn[] = [];
  for (const [index, raw] of record.cells.entries()) {
    const name = raw.trim();
    const lower = name.toLowerCase();
    if (lower === 'sku') columns.push({ index, name, kind: 'sku' });
    else if (lower === 'stock') columns.push({ index, name, kind: 'stock' });
    else if (lower.startsWith('stock:') && name.length > 6) {
      columns.push({ index, name, kind: 'stock', field: name.slice(6).trim() });
      feed.locationColumns.push(name.slice(6).trim());
    } else if ((SYNC_DECIMALS as readonly string[]).includes(lower)) columns.push({ index, name, kind: 'decimal', field: lower });
    else {
      feed.errors.push({
        file,
        line: record.line,
        column: index + 1,
        header: name,
        message: `unknown column "${name}"; a sync file has sku, stock, stock:<location>, price, promotional_price and cost`,
      });
    }
  }
  if (!columns.some((h) => h.kind === 'sku')) feed.errors.push({ file, line: record.line, message: 'no "sku" column: every row names a variant by SKU' });
  return columns;
}

/** One row as a variant spec, or undefined when it has errors (added to `errors`). */
function readRow(
  file: string,
  record: { line: number; cells: string[] },
  header: { columns: FeedColumn[]; width: number },
  seen: Map<string, number>,
  errors: RowError[],
): VariantSpec | undefined {
  const { line, cells } = record;
  const v: VariantSpec = { line, sku: '', values: [], decimals: {}, texts: {}, stockAt: {}, custom: {} };
  const before = errors.length;
  const fail = (h: FeedColumn, message: string) => errors.push({ file, line, column: h.index + 1, header: h.name, message });
  if (cells.length !== header.width) {
    errors.push({ file, line, message: `the row has ${cells.length} cells but the header has ${header.width} columns` });
  }
  for (const h of header.columns) {
    const value = (cells[h.index] ?? '').trim();
    if (value.includes('\uFFFD')) {
      fail(h, notUtf8);
      continue;
    }
    if (h.kind === 'sku') {
      if (value === '') fail(h, 'the SKU is empty; every row needs one');
      else if (seen.has(value)) fail(h, `SKU "${value}" is already used on line ${seen.get(value)}`);
      else seen.set(value, line);
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
  return errors.length === before ? v : undefined;
}
