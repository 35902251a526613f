import { stringify } from 'csv-stringify';
import { StoreError } from '../../errors.js';
import { QUOTE_LINE_BREAKS, escapeFormula } from '../../output/format.js';
import { CannotWriteError, openAtomic } from '../../util/atomic-file.js';
import { diskErrorReason } from '../../util/disk-error.js';

/** `--report FILE` could not be written (a full or read-only disk): one sentence naming it and the cause (exit 1). */
export class ReportError extends StoreError {
  constructor(message: string) {
    super(message, 1);
  }
}

/** One failed row of `--report FILE` (docs/csv.md, "Reports"), for every bulk command. */
export interface ReportRow {
  line: number;
  /** The row's key: handle or SKU (import), SKU (sync), order id (invoices). */
  key: string;
  /** `verify`: the store confirmed the write and, read back, does not hold it (`--verify`). */
  stage: 'validation' | 'plan' | 'request' | 'verify';
  reason: string;
}

/** Writes the failed rows, by line, as CSV: line, key, stage, reason; all or nothing, like every file `store` replaces. */
export async function writeReport(path: string, rows: ReportRow[]): Promise<void> {
  try {
    await writeRows(path, rows);
  } catch (error) {
    if (error instanceof CannotWriteError) throw new ReportError(`--report: ${error.message.replace(/^Cannot/, 'cannot')}`);
    throw new ReportError(`--report: cannot write ${path}: ${diskErrorReason(error)}.`);
  }
}

/**
 * The report, written where a report that cannot be written must not hide the result it belongs to: a file
 * refused before anything was sent (its row errors listed, exit 2) or a run's summary (what was written, what
 * failed). The report's problem is kept as `reportProblem`, said as one more line, instead of replacing them.
 */
export async function writeReportKeepingResult(result: { reportProblem?: string }, path: string, rows: ReportRow[]): Promise<void> {
  try {
    await writeReport(path, rows);
  } catch (error) {
    if (!(error instanceof ReportError)) throw error;
    result.reportProblem = error.message;
  }
}

async function writeRows(path: string, rows: ReportRow[]): Promise<void> {
  const file = await openAtomic(path);
  const csv = stringify({ header: true, columns: ['line', 'key', 'stage', 'reason'], quoted_match: QUOTE_LINE_BREAKS });
  csv.pipe(file.out);
  const sorted = [...rows].sort((a, b) => a.line - b.line);
  // Cells echo the input file, which a spreadsheet would run as formulas: keep them inert.
  for (const row of sorted) {
    csv.write([String(row.line), escapeFormula(row.key), row.stage, escapeFormula(row.reason)]);
  }
  csv.end();
  await file.commit();
}
