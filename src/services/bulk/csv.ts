import { createReadStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { parse } from 'csv-parse';
import { type TextEncoding, readHead, textDecoder } from './encoding.js';

/**
 * Reading a CSV file as records with their line numbers (docs/csv.md: `,`, `;` or a tab detected, CRLF, LF or
 * CR), in the text encoding encoding.ts chose (a byte order mark is dropped). Text problems (NUL bytes, broken
 * quoting) become problems with a line and a column instead of exceptions, so that one pass reports every error.
 */

export interface CsvRecord {
  /** Line of the file on which the record starts (1-based). */
  line: number;
  cells: string[];
}

export interface CsvProblem {
  line: number;
  /** 0-based index of the cell, when known. */
  column?: number;
  message: string;
}

export type CsvEvent = ({ kind: 'record' } & CsvRecord) | ({ kind: 'problem' } & CsvProblem);

export type Delimiter = ',' | ';' | '\t';

/** Bytes looked at to decide the delimiter and to tell text from binary data. */
const SNIFF_BYTES = 64 * 1024;

/**
 * The most characters one record may hold (a row, with the line breaks inside its quoted cells): 8 MiB, far past
 * any real row (a cell holds at most 65,535: bulk-file.ts), and what a record costs in memory before it is
 * refused (docs/csv.md, "Limits"). A 300 MB line took the job to 3.4 GB; a 600 MB one was past what V8 can hold
 * in one string.
 */
export const MAX_RECORD_CHARS = 8 * 1024 * 1024;

/**
 * Decodes the text (streamed: a character split between chunks waits for the next; the BOM is dropped by
 * TextDecoder) and turns the CRLF and lone CR that end records into LF,
 * so that csv-parse counts lines the way an editor shows them. Line breaks inside a quoted cell are the cell's
 * text and pass as they are (a name holding a CR reads back byte-identical: docs/csv.md, "Line breaks"), so
 * the transform follows the quoting: a `"` opens a quoted cell only at the start of a cell, `""` inside one
 * is a quote, any other `"` closes it. Invalid bytes become U+FFFD, which the row validation reports with the
 * cell they are in.
 */
class DecodedLines extends Transform {
  private readonly decoder: TextDecoder;
  /** A CR ended the last chunk outside quotes: an LF starting the next one belongs to it. */
  private skipLF = false;
  private atCellStart = true;
  private quoted = false;
  /** Inside a quoted cell, the last character was a `"`: a closing quote or the first of `""`. */
  private quoteSeen = false;
  /** Lines emitted so far (1-based line of the next character) and the character's place on it. */
  private line = 1;
  private column = 1;

  /**
   * The text of the record being read, held until its record break so that a record past MAX_RECORD_CHARS is
   * refused before csv-parse holds it whole; `pendingLine` is the line it starts on.
   */
  private pending = '';
  private pendingLine = 1;
  /** In `recordBreaks`' result, the index just past its last record break (-1: none). */
  private lastBreak = -1;
  /** A record was too long: the rest of the file is dropped unread. */
  private stopped = false;

  /**
   * `onNul` hears of the first NUL byte (anywhere, not only in the sniffed head); NULs are dropped from the text.
   * `onTooLong` hears of a record longer than `maxRecord` characters (with the line it starts on); the text ends
   * before it.
   */
  constructor(
    encoding: TextEncoding,
    private readonly delimiter: Delimiter,
    private readonly onNul: (line: number, column: number) => void,
    private readonly onTooLong: (line: number) => void,
    private readonly maxRecord = MAX_RECORD_CHARS,
  ) {
    super({ readableObjectMode: false, decodeStrings: true, encoding: 'utf8' });
    this.decoder = textDecoder(encoding);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (!this.stopped) this.emitText(this.decoder.decode(chunk, { stream: true }));
    done();
  }

  override _flush(done: TransformCallback): void {
    if (!this.stopped) {
      this.emitText(this.decoder.decode());
      if (this.pending !== '') this.push(this.pending);
      this.pending = '';
    }
    done();
  }

  private emitText(text: string): void {
    if (text === '') return;
    let lines = this.recordBreaks(text);
    let cut = this.lastBreak;
    const nul = lines.indexOf('\u0000');
    if (nul !== -1) {
      const at = this.position(this.pending + lines.slice(0, nul));
      this.onNul(at.line, at.column);
      if (cut !== -1) cut -= lines.slice(0, cut).split('\u0000').length - 1;
      lines = lines.replaceAll('\u0000', '');
    }
    if (cut !== -1) {
      // Whole records go on to csv-parse; the one still open waits for its end here.
      const complete = this.pending + lines.slice(0, cut);
      this.position(complete, true);
      this.pending = lines.slice(cut);
      this.pendingLine = this.line;
      if (complete !== '') this.push(complete);
    } else {
      this.pending += lines;
    }
    if (this.pending.length > this.maxRecord) {
      this.stopped = true;
      this.pending = '';
      this.onTooLong(this.pendingLine);
    }
  }

  /** The text with every record break outside quotes as one LF; what is inside quotes as it is. */
  private recordBreaks(text: string): string {
    // Fast path: no quote and no CR, nothing to follow or change.
    if (!this.quoted && !this.skipLF && !text.includes('"') && !text.includes('\r')) {
      this.atCellStart = text.endsWith('\n') || text.endsWith(this.delimiter);
      const last = text.lastIndexOf('\n');
      this.lastBreak = last === -1 ? -1 : last + 1;
      return text;
    }
    this.lastBreak = -1;
    let out = '';
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (this.skipLF) {
        this.skipLF = false;
        if (ch === '\n') {
          out += text.slice(from, i);
          from = i + 1;
          continue;
        }
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (ch === '"') continue;
          this.quoted = false;
        } else {
          if (ch === '"') this.quoteSeen = true;
          continue;
        }
      }
      if (ch === '"' && this.atCellStart) {
        this.quoted = true;
        this.atCellStart = false;
      } else if (ch === '\r') {
        out += `${text.slice(from, i)}\n`;
        this.lastBreak = out.length;
        from = i + 1;
        if (text[i + 1] === '\n') {
          from++;
          i++;
        } else if (i + 1 === text.length) this.skipLF = true;
        this.atCellStart = true;
      } else {
        this.atCellStart = ch === '\n' || ch === this.delimiter;
        if (ch === '\n') this.lastBreak = out.length + i - from + 1;
      }
    }
    return out + text.slice(from);
  }

  /** Where the character after `text` lies; with `advance`, moves the count past `text`. */
  private position(text: string, advance = false): { line: number; column: number } {
    const breaks = text.split('\n').length - 1;
    const line = this.line + breaks;
    const column = breaks === 0 ? this.column + text.length : text.length - text.lastIndexOf('\n');
    if (advance) {
      this.line = line;
      this.column = column;
    }
    return { line, column };
  }
}

