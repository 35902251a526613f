import { randomBytes } from 'node:crypto';

/**
 * Request bodies as JSON text. A decimal the platform wants as a JSON number (`price` in PATCH
 * /products/stock-price, docs/platform.md §8) is wrapped in a DecimalNumber and written as its own decimal
 * text — "19.90" goes out as 19.90 — never through a float, which would send 19.899999999999999 for some
 * values and round large ones.
 */

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

export class DecimalNumber {
  constructor(readonly text: string) {
    if (!DECIMAL_TEXT.test(text)) throw new TypeError(`not a decimal number: ${JSON.stringify(text)}`);
  }
}

/** JSON.stringify, with every DecimalNumber written as a bare number literal of its text. */
export function stringifyBody(value: unknown): string {
  // The marker starts with NUL (escaped as \u0000 in JSON) and a fresh nonce: no text of the body can carry it.
  const nonce = randomBytes(6).toString('hex');
  let marked = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof DecimalNumber) {
      marked = true;
      return `\u0000${nonce}:${v.text}`;
    }
    return v;
  });
  return marked ? text.replace(new RegExp(`"\\\\u0000${nonce}:(-?\\d+(?:\\.\\d+)?)"`, 'g'), '$1') : text;
}
