import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/errors.js';
import { confirmOrYes } from '../../../../src/output/prompt.js';
import {
  formatTimestamp,
  parseDate,
  parseHttpUrl,
  parseIntegerId,
  parseLatitude,
  parseLongitude,
  parseOrderId,
  parseUlid,
} from '../../../../src/services/common/validate.js';

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

describe('parseDate', () => {
  /** Runs `fn` with the machine's time zone set to `tz` (Node reads TZ again when it is assigned). */
  function inZone<T>(tz: string, fn: () => T): T {
    const before = process.env.TZ;
    process.env.TZ = tz;
    try {
      return fn();
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  }

  it('reads YYYY-MM-DD, and a date-time without offset, in the local time zone (TZ)', () => {
    expect(inZone('UTC', () => parseDate('--created-after', '2026-11-21'))).toBe('2026-11-21T00:00:00+00:00');
    expect(inZone('America/Argentina/Buenos_Aires', () => parseDate('--created-after', '2026-11-21'))).toBe('2026-11-21T03:00:00+00:00');
    expect(inZone('Asia/Kolkata', () => parseDate('--x', '2026-11-21T14:05:00'))).toBe('2026-11-21T08:35:00+00:00');
  });

  it('reads today, yesterday and relative times (7d, 12h, 30m, 2w) against now, in the local time zone', () => {
    const now = new Date('2026-11-21T02:30:00Z');
    // 23:30 of the 20th in Buenos Aires (UTC-3): today is the 20th there.
    expect(inZone('America/Argentina/Buenos_Aires', () => parseDate('--x', 'today', now))).toBe('2026-11-20T03:00:00+00:00');
    expect(inZone('America/Argentina/Buenos_Aires', () => parseDate('--x', 'yesterday', now))).toBe('2026-11-19T03:00:00+00:00');
    expect(inZone('UTC', () => parseDate('--x', 'Today', now))).toBe('2026-11-21T00:00:00+00:00');
    expect(parseDate('--x', '7d', now)).toBe('2026-11-14T02:30:00+00:00');
    expect(parseDate('--x', '12h', now)).toBe('2026-11-20T14:30:00+00:00');
    expect(parseDate('--x', '30m', now)).toBe('2026-11-21T02:00:00+00:00');
    expect(parseDate('--x', '2w', now)).toBe('2026-11-07T02:30:00+00:00');
  });

  it('normalizes ISO 8601 date-times to UTC with an offset', () => {
    expect(parseDate('--x', '2026-11-21T14:05:00-03:00')).toBe('2026-11-21T17:05:00+00:00');
    expect(parseDate('--x', '2026-11-21T14:05:00Z')).toBe('2026-11-21T14:05:00+00:00');
    expect(parseDate('--x', '2026-11-21T14:05+0530')).toBe('2026-11-21T08:35:00+00:00');
    expect(parseDate('--x', '2026-11-21T14:05:09.250+00:00')).toBe('2026-11-21T14:05:09.250+00:00');
  });

  it('names the flag when the value is not a date', () => {
    expect(usageMessage(() => parseDate('--created-before', 'last week'))).toMatch(/^--created-before "last week" is not a date; use YYYY-MM-DD, today, yesterday, 7d/);
    expect(usageMessage(() => parseDate('--happened-at', '2026-02-30'))).toBe('--happened-at "2026-02-30" is not a real calendar date.');
    expect(usageMessage(() => parseDate('--x', '2026-11-21T25:00:00Z'))).toMatch(/^--x .* is not a real date and time/);
    expect(usageMessage(() => parseDate('--x', '2026-11-21T10:00:00+15:00'))).toMatch(/invalid UTC offset/);
    expect(usageMessage(() => parseDate('--x', '21/11/2026'))).toMatch(/^--x "21\/11\/2026" is not a date/);
  });

  it('round-trips any instant written by formatTimestamp', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true }), (date) => {
        const text = formatTimestamp(date);
        expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?\+00:00$/);
        expect(new Date(parseDate('--x', text)).getTime()).toBe(date.getTime());
      }),
    );
  });
});

