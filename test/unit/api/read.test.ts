import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Id, Money, Num, parseRecords, pickLocalized, setDisplayLanguage } from '../../../src/api/read.js';
import { parseTimestamp } from '../../../src/platform/timestamps.js';
import { storeInfo, StoreRecordSchema } from '../../../src/api/store.js';

/** The tolerant reader's pieces (platform.md §0), on the odd values real stores send. */
describe('tolerant reader', () => {
  afterEach(() => setDisplayLanguage(undefined));

  it('reads ids of any length as numbers or numeric strings, and refuses what is not an id', () => {
    expect(Id.parse(182)).toBe(182);
    expect(Id.parse('450000020')).toBe(450000020);
    expect(Id.parse('1234567890123')).toBe(1234567890123);
    expect(Id.safeParse('12a').success).toBe(false);
    expect(Id.safeParse(null).success).toBe(false);
  });

  it('reads counts as numbers or numeric strings, null as unknown; money stays the decimal text it was sent as', () => {
    expect(Num.parse('3')).toBe(3);
    expect(Num.parse(null)).toBeUndefined();
    expect(Num.parse('n/a')).toBeUndefined();
    expect(Money.parse('2.500')).toBe('2.500');
    expect(Money.parse(19.9)).toBe('19.9');
    expect(Money.parse(null)).toBeUndefined();
  });

  it('reads both timestamp offset forms to the same instant', () => {
    expect(parseTimestamp('2022-02-23T12:25:18+0000')?.toISOString()).toBe('2022-02-23T12:25:18.000Z');
    expect(parseTimestamp('2013-01-03T09:11:51-03:00')?.toISOString()).toBe('2013-01-03T12:11:51.000Z');
    expect(parseTimestamp('2013-01-03T09:11:51-0300')?.toISOString()).toBe('2013-01-03T12:11:51.000Z');
    expect(parseTimestamp('yesterday')).toBeUndefined();
  });

  it('picks the main language, then its locale form, then any language with text; never blank', () => {
    expect(pickLocalized({ en: 'Size', pt: 'Tamanho' }, 'pt')).toBe('Tamanho');
    expect(pickLocalized({ en_US: 'Warehouse', pt_BR: 'Depósito' }, 'pt')).toBe('Depósito');
    expect(pickLocalized({ pt: 'Depósito' }, 'pt_BR')).toBe('Depósito');
    expect(pickLocalized({ pt: '', en: 'Color' }, 'pt')).toBe('Color');
    expect(pickLocalized({ es: null, en: 'Color' }, 'es')).toBe('Color');
    expect(pickLocalized('Plain', 'pt')).toBe('Plain');
    expect(pickLocalized(null, 'pt')).toBe('');
  });

  it('uses the main language learned from the store when none is given', () => {
    expect(pickLocalized({ en: 'Size', pt: 'Tamanho' })).toBe('Size');
    setDisplayLanguage('pt');
    expect(pickLocalized({ en: 'Size', pt: 'Tamanho' })).toBe('Tamanho');
  });

  it('leaves an odd record out of a list with one warning naming it, and keeps the rest', () => {
    const schema = z.looseObject({ id: Id, quantity: Num });
    const warnings: string[] = [];
    const records = parseRecords(schema, [{ id: 1, quantity: '2' }, { id: 'x' }, { id: '3', extra: true }], 'order', (m) => warnings.push(m));
    expect(records).toEqual([{ id: 1, quantity: 2 }, { id: 3, quantity: undefined, extra: true }]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^1 order record could not be read and was left out \(record x: .*at id\)\.$/);
  });

  it('reads GET /store in the documented shape: active languages, main first; plan_name; main_currency', () => {
    const record = StoreRecordSchema.parse({
      id: '1234567',
      name: { en: 'Acme', pt: 'Acme BR' },
      main_language: 'pt',
      main_currency: 'BRL',
      languages: { en: { currency: 'USD', active: true }, es: { currency: 'ARS', active: false }, pt: { currency: 'BRL', active: true } },
      plan_name: 'Business',
      country: 'BR',
      unknown_field: { nested: true },
    });
    const info = storeInfo(record);
    expect(info).toMatchObject({ id: 1234567, name: 'Acme BR', main_language: 'pt', languages: ['pt', 'en'], currency: 'BRL', plan: 'Business' });
    expect(info.record).toHaveProperty('unknown_field');
  });
});
