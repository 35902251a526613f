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
  /** A table's header when the field's name is long for what it holds ("PAYMENT" over payment_status); never cut. */
  label?: string;
  /** What a table shows when it differs from the field (a total with its currency); `time` writes a timestamp as the table does. */
  show?: (row: Row, table: { time: (timestamp: string) => string }) => unknown;
  /** Shown only in a table (`table`), or only in TSV and CSV (`machine`: a currency a table shows beside the total). */
  only?: 'table' | 'machine';
  /**
   * What the cells hold, which says how a table draws them: `id` (ids, numbers, SKUs), `state` (one word,
   * coloured), `money` and `count` (right-aligned) are never cut; `time` is relative on a terminal and ISO 8601
   * with offset elsewhere; `text` (names, customers, descriptions) takes what is left and is cut with "…".
   * Every column a table shows says which (unset: `text`).
   */
  kind?: ColumnKind;
  /**
   * Which columns a narrow terminal drops first: 0 (the default) never, then the highest number first. Identifying
   * columns (id, number, SKU, status, total) and the main free text stay at 0.
   */
  priority?: number;
}

export type ColumnKind = 'id' | 'state' | 'money' | 'count' | 'time' | 'text';

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

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ANSI_SEQUENCE = /\u001B\[[0-9;?]*[A-Za-z]/g;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Extended_Pictographic}\u3000-\u303F\uFF00-\uFF60\uFFE0-\uFFE6]/u;

