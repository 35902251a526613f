import { describe, expect, it } from 'vitest';
import { closest, closestMatches, editDistance, orList } from '../../../src/util/suggest.js';

describe('did you mean', () => {
  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('opne', 'open')).toBe(1);
    expect(editDistance('ordrs', 'orders')).toBe(1);
    expect(editDistance('order/payed', 'order/paid')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('suggests every word at the smallest distance, in the order known, case-insensitively', () => {
    expect(closestMatches('OPNE', ['open', 'closed', 'cancelled', 'any', 'paid'])).toEqual(['open']);
    expect(closestMatches('order/payed', ['order/created', 'order/paid', 'order/packed'])).toEqual(['order/paid', 'order/packed']);
    expect(closestMatches('order/payed', ['order/created', 'order/paid', 'order/packed'], { limit: 1 })).toEqual(['order/paid']);
  });

  it('suggests nothing when the nearest word is too far', () => {
    expect(closestMatches('zzzzzz', ['open', 'closed'])).toEqual([]);
    expect(closestMatches('order/shipped', ['order/edited'], { maxEdits: 3 })).toEqual([]);
    expect(closest('orderz', ['orders', 'products'])).toBe('orders');
    expect(closest('x', [])).toBeUndefined();
  });

  it('joins suggestions as a sentence does', () => {
    expect(orList(['a'])).toBe('a');
    expect(orList(['a', 'b'])).toBe('a or b');
    expect(orList(['a', 'b', 'c'])).toBe('a, b or c');
  });
});
