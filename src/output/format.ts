/**
 * How a command's records become text: a table on a TTY, tab-separated lines when piped, `--csv`
 * (formula-escaped) and `--json` (printed by oclif from the command's return value).
 */
export interface Column<Row> {
  /**
   * The field's name as in the command's JSON (snake_case): the header of TSV and CSV output as it is, and of
   * a table in capitals, so piped output of every command reads one way.
   */
  header: string;
  get: (row: Row) => unknown;
  /**
   * Whether a table may cut this column's cells with "…" to fit the terminal. Unset: text may be cut, but a
   * column whose every cell is an id, a number, an amount or a timestamp never is.
   */
  shrink?: boolean;
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
/** Columns that show a field of the row as it is, each headed by the field's name. */
export function fieldColumns<Row>(...keys: (keyof Row & string)[]): Column<Row>[] {
  return keys.map((key) => ({ header: key, get: (row: Row) => row[key] }));
}

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return terminalSafe(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  return terminalSafe(JSON.stringify(value));
}

/**
 * Spreadsheet programs run a cell that starts with = + - @ (or a tab / carriage return; Apple Numbers also
 * their full-width forms) as a formula; a quote before it keeps exported data inert (OWASP "CSV injection").
 * Every line of a cell gets the same treatment: a reader that splits a multi-line cell (or a broken file)
 * would otherwise start a new cell with the formula. Plain numbers like -5 stay numbers. Lines that already
 * start with quotes before a formula character ("'=x") get one more, so that `unescapeFormula` (what
 * `store products import` applies) gives back exactly the text the store holds: docs/csv.md, "Formulas".
 */
export function escapeFormula(text: string): string {
  if (PLAIN_NUMBER.test(text)) return text;
  const lines = text.replace(FORMULA_LINE, "$1'$2");
  return /^'*\r/.test(text) ? `'${lines}` : lines;
}

/** The exact inverse of `escapeFormula`: one quote less at the start of every line that got one. */
export function unescapeFormula(text: string): string {
  const unquoted = /^'+\r/.test(text) ? text.slice(1) : text;
  return unquoted.replace(ESCAPED_LINE, '$1$2');
}

/**
 * csv-stringify's `quoted_match` for every CSV `store` writes: a cell holding a CR (which this csv-stringify
 * leaves unquoted) or an LF is quoted, so that no reader takes a line break in a name for the end of a row.
 */
export const QUOTE_LINE_BREAKS = /[\r\n]/;

const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** The start of the cell or of a line in it, any quotes already there, then a character that starts a formula. */
const FORMULA_LINE = /(^|\r\n|\r|\n)('*)(?=[=+\-@\t\uFF1D\uFF0B\uFF0D\uFF20])/g;
const ESCAPED_LINE = /(^|\r\n|\r|\n)'('*)(?=[=+\-@\t\uFF1D\uFF0B\uFF0D\uFF20])/g;

/** TSV: tabs and newlines inside a cell would break the line structure, so they become spaces. */
export function toTsvLine(cells: string[]): string {
  return cells.map((c) => c.replace(/[\t\r\n]+/g, ' ')).join('\t');
}

const ANSI_SEQUENCE = /\u001B\[[0-9;?]*[A-Za-z]/g;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Extended_Pictographic}\u3000-\u303F\uFF00-\uFF60\uFFE0-\uFFE6]/u;

/** Columns a text takes on a terminal: colour codes take none, combining marks none, CJK and emoji two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text.replace(ANSI_SEQUENCE, '')) {
    if (ZERO_WIDTH.test(ch)) continue;
    width += WIDE.test(ch) ? 2 : 1;
  }
  return width;
}

/** The text cut to at most `width` terminal columns, the last one an ellipsis when anything was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = ZERO_WIDTH.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

/** Cells never cut: ids, numbers, amounts with their currency, ULIDs, UUIDs. */
const WHOLE_VALUE = /^(?:[-+]?\d[\d.,]*(?: [A-Z]{3})?|[0-9A-HJKMNP-TV-Z]{26}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
/** Cells cut only when the text columns alone cannot make room: timestamps and one short word (a status). */
const SHORT_VALUE = /^(?:\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?|\S{1,12})$/;

/** The narrowest a column is cut to: its first letters and the ellipsis still say something. */
const MIN_WIDTH = 5;

/**
 * Column widths for a table on a terminal `maxWidth` columns wide, like gh: when the natural widths do not fit,
 * the widest column that may shrink gives up one column at a time, down to 5 (its header is cut too). A
 * header wider than its column's data gives first, then free text; timestamps and one-word values (a status) only when the text cannot make room; ids,
 * numbers and amounts never (nor a column marked `shrink: false`). Returns the natural widths when they fit,
 * and the narrowest allowed when nothing more can give (the lines are then longer than the terminal).
 */
export function fitColumns(cells: string[][], headers: string[], shrinkable: (boolean | undefined)[], maxWidth: number, gap = 2): number[] {
  const widths = headers.map((h, i) => Math.max(displayWidth(h), ...cells.map((row) => displayWidth(row[i] ?? ''))));
  const every = (i: number, pattern: RegExp) => cells.every((row) => (row[i] ?? '') === '' || pattern.test(row[i]!));
  // 0: never cut; 1: cut last; 2: cut first.
  const tier = headers.map((_, i) => {
    if (shrinkable[i] === false) return 0;
    if (shrinkable[i] === true) return 2;
    // A column with nothing in it is as wide as its header: that can give.
    if (cells.every((row) => (row[i] ?? '') === '')) return 1;
    if (every(i, WHOLE_VALUE)) return 0;
    return every(i, SHORT_VALUE) ? 1 : 2;
  });
  const dataWidths = headers.map((_, i) => Math.max(MIN_WIDTH, ...cells.map((row) => displayWidth(row[i] ?? ''))));
  let excess = widths.reduce((a, b) => a + b, 0) + gap * Math.max(0, widths.length - 1) - maxWidth;
  // Whatever a column can give, widest first: first a header longer than its data ("CURRENCY" over "ARS"),
  // which costs no data, then free text, then timestamps and single words.
  const give = (floorOf: (i: number) => number, allowed: (i: number) => boolean) => {
    while (excess > 0) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) {
        if (allowed(i) && widths[i]! > floorOf(i) && (widest === -1 || widths[i]! > widths[widest]!)) widest = i;
      }
      if (widest === -1) return;
      widths[widest]!--;
      excess--;
    }
  };
  give((i) => dataWidths[i]!, () => true);
  give(() => MIN_WIDTH, (i) => tier[i] === 2);
  give(() => MIN_WIDTH, (i) => tier[i] === 1);
  return widths;
}

/** "1 product", "2 products"; `many` for words whose plural is not the word plus "s" ("1 category", "2 categories"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
