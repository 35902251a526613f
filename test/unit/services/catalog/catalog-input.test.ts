import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/errors.js';
import {
  localText,
  mergeLocalized,
  parseDecimal,
  parseFieldAssignment,
  parseLocalized,
  parseLocationName,
  parseMoney,
  parseOptions,
  parseStock,
  parseStockAt,
} from '../../../../src/services/catalog/catalog-input.js';

const plain = { languages: ['es'], main_language: 'es', country: 'AR' };
const multi = { languages: ['es', 'pt', 'en'], main_language: 'es', country: 'AR' };

function usageMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseDecimal', () => {
  it('accepts "." and "," as the decimal separator and returns the decimal string the store takes (as a CSV cell gives it)', () => {
    expect(parseDecimal('--price', '19.90')).toBe('19.90');
    expect(parseDecimal('--price', '19,9')).toBe('19.90');
    expect(parseDecimal('--price', ' 20 ')).toBe('20.00');
    expect(parseDecimal('--price', '007,50')).toBe('7.50');
    expect(parseDecimal('--price', '0')).toBe('0.00');
  });

  it('refuses negatives, thousands separators and words, naming the flag', () => {
    expect(usageMessage(() => parseDecimal('--price', '-3'))).toMatch(/^--price must not be negative/);
    expect(usageMessage(() => parseDecimal('--cost', '1.234,50'))).toMatch(/^--cost "1\.234,50" is not a decimal number/);
    expect(usageMessage(() => parseDecimal('--weight', 'abc'))).toMatch(/^--weight/);
    expect(usageMessage(() => parseDecimal('--price', ''))).toMatch(/^--price/);
  });

  it('keeps the value of any non-negative amount written with either separator', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.nat(99), fc.constantFrom('.', ','), (whole, cents, sep) => {
        const text = `${whole}${sep}${String(cents).padStart(2, '0')}`;
        expect(Number(parseDecimal('--price', text))).toBeCloseTo(whole + cents / 100, 6);
      }),
    );
  });
});

describe('parseMoney (--price, --promotional-price, --cost)', () => {
  it('writes money as the store does, with two decimals', () => {
    expect(parseMoney('--price', '19,9')).toBe('19.90');
    expect(parseMoney('--price', ' 20 ')).toBe('20.00');
    expect(parseMoney('--price', '007,50')).toBe('7.50');
    expect(parseMoney('--price', '9999999999999.99')).toBe('9999999999999.99');
  });

  it('never rounds: more than two decimals is refused with how it was read and the likely intent', () => {
    expect(usageMessage(() => parseMoney('--price', '2.500'))).toBe(
      '--price "2.500" has 3 decimals (read with "." as the decimal mark: 2.500); money has at most 2, and the store would round it. 2500? use 2500 or 2500.00.',
    );
    expect(usageMessage(() => parseMoney('--cost', '0.004'))).toMatch(/^--cost "0\.004" has 3 decimals.*Write 0\.00 or 0\.01\.$/);
    expect(usageMessage(() => parseMoney('--promotional-price', '10,005'))).toMatch(/read with "," as the decimal mark: 10\.005.*10005\? use 10005 or 10005\.00/);
    expect(usageMessage(() => parseMoney('--price', '19.9999'))).toMatch(/4 decimals.*Write 19\.99 or 20\.00/);
  });

  it('refuses amounts of 10^13 and more, negatives and thousands separators', () => {
    expect(usageMessage(() => parseMoney('--price', '10000000000000'))).toMatch(/^--price "10000000000000" is too large/);
    expect(usageMessage(() => parseMoney('--price', '-3'))).toMatch(/^--price must not be negative/);
    expect(usageMessage(() => parseMoney('--price', '1.234,50'))).toMatch(/^--price "1\.234,50" is not a decimal number/);
  });

  it('keeps the exact value of any amount with up to two decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 13n - 1n }), fc.nat(99), fc.constantFrom('.', ','), (whole, cents, sep) => {
        const text = `${whole}${sep}${String(cents).padStart(2, '0')}`;
        expect(parseMoney('--price', text)).toBe(`${whole}.${String(cents).padStart(2, '0')}`);
      }),
    );
  });
});

describe('parseStock and parseStockAt', () => {
  it('takes whole numbers from 0', () => {
    expect(parseStock('--stock', '0')).toBe(0);
    expect(parseStock('--stock', '12')).toBe(12);
  });

  it('refuses negatives and fractions, naming the flag', () => {
    expect(usageMessage(() => parseStock('--stock', '-1'))).toMatch(/^--stock must not be negative/);
    expect(usageMessage(() => parseStock('--stock', '2.5'))).toMatch(/^--stock must be a whole number/);
    expect(usageMessage(() => parseStock('--stock', '1e3'))).toMatch(/^--stock must be a whole number/);
  });

  it('splits LOCATION=N at the last "=" so names may contain one', () => {
    expect(parseStockAt('Depósito Central=10')).toEqual({ location: 'Depósito Central', stock: 10 });
    expect(parseStockAt('A=B=3')).toEqual({ location: 'A=B', stock: 3 });
    expect(usageMessage(() => parseStockAt('Palermo'))).toMatch(/^--stock-at "Palermo" must look like LOCATION=N/);
    expect(usageMessage(() => parseStockAt('Palermo=-2'))).toMatch(/^--stock-at Palermo must not be negative/);
  });
});

