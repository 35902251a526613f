import { basename } from 'node:path';
import { unescapeFormula } from '../../output/format.js';
import { type ColumnMapping, mapHeader } from './column-map.js';
import { type Delimiter, readCsv } from './csv.js';
import { type EncodingChoice, type FileEncoding, encodingName, fileEncoding } from './encoding.js';

/**
 * The one file model of every bulk file (docs/csv.md): the catalog (`products import`), the stock and price feed
 * (`variants sync`), invoices (`invoices attach --file`) and shipments (`orders ship --file`). What a file is made
 * of is read here, the same way for all of them, so that each kind only says what its columns mean:
 *
 * - the text: its encoding (encoding.ts), the delimiter and the quoting (csv.ts);
 * - the header: trailing columns without a name skipped (Excel writes `;;` past the last one), `--map` applied,
 *   a nameless column in the middle, a name twice or text that is not text refused; the `line`, `error` and
 *   `stage` columns a failure report adds (report.ts) left out, so that a report, fixed, is read as it is;
 * - the rows: blank ones skipped, a cell under no column name holding data, too few cells and undecodable text
 *   reported with the row.
 *
 * What it skips is said once, through `onNotice`. Problems come as RowErrors: "file, line N, column C (name): what".
 */

/** A problem of the file or of one row: where (file, line, and column with its header when in one cell) and what. Read as a RowError (row-error.ts). */
export interface FileProblem {
  file: string;
  line: number;
  column?: number;
  header?: string;
  message: string;
}

export interface BulkFileOptions {
  /** `--encoding`; by default a byte order mark, else UTF-8, else Windows-1252 (encoding.ts). */
  encoding?: EncodingChoice;
  /** `--map` and `--map-file`. */
  map?: ColumnMapping[];
  /** Hears, once each, what was read in another way than the formats say (the encoding, rows and columns skipped). */
  onNotice?: (notice: string) => void;
}

/** One column read: where it is, what the file calls it and the name it is read under. */
export interface FileColumn {
  /** 0-based position in the row. */
  index: number;
  /** The header cell as the file has it (trimmed): what messages name. */
  header: string;
  /** The name the column is read under: the header, or what `--map` renamed it to. */
  name: string;
}

export interface FileHeader {
  line: number;
  /** The columns read, in file order (not those `--map` left out, nor the report's own). */
  columns: FileColumn[];
}

export type BulkFileEvent =
  | { kind: 'header'; header: FileHeader }
  /** A data row: its cells as read (not trimmed), and what is wrong with its shape or text. */
  | { kind: 'row'; line: number; cells: string[]; problems: FileProblem[] }
  /** A problem of the file itself (its text, its quoting, its header); the header ones spoil every row. */
  | { kind: 'problem'; error: FileProblem };

/** The columns a failure report adds after the input's own (report.ts): skipped when the report is read back. */
export const REPORT_COLUMNS = ['line', 'error', 'stage'] as const;

/** A cell longer than this is almost certainly a broken file (a quote that swallowed many lines). */
const MAX_CELL_LENGTH = 65_535;

/** Line numbers listed in a notice before "…". */
const LINES_SHOWN = 5;

export class BulkFile {
  /** The delimiter, once the header was read. */
  delimiter: Delimiter = ',';
  /** The header cells as the file has them, up to the last named one (what a report repeats). */
  headerCells: string[] = [];
  /** Whether the header ends with the report's own columns (a report fed back), and where they start. */
  reportColumnsAt?: number;

  private constructor(
    readonly path: string,
    /** How messages name the file. */
    readonly name: string,
    readonly encoding: FileEncoding,
    private readonly options: BulkFileOptions,
  ) {}

  /**
   * The file at `path`, its encoding known (`name` defaults to the file's base name). A forced encoding the
   * file contradicts is a problem of line 1, yielded by `read()`.
   */
  static async open(path: string, options: BulkFileOptions = {}, name = basename(path)): Promise<BulkFile | { problem: FileProblem }> {
    const encoding = await fileEncoding(path, name, options.encoding);
    if ('problem' in encoding) return { problem: { file: name, line: 1, message: encoding.problem } };
    if (encoding.note) options.onNotice?.(encoding.note);
    return new BulkFile(path, name, encoding, options);
  }

  /** The same file, to be read once more (a report repeats its rows): the same encoding and names, nothing said again. */
  again(): BulkFile {
    const file = new BulkFile(this.path, this.name, this.encoding, { ...this.options, onNotice: undefined });
    file.delimiter = this.delimiter;
    return file;
  }

  /** The header, then every non-blank row in file order, with the problems found, as they come. */
  async *read(): AsyncGenerator<BulkFileEvent> {
    const file = this.name;
    let header: FileHeader | undefined;
    /** Cells a row may have: up to the last named header cell. */
    let width = 0;
    /** Positions of the report's own columns, never read as data. */
    let reportColumns = new Set<number>();
    const blankLines: number[] = [];
    for await (const event of readCsv(this.path, { encoding: this.encoding.encoding, onDelimiter: (d) => (this.delimiter = d) })) {
      if (event.kind === 'problem') {
        const column = event.column !== undefined ? event.column + 1 : undefined;
        yield { kind: 'problem', error: { file, line: event.line, column, header: column ? header?.columns.find((c) => c.index === column - 1)?.header : undefined, message: event.message } };
        continue;
      }
      if (!header && event.cells.every((cell) => cell.trim() === '')) {
        blankLines.push(event.line);
        continue;
      }
      if (!header) {
        const read = this.readHeader(event.line, event.cells);
        header = read.header;
        width = this.headerCells.length;
        reportColumns = new Set(read.reportColumns);
        for (const error of read.errors) yield { kind: 'problem', error };
        yield { kind: 'header', header };
        continue;
      }
      if (event.cells.every((cell, i) => reportColumns.has(i) || cell.trim() === '')) {
        blankLines.push(event.line);
        continue;
      }
      yield { kind: 'row', line: event.line, cells: event.cells, problems: this.rowProblems(event.line, event.cells, header, width, reportColumns) };
    }
    if (blankLines.length > 0) {
      const shown = blankLines.slice(0, LINES_SHOWN).join(', ') + (blankLines.length > LINES_SHOWN ? ', …' : '');
      this.options.onNotice?.(`${file}: ${blankLines.length} blank ${blankLines.length === 1 ? 'row' : 'rows'} skipped (${blankLines.length === 1 ? 'line' : 'lines'} ${shown}).`);
    }
  }

