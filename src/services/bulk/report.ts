import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { escapeFormula } from '../../output/format.js';

/** One failed row of `--report FILE` (docs/csv.md, "Reports"), for every bulk command. */
export interface ReportRow {
  line: number;
  /** The row's key: handle or SKU (import), SKU (sync), order id (invoices). */
  key: string;
  stage: 'validation' | 'plan' | 'request';
  reason: string;
}

/** Writes the failed rows, by line, as CSV: line, key, stage, reason. */
export async function writeReport(path: string, rows: ReportRow[]): Promise<void> {
  const out = createWriteStream(path);
  const csv = stringify({ header: true, columns: ['line', 'key', 'stage', 'reason'] });
  csv.pipe(out);
  const sorted = [...rows].sort((a, b) => a.line - b.line);
  // Cells echo the input file, which a spreadsheet would run as formulas: keep them inert.
  for (const row of sorted) {
    csv.write([String(row.line), escapeFormula(row.key), row.stage, escapeFormula(row.reason)]);
  }
  csv.end();
  await finished(out);
}
