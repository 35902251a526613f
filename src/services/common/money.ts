/**
 * Money as written by a person or a spreadsheet, read without ever rounding it. The store keeps prices in
 * cents and would round "2.500" to "2.50" and "0.004" to "0.00"; in the admin exports "." is the
 * thousands separator, so "2.500" is often 2,500 written the Spanish way. A value with more than two
 * decimals is therefore refused with what it was read as and what was probably meant, never sent.
 * Dependency-free: the flag parsers and the CSV readers share it.
 */

import { MAX_MONEY_DIGITS } from '../../platform/money.js';

const MONEY = /^(\d+)(?:([.,])(\d+))?$/;

/**
 * A non-negative amount with "." or "," as the decimal mark and at most two decimals, as the store writes
 * money ("19.90", "20.00"); or the reason it is refused, worded to follow `"<value>" ` or a flag name.
 */
export function readMoney(text: string): string | { error: string } {
  const match = MONEY.exec(text);
  if (!match) {
    if (/^-\s*\d/.test(text)) return { error: `"${text}" is negative; amounts are 0 or more` };
    return { error: `"${text}" is not a number (write e.g. 25.50 or 25,50, without currency or thousands separators)` };
  }
  const whole = match[1]!.replace(/^0+(?=\d)/, '');
  const mark = match[2];
  const decimals = match[3] ?? '';
  if (whole.length > MAX_MONEY_DIGITS) {
    return { error: `"${text}" is too large; amounts are below 10000000000000 (10^13)` };
  }
  if (decimals.length > 2) return { error: tooManyDecimals(text, whole, mark!, decimals) };
  return `${whole}.${decimals.padEnd(2, '0')}`;
}

function tooManyDecimals(text: string, whole: string, mark: string, decimals: string): string {
  const readAs = `${whole}.${decimals}`;
  const head = `"${text}" has ${decimals.length} decimals (read with "${mark}" as the decimal mark: ${readAs}); money has at most 2, and the store would round it`;
  // "2.500", "12.000": a thousands separator, as the admin exports write it.
  if (decimals.length === 3 && /^[1-9]\d{0,2}$/.test(whole)) {
    const meant = `${whole}${decimals}`;
    return `${head}. ${meant}? use ${meant} or ${meant}.00`;
  }
  const { down, up } = cents(whole, decimals);
  return `${head}. Write ${down} or ${up}`;
}

/** The two amounts in cents around whole.decimals, by string arithmetic (no float can round them). */
function cents(whole: string, decimals: string): { down: string; up: string } {
  const floor = BigInt(whole + decimals.slice(0, 2));
  const format = (n: bigint) => {
    const s = n.toString().padStart(3, '0');
    return `${s.slice(0, -2)}.${s.slice(-2)}`;
  };
  return { down: format(floor), up: format(floor + 1n) };
}
