import { createReadStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { parse } from 'csv-parse';

/**
 * Reading a CSV file as records with their line numbers (CSV.md: UTF-8, BOM accepted, `,` or `;`
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
 * Decodes UTF-8 (the BOM is dropped by TextDecoder) and turns CRLF and lone CR into LF, so that
 * csv-parse counts lines the way an editor shows them. Invalid bytes become U+FFFD, which the row
 * validation reports with the cell they are in.
 */
class Utf8Lines extends Transform {
  private readonly decoder = new TextDecoder('utf-8');
  private pendingCR = false;

  constructor() {
    super({ readableObjectMode: false, decodeStrings: true, encoding: 'utf8' });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.emitText(this.decoder.decode(chunk, { stream: true }));
    done();
  }

  override _flush(done: TransformCallback): void {
    this.emitText(this.decoder.decode());
    if (this.pendingCR) this.push('\n');
    done();
  }

  private emitText(text: string): void {
    if (text === '') return;
    let input = text;
    if (this.pendingCR) {
      input = `\r${input}`;
      this.pendingCR = false;
    }
    if (input.endsWith('\r')) {
      this.pendingCR = true;
      input = input.slice(0, -1);
    }
    this.push(input.replace(/\r\n?/g, '\n'));
  }
}

/** The delimiter of the header line: whichever of `,` and `;` occurs more often outside quotes. */
export function detectDelimiter(firstLine: string): Delimiter {
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
  let stopLine: number | undefined;
  parser.on('skip', (err: Error & { code?: string; lines?: number; column?: number }) => {
    if (stopLine !== undefined) return;
    const { text, stops } = describeParseError(err.code, err.message);
    const at = err.lines ?? 0;
    problems.push({ kind: 'problem', line: at, column: err.column, message: text });
    if (stops) stopLine = at;
  });
  const source = createReadStream(path).pipe(new Utf8Lines());
  source.on('error', (err) => parser.destroy(err));
  source.pipe(parser);

  let line = 1;
  for await (const item of parser as AsyncIterable<{ record: string[]; raw: string; info: { lines: number } }>) {
    // info.lines is the record's last line; the record starts where its own line breaks say.
    const newlinesInside = (item.raw.match(/\n/g)?.length ?? 0) - (item.raw.endsWith('\n') ? 1 : 0);
    line = item.info.lines - newlinesInside;
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
