import { type Column, type OutputFormat, cellText, terminalSafe, toCsvLine, toTsvLine } from './format.js';

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
  opts: { header?: boolean; color?: boolean } = {},
): Promise<void> {
  const header = opts.header ?? true;
  const cells = rows.map((row) => columns.map((c) => cellText(c.get(row))));
  if (format === 'table') {
    if (rows.length === 0) return;
    const { default: Table } = await import('cli-table3');
    const table = new Table({
      head: columns.map((c) => terminalSafe(c.header).toUpperCase()),
      style: { head: opts.color ? ['bold'] : [], border: [], compact: true },
      chars: {
        top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '',
        'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
      },
    });
    table.push(...cells);
    write(table.toString().split('\n').map((l) => l.replace(/^ /, '').trimEnd()).join('\n') + '\n');
    return;
  }
  const line = format === 'csv' ? toCsvLine : toTsvLine;
  let out = '';
  if (header && (format === 'csv' || rows.length > 0)) out += line(columns.map((c) => c.header)) + '\n';
  for (const row of cells) out += line(row) + '\n';
  if (out) write(out);
}

/** A single record as aligned "key: value" lines (tables of one row read badly). */
export function renderRecord(fields: [string, unknown][], write: (text: string) => void): void {
  const width = Math.max(0, ...fields.map(([k]) => k.length));
  write(fields.map(([k, v]) => `${terminalSafe(k).padEnd(width)}  ${cellText(v)}`).join('\n') + '\n');
}
