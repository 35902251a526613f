import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accessKeyCheckDigit, isValidAccessKey, makeAccessKey } from '../../../src/platform/invoice-key.js';

describe('fiscal access key', () => {
  it('computes the check digit of the NF-e manual example', () => {
    // Example key from the NF-e integration manual: body of 43 digits, check digit 5.
    expect(accessKeyCheckDigit('5206043300991100250655012000000780026730161')).toBe(5);
    expect(isValidAccessKey('52060433009911002506550120000007800267301615')).toBe(true);
  });

  it('maps a remainder of 0 or 1 to check digit 0', () => {
    // 43 zeros: sum 0, 11 - 0 = 11 -> 0.
    expect(accessKeyCheckDigit('0'.repeat(43))).toBe(0);
    // Rightmost digit 5 with weight 2: sum 10, 10 mod 11 = 10, 11 - 10 = 1.
    expect(accessKeyCheckDigit('0'.repeat(42) + '5')).toBe(1);
    // Rightmost digit 6 with weight 2 -> sum 12, 12 mod 11 = 1, 11 - 1 = 10 -> 0.
    expect(accessKeyCheckDigit('0'.repeat(42) + '6')).toBe(0);
  });

  it('rejects wrong lengths, non-digits and a wrong check digit', () => {
    const key = makeAccessKey('3517');
    expect(isValidAccessKey(key.slice(0, 43))).toBe(false);
    expect(isValidAccessKey(key + '0')).toBe(false);
    expect(isValidAccessKey(key.slice(0, 43) + 'x')).toBe(false);
    expect(isValidAccessKey(` ${key.slice(1)}`)).toBe(false);
    const wrong = key.slice(0, 43) + String((Number(key[43]) + 1) % 10);
    expect(isValidAccessKey(wrong)).toBe(false);
  });

  it('makes valid keys that keep the prefix', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{0,43}$/), (prefix) => {
        const key = makeAccessKey(prefix);
        return key.length === 44 && key.startsWith(prefix) && isValidAccessKey(key);
      }),
    );
  });

  it('detects any change of the check digit', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{43}$/), fc.integer({ min: 1, max: 9 }), (body, shift) => {
        const key = makeAccessKey(body);
        const altered = body + String((Number(key[43]) + shift) % 10);
        return !isValidAccessKey(altered);
      }),
    );
  });
});
