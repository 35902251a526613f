import { createReadStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { parse } from 'csv-parse';

/**
 * Reading a CSV file as records with their line numbers (docs/csv.md: UTF-8, BOM accepted, `,` or `;`
 * detected, CRLF or LF). Text problems (bytes that are not UTF-8, NUL bytes, broken quoting) become
 * problems with a line and a column instead of exceptions, so that one pass reports every error.
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

export type Delimiter = ',' | ';';

/** Bytes looked at to decide the delimiter and to tell text from binary data. */
const SNIFF_BYTES = 64 * 1024;

/**
 * Decodes UTF-8 (the BOM is dropped by TextDecoder) and turns the CRLF and lone CR that end records into LF,
 * so that csv-parse counts lines the way an editor shows them. Line breaks inside a quoted cell are the cell's
 * text and pass as they are (a name holding a CR reads back byte-identical: docs/csv.md, "Line breaks"), so
 * the transform follows the quoting: a `"` opens a quoted cell only at the start of a cell, `""` inside one
 * is a quote, any other `"` closes it. Invalid bytes become U+FFFD, which the row validation reports with the
 * cell they are in.
 */
class Utf8Lines extends Transform {
  private readonly decoder = new TextDecoder('utf-8');
  /** A CR ended the last chunk outside quotes: an LF starting the next one belongs to it. */
  private skipLF = false;
  private atCellStart = true;
  private quoted = false;
  /** Inside a quoted cell, the last character was a `"`: a closing quote or the first of `""`. */
  private quoteSeen = false;
  /** Lines emitted so far (1-based line of the next character) and the character's place on it. */
  private line = 1;
  private column = 1;

  /** `onNul` hears of the first NUL byte (anywhere, not only in the sniffed head); NULs are dropped from the text. */
  constructor(
    private readonly delimiter: Delimiter,
    private readonly onNul: (line: number, column: number) => void,
  ) {
    super({ readableObjectMode: false, decodeStrings: true, encoding: 'utf8' });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.emitText(this.decoder.decode(chunk, { stream: true }));
    done();
  }

  override _flush(done: TransformCallback): void {
    this.emitText(this.decoder.decode());
    done();
  }

  private emitText(text: string): void {
    if (text === '') return;
    let lines = this.recordBreaks(text);
    const nul = lines.indexOf('\u0000');
    if (nul !== -1) {
      const at = this.position(lines.slice(0, nul));
      this.onNul(at.line, at.column);
      lines = lines.replaceAll('\u0000', '');
    }
    this.position(lines, true);
    if (lines !== '') this.push(lines);
  }

  /** The text with every record break outside quotes as one LF; what is inside quotes as it is. */
  private recordBreaks(text: string): string {
    // Fast path: no quote and no CR, nothing to follow or change.
    if (!this.quoted && !this.skipLF && !text.includes('"') && !text.includes('\r')) {
      this.atCellStart = text.endsWith('\n') || text.endsWith(this.delimiter);
      return text;
    }
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
        from = i + 1;
        if (text[i + 1] === '\n') {
          from++;
          i++;
        } else if (i + 1 === text.length) this.skipLF = true;
        this.atCellStart = true;
      } else {
        this.atCellStart = ch === '\n' || ch === this.delimiter;
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

/** The delimiter of the header line: whichever of `,` and `;` occurs more often outside quotes. */
function detectDelimiter(firstLine: string): Delimiter {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

async function sniff(path: string): Promise<Buffer> {
  const { open } = await import('node:fs/promises');
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * "little-endian" or "big-endian" when the head of the file is UTF-16 text: a byte order mark, or (without
 * one) text whose every other byte is NUL, as ASCII looks in UTF-16. Undefined for anything else.
 */
function utf16Of(head: Buffer): string | undefined {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'little-endian';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'big-endian';
  const pairs = Math.min(256, Math.floor(head.length / 2));
  if (pairs < 2) return undefined;
  let oddNul = 0;
  let evenNul = 0;
  for (let i = 0; i < pairs; i++) {
    if (head[2 * i] === 0 && head[2 * i + 1] !== 0) evenNul++;
    if (head[2 * i + 1] === 0 && head[2 * i] !== 0) oddNul++;
  }
  if (oddNul >= pairs * 0.9) return 'little-endian';
  if (evenNul >= pairs * 0.9) return 'big-endian';
  return undefined;
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

/**
 * Every record of the file, header included, in order, interleaved with the problems found. Stops after a
 * quoting error that leaves the structure of the rest of the file unknowable.
 */
export async function* readCsv(path: string): AsyncGenerator<CsvEvent> {
  const head = await sniff(path);
  if (head.length === 0) {
    yield { kind: 'problem', line: 1, message: 'the file is empty; expected a header row' };
    return;
  }
  const utf16 = utf16Of(head);
  if (utf16) {
    yield { kind: 'problem', line: 1, message: `the file is UTF-16 (${utf16}), not UTF-8; save it as UTF-8 (in Excel: "CSV UTF-8")` };
    return;
  }
  const nul = head.indexOf(0);
  if (nul !== -1) {
    const { line, col } = lineAndColumnOf(head.subarray(0, nul).toString('utf8'), nul);
    yield {
      kind: 'problem',
      line,
      message: `the file holds binary data (a NUL byte at character ${col}), not CSV text`,
    };
    return;
  }
  const headText = new TextDecoder('utf-8').decode(head).replace(/\r\n?/g, '\n');
  const firstLine = headText.split('\n', 1)[0] ?? '';
  const delimiter = detectDelimiter(firstLine);

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
  const source = createReadStream(path).pipe(new Utf8Lines(delimiter, onNul));
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
    const cells = item.record;
    if (cells.length === 1 && cells[0] === '' && item.raw.trim() === '') continue;
    yield { kind: 'record', line, cells };
  }
  while (problems.length > 0) yield problems.shift()!;
  source.destroy();
}
