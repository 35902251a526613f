/**
 * Decimals (weight and measures) and stock as a person or a spreadsheet writes them, read one way whether they
 * come from a flag (`--weight 19,9`, `--stock 12`) or a CSV cell: the same text gives the same value, sent as
 * the same string. What was wrong comes back as a kind, for each side to say in its own words (a flag's name,
 * a cell's column). Money has its own reader (money.ts): it must never be rounded by the store.
 */

const DECIMAL = /^(\d+)(?:[.,](\d+))?$/;
const NEGATIVE = /^-\s*\d/;

/** Why a number was refused: below 0, not a number at all, a fraction where whole units are counted, too large. */
export type NumberProblem = 'negative' | 'not-a-number' | 'not-whole' | 'too-large';

/**
 * A non-negative decimal with "." or "," as the decimal mark ("19.9", "19,90", "007"), as the platform writes
 * decimals: no leading zeros, at least two decimals, more only when given ("19.90", "7.00", "0.125"). Never
 * rounded. Thousands separators are refused: "1.234,50" is ambiguous between locales.
 */
export function readDecimal(text: string): string | { problem: 'negative' | 'not-a-number' } {
  const match = DECIMAL.exec(text);
  if (!match) return { problem: NEGATIVE.test(text) ? 'negative' : 'not-a-number' };
  return decimalString(match[1]!, match[2] ?? '');
}

/** A decimal read by readDecimal divided by 10^places, in the same form (Shopify's grams as kilograms). */
export function shiftDecimal(decimal: string, places: number): string {
  const [whole, decimals = ''] = decimal.split('.');
  const digits = whole!.padStart(places + 1, '0');
  return decimalString(digits.slice(0, -places), digits.slice(-places) + decimals);
}

function decimalString(whole: string, decimals: string): string {
  return `${whole.replace(/^0+(?=\d)/, '')}.${decimals.replace(/0+$/, '').padEnd(2, '0')}`;
}

/** Stock: a whole number of units, 0 or more. */
export function readStock(text: string): number | { problem: NumberProblem } {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : { problem: 'too-large' };
  }
  if (NEGATIVE.test(text)) return { problem: 'negative' };
  return { problem: DECIMAL.test(text) ? 'not-whole' : 'not-a-number' };
}