describe('parseOptions and parseFieldAssignment', () => {
  it('reads NAME=VALUE pairs in order', () => {
    expect(parseOptions(['Talle=M', 'Color = Azul'])).toEqual([
      { name: 'Talle', value: 'M' },
      { name: 'Color', value: 'Azul' },
    ]);
  });

  it('refuses malformed pairs and an option given twice', () => {
    expect(usageMessage(() => parseOptions(['Talle']))).toMatch(/^--option "Talle" must look like NAME=VALUE/);
    expect(usageMessage(() => parseOptions(['Talle=']))).toMatch(/--option/);
    expect(usageMessage(() => parseOptions(['Talle=M', 'talle=L']))).toMatch(/given twice/);
  });

  it('keeps "=" and empty values in a custom field assignment', () => {
    expect(parseFieldAssignment('Nota=a=b')).toEqual({ field: 'Nota', value: 'a=b' });
    expect(parseFieldAssignment('Nota=')).toEqual({ field: 'Nota', value: '' });
    expect(usageMessage(() => parseFieldAssignment('=x'))).toMatch(/FIELD=VALUE/);
  });
});

describe('parseLocalized', () => {
  it('sends a plain string on a one-language store, even when written with its language key', () => {
    expect(parseLocalized('--name', ['Camisa'], plain)).toBe('Camisa');
    expect(parseLocalized('--name', ['es=Camisa'], plain)).toBe('Camisa');
    // Not one of the store's languages: on a plain store it is just text.
    expect(parseLocalized('--name', ['de=facto'], plain)).toBe('de=facto');
  });

  it('keys values by language on a multilingual store; a plain value goes to the main language', () => {
    expect(parseLocalized('--name', ['es=Camisa', 'pt=Camisa BR'], multi)).toEqual({ es: 'Camisa', pt: 'Camisa BR' });
    expect(parseLocalized('--name', ['Camisa', 'EN=Shirt'], multi)).toEqual({ es: 'Camisa', en: 'Shirt' });
  });

  it('names the flag on an unknown language or a language given twice', () => {
    expect(usageMessage(() => parseLocalized('--name', ['fr=Chemise'], multi))).toMatch(/^--name fr=…: the store has no language "fr"/);
    expect(usageMessage(() => parseLocalized('--description', ['x', 'es=y'], multi))).toMatch(/^--description gives the language es twice/);
    expect(usageMessage(() => parseLocalized('--name', ['a', 'b'], plain))).toMatch(/^--name is given twice/);
  });

  it('merges an update with the languages not given', () => {
    expect(mergeLocalized({ es: 'Camisa', pt: 'Camisa', en: null }, { pt: 'Blusa' })).toEqual({ es: 'Camisa', pt: 'Blusa' });
    expect(mergeLocalized('Camisa', 'Remera')).toBe('Remera');
  });

  it('shows the preferred language, else the first text present', () => {
    expect(localText({ es: 'Camisa', pt: 'Blusa' }, 'pt')).toBe('Blusa');
    expect(localText({ es: '', pt: 'Blusa' })).toBe('Blusa');
    expect(localText(null)).toBe('');
  });
});

describe('parseLocationName', () => {
  it('keys location names by locale, reusing the locale the name already has', () => {
    expect(parseLocationName(['Depósito'], plain)).toEqual({ es_AR: 'Depósito' });
    expect(parseLocationName(['pt=Depósito'], multi, { es_AR: 'Depósito' })).toEqual({ es_AR: 'Depósito', pt_BR: 'Depósito' });
    expect(parseLocationName(['es=Nuevo'], multi, { es_UY: 'Viejo' })).toEqual({ es_UY: 'Nuevo' });
    expect(parseLocationName(['en_GB=Warehouse'], plain)).toEqual({ en_GB: 'Warehouse' });
  });

  it('refuses an unknown language on a multilingual store', () => {
    expect(usageMessage(() => parseLocationName(['fr=Dépôt'], multi))).toMatch(/no language "fr"/);
  });

  it('refuses a blank name in the main language, keeping other languages clearable', () => {
    expect(usageMessage(() => parseLocationName([''], plain))).toMatch(/^--name must not be empty in the main language \(es_AR\)/);
    expect(usageMessage(() => parseLocationName(['es= '], multi, { es_AR: 'Depósito', pt_BR: 'Depósito' }))).toMatch(/^--name must not be empty/);
    expect(parseLocationName(['pt='], multi, { es_AR: 'Depósito', pt_BR: 'Depósito' })).toEqual({ es_AR: 'Depósito', pt_BR: '' });
  });
});