/**
 * The delimiter of the header line: whichever of `,`, `;` and a tab occurs most often outside quotes (`,` when
 * none does). A tab is what Excel's "Unicode text" (UTF-16) and many ERPs' exports separate with.
 */
function detectDelimiter(firstLine: string): Delimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch]++;
  }
  if (counts['\t'] > counts[','] && counts['\t'] > counts[';']) return '\t';
  return counts[';'] > counts[','] ? ';' : ',';
}

function lineAndColumnOf(text: string, index: number): { line: number; col: number } {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return { line, col: index - before.lastIndexOf('\n') };
}

/** csv-parse's error codes, in words a spreadsheet user can act on. */
function describeParseError(code: string | undefined, message: string): { text: string; stops: boolean } {
  switch (code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return { text: 'a quoted cell is never closed (a `"` is missing); the rest of the file could not be read', stops: true };
    case 'CSV_INVALID_CLOSING_QUOTE':
      return {
        text: 'text follows the closing quote of a quoted cell; quote the whole cell and double the quotes inside it (""); the rest of the file could not be read',
        stops: true,
      };
    case 'INVALID_OPENING_QUOTE':
      return { text: 'a `"` inside a cell that does not start with one; quote the whole cell and double the quotes inside it ("")', stops: false };
    default:
      return { text: message.replace(/\.$/, ''), stops: false };
  }
}

/** A record past the limit, in words: how long it may be and what usually makes one that long. */
export function tooLongMessage(max: number): string {
  const mib = max / (1024 * 1024);
  return `the row is longer than ${Number.isInteger(mib) ? `${mib} MiB` : `${max} characters`} (${max.toLocaleString('en-US')} characters), the most one row may hold (a quote left open swallows the lines after it: look for a missing "); the rest of the file was not read`;
}

