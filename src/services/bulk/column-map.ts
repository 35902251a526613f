import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { UsageError, unreadableFile } from '../../errors.js';
import { Utf8Validator } from './encoding.js';

/**
 * `--map 'Código=sku,Existencia=stock'` and `--map-file FILE`: an ERP's or a spreadsheet's own column names
 * renamed to the ones `store` reads, before the header is checked (docs/csv.md, "Other column names"). A name
 * mapped to nothing (`Marca=`) leaves that column out. Names are compared as headers are: case, accents and
 * runs of spaces aside. A name the file lacks is an error: a typo must not quietly leave a column unread.
 */

export interface ColumnMapping {
  from: string;
  /** '' leaves the column out. */
  to: string;
  /** Where the pair was given, for messages: `--map` or `--map-file map.txt, line 3`. */
  source: string;
}

/** `--map A=B,C=D`. */
export function parseMapFlag(raw: string): ColumnMapping[] {
  const pairs = raw.split(',').filter((p) => p.trim() !== '');
  if (pairs.length === 0) throw new UsageError('--map needs pairs FILE_COLUMN=COLUMN separated by commas, e.g. --map \'Código=sku,Existencia=stock\'.');
  return pairs.map((pair) => parsePair(pair, '--map'));
}

/** `--map-file FILE`: one FILE_COLUMN=COLUMN per line; blank lines and lines starting with # are skipped. */
export async function readMapFile(path: string): Promise<ColumnMapping[]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw unreadableFile(path, error, '--map-file');
  }
  const validator = new Utf8Validator();
  const utf8 = validator.push(bytes) === undefined && validator.end() === undefined;
  // Written by the same tools as the file it maps: UTF-8, else (Notepad's "ANSI") Windows-1252.
  const text = new TextDecoder(utf8 ? 'utf-8' : 'windows-1252').decode(bytes);
  const mappings: ColumnMapping[] = [];
  for (const [i, line] of text.split(/\r\n|\r|\n/).entries()) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    mappings.push(parsePair(line, `--map-file ${basename(path)}, line ${i + 1}`));
  }
  if (mappings.length === 0) throw new UsageError(`--map-file ${basename(path)} holds no FILE_COLUMN=COLUMN line.`);
  return mappings;
}

function parsePair(pair: string, source: string): ColumnMapping {
  // The last "=": our column names never hold one, a file's own might.
  const eq = pair.lastIndexOf('=');
  const from = eq > 0 ? pair.slice(0, eq).trim() : '';
  if (from === '') throw new UsageError(`${source}: "${pair.trim()}" must look like FILE_COLUMN=COLUMN, e.g. Existencia=stock (COLUMN empty leaves the column out).`);
  return { from, to: pair.slice(eq + 1).trim(), source };
}

/** Lower case, accents removed, spaces collapsed: how column names are compared. */
export function headerKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The names the file's columns are read under: `headers` (the file's own, trimmed) with the mappings applied;
 * undefined for a column mapped to nothing. Throws a UsageError (exit 2) for a mapping that names no column of
 * the file, several, or a column another mapping names too.
 */
export function mapHeader(headers: string[], mappings: ColumnMapping[], file: string): (string | undefined)[] {
  const names: (string | undefined)[] = [...headers];
  const mappedBy = new Map<number, ColumnMapping>();
  const keys = headers.map(headerKey);
  for (const mapping of mappings) {
    const key = headerKey(mapping.from);
    const matches = keys.flatMap((k, i) => (k === key ? [i] : []));
    if (matches.length === 0) {
      const shown = headers.filter((h) => h !== '').map((h) => `"${h}"`).join(', ');
      throw new UsageError(`${mapping.source}: ${file} has no column "${mapping.from}" (its columns: ${shown}).`);
    }
    if (matches.length > 1) {
      throw new UsageError(`${mapping.source}: ${file} has ${matches.length} columns "${mapping.from}" (columns ${matches.map((i) => i + 1).join(', ')}); rename one in the file.`);
    }
    const index = matches[0]!;
    const earlier = mappedBy.get(index);
    if (earlier) throw new UsageError(`${mapping.source}: column "${mapping.from}" is mapped twice (also by ${earlier.source}).`);
    mappedBy.set(index, mapping);
    names[index] = mapping.to === '' ? undefined : mapping.to;
  }
  return names;
}
