import { stringify } from 'csv-stringify';
import { QUOTE_LINE_BREAKS, escapeFormula, unescapeFormula } from '../../output/format.js';
import { CannotWriteError, openAtomic } from '../../util/atomic-file.js';
import { diskErrorReason } from '../../util/disk-error.js';
import { StoreError } from '../../errors.js';
import { type BulkFile, REPORT_COLUMNS } from './bulk-file.js';
import type { RowError } from './row-error.js';

/** `--report FILE` could not be written (a full or read-only disk): one sentence naming it and the cause (exit 1). */
export class ReportError extends StoreError {
  constructor(message: string) {
    super(message, 1);
  }
}

/** One row that was not done, for `--report FILE`, the summary's `failures` and the lines on stderr. */
export interface ReportRow {
  /** The input's line (0 for a record the input does not name, e.g. zeroed by --zero-missing). */
  line: number;
  /** The row's key: handle or SKU (import), SKU (sync), order id (invoices). */
  key: string;
  /** `verify`: the store confirmed the write and, read back, does not hold it (`--verify`). */
  stage: 'validation' | 'plan' | 'request' | 'verify';
  reason: string;
  /** 1-based column and its header, when the problem is in one cell. */
  column?: number;
  header?: string;
  /** Every line of the product the row belongs to, when they are not done with it (import). */
  lines?: number[];
}

/**
 * `--report FILE` of every bulk command (docs/csv.md, "Reports"): the rows of the input that were not done, each
 * with its own cells as the input has them, followed by `line` (where it was), `error` (what was wrong; several
 * problems of one row joined by " | ") and `stage` (`validation`, `plan` or `request`). Same delimiter as the
 * input, UTF-8 (with a byte order mark when the input had one or was not UTF-8, so Excel shows the accents).
 * The reader skips those three columns, so the report, fixed, is the next input as it is.
 *
 * The input is read again for the rows (streamed: nothing of it is kept in memory for the report). A failure
 * with `lines` (a product's rows) repeats them all, so that the product comes back whole; one with line 0 (a
 * record the input does not name, e.g. zeroed by --zero-missing) gets a row with only its key.
 */

export interface ReportSource {
  /** The input as it was read; undefined when it could not be (then the report holds only line, error and stage). */
  file: BulkFile | undefined;
  /** The name (as read) of the column that holds a row's key, for failures without a line. */
  keyColumn?: string;
}

/** Joins the problems of one row in its `error` cell. */
const JOIN = ' | ';

export async function writeReport(path: string, source: ReportSource, rows: ReportRow[]): Promise<void> {
  try {
    await writeRows(path, source, rows);
  } catch (error) {
    if (error instanceof ReportError) throw error;
    if (error instanceof CannotWriteError) throw new ReportError(`--report: ${error.message.replace(/^Cannot/, 'cannot')}`);
    throw new ReportError(`--report: cannot write ${path}: ${diskErrorReason(error)}.`);
  }
}

/** A row error found before anything was sent, as a row not done. */
export function validationRow(e: RowError): ReportRow {
  return { line: e.line, key: e.key ?? '', stage: 'validation', reason: e.message, column: e.column, header: e.header };
}

/**
 * The report, written where a report that cannot be written must not hide the result it belongs to: a file
 * refused before anything was sent (its row errors listed, exit 2) or a run's summary (what was written, what
 * failed). The report's problem is kept as `reportProblem`, said as one more line, instead of replacing them.
 */
export async function writeReportKeepingResult(result: { reportProblem?: string }, path: string, source: ReportSource, rows: ReportRow[]): Promise<void> {
  try {
    await writeReport(path, source, rows);
  } catch (error) {
    if (!(error instanceof ReportError)) throw error;
    result.reportProblem = error.message;
  }
}

/** A failure's text in the `error` cell: where in the row (the line is a column of its own), then what. */
export function reportError(row: ReportRow): string {
  const where = row.column !== undefined ? `column ${row.column}${row.header ? ` (${row.header})` : ''}: ` : '';
  return `${where}${row.reason}`;
}

interface LineReport {
  errors: string[];
  stage: ReportRow['stage'];
}

async function writeRows(path: string, source: ReportSource, rows: ReportRow[]): Promise<void> {
  const byLine = new Map<number, LineReport>();
  const keyOnly: ReportRow[] = [];
  for (const row of rows) {
    if (row.line <= 0) {
      keyOnly.push(row);
      continue;
    }
    const entry = byLine.get(row.line) ?? { errors: [], stage: row.stage };
    entry.errors.push(reportError(row));
    byLine.set(row.line, entry);
  }
  // The other rows of a product that failed: repeated, so that the report holds the product whole.
  for (const row of rows) {
    for (const line of row.lines ?? []) {
      if (!byLine.has(line)) byLine.set(line, { errors: [`not done: its product failed on line ${row.line}`], stage: row.stage });
    }
  }

  const input = source.file?.again();
  const out = await openAtomic(path);
  const bom = input !== undefined && (input.encoding.bom || input.encoding.encoding !== 'utf-8');
  if (bom) out.out.write('\uFEFF');
  const csv = stringify({ delimiter: input?.delimiter ?? ',', quoted_match: QUOTE_LINE_BREAKS });
  csv.pipe(out.out);
  let width = 0;
  let keyIndex: number | undefined;
  let sawHeader = false;
  const safe = (cell: string) => escapeFormula(unescapeFormula(cell));
  try {
    for await (const event of input?.read() ?? []) {
      if (event.kind === 'header') {
        sawHeader = true;
        const own = input!.headerCells.slice(0, input!.reportColumnsAt ?? input!.headerCells.length);
        width = own.length;
        keyIndex = event.header.columns.find((c) => c.name.toLowerCase() === source.keyColumn?.toLowerCase())?.index;
        csv.write([...own.map(safe), ...REPORT_COLUMNS]);
        // A problem of the header has no row of its own: a row of blank cells carries it (read back, it is blank).
        const headerErrors = byLine.get(event.header.line);
        if (headerErrors) csv.write([...Array<string>(width).fill(''), String(event.header.line), safe(headerErrors.errors.join(JOIN)), headerErrors.stage]);
        continue;
      }
      if (event.kind !== 'row') continue;
      const entry = byLine.get(event.line);
      if (!entry) continue;
      const cells = Array.from({ length: width }, (_, i) => safe(event.cells[i] ?? ''));
      csv.write([...cells, String(event.line), safe(entry.errors.join(JOIN)), entry.stage]);
    }
    if (!sawHeader) {
      // No header could be read (an empty file, a text that is not CSV): the report says why, in its own columns.
      csv.write([...REPORT_COLUMNS]);
      for (const [line, entry] of byLine) csv.write([String(line), safe(entry.errors.join(JOIN)), entry.stage]);
    }
    for (const row of keyOnly) {
      const cells = Array<string>(width).fill('');
      if (keyIndex !== undefined && keyIndex < width) cells[keyIndex] = safe(row.key);
      csv.write([...cells, '', safe(reportError(row)), row.stage]);
    }
    csv.end();
    await out.commit();
  } catch (error) {
    csv.destroy();
    await out.abort();
    throw error;
  }
}
