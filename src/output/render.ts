import { stringify } from 'csv-stringify/sync';
import { type Column, type OutputFormat, QUOTE_LINE_BREAKS, cellText, displayWidth, escapeFormula, fitColumns, terminalSafe, toTsvLine, truncateToWidth } from './format.js';

/** One CSV line (formula-escaped), written by csv-stringify like export and the failure reports. */
export function toCsvLine(cells: string[]): string {
  return stringify([cells.map(escapeFormula)], { record_delimiter: 'unix', quoted_match: QUOTE_LINE_BREAKS }).replace(/\n$/, '');
}

/**
 * Writes rows in the chosen format. Tables need every row to size their columns; tsv and csv stream,
 * so `store orders list --all` can print rows as the pages arrive (call `writeRows` per page with
 * `header` only on the first).
 */
export async function renderRows<Row>(
  rows: Row[],
  columns: Column<Row>[],
  format: Exclude<OutputFormat, 'json'>,
  write: (text: string) => void,
  opts: { header?: boolean; color?: boolean; width?: number } = {},
): Promise<void> {
  const header = opts.header ?? true;
  const cells = rows.map((row) => columns.map((c) => cellText(c.get(row))));
  if (format === 'table') {
    if (rows.length > 0) write(tableText(cells, columns, { color: opts.color ?? false, width: opts.width ?? Number.POSITIVE_INFINITY }));
    return;
  }
  const line = format === 'csv' ? toCsvLine : toTsvLine;
  let out = '';
  if (header && (format === 'csv' || rows.length > 0)) out += line(columns.map((c) => c.header)) + '\n';
  for (const row of cells) out += line(row) + '\n';
  if (out) write(out);
}

/** "created_at" → "CREATED AT": a table's header names the same field as the JSON and TSV header. */
function tableHeader(field: string): string {
  return field.replace(/_/g, ' ').toUpperCase();
}

/**
 * Columns two spaces apart, headers in capitals (bold with colour), cut to `width` terminal columns. Padding
 * is measured on the plain text, so colour codes never shift a column; a cell holds one line.
 */
function tableText<Row>(cells: string[][], columns: Column<Row>[], opts: { color: boolean; width: number }): string {
  const headers = columns.map((c) => terminalSafe(tableHeader(c.header)));
  const oneLine = cells.map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, ' ')));
  const widths = fitColumns(oneLine, headers, columns.map((c) => c.shrink), opts.width);
  const lineOf = (row: string[], style?: (text: string) => string) =>
    row
      .map((cell, i) => {
        const text = truncateToWidth(cell, widths[i]!);
        const padding = i === row.length - 1 ? '' : ' '.repeat(Math.max(0, widths[i]! - displayWidth(text)));
        return (style ? style(text) : text) + padding;
      })
      .join('  ')
      .trimEnd();
  const bold = opts.color ? (text: string) => `\u001B[1m${text}\u001B[22m` : undefined;
  return [lineOf(headers, bold), ...oneLine.map((row) => lineOf(row))].join('\n') + '\n';
}

/** A single record as aligned "key: value" lines (tables of one row read badly). */
export function renderRecord(fields: [string, unknown][], write: (text: string) => void): void {
  const keys = fields.map(([k]) => terminalSafe(k));
  const width = Math.max(0, ...keys.map(displayWidth));
  write(fields.map(([, v], i) => `${keys[i]}${' '.repeat(width - displayWidth(keys[i]!))}  ${cellText(v)}`).join('\n') + '\n');
}
