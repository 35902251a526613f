import { basename } from 'node:path';
import { BulkFile, type BulkFileOptions, type FileColumn, cellValue } from '../../bulk/bulk-file.js';
import type { RowError } from '../../bulk/row-error.js';
import type { VariantSpec } from '../catalog-model.js';
import { stock } from '../catalog-cells.js';
import { isCatalogColumn, syncColumnName } from '../dialects.js';
import type { SyncFeed } from '../sync-types.js';
import { readMoney } from '../../common/money.js';

/**
 * The sync feed (docs/csv.md, "Stock and prices") read and checked whole, through the file model
 * (bulk/bulk-file.ts): sku required and unique, stock whole and ≥ 0, prices decimal. Only the columns present
 * are read; an empty cell leaves the value as it is. The admin export's Spanish and Portuguese names of these
 * columns (`Precio`, `Estoque`…) are read as import reads them; the catalog's other columns (a whole export fed
 * to sync) are said once and left alone.
 */

const SYNC_DECIMALS = ['price', 'promotional_price', 'cost'] as const;

interface FeedColumn {
  index: number;
  /** The header as the file has it (messages name it). */
  header: string;
  kind: 'sku' | 'stock' | 'decimal';
  /** The location of a `stock:<location>` column; the field of a decimal column. */
  field?: string;
}

export interface ReadSyncOptions extends BulkFileOptions {
  /** How messages name the file (a feed downloaded from a URL is named after it); the file's base name by default. */
  name?: string;
}

export async function readSyncFile(path: string, options: ReadSyncOptions = {}): Promise<SyncFeed> {
  const file = options.name ?? basename(path);
  const feed: SyncFeed = { file, rows: [], errors: [], invalidRows: [], locationColumns: [], headers: [], canonical: [] };
  const opened = await BulkFile.open(path, options, file);
  if ('problem' in opened) {
    feed.errors.push(opened.problem);
    return feed;
  }
  feed.source = opened;
  const seen = new Map<string, number>();
  let columns: FeedColumn[] | undefined;
  for await (const event of opened.read()) {
    if (event.kind === 'problem') {
      feed.errors.push(event.error);
      if (!columns) feed.headerBroken = true;
    } else if (event.kind === 'header') {
      columns = readHeader(file, event.header.line, event.header.columns, feed, options);
    } else if (columns?.some((c) => c.kind === 'sku')) {
      // Rows are checked even when a column is unknown, so that one pass lists every error.
      readRow(file, event, columns, seen, feed);
    }
  }
  if (!columns && feed.errors.length === 0) feed.errors.push({ file, line: 1, message: 'the file is empty; expected a header row' });
  return feed;
}

function readHeader(file: string, line: number, header: FileColumn[], feed: SyncFeed, options: ReadSyncOptions): FeedColumn[] {
  const columns: FeedColumn[] = [];
  const notSynced: string[] = [];
  for (const { index, header: text, name } of header) {
    const canonical = syncColumnName(name);
    feed.headers.push(name);
    feed.canonical.push(canonical ?? '');
    if (canonical === 'sku') columns.push({ index, header: text, kind: 'sku' });
    else if (canonical === 'stock') columns.push({ index, header: text, kind: 'stock' });
    else if (canonical?.startsWith('stock:')) {
      const location = canonical.slice(6);
      columns.push({ index, header: text, kind: 'stock', field: location });
      feed.locationColumns.push(location);
    } else if (canonical !== undefined) columns.push({ index, header: text, kind: 'decimal', field: canonical });
    else if (isCatalogColumn(name)) notSynced.push(text);
    else {
      feed.errors.push({
        file,
        line,
        column: index + 1,
        header: text,
        message: `unknown column "${name}"; a sync file has sku, stock, stock:<location>, price, promotional_price and cost: rename it with --map '${text}=COLUMN', or leave it out with --map '${text}='`,
      });
      feed.headerBroken = true;
    }
  }
  if (notSynced.length > 0) {
    options.onNotice?.(`${file}: not synced (variants sync writes stock and prices; products import reads the rest): ${notSynced.join(', ')}.`);
  }
  if (!columns.some((h) => h.kind === 'sku')) {
    feed.errors.push({ file, line, message: `no "sku" column; every row names a variant by SKU: add the column, or name yours with --map 'YOUR_COLUMN=sku'` });
    feed.headerBroken = true;
  }
  return columns;
}

/** One row as a variant spec, or its errors (and the SKU it names, when readable) in `invalidRows`. */
function readRow(file: string, record: { line: number; cells: string[]; problems: RowError[] }, columns: FeedColumn[], seen: Map<string, number>, feed: SyncFeed): void {
  const { line, cells } = record;
  const v: VariantSpec = { line, sku: '', values: [], decimals: {}, texts: {}, stockAt: {}, custom: {} };
  const errors: RowError[] = [...record.problems];
  const fail = (h: FeedColumn, message: string) => errors.push({ file, line, column: h.index + 1, header: h.header, message });
  for (const h of columns) {
    const raw = cells[h.index] ?? '';
    if (raw.includes('\uFFFD')) continue; // said by the file model
    const value = cellValue(raw);
    if (h.kind === 'sku') {
      if (value === '') fail(h, 'the SKU is empty; every row names its variant by SKU');
      else if (seen.has(value)) fail(h, `SKU "${value}" is already used on line ${seen.get(value)}; keep one row per SKU`);
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
  if (errors.length === 0) {
    feed.rows.push(v);
    return;
  }
  for (const e of errors) feed.errors.push({ ...e, key: v.sku || undefined });
  feed.invalidRows.push({ line, sku: v.sku });
}
