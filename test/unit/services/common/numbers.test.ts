import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCatalog } from '../../../../src/services/catalog-files/catalog.js';
import { readSyncFile } from '../../../../src/services/catalog-files/sync/feed.js';
import { parseDecimal, parseStock } from '../../../../src/services/catalog/catalog-input.js';
import { readDecimal, readStock, shiftDecimal } from '../../../../src/services/common/numbers.js';

describe('readDecimal', () => {
  it('reads "." or "," as the decimal mark and writes the platform form: two decimals at least, never rounded', () => {
    expect(readDecimal('19.9')).toBe('19.90');
    expect(readDecimal('19,9')).toBe('19.90');
    expect(readDecimal('007')).toBe('7.00');
    expect(readDecimal('0.250')).toBe('0.25');
    expect(readDecimal('0.125')).toBe('0.125');
    expect(readDecimal('0.0000001')).toBe('0.0000001');
  });

  it('says why a text is not a decimal', () => {
    expect(readDecimal('-3')).toEqual({ problem: 'negative' });
    expect(readDecimal('1.234,50')).toEqual({ problem: 'not-a-number' });
    expect(readDecimal('')).toEqual({ problem: 'not-a-number' });
  });

  it('keeps the value of any decimal, with either mark', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.nat(999), fc.constantFrom('.', ','), (whole, part, mark) => {
        const text = `${whole}${mark}${String(part).padStart(3, '0')}`;
        expect(Number(readDecimal(text))).toBeCloseTo(whole + part / 1000, 6);
      }),
    );
  });

  it('shifts grams to kilograms in the same form', () => {
    expect(shiftDecimal('250.00', 3)).toBe('0.25');
    expect(shiftDecimal('1.00', 3)).toBe('0.001');
    expect(shiftDecimal('1500.50', 3)).toBe('1.5005');
  });
});

describe('readStock', () => {
  it('reads whole units, 0 or more, and says why anything else is refused', () => {
    expect(readStock('12')).toBe(12);
    expect(readStock('0')).toBe(0);
    expect(readStock('-1')).toEqual({ problem: 'negative' });
    expect(readStock('1.5')).toEqual({ problem: 'not-whole' });
    expect(readStock('doce')).toEqual({ problem: 'not-a-number' });
    expect(readStock('99999999999999999999')).toEqual({ problem: 'too-large' });
  });
});

describe('a flag and a CSV cell with the same text send the same value', () => {
  it('--weight 19.9 and a weight cell 19.9 are both "19.90"; --stock 7 and a stock cell 7 are both 7', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'store-numbers-'));
    try {
      const catalogFile = join(dir, 'catalog.csv');
      await writeFile(catalogFile, 'handle,name,sku,price,stock,weight,width\ncamisa,Camisa,CAM-1,100,7,"19,9",20\n');
      const catalog = await readCatalog(catalogFile);
      expect(catalog.errors).toEqual([]);
      const variant = catalog.products[0]!.variants[0]!;
      expect(variant.decimals.weight).toBe(parseDecimal('--weight', '19,9'));
      expect(variant.decimals.weight).toBe(parseDecimal('--weight', '19.9'));
      expect(variant.decimals.weight).toBe('19.90');
      expect(variant.decimals.width).toBe(parseDecimal('--width', '20'));
      expect(variant.stock).toBe(parseStock('--stock', '7'));

      const feedFile = join(dir, 'feed.csv');
      await writeFile(feedFile, 'sku,stock\nCAM-1,7\n');
      const feed = await readSyncFile(feedFile);
      expect(feed.rows[0]!.stock).toBe(parseStock('--stock', '7'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
