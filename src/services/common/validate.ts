import { open, stat } from 'node:fs/promises';
import { UsageError, unreadableFile } from '../../errors.js';
import { closestMatches, orList } from '../../util/suggest.js';

/**
 * Checks of user input made before anything is sent, shared by the commands of every topic. Each one
 * throws a UsageError (exit 2) whose one sentence names the flag or argument, or returns the value in the
 * form the API expects. Dependency-free, so commands can call it before the HTTP core is loaded.
 */

/** Where a value came from, as the user wrote it: `--created-after`, `ORDER_ID`, `column "key"`. */
export type InputName = string;

/**
 * A value outside a flag's fixed list: one line with the closest values (the whole list is --help's to show,
 * or the sentence's when it is short).
 */
export function notOneOf(name: InputName, raw: string, allowed: readonly string[]): UsageError {
  const close = closestMatches(raw.trim(), allowed);
  const hint = close.length > 0 ? `did you mean ${orList(close)}?` : allowed.length <= 4 ? `use ${orList(allowed)}.` : 'see --help for the values.';
  return new UsageError(`${name} "${raw}" is not valid; ${hint}`);
}

/** An email address as far as a flag can tell: something@domain.tld, no spaces. */
export function isEmail(text: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validCalendarDate(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/** `2026-11-21T14:05:00+00:00`: the timestamp form of docs/api-rules.md §5.7 (milliseconds kept only when present). */
export function formatTimestamp(date: Date): string {
  const iso = date.toISOString();
  const trimmed = iso.endsWith('.000Z') ? iso.slice(0, -5) : iso.slice(0, -1);
  return `${trimmed}+00:00`;
}

/** `YYYY-MM-DD` as midnight UTC of that day; undefined when it is not a real calendar date in that form. */
export function calendarDay(text: string): Date | undefined {
  const match = DATE_ONLY.exec(text);
  if (!match) return undefined;
  const [y, m, d] = match.slice(1, 4).map(Number) as [number, number, number];
  return validCalendarDate(y, m, d) ? new Date(Date.UTC(y, m - 1, d)) : undefined;
}

const RELATIVE = /^(\d{1,6})\s*(m|min|h|d|w)$/i;
const RELATIVE_MS: Record<string, number> = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** What every date flag's help says about the forms it takes (one sentence, kept beside the parser). */
export const DATE_FORMS =
  'ISO 8601 with an offset (2026-11-21T14:05:00-03:00) as given; YYYY-MM-DD (the start of that day), today, yesterday, and relative 30m, 12h, 7d, 2w ago, in the local time zone (TZ)';

/** Midnight of that calendar day in the machine's time zone (`TZ`). */
function localMidnight(y: number, m: number, d: number): Date {
  return new Date(y, m - 1, d);
}

/**
 * A date flag as an ISO 8601 timestamp with offset (UTC), the one parser of every date flag. A date-time with an
 * offset means that instant. What has no offset means the machine's local time zone (`TZ`), as a person reading
 * a clock means it: `YYYY-MM-DD` (the start of that day), a date-time without offset, `today` and `yesterday`
 * (their midnight), and relative forms counted back from `now`: `30m`, `12h`, `7d`, `2w`.
 */
export function parseDate(name: InputName, value: string, now: Date = new Date()): string {
  const text = value.trim();
  const word = text.toLowerCase();
  if (word === 'today' || word === 'yesterday' || word === 'now') {
    if (word === 'now') return formatTimestamp(now);
    const day = localMidnight(now.getFullYear(), now.getMonth() + 1, now.getDate() - (word === 'yesterday' ? 1 : 0));
    return formatTimestamp(day);
  }
  const relative = RELATIVE.exec(text);
  if (relative) return formatTimestamp(new Date(now.getTime() - Number(relative[1]) * RELATIVE_MS[relative[2]!.toLowerCase()]!));
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    const [y, m, d] = dateOnly.slice(1, 4).map(Number) as [number, number, number];
    if (!validCalendarDate(y, m, d)) throw new UsageError(`${name} "${value}" is not a real calendar date.`);
    return formatTimestamp(localMidnight(y, m, d));
  }
  const dateTime = DATE_TIME.exec(text);
  if (!dateTime) {
    throw new UsageError(
      `${name} "${value}" is not a date; use YYYY-MM-DD, today, yesterday, 7d, 12h or an ISO 8601 date-time such as 2026-11-21T14:05:00-03:00.`,
    );
  }
  const [y, mo, d, h, mi, s] = dateTime.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  if (!validCalendarDate(y, mo, d) || h > 23 || mi > 59 || s > 59) {
    throw new UsageError(`${name} "${value}" is not a real date and time.`);
  }
  const fraction = dateTime[7] ?? '';
  const pad = (n: number) => String(n).padStart(2, '0');
  let parsed: Date;
  if (dateTime[8] === undefined) {
    parsed = new Date(y, mo - 1, d, h, mi, s, fraction ? Math.floor(Number(`0${fraction}`) * 1000) : 0);
  } else {
    const offset = normalizeOffset(dateTime[8]);
    if (offset === undefined) throw new UsageError(`${name} "${value}" has an invalid UTC offset.`);
    parsed = new Date(`${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${fraction.slice(0, 4)}${offset}`);
  }
  if (Number.isNaN(parsed.getTime())) throw new UsageError(`${name} "${value}" is not a real date and time.`);
  return formatTimestamp(parsed);
}

/** `Z`, `+05`, `+0530`, `+05:30` → `+05:30` style; undefined when out of range. */
function normalizeOffset(raw: string): string | undefined {
  if (raw.toUpperCase() === 'Z') return 'Z';
  const match = /^([+-])(\d{2}):?(\d{2})?$/.exec(raw);
  if (!match) return undefined;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? 0);
  if (hours > 14 || minutes > 59) return undefined;
  return `${match[1]}${match[2]}:${match[3] ?? '00'}`;
}