describe('coordinates', () => {
  it('accepts the closed ranges and rejects the rest, naming the flag', () => {
    expect(parseLatitude('--lat', '-90')).toBe(-90);
    expect(parseLatitude('--lat', '45.5')).toBe(45.5);
    expect(parseLongitude('--lon', '180')).toBe(180);
    expect(usageMessage(() => parseLatitude('--lat', '90.01'))).toBe('--lat 90.01 is out of range; a latitude lies between -90 and 90.');
    expect(usageMessage(() => parseLongitude('--lon', '-181'))).toBe('--lon -181 is out of range; a longitude lies between -180 and 180.');
    expect(usageMessage(() => parseLatitude('--lat', 'north'))).toMatch(/^--lat "north" is not a latitude/);
    expect(usageMessage(() => parseLongitude('--lon', '1e3'))).toMatch(/^--lon "1e3" is not a longitude/);
  });

  it('a latitude is accepted exactly when it lies within -90..90', () => {
    fc.assert(
      fc.property(fc.double({ min: -1000, max: 1000, noNaN: true }), (value) => {
        const text = value.toFixed(6);
        const inRange = Number(text) >= -90 && Number(text) <= 90;
        if (inRange) expect(parseLatitude('--lat', text)).toBe(Number(text));
        else expect(() => parseLatitude('--lat', text)).toThrow(UsageError);
      }),
    );
  });
});

describe('parseOrderId', () => {
  it('takes an id of any length: only the store can tell an id from an order number (platform.md §0)', () => {
    expect(parseOrderId('1000000123')).toBe(1000000123);
    expect(parseOrderId('450000123')).toBe(450000123);
    expect(parseOrderId('182')).toBe(182);
    expect(parseOrderId('#182')).toBe(182);
    expect(parseOrderId('12345678901')).toBe(12345678901);
  });

  it('refuses what is not a whole number, naming the argument', () => {
    expect(usageMessage(() => parseOrderId('abc'))).toBe('ORDER_ID "abc" is not an order id; an order id is a whole number such as 123456789.');
    expect(usageMessage(() => parseOrderId('0'))).toMatch(/not an order id/);
    expect(usageMessage(() => parseOrderId('12.5', 'column order_id'))).toMatch(/^column order_id "12.5" is not an order id/);
  });
});

describe('other ids and URLs', () => {
  it('ULIDs are upper-cased and checked', () => {
    expect(parseUlid('01jd3z6q8r5m2k7n4p9t0v1w2x', 'FO_ID', 'fulfillment order')).toBe('01JD3Z6Q8R5M2K7N4P9T0V1W2X');
    expect(usageMessage(() => parseUlid('42', 'FO_ID', 'fulfillment order'))).toMatch(/^FO_ID "42" is not a fulfillment order id/);
  });

  it('integer ids are positive whole numbers', () => {
    expect(parseIntegerId('17', 'ID', 'product')).toBe(17);
    expect(usageMessage(() => parseIntegerId('0', 'ID', 'product'))).toMatch(/^ID "0" is not a product id/);
  });

  it('links must be absolute http(s) URLs', () => {
    const invoice = 'https://example.com/invoice.pdf';
    expect(parseHttpUrl('--link', 'https://nfe.example.com/1.pdf', invoice)).toBe('https://nfe.example.com/1.pdf');
    expect(usageMessage(() => parseHttpUrl('--link', 'ftp://example.com/x', invoice))).toMatch(/^--link "ftp:\/\/example.com\/x" is not an http\(s\) URL/);
    expect(usageMessage(() => parseHttpUrl('--link', 'nfe.example.com', invoice))).toMatch(/is not an http\(s\) URL/);
    // The example is of the kind asked for: an image URL is not answered with an invoice's.
    expect(usageMessage(() => parseHttpUrl('--image', 'shirt.jpg', 'https://example.com/photos/shirt.jpg'))).toBe(
      '--image "shirt.jpg" is not an http(s) URL; use a full address such as https://example.com/photos/shirt.jpg.',
    );
  });
});

describe('confirmOrYes', () => {
  it('--yes confirms without asking', async () => {
    await expect(confirmOrYes({ yes: true, message: 'Cancel?', interactive: false })).resolves.toBe(true);
  });

  it('without a terminal it needs the flag, and names it', async () => {
    await expect(confirmOrYes({ yes: false, message: 'Cancel?', interactive: false, action: 'Cancelling order 1000000123' })).rejects.toThrow(
      'Cancelling order 1000000123 needs confirmation: pass --yes when not running in a terminal.',
    );
  });
});