  private readHeader(line: number, cells: string[]): { header: FileHeader; errors: FileProblem[]; reportColumns: number[] } {
    const file = this.name;
    const trimmed = cells.map((c) => c.trim());
    let named = trimmed.length;
    while (named > 0 && trimmed[named - 1] === '') named--;
    if (named < trimmed.length && named > 0) {
      const from = named + 1;
      const to = trimmed.length;
      this.options.onNotice?.(`${file}: ${from === to ? `column ${from} has` : `columns ${from}–${to} have`} no name in the header and ${from === to ? 'is' : 'are'} skipped.`);
    }
    this.headerCells = trimmed.slice(0, named);
    const errors: FileProblem[] = [];
    // A report fed back ends with line, error and stage: they say why it failed, not what to write.
    const tail = this.headerCells.slice(-REPORT_COLUMNS.length).map((h) => h.toLowerCase());
    const reportColumns: number[] = [];
    if (named > REPORT_COLUMNS.length && REPORT_COLUMNS.every((c, i) => tail[i] === c)) {
      this.reportColumnsAt = named - REPORT_COLUMNS.length;
      for (let i = this.reportColumnsAt; i < named; i++) reportColumns.push(i);
    }
    const own = this.headerCells.slice(0, this.reportColumnsAt ?? named);
    const names = mapHeader(own, this.options.map ?? [], file);
    const columns: FileColumn[] = [];
    const seen = new Map<string, number>();
    for (const [index, headerText] of own.entries()) {
      const name = names[index];
      if (headerText === '') {
        errors.push({ file, line, column: index + 1, message: 'the header cell is empty; give the column a name, or delete the column' });
        continue;
      }
      if (headerText.includes('\uFFFD')) {
        errors.push({ file, line, column: index + 1, header: headerText, message: undecodable(this.encoding) });
        continue;
      }
      if (name === undefined) continue;
      const key = name.toLowerCase();
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        errors.push({ file, line, column: index + 1, header: headerText, message: `the column appears twice (also column ${earlier + 1}); keep one of them` });
        continue;
      }
      seen.set(key, index);
      columns.push({ index, header: headerText, name });
    }
    return { header: { line, columns }, errors, reportColumns };
  }

  private rowProblems(line: number, cells: string[], header: FileHeader, width: number, reportColumns: Set<number>): FileProblem[] {
    const file = this.name;
    const problems: FileProblem[] = [];
    const dataWidth = this.reportColumnsAt ?? width;
    if (cells.length < dataWidth) {
      problems.push({ file, line, column: cells.length + 1, message: `the row has ${cells.length} cells but the header has ${dataWidth} columns; a row has a cell for every column (blank for none)` });
    }
    // Cells past the last named column: blank ones are the `;;` spreadsheets write; one with data belongs nowhere.
    for (let i = width; i < cells.length; i++) {
      if (reportColumns.has(i) || cells[i]!.trim() === '') continue;
      problems.push({
        file,
        line,
        column: i + 1,
        message: `the cell holds "${shorten(cells[i]!.trim())}" but its column has no name in the header; name the column, or clear the cell`,
      });
      break;
    }
    for (const column of header.columns) {
      const raw = cells[column.index] ?? '';
      const at = { file, line, column: column.index + 1, header: column.header };
      if (raw.includes('\uFFFD')) problems.push({ ...at, message: undecodable(this.encoding) });
      else if (raw.length > MAX_CELL_LENGTH) {
        problems.push({ ...at, message: `the cell holds ${raw.length} characters; the limit is ${MAX_CELL_LENGTH} (a quote left open swallows the lines after it: look for a missing ")` });
      }
    }
    return problems;
  }
}

/** What a cell holding U+FFFD says: the bytes were not text in the encoding the file was read in. */
export function undecodable(encoding: FileEncoding): string {
  if (encoding.encoding === 'utf-8') {
    return 'the text is not valid UTF-8 (the file looks like Windows-1252 or Latin-1); leave out --encoding utf-8 to read it as Windows-1252, or save the file as UTF-8';
  }
  return `the text is not valid ${encodingName(encoding.encoding)}; give the file's encoding with --encoding, or save the file as UTF-8`;
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/**
 * A cell's value. Free text (names, descriptions) is taken exactly as written — spaces, CR, LF and CRLF
 * included, so what `store products export` wrote reads back byte-identical; a cell of only spaces or line
 * breaks is blank. Every other cell (keys, numbers, paths, options) is trimmed. The quote a spreadsheet-safe
 * writer adds before a formula (`'=…`: output/format.ts, every CSV and report `store` writes) is taken off.
 */
export function cellValue(raw: string, freeText = false): string {
  if (freeText) return raw.trim() === '' ? '' : unescapeFormula(raw);
  return unescapeFormula(raw.trim());
}
