/**
 * How a command's records become text: a table on a TTY, tab-separated lines when piped, `--csv`
 * (formula-escaped) and `--json` (printed by oclif from the command's return value).
 */
export interface Column<Row> {
  header: string;
  get: (row: Row) => unknown;
}

export type OutputFormat = 'table' | 'tsv' | 'csv' | 'json';

export function chooseFormat(flags: { json?: boolean; csv?: boolean }, tty: boolean): OutputFormat {
  if (flags.json) return 'json';
  if (flags.csv) return 'csv';
  return tty ? 'table' : 'tsv';
}

/** A cell as text: null/undefined empty, objects as compact JSON, localized objects as their first value. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  return JSON.stringify(value);
}

/**
 * Spreadsheet programs run a cell that starts with = + - @ (or a tab / carriage return) as a formula;
 * prefixing a quote keeps exported data inert (OWASP "CSV injection"). Plain numbers like -5 stay numbers.
 */
export function escapeFormula(text: string): string {
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) return `'${text}`;
  return text;
}

/** TSV: tabs and newlines inside a cell would break the line structure, so they become spaces. */
export function toTsvLine(cells: string[]): string {
  return cells.map((c) => c.replace(/[\t\r\n]+/g, ' ')).join('\t');
}

export function toCsvLine(cells: string[]): string {
  return cells
    .map((raw) => {
      const c = escapeFormula(raw);
      return /[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c;
    })
    .join(',');
}
