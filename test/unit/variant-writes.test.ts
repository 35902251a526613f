import { describe, expect, it } from 'vitest';
import { DecimalNumber, stringifyBody } from '../../src/client/json.js';
import { type VariantWrite, batchWrites, minimumRequests } from '../../src/services/bulk/variant-writes.js';

const write = (productId: number, variantId: number, body: VariantWrite['body']): VariantWrite => ({ productId, variantId, line: variantId, key: `S${variantId}`, body });

describe('batchWrites: the fewest documented requests', () => {
  it('puts price and stock changes 50 per stock-price request, across products', () => {
    const writes = Array.from({ length: 120 }, (_, i) => write(1 + Math.floor(i / 3), i, i % 2 ? { price: '1.00' } : { stock: i }));
    const batches = batchWrites(writes);
    expect(batches.map((b) => [b.kind, b.writes.length])).toEqual([
      ['stock-price', 50],
      ['stock-price', 50],
      ['stock-price', 20],
    ]);
    expect(batches.flatMap((b) => b.writes)).toEqual(writes);
  });

  it('sends all the changed variants of a product with another change in one PATCH, price and stock included', () => {
    const writes = [write(1, 10, { price: '2.00' }), write(2, 20, { stock: 3 }), write(1, 11, { cost: '1.00' }), write(1, 12, { stock: 1, price: '3.00' })];
    const batches = batchWrites(writes);
    expect(batches).toEqual([
      { kind: 'variants', productId: 1, writes: [writes[0], writes[2], writes[3]] },
      { kind: 'stock-price', writes: [writes[1]] },
    ]);
    expect(minimumRequests(writes)).toBe(2);
    expect(minimumRequests([])).toBe(0);
  });
});

describe('stringifyBody', () => {
  it('writes a DecimalNumber as the number literal of its text, never through a float', () => {
    const body = [{ id: 1, variants: [{ id: 2, price: new DecimalNumber('19.90'), note: 'x' }, { id: 3, price: new DecimalNumber('12345678901234567.10') }] }];
    const text = stringifyBody(body);
    expect(text).toBe('[{"id":1,"variants":[{"id":2,"price":19.90,"note":"x"},{"id":3,"price":12345678901234567.10}]}]');
    // Text that looks like a number stays a string.
    expect(stringifyBody({ a: '1.5', b: new DecimalNumber('2') })).toBe('{"a":"1.5","b":2}');
  });

  it('refuses text that is not a decimal', () => {
    expect(() => new DecimalNumber('1e5')).toThrow(/not a decimal/);
    expect(() => new DecimalNumber('12,50')).toThrow(/not a decimal/);
  });
});
