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

/**
 * Control characters a terminal would obey (ESC sequences retitle or clear it, CR overwrites a line, C1
 * codes such as CSI act like ESC [) and the bidi overrides that reorder what is shown. Tab and line feed
 * are layout, handled by each format.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from the store (names, notes, error descriptions) made safe to print: every control character is
 * shown escaped ("\x1b", "\u202e") instead of being sent to the terminal, TSV or CSV. `--json` keeps
 * the exact data (JSON escapes it).
 */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, (ch) => {
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A cell as text: null/undefined empty, objects as compact JSON, localized objects as their first value; terminal-safe. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return terminalSafe(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  return terminalSafe(JSON.stringify(value));
}

/**
 * Spreadsheet programs run a cell that starts with = + - @ (or a tab / carriage return) as a formula;
 * prefixing a quote keeps exported data inert (OWASP "CSV injection"). Plain numbers like -5 stay numbers.
 */
export function escapeFormula(text: string): string {
  // Text that already starts with quotes before a formula character ("'=x") gets one more, so that
  // `store products import`, which removes one, reads back exactly what the store holds.
  if (/^'*[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) return `'${text}`;
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
