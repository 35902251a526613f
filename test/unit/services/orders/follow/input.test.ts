import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../../src/errors.js';
import { parseFeedName, parseInterval, parseSince } from '../../../../../src/services/orders/follow/input.js';
import { parseFulfillmentOrderRef } from '../../../../../src/services/common/validate.js';

/** The input checks of `orders follow` and of the fulfillment order argument, before any request. */

describe('parseInterval', () => {
  it('reads seconds, minutes and hours, a bare number as seconds', () => {
    expect(parseInterval('30s')).toBe(30_000);
    expect(parseInterval('5m')).toBe(300_000);
    expect(parseInterval('1H')).toBe(3_600_000);
    expect(parseInterval('90')).toBe(90_000);
  });

  it('refuses less than a second and what is not a duration, naming the flag', () => {
    for (const bad of ['0', '0s', '1.5m', '-5s', 'soon', '']) {
      expect(() => parseInterval(bad), bad).toThrow(UsageError);
      expect(() => parseInterval(bad), bad).toThrow(/^--interval/);
    }
  });

  it("refuses a wait past Node's longest timer (it would fire after 1 ms: a poll without pause), naming the flag", () => {
    expect(parseInterval('596h')).toBe(596 * 3_600_000);
    for (const bad of ['597h', '9999999h', '9999999m']) {
      expect(() => parseInterval(bad), bad).toThrow(UsageError);
      expect(() => parseInterval(bad), bad).toThrow(/^--interval "\w+" is too long: at most 596h/);
    }
  });
});

describe('parseFeedName', () => {
  it('takes letters, digits, ".", "_" and "-", and refuses what could leave the checkpoint directory', () => {
    expect(parseFeedName('erp-2.main_1')).toBe('erp-2.main_1');
    for (const bad of ['../x', '.hidden', 'a/b', '', 'x'.repeat(65), 'with space']) expect(() => parseFeedName(bad), bad).toThrow(/^--name/);
  });
});

describe('parseSince', () => {
  it('reads the date forms of the list filters as a time (those with an offset here: the others depend on TZ)', () => {
    expect(parseSince('2026-11-01T10:00:00-03:00')).toBe(Date.UTC(2026, 10, 1, 13));
    expect(() => parseSince('last week')).toThrow(/^--since/);
  });
});

describe('parseFulfillmentOrderRef', () => {
  it('an id (any case) or a number as listed: 191-1, or the bare 1 of the platform', () => {
    expect(parseFulfillmentOrderRef('01jd3z6q8r5m2k7n4p9t0v1w2x')).toEqual({ id: '01JD3Z6Q8R5M2K7N4P9T0V1W2X' });
    expect(parseFulfillmentOrderRef(' 191-1 ')).toEqual({ number: '191-1' });
    expect(parseFulfillmentOrderRef('#2')).toEqual({ number: '2' });
  });

  it('refuses anything else in one sentence naming the argument', () => {
    for (const bad of ['fo-1', '191-', '191-1-2', '01JD3Z6Q8R5M2K7N4P9T0V1W2', '']) {
      expect(() => parseFulfillmentOrderRef(bad, 'FULFILLMENT_ORDER_ID'), bad).toThrow(/^FULFILLMENT_ORDER_ID ".*" is not a fulfillment order; give its id/);
    }
  });
});