/** A decimal number within [min, max], e.g. a latitude. */
function parseNumberInRange(name: InputName, value: string, min: number, max: number, what = 'a number'): number {
  const text = value.trim();
  const number = /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(number)) throw new UsageError(`${name} "${value}" is not ${what}; use a decimal number between ${min} and ${max}.`);
  if (number < min || number > max) throw new UsageError(`${name} ${value} is out of range; ${what} lies between ${min} and ${max}.`);
  return number;
}

export function parseLatitude(name: InputName, value: string): number {
  return parseNumberInRange(name, value, -90, 90, 'a latitude');
}

export function parseLongitude(name: InputName, value: string): number {
  return parseNumberInRange(name, value, -180, 180, 'a longitude');
}

/**
 * An order id: a positive whole number of any length (docs/platform.md §0: documented ids have 9 digits, the
 * sandbox's new ones 10). Its length is never held against it: whether it is an id, or the number the customer
 * sees, only the store can tell (services/orders/orders.ts looks the number up after a 404).
 */
export function parseOrderId(value: string, name?: InputName): number {
  const text = value.trim().replace(/^#/, '');
  if (/^[1-9]\d{0,15}$/.test(text)) return Number(text);
  throw new UsageError(`${name ?? 'ORDER_ID'} "${value}" is not an order id; an order id is a whole number such as 123456789.`);
}

/** A ULID as the store assigns to locations and fulfillment orders (Crockford base32, 26 characters). */
export function parseUlid(value: string, name: InputName, what: string): string {
  const text = value.trim().toUpperCase();
  if (/^[0-9A-HJKMNP-TV-Z]{26}$/.test(text)) return text;
  throw new UsageError(`${name} "${value}" is not a ${what} id; those are 26-character ids such as 01JD3Z6Q8R5M2K7N4P9T0V1W2X.`);
}

/** A fulfillment order as the user names it: its id, or its number as shown (`191-1`). */
export type FulfillmentOrderRef = { id: string } | { number: string };

/**
 * FULFILLMENT_ORDER: a ULID, or the number `store fulfillment-orders list` shows: `191-1` (order number and
 * position, as the sandbox numbers them) or `1` (as the platform's documented records do).
 */
export function parseFulfillmentOrderRef(value: string, name: InputName = 'FULFILLMENT_ORDER'): FulfillmentOrderRef {
  const text = value.trim().replace(/^#/, '');
  if (/^\d{1,16}(-\d{1,4})?$/.test(text)) return { number: text };
  if (/^[0-9A-HJKMNP-TV-Z]{26}$/i.test(text)) return { id: text.toUpperCase() };
  throw new UsageError(
    `${name} "${value}" is not a fulfillment order; give its id (26 characters, such as 01JD3Z6Q8R5M2K7N4P9T0V1W2X) or its number as listed (such as 191-1).`,
  );
}

/** A positive integer id (products, variants, categories, …). */
export function parseIntegerId(value: string, name: InputName, what: string): number {
  const text = value.trim();
  if (/^[1-9]\d{0,15}$/.test(text)) return Number(text);
  throw new UsageError(`${name} "${value}" is not a ${what} id; it must be a positive whole number.`);
}

/** `text` as an absolute http(s) URL with a host, or undefined. */
export function asHttpUrl(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : undefined;
}

/** An absolute http(s) URL; `example` is one of the kind expected (an image, an invoice, a receiver). */
export function parseHttpUrl(name: InputName, value: string, example: string): string {
  const text = value.trim();
  if (!asHttpUrl(text)) {
    throw new UsageError(`${name} "${value}" is not an http(s) URL; use a full address such as ${example}.`);
  }
  return text;
}

/**
 * Fails with one sentence unless `path` is a regular file that can be read; checked before any request. A
 * named pipe, a terminal or a socket is refused before it is opened: opening a pipe blocks until a writer
 * comes (a process that waits there cannot be stopped cleanly), and a bulk file is read more than once.
 */
export async function checkReadableFile(path: string): Promise<void> {
  const kind = await stat(path).then(
    (s) => (s.isFIFO() ? 'a named pipe' : s.isSocket() ? 'a socket' : s.isCharacterDevice() || s.isBlockDevice() ? 'a device' : undefined),
    () => undefined,
  );
  if (kind) {
    throw new UsageError(
      `Cannot read ${path}: it is ${kind}, not a file, and the file is read more than once (checked whole before anything is sent); give it on standard input with \`-\` (\`- < ${path}\`) or save it to a file first.`,
    );
  }
  try {
    const handle = await open(path, 'r');
    try {
      if ((await handle.stat()).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw unreadableFile(path, error);
  }
}
