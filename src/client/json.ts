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

/** A marker JSON.stringify cannot produce from user text: NUL is escaped as \u0000 in every JSON string. */
const MARK = '\u0000decimal:';
const MARKED = /"\\u0000decimal:(-?\d+(?:\.\d+)?)"/g;

/** JSON.stringify, with every DecimalNumber written as a bare number literal of its text. */
export function stringifyBody(value: unknown): string {
  let marked = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof DecimalNumber) {
      marked = true;
      return `${MARK}${v.text}`;
    }
    return v;
  });
  return marked ? text.replace(MARKED, '$1') : text;
}