/** Columns a text takes on a terminal: colour codes take none, combining marks none, CJK and emoji two. */
export function displayWidth(text: string): number {
  // Printable ASCII, most cells: one column a character.
  if (PRINTABLE_ASCII.test(text)) return text.length;
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

/** The narrowest free text is cut to (unless its header is wider: headers are never cut). */
const TEXT_MIN_WIDTH = 5;
/**
 * The width free text is given before a lower-priority column is dropped: a narrow terminal drops whole
 * columns until what is left fits with each text column this wide (or its natural width); only then is text cut.
 */
const TEXT_COMFORT_WIDTH = 15;

/** How one column may give way on a narrow terminal. */
export interface ColumnFit {
  /** Free text, cut with "…"; otherwise the column is shown whole or not at all. */
  cut: boolean;
  /** 0: always shown; higher numbers are dropped first (ties: the rightmost first). */
  priority: number;
}

/** Which columns a table shows (indexes into the columns given, in order) and how wide each is. */
export interface TableLayout {
  shown: number[];
  widths: number[];
}

/**
 * Lays a table out on a terminal `maxWidth` columns wide (docs/decisions.md "Tables that fit"). Headers are never
 * cut, nor any column that is not free text. When the columns do not fit, the lowest-priority ones are dropped
 * whole (priority 0 never; empty ones first) until what is left fits with each text column at `TEXT_COMFORT_WIDTH`; then the free
 * text shares what is left, the widest cut first, down to `TEXT_MIN_WIDTH`. `wide` shows every column whole.
 * The table fits whenever the terminal is at least `minimumTableWidth` wide; narrower, lines are longer.
 */
export function layoutTable(headers: string[], cells: string[][], fits: ColumnFit[], maxWidth: number, opts: { wide?: boolean; gap?: number } = {}): TableLayout {
  const gap = opts.gap ?? 2;
  const headerWidths = headers.map(displayWidth);
  const natural = headers.map((_, i) => Math.max(headerWidths[i]!, ...cells.map((row) => displayWidth(row[i] ?? ''))));
  const all = headers.map((_, i) => i);
  if (opts.wide) return { shown: all, widths: natural };
  const floorAt = (limit: number) => (i: number) => (fits[i]!.cut ? Math.min(natural[i]!, Math.max(headerWidths[i]!, limit)) : natural[i]!);
  const comfort = floorAt(TEXT_COMFORT_WIDTH);
  const floor = floorAt(TEXT_MIN_WIDTH);
  const total = (shown: number[], width: (i: number) => number) => shown.reduce((sum, i) => sum + width(i), 0) + gap * Math.max(0, shown.length - 1);
  let shown = all;
  // A droppable column with nothing in it goes before any text is cut.
  const empty = (i: number) => fits[i]!.priority > 0 && cells.every((row) => (row[i] ?? '') === '');
  while (total(shown, (i) => natural[i]!) > maxWidth && shown.some(empty)) {
    const drop = shown.filter(empty).at(-1);
    shown = shown.filter((i) => i !== drop);
  }
  while (total(shown, (i) => natural[i]!) > maxWidth && total(shown, comfort) > maxWidth) {
    let drop = -1;
    for (const i of shown) if (fits[i]!.priority > 0 && (drop === -1 || fits[i]!.priority >= fits[drop]!.priority)) drop = i;
    if (drop === -1) break;
    shown = shown.filter((i) => i !== drop);
  }
  const widths = shown.map((i) => natural[i]!);
  let excess = total(shown, (i) => natural[i]!) - maxWidth;
  while (excess > 0) {
    let widest = -1;
    for (let k = 0; k < shown.length; k++) {
      if (widths[k]! > floor(shown[k]!) && (widest === -1 || widths[k]! > widths[widest]!)) widest = k;
    }
    if (widest === -1) break;
    widths[widest]!--;
    excess--;
  }
  return { shown, widths };
}

/** The narrowest terminal on which `layoutTable` fits these columns: those never dropped, text at its narrowest. */
export function minimumTableWidth(headers: string[], cells: string[][], fits: ColumnFit[], gap = 2): number {
  const kept = headers.map((_, i) => i).filter((i) => fits[i]!.priority === 0);
  const width = (i: number) => {
    const head = displayWidth(headers[i]!);
    const natural = Math.max(head, ...cells.map((row) => displayWidth(row[i] ?? '')));
    return fits[i]!.cut ? Math.min(natural, Math.max(head, TEXT_MIN_WIDTH)) : natural;
  };
  return kept.reduce((sum, i) => sum + width(i), 0) + gap * Math.max(0, kept.length - 1);
}

/** "1 product", "2 products"; `many` for words whose plural is not the word plus "s" ("1 category", "2 categories"). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The parts of a moment as a clock in `timeZone` (the machine's when unset) shows them. */
const formatters = new Map<string | undefined, Intl.DateTimeFormat>();

function localParts(date: Date, timeZone?: string): { day: string; time: string } {
  // Making a formatter costs far more than using one: one per zone, kept (10,000 rows read in milliseconds).
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(date).map((p) => [p.type, p.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

let lastDays: { now: number; timeZone?: string; today: string; yesterday: string } | undefined;

/** Today's and yesterday's dates at `now` (kept for the next call: a table asks with one `now` for every row). */
function daysOf(now: number, timeZone?: string): { today: string; yesterday: string } {
  if (lastDays?.now !== now || lastDays.timeZone !== timeZone) {
    lastDays = { now, timeZone, today: localParts(new Date(now), timeZone).day, yesterday: localParts(new Date(now - 86_400_000), timeZone).day };
  }
  return lastDays;
}

/**
 * A moment as a person at a terminal reads it, relative to `now`: "just now", "12m ago", "3h ago" (the same
 * day), "yesterday 14:05", then the date ("2026-11-20"); a moment ahead of `now` (another clock) as date and time.
 */
export function relativeTime(date: Date, now: number, timeZone?: string): string {
  const seconds = Math.floor((now - date.getTime()) / 1000);
  const then = localParts(date, timeZone);
  if (seconds < -60) return `${then.day} ${then.time}`;
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  const { today, yesterday } = daysOf(now, timeZone);
  if (then.day === today) return `${Math.floor(seconds / 3600)}h ago`;
  // Around a daylight-saving change "24 h before" can land two days back; the hour count still reads right.
  if (then.day === yesterday) return `yesterday ${then.time}`;
  return then.day;
}

/** Which colour a state is drawn in on a terminal: done green, waiting yellow, stopped or lost red. */
const STATE_COLOURS: Record<string, 'green' | 'yellow' | 'red'> = {
  paid: 'green',
  fulfilled: 'green',
  shipped: 'green',
  dispatched: 'green',
  delivered: 'green',
  ready_for_pickup: 'green',
  pending: 'yellow',
  authorized: 'yellow',
  unpacked: 'yellow',
  packed: 'yellow',
  unfulfilled: 'yellow',
  unshipped: 'yellow',
  partially_packed: 'yellow',
  partially_fulfilled: 'yellow',
  ready_for_ship: 'yellow',
  marked_as_fulfilled: 'green',
  cancelled: 'red',
  voided: 'red',
  refunded: 'red',
  abandoned: 'red',
  lost: 'red',
  failure: 'red',
  returned_to_sender: 'red',
  delivery_attempt_failed: 'red',
};

export function stateColour(state: string): 'green' | 'yellow' | 'red' | undefined {
  return STATE_COLOURS[state.toLowerCase()];
}
