import { describe, expect, it } from 'vitest';
import { type PlannedWrite, brakeSentence, checkBrakes, parseBrake } from '../../../../src/services/bulk/brakes.js';

/** Issue 28's brakes over a plan's writes (pure: no store, no flags). */

const price = (id: number, before: string, after: string): PlannedWrite => ({ resource: 'variant', id, key: `SKU-${id}`, action: 'update', field: 'price', before, after });
const stock = (id: number, before: number, after: number, location?: string): PlannedWrite => ({
  resource: 'variant', id, key: `SKU-${id}`, action: 'update', field: 'stock', ...(location ? { location } : {}), before, after,
});
const population = { records: 100, stockVariants: 50 };

describe('parseBrake', () => {
  it('reads N and P% where each brake takes them', () => {
    expect(parseBrake('max-changes', '500')).toEqual({ count: 500 });
    expect(parseBrake('max-changes', '5%')).toEqual({ percent: 5 });
    expect(parseBrake('max-zero-stock', '2.5%')).toEqual({ percent: 2.5 });
    expect(parseBrake('max-price-change', '50%')).toEqual({ percent: 50 });
    expect(parseBrake('max-price-change', '50')).toEqual({ percent: 50 });
    expect(parseBrake('max-deletes', '0')).toEqual({ count: 0 });
  });

  it('refuses what a brake cannot mean, naming where it was given', () => {
    expect(() => parseBrake('max-changes', 'lots')).toThrow(/--max-changes takes a whole number \(10\) or a percentage \(5%\); "lots" is neither/);
    expect(() => parseBrake('max-changes', '150%')).toThrow(/at most 100%/);
    expect(() => parseBrake('max-deletes', '5%', "the profile's max-deletes")).toThrow(/^the profile's max-deletes takes a whole number/);
    expect(() => parseBrake('max-price-change', '-3%')).toThrow(/percentage/);
  });
});

describe('checkBrakes', () => {
  it('max-price-change: every price that moves by more than P%, the largest first; a price from nothing is no move', () => {
    const tripped = checkBrakes([price(1, '10.00', '1000.00'), price(2, '10.00', '14.00'), price(3, '10.00', '4.00'), price(4, '', '9.00')], { maxPriceChange: 50 }, population);
    expect(tripped).toHaveLength(1);
    expect(tripped[0]!.records.map((r) => [r.id, r.percent])).toEqual([[1, 9900], [3, 60]]);
    expect(brakeSentence(tripped[0]!)).toBe('--max-price-change 50%: 2 prices move by more (up to 9,900%)');
  });

  it('max-changes counts records, not fields; P% is of the store', () => {
    const writes = [price(1, '1', '2'), stock(1, 3, 4), price(2, '1', '2')];
    expect(checkBrakes(writes, { maxChanges: { count: 2 } }, population)).toEqual([]);
    expect(checkBrakes(writes, { maxChanges: { count: 1 } }, population)[0]).toMatchObject({ brake: 'max-changes', found: 2 });
    expect(checkBrakes(writes, { maxChanges: { percent: 1 } }, population)[0]).toMatchObject({ found: 2 });
    expect(checkBrakes(writes, { maxChanges: { percent: 2 } }, population)).toEqual([]);
  });

  it('max-zero-stock: a variant whose stock, summed over its locations, goes from above 0 to 0', () => {
    const writes = [stock(1, 5, 0), stock(2, 5, 0, 'A'), stock(2, 3, 1, 'B'), stock(3, 0, 0), stock(4, 2, 0, 'A'), stock(4, 1, 0, 'B')];
    const [t] = checkBrakes(writes, { maxZeroStock: { count: 1 } }, population);
    expect(t!.records.map((r) => r.id)).toEqual([1, 4]);
    expect(checkBrakes(writes, { maxZeroStock: { percent: 4 } }, population)).toEqual([]);
  });

  it('max-deletes counts the records a plan deletes', () => {
    const deletes: PlannedWrite[] = [1, 2, 3].map((id) => ({ resource: 'product', id, key: `p-${id}`, action: 'delete', field: '*', before: {}, after: null }));
    expect(checkBrakes(deletes, { maxDeletes: 3 }, population)).toEqual([]);
    expect(checkBrakes(deletes, { maxDeletes: 2 }, population)[0]).toMatchObject({ brake: 'max-deletes', found: 3 });
  });
});
