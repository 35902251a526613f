import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Utf8Validator, fileEncoding, firstInvalidUtf8 } from '../../../../src/services/bulk/encoding.js';

const dir = mkdtempSync(join(tmpdir(), 'encoding-'));
let n = 0;
function file(bytes: Buffer | string): string {
  const path = join(dir, `f${n++}.csv`);
  writeFileSync(path, bytes);
  return path;
}
const cp1252 = (text: string) => Buffer.from(new Uint8Array([...text].map((c) => ({ ó: 0xf3, é: 0xe9, ñ: 0xf1, '€': 0x80 })[c] ?? c.charCodeAt(0))));

describe('fileEncoding', () => {
  it('reads valid UTF-8 as UTF-8, without a note', async () => {
    expect(await fileEncoding(file('sku;stock\nCAMISÓN;3\n'), 'f.csv')).toEqual({ encoding: 'utf-8', bom: false });
    expect(await fileEncoding(file('\uFEFFsku;stock\n'), 'f.csv')).toEqual({ encoding: 'utf-8', bom: true });
  });

  it('reads a file that is not UTF-8 as Windows-1252, naming the line of the first odd byte', async () => {
    const lines = ['Código;Existencia', ...Array.from({ length: 5000 }, (_, i) => `A${i};${i}`), 'PIÑA;3'];
    const result = await fileEncoding(file(cp1252(lines.join('\r\n'))), 'stock.csv');
    expect(result).toEqual({
      encoding: 'windows-1252',
      bom: false,
      note: 'stock.csv is not UTF-8 (line 1 holds the byte 0xF3): read as Windows-1252, as Excel saves CSV on Windows (--encoding chooses another).',
    });
    // The first odd byte past the sniffed head is found too (the whole file is checked, streamed).
    const late = await fileEncoding(file(Buffer.concat([Buffer.from(`sku\n${'A\n'.repeat(200_000)}`), cp1252('PIÑA\n')])), 'late.csv');
    expect(late).toMatchObject({ encoding: 'windows-1252', note: expect.stringContaining('line 200002 holds the byte 0xD1') });
  });

  it('honours a UTF-16 byte order mark, and reads UTF-16 without one with a note', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('sku\tstock\n', 'utf16le')]);
    expect(await fileEncoding(file(le), 'u.csv')).toEqual({ encoding: 'utf-16le', bom: true });
    const be = Buffer.from('sku,stock\n', 'utf16le').swap16();
    expect(await fileEncoding(file(Buffer.concat([Buffer.from([0xfe, 0xff]), be])), 'u.csv')).toEqual({ encoding: 'utf-16be', bom: true });
    expect(await fileEncoding(file(Buffer.from('sku,stock\nA,1\n', 'utf16le')), 'u.csv')).toMatchObject({
      encoding: 'utf-16le',
      note: expect.stringContaining('every other byte is NUL: read as UTF-16LE'),
    });
  });

  it('--encoding forces the reading, and contradicting a byte order mark is a problem', async () => {
    expect(await fileEncoding(file('sku\nA\n'), 'f.csv', 'latin1')).toEqual({ encoding: 'windows-1252', bom: false });
    expect(await fileEncoding(file(cp1252('sku\nÑ\n')), 'f.csv', 'utf-8')).toEqual({ encoding: 'utf-8', bom: false });
    expect(await fileEncoding(file(Buffer.from('sku\n', 'utf16le')), 'f.csv', 'utf-16')).toEqual({ encoding: 'utf-16le', bom: false });
    expect(await fileEncoding(file('\uFEFFsku\n'), 'f.csv', 'windows-1252')).toEqual({
      problem: 'f.csv starts with a UTF-8 byte order mark; leave out --encoding windows-1252 to read it as UTF-8',
    });
  });
});

describe('Utf8Validator', () => {
  it('carries a character split between chunks, and refuses overlong forms, surrogates and cut sequences', async () => {
    const euro = Buffer.from('€'); // E2 82 AC
    const v = new Utf8Validator();
    expect(v.push(euro.subarray(0, 1))).toBeUndefined();
    expect(v.push(euro.subarray(1))).toBeUndefined();
    expect(v.end()).toBeUndefined();
    expect(new Utf8Validator().push(Buffer.from([0xc0, 0xaf]))).toEqual({ line: 1, byte: 0xc0 });
    expect(new Utf8Validator().push(Buffer.from([0xed, 0xa0, 0x80]))).toEqual({ line: 1, byte: 0xed });
    const cut = new Utf8Validator();
    expect(cut.push(Buffer.from([0x0a, 0xe2, 0x82]))).toBeUndefined();
    expect(cut.end()).toEqual({ line: 2, byte: 0xe2 });
    expect(await firstInvalidUtf8(file('plain ascii\n'))).toBeUndefined();
  });
});