export interface CsvOptions {
  /** How the bytes are text (encoding.ts); UTF-8 by default. */
  encoding?: TextEncoding;
  /** Hears the delimiter detected from the header line, before the first record. */
  onDelimiter?: (delimiter: Delimiter) => void;
}

/**
 * Every record of the file, header included, in order, interleaved with the problems found. Stops after a
 * quoting error that leaves the structure of the rest of the file unknowable.
 */
export async function* readCsv(path: string, options: CsvOptions = {}): AsyncGenerator<CsvEvent> {
  const encoding = options.encoding ?? 'utf-8';
  const head = await readHead(path, SNIFF_BYTES);
  // The text of the head, a character cut at its end left out (a BOM is dropped).
  const headText = textDecoder(encoding).decode(head, { stream: true });
  if (headText === '') {
    yield { kind: 'problem', line: 1, message: 'the file is empty; expected a header row' };
    return;
  }
  const nul = headText.indexOf('\u0000');
  if (nul !== -1) {
    const { line, col } = lineAndColumnOf(headText.replace(/\r\n?/g, '\n'), headText.slice(0, nul).replace(/\r\n?/g, '\n').length);
    yield {
      kind: 'problem',
      line,
      message: `the file holds binary data (a NUL byte at character ${col}), not CSV text`,
    };
    return;
  }
  // The header line: the first that is not blank (a file may start with empty lines).
  const firstLine = headText.replace(/\r\n?/g, '\n').split('\n').find((l) => l.trim() !== '') ?? '';
  const delimiter = detectDelimiter(firstLine);
  options.onDelimiter?.(delimiter);

  const parser = parse({
    delimiter,
    record_delimiter: '\n',
    relax_column_count: true,
    skip_records_with_error: true,
    raw: true,
    info: true,
  });
  const problems: ({ kind: 'problem' } & CsvProblem)[] = [];
  // csv-parse counts every CR and every LF as a line; an editor counts a CRLF (kept inside quoted cells) as one.
  let crlfBefore = 0;
  let stopLine: number | undefined;
  parser.on('skip', (err: Error & { code?: string; lines?: number; column?: number }) => {
    if (stopLine !== undefined) return;
    const { text, stops } = describeParseError(err.code, err.message);
    const at = (err.lines ?? 0) - crlfBefore;
    problems.push({ kind: 'problem', line: at, column: err.column, message: text });
    if (stops) stopLine = at;
  });
  let nulReported = false;
  const onNul = (nulLine: number, column: number) => {
    if (nulReported) return;
    nulReported = true;
    problems.push({ kind: 'problem', line: nulLine, message: `the file holds binary data (a NUL byte at character ${column}), not CSV text` });
  };
  const file = createReadStream(path);
  const onTooLong = (tooLongLine: number) => {
    problems.push({ kind: 'problem', line: tooLongLine, message: tooLongMessage(MAX_RECORD_CHARS) });
    stopLine = tooLongLine;
    // The rest of the file is not read: a 6 GB line costs no more than its first 8 MiB.
    file.unpipe(source);
    file.destroy();
    source.end();
  };
  const source = new DecodedLines(encoding, delimiter, onNul, onTooLong);
  file.pipe(source);
  file.on('error', (err) => parser.destroy(err));
  source.on('error', (err) => parser.destroy(err));
  source.pipe(parser);

  let line = 1;
  for await (const item of parser as AsyncIterable<{ record: string[]; raw: string; info: { lines: number } }>) {
    // info.lines is the record's last line; the record starts where its own line breaks say.
    const newlinesInside = (item.raw.match(/[\r\n]/g)?.length ?? 0) - (item.raw.endsWith('\n') ? 1 : 0);
    line = item.info.lines - newlinesInside - crlfBefore;
    crlfBefore += item.raw.match(/\r\n/g)?.length ?? 0;
    // csv-parse reports a skipped record as soon as it meets it, possibly before handing out earlier ones.
    while (problems.length > 0 && problems[0]!.line < line) yield problems.shift()!;
    if (stopLine !== undefined && line > stopLine) break;
    // A blank line is a record too: the file model (bulk-file.ts) skips blank rows and says how many.
    yield { kind: 'record', line, cells: item.record };
  }
  while (problems.length > 0) yield problems.shift()!;
  source.destroy();
}
