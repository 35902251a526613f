import { stringify } from 'csv-stringify/sync';
import { normalizeTimestamp, parseTimestamp } from '../platform/timestamps.js';
import {
  type Column,
  type ColumnFit,
  type OutputFormat,
  QUOTE_LINE_BREAKS,
  cellText,
  displayWidth,
  escapeFormula,
  layoutTable,
  relativeTime,
  stateColour,
  terminalSafe,
  toTsvLine,
  truncateToWidth,
} from './format.js';

/** One CSV line (formula-escaped), written by csv-stringify like export and the failure reports. */
export function toCsvLine(cells: string[]): string {
  return stringify([cells.map(escapeFormula)], { record_delimiter: 'unix', quoted_match: QUOTE_LINE_BREAKS }).replace(/\n$/, '');
}

/** How a table is drawn: colour, the terminal's width, `--wide`, and the clock relative times are read against. */
export interface TableOptions {
  color?: boolean;
  width?: number;
  /** Every column, nothing cut (`--wide`). */
  wide?: boolean;
  /** Milliseconds since the epoch; relative times ("3h ago") count from it. */
  now?: number;
  /** The zone "yesterday 14:05" is read in; the machine's when unset. */
  timeZone?: string;
}

/** What a table left out to fit: the JSON names of the columns dropped (empty when everything is shown). */
export interface RenderResult {
  hidden: string[];
}

/**
 * Writes rows in the chosen format. Tables need every row to size their columns; tsv and csv stream,
 * so `store orders list --all` can print rows as the pages arrive (call `writeRows` per page with
 * `header` only on the first). TSV and CSV write timestamps in one ISO 8601 form (`+00:00` offsets).
 */
export async function renderRows<Row>(
  rows: Row[],
  columns: Column<Row>[],
  format: Exclude<OutputFormat, 'json'>,
  write: (text: string) => void,
  opts: TableOptions & { header?: boolean } = {},
): Promise<RenderResult> {
  const header = opts.header ?? true;
  if (format === 'table') {
    const shown = columns.filter((c) => c.only !== 'machine');
    if (rows.length === 0) return { hidden: [] };
    const now = opts.now ?? Date.now();
    const cells = rows.map((row) => shown.map((c) => tableCell(c, row, now, opts.timeZone)));
    const { text, hidden } = tableText(cells, shown, { color: opts.color ?? false, width: opts.width ?? Number.POSITIVE_INFINITY, wide: opts.wide ?? false });
    write(text);
    return { hidden };
  }
  const machine = columns.filter((c) => c.only !== 'table');
  const cells = rows.map((row) => machine.map((c) => machineCell(c, row)));
  const line = format === 'csv' ? toCsvLine : toTsvLine;
  let out = '';
  if (header && (format === 'csv' || rows.length > 0)) out += line(machine.map((c) => c.header)) + '\n';
  for (const row of cells) out += line(row) + '\n';
  if (out) write(out);
  return { hidden: [] };
}

function machineCell<Row>(column: Column<Row>, row: Row): string {
  const text = cellText(column.get(row));
  return column.kind === 'time' ? normalizeTimestamp(text) : text;
}

function tableCell<Row>(column: Column<Row>, row: Row, now: number, timeZone?: string): string {
  const time = (timestamp: string) => {
    const date = parseTimestamp(timestamp);
    return date ? relativeTime(date, now, timeZone) : timestamp;
  };
  const text = cellText(column.show ? column.show(row, { time }) : column.get(row)).replace(/[\t\r\n]+/g, ' ');
  return column.kind === 'time' ? time(text) : text;
}

/** "created_at" → "created at" (or the column's `label`): what a table's header and a record's key say. */
function columnLabel<Row>(column: Column<Row>): string {
  return column.label ?? column.header.replace(/_/g, ' ');
}

const STATE_STYLES = { green: [32, 39], yellow: [33, 39], red: [31, 39] } as const;

/**
 * Columns two spaces apart, headers in capitals (bold with colour), laid out by `layoutTable`: low-priority
 * columns dropped, free text cut, the rest whole. Amounts and counts are right-aligned; states coloured.
 * Padding is measured on the plain text, so colour codes never shift a column; a cell holds one line.
 */
