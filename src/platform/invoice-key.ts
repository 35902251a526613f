/**
 * Fiscal access key of an invoice (Brazilian NF-e "chave de acesso"): 44 digits whose last digit is a
 * mod-11 check digit over the first 43 (docs/api-rules.md §5.16). Shared by the sandbox (422 on a bad key) and the
 * client (checks before sending), so it stays pure and dependency-free.
 */

const KEY_LENGTH = 44;
const BODY_LENGTH = KEY_LENGTH - 1;

/** Check digit of 43 digits: weights 2..9 cycling from the rightmost digit; 10 or 11 become 0. */
export function accessKeyCheckDigit(body43: string): number {
  if (!/^\d{43}$/.test(body43)) throw new RangeError('An access key body must be exactly 43 digits.');
  let sum = 0;
  let weight = 2;
  for (let i = body43.length - 1; i >= 0; i--) {
    sum += Number(body43[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv >= 10 ? 0 : dv;
}

export function isValidAccessKey(key: string): boolean {
  if (typeof key !== 'string' || !/^\d{44}$/.test(key)) return false;
  return accessKeyCheckDigit(key.slice(0, BODY_LENGTH)) === Number(key[BODY_LENGTH]);
}

/**
 * A valid key: the given digits (any length up to 43) padded on the right with random digits to 43,
 * followed by the check digit.
 */
export function makeAccessKey(prefix43 = '', random: () => number = Math.random): string {
  if (!/^\d{0,43}$/.test(prefix43)) throw new RangeError('An access key prefix must be at most 43 digits.');
  let body = prefix43;
  while (body.length < BODY_LENGTH) body += String(Math.floor(random() * 10));
  return body + String(accessKeyCheckDigit(body));
}
