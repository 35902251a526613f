import { stringify } from 'csv-stringify';
import { QUOTE_LINE_BREAKS, escapeFormula } from '../../output/format.js';
import { openAtomic } from '../../util/atomic-file.js';

/** One failed row of `--report FILE` (docs/csv.md, "Reports"), for every bulk command. */
export interface ReportRow {
  line: number;
  /** The row's key: handle or SKU (import), SKU (sync), order id (invoices). */
  key: string;
  stage: 'validation' | 'plan' | 'request';
  reason: string;
}

/** Writes the failed rows, by line, as CSV: line, key, stage, reason; all or nothing, like every file `store` replaces. */
export async function writeReport(path: string, rows: ReportRow[]): Promise<void> {
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