function tableText<Row>(cells: string[][], columns: Column<Row>[], opts: { color: boolean; width: number; wide: boolean }): { text: string; hidden: string[] } {
  const headers = columns.map((c) => terminalSafe(columnLabel(c).toUpperCase()));
  const fits = columns.map((c): ColumnFit => ({
    cut: (c.kind ?? 'text') === 'text',
    priority: c.priority ?? 0,
  }));
  const { shown, widths } = layoutTable(headers, cells, fits, opts.width, { wide: opts.wide });
  const right = (i: number) => columns[i]!.kind === 'money' || columns[i]!.kind === 'count';
  const lineOf = (row: string[], style: (text: string, i: number) => string) =>
    shown
      .map((i, k) => {
        const text = truncateToWidth(row[i]!, widths[k]!);
        const padding = ' '.repeat(Math.max(0, widths[k]! - displayWidth(text)));
        const styled = style(text, i);
        return right(i) ? padding + styled : k === shown.length - 1 ? styled : styled + padding;
      })
      .join('  ')
      .trimEnd();
  const paint = (text: string, [open, close]: readonly [number, number]) => (opts.color && text !== '' ? `\u001B[${open}m${text}\u001B[${close}m` : text);
  const stateStyle = (text: string, i: number) => {
    const colour = columns[i]!.kind === 'state' ? stateColour(text) : undefined;
    return colour ? paint(text, STATE_STYLES[colour]) : text;
  };
  const text = [lineOf(headers, (h) => paint(h, [1, 22])), ...cells.map((row) => lineOf(row, stateStyle))].join('\n') + '\n';
  return { text, hidden: columns.filter((_, i) => !shown.includes(i)).map((c) => c.header) };
}

/** A table's row as a record's labelled lines (its table headers in lower case, empty cells left out). */
export function recordOfRow<Row>(row: Row, columns: Column<Row>[]): [string, unknown][] {
  return columns
    .filter((c) => c.only !== 'machine')
    .map((c): [string, unknown] => [columnLabel(c).toLowerCase(), c.show ? c.show(row, { time: normalizeTimestamp }) : c.get(row)])
    .filter(([, value]) => value !== undefined && value !== null && value !== '');
}

/** How a record is drawn: its values wrapped to `width`, timestamps relative to `now` when given (a terminal). */
export interface RecordOptions {
  width?: number;
  now?: number;
  timeZone?: string;
  /** Spaces before each key (the fields of a section under the record). */
  indent?: number;
}

/**
 * A single record as aligned "key  value" lines (tables of one row read badly). A long value (a URL, an address,
 * a note) wraps under itself instead of being cut: at spaces when it can, else where the width ends. Timestamps
 * are written in one ISO 8601 form, followed on a terminal by how long ago ("(3h ago)").
 */
export function renderRecord(fields: [string, unknown][], write: (text: string) => void, opts: RecordOptions = {}): void {
  const indent = ' '.repeat(opts.indent ?? 0);
  const keys = fields.map(([k]) => terminalSafe(k));
  const keyWidth = Math.max(0, ...keys.map(displayWidth));
  const valueWidth = Math.max(20, (opts.width ?? Number.POSITIVE_INFINITY) - indent.length - keyWidth - 2);
  const lines = fields.flatMap(([, v], i) => {
    const wrapped = wrapText(recordValue(v, opts), valueWidth);
    const lead = `${indent}${keys[i]}${' '.repeat(keyWidth - displayWidth(keys[i]!))}  `;
    const under = ' '.repeat(displayWidth(lead));
    return wrapped.map((line, n) => `${n === 0 ? lead : under}${line}`.trimEnd());
  });
  write(lines.join('\n') + '\n');
}

function recordValue(value: unknown, opts: RecordOptions): string {
  if (typeof value !== 'string') return cellText(value);
  const iso = normalizeTimestamp(value);
  const date = /^\d{4}-\d{2}-\d{2}[T ]\d/.test(iso) ? parseTimestamp(iso) : undefined;
  if (!date) return cellText(value);
  const relative = opts.now !== undefined ? relativeTime(date, opts.now, opts.timeZone) : undefined;
  // An old date says nothing the timestamp does not: only "3h ago" and "yesterday 14:05" are added.
  return cellText(relative && !/^\d/.test(relative) ? `${iso} (${relative})` : iso);
}

/** Text in lines of at most `width` terminal columns: broken at spaces, a word longer than a line broken where it ends. */
export function wrapText(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/ +/)) {
      let rest = word;
      while (rest !== '') {
        const sep = line === '' ? '' : ' ';
        if (displayWidth(line + sep + rest) <= width) {
          line += sep + rest;
          rest = '';
        } else if (line !== '') {
          out.push(line);
          line = '';
        } else {
          const head = sliceToWidth(rest, width);
          out.push(head);
          rest = rest.slice(head.length);
        }
      }
    }
    out.push(line);
  }
  return out;
}

/** The longest start of `text` at most `width` columns wide (at least one character, so wrapping always moves on). */
function sliceToWidth(text: string, width: number): string {
  let out = '';
  for (const ch of text) {
    if (out !== '' && displayWidth(out + ch) > width) break;
    out += ch;
  }
  return out;
}
