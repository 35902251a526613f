import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeAccessKey } from '../../../../src/platform/invoice-key.js';
import { invoiceRequest, parseAccessKey } from '../../../../src/services/invoices/invoices.js';

const FLAGS = { key: '--key', link: '--link', fulfillmentOrderId: '--fulfillment-order' };

describe('parseAccessKey', () => {
  it('accepts every valid key, also written in groups of four', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{43}$/), (body) => {
        const key = makeAccessKey(body);
        expect(parseAccessKey('--key', key)).toBe(key);
        expect(parseAccessKey('--key', key.replace(/(\d{4})/g, '$1 ').trim())).toBe(key);
      }),
    );
  });

  it('accepts a 44-digit string exactly when its last digit is the check digit of the first 43', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{44}$/), (candidate) => {
        const valid = makeAccessKey(candidate.slice(0, 43)) === candidate;
        if (valid) expect(parseAccessKey('--key', candidate)).toBe(candidate);
        else expect(() => parseAccessKey('--key', candidate)).toThrow(/has a wrong check digit/);
      }),
    );
  });

  it('tells a wrong length, a non-digit and a wrong check digit apart', () => {
    const key = makeAccessKey('3526111234567800019955001000000123100000123');
    const wrong = key.slice(0, 43) + String((Number(key[43]) + 1) % 10);
    expect(() => parseAccessKey('--key', key.slice(0, 43))).toThrow('--key has 43 digits; a fiscal access key has 44.');
    expect(() => parseAccessKey('--key', 'NFe' + key)).toThrow(/^--key "NFe\d+" is not a fiscal access key; it must be 44 digits\.$/);
    expect(() => parseAccessKey('--key', wrong)).toThrow(`--key ${wrong} has a wrong check digit (${wrong[43]}, expected ${key[43]}); look for a mistyped digit.`);
  });
});

describe('invoiceRequest', () => {
  const key = makeAccessKey('35261112345678000199550010000001231');

  it('builds the request from valid fields', () => {
    expect(
      invoiceRequest({ orderId: '1000000123', key, link: 'https://nfe.example.com/1.pdf', fulfillmentOrderId: '01jd3z6q8r5m2k7n4p9t0v1w2x' }, FLAGS),
    ).toEqual({ orderId: 1000000123, key, link: 'https://nfe.example.com/1.pdf', fulfillment_order_id: '01JD3Z6Q8R5M2K7N4P9T0V1W2X' });
    expect(invoiceRequest({ orderId: '1000000123', key, link: 'http://x.example/1', fulfillmentOrderId: '' }, FLAGS)).toEqual({
      orderId: 1000000123,
      key,
      link: 'http://x.example/1',
    });
  });

  it('names the flag or column at fault', () => {
    expect(() => invoiceRequest({ orderId: '1000000123', key, link: 'mailto:a@b.c' }, FLAGS)).toThrow(/^--link "mailto:a@b.c"/);
    expect(() => invoiceRequest({ orderId: '1000000123', key, link: 'https://x.example', fulfillmentOrderId: 'FO-1' }, FLAGS)).toThrow(
      /^--fulfillment-order "FO-1" is not a fulfillment order; give its id/,
    );
    // An order id of any length is the store's to judge (platform.md §0); what is not a number is refused here.
    expect(() =>
      invoiceRequest({ orderId: 'A-123', key, link: 'https://x.example' }, { ...FLAGS, orderId: 'column order_id', key: 'column key' }),
    ).toThrow(/^column order_id "A-123" is not an order id/);
  });
});
