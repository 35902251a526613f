import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Which text encoding a bulk file is read in (docs/csv.md, "Encodings"). The formats are UTF-8, but files come
 * as they are saved: Excel on Windows writes "CSV (delimitado por comas)" in Windows-1252 and "Unicode text" in
 * UTF-16 with a byte order mark, and ERPs write whatever their database holds. So: a byte order mark is
 * honoured; a file that is valid UTF-8 is UTF-8; any other is read as Windows-1252 (what such a file almost
 * always is), with a note; `--encoding` forces one.
 */

/** What `--encoding` takes. */
export const ENCODING_CHOICES = ['utf-8', 'windows-1252', 'latin1', 'utf-16'] as const;
export type EncodingChoice = (typeof ENCODING_CHOICES)[number];

/** How the bytes are decoded: a label TextDecoder takes. */
export type TextEncoding = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

export interface FileEncoding {
  encoding: TextEncoding;
  /** The file starts with a byte order mark (dropped by the decoder). */
  bom: boolean;
  /** How the file was read, when it is not what the formats say (UTF-8): said once on stderr. */
  note?: string;
}

/** Bytes looked at for a byte order mark and for UTF-16 without one. */
const HEAD_BYTES = 4096;

/** The encoding's name as people know it, for notes and messages. */
export function encodingName(encoding: TextEncoding): string {
  return { 'utf-8': 'UTF-8', 'windows-1252': 'Windows-1252', 'utf-16le': 'UTF-16LE', 'utf-16be': 'UTF-16BE' }[encoding];
}

/**
 * The encoding of the file at `path` (`name` is how messages call it). `forced` is `--encoding`: latin1 is read
 * as Windows-1252, as browsers do (WHATWG Encoding): the two differ only in 0x80–0x9F, where ISO-8859-1 has
 * control characters no CSV holds and Windows-1252 has €, curly quotes and dashes. Without `forced`, a file that
 * is not valid UTF-8 costs one more read, streamed, to know it: the first odd byte may be on its last line.
 * Returns a problem (a sentence) when a forced encoding contradicts the file's byte order mark.
 */
export async function fileEncoding(path: string, name: string, forced?: EncodingChoice): Promise<FileEncoding | { problem: string }> {
  const head = await readHead(path);
  const bom = bomOf(head);
  if (forced === 'windows-1252' || forced === 'latin1') {
    if (bom) return { problem: `${name} starts with a ${encodingName(bom)} byte order mark; leave out --encoding ${forced} to read it as ${encodingName(bom)}` };
    return { encoding: 'windows-1252', bom: false };
  }
  if (forced === 'utf-8') {
    if (bom && bom !== 'utf-8') return { problem: `${name} starts with a ${encodingName(bom)} byte order mark; leave out --encoding utf-8 to read it as ${encodingName(bom)}` };
    return { encoding: 'utf-8', bom: bom === 'utf-8' };
  }
  if (forced === 'utf-16') {
    if (bom === 'utf-8') return { problem: `${name} starts with a UTF-8 byte order mark; leave out --encoding utf-16 to read it as UTF-8` };
    if (bom) return { encoding: bom, bom: true };
    return { encoding: utf16WithoutBom(head) ?? 'utf-16le', bom: false };
  }
  if (bom) return { encoding: bom, bom: true };
  const guessed = utf16WithoutBom(head);
  if (guessed) {
    return {
      encoding: guessed,
      bom: false,
      note: `${name} has no byte order mark but every other byte is NUL: read as ${encodingName(guessed)} (--encoding chooses another).`,
    };
  }
  const invalid = await firstInvalidUtf8(path);
  if (invalid === undefined) return { encoding: 'utf-8', bom: false };
  return {
    encoding: 'windows-1252',
    bom: false,
    note: `${name} is not UTF-8 (line ${invalid.line} holds the byte 0x${invalid.byte.toString(16).toUpperCase().padStart(2, '0')}): read as Windows-1252, as Excel saves CSV on Windows (--encoding chooses another).`,
  };
}

/** The first `bytes` bytes of the file (fewer when it is shorter). */
export async function readHead(path: string, bytes = HEAD_BYTES): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function bomOf(head: Buffer): TextEncoding | undefined {
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** UTF-16 without a byte order mark: text whose every other byte is NUL, as ASCII looks in UTF-16. */
function utf16WithoutBom(head: Buffer): TextEncoding | undefined {
  const pairs = Math.min(256, Math.floor(head.length / 2));
  if (pairs < 2) return undefined;
  let oddNul = 0;
  let evenNul = 0;
  for (let i = 0; i < pairs; i++) {
    if (head[2 * i] === 0 && head[2 * i + 1] !== 0) evenNul++;
    if (head[2 * i + 1] === 0 && head[2 * i] !== 0) oddNul++;
  }
  if (oddNul >= pairs * 0.9) return 'utf-16le';
  if (evenNul >= pairs * 0.9) return 'utf-16be';
  return undefined;
}

/**
 * The first byte that is not UTF-8, and its line, or undefined when the whole file is UTF-8. Streams the file
 * through a validator that carries an unfinished sequence from one chunk to the next (memory stays one chunk).
 */
export async function firstInvalidUtf8(path: string): Promise<{ line: number; byte: number } | undefined> {
  const validator = new Utf8Validator();
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const bad = validator.push(chunk);
      if (bad !== undefined) return bad;
    }
    return validator.end();
  } finally {
    stream.destroy();
  }
}

/** UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates, nothing past U+10FFFF. */
export class Utf8Validator {
  /** Continuation bytes still expected, and the range the next one must fall in. */
  private need = 0;
  private lower = 0x80;
  private upper = 0xbf;
  private lead = 0;
  private line = 1;

  /** The first invalid byte of `chunk` (with its line), given what came before; undefined when it is all valid. */
  push(chunk: Uint8Array): { line: number; byte: number } | undefined {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.need > 0) {
        if (b < this.lower || b > this.upper) return { line: this.line, byte: this.lead };
        this.need--;
        this.lower = 0x80;
        this.upper = 0xbf;
        continue;
      }
      if (b < 0x80) {
        if (b === 0x0a) this.line++;
        continue;
      }
      this.lead = b;
      if (b >= 0xc2 && b <= 0xdf) this.need = 1;
      else if (b >= 0xe0 && b <= 0xef) {
        this.need = 2;
        if (b === 0xe0) this.lower = 0xa0;
        if (b === 0xed) this.upper = 0x9f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        this.need = 3;
        if (b === 0xf0) this.lower = 0x90;
        if (b === 0xf4) this.upper = 0x8f;
      } else {
        return { line: this.line, byte: b };
      }
    }
    return undefined;
  }

  /** At the end of the text: a sequence cut short is invalid. */
  end(): { line: number; byte: number } | undefined {
    return this.need > 0 ? { line: this.line, byte: this.lead } : undefined;
  }
}

/**
 * A streaming decoder for the encoding: `decode(chunk, { stream: true })` keeps a character split between
 * chunks for the next call. A byte order mark of UTF-8 or UTF-16 is dropped; bytes the encoding cannot hold
 * become U+FFFD, which the row checks report with the cell they are in.
 */
export function textDecoder(encoding: TextEncoding): TextDecoder {
  return new TextDecoder(encoding);
}
