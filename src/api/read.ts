import { z } from 'zod';
import type { StoreClient } from '../client/index.js';
import { ApiError } from '../client/errors.js';

/**
 * The tolerant reader (docs/decisions.md, "Reading what the platform sends"): a real store holds years of data
 * written by many apps, so every schema of src/api/ is built from these pieces. They check only what a
 * command uses, accept a number or a numeric string wherever a number is expected, `null` for anything
 * that is not an id, and let every other field pass through untouched to `--json`.
 */

/** A positive integer id of any length, sent as a number or a numeric string. */
export const Id = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .regex(/^\d+$/, 'expected a numeric id')
    .transform((s) => Number(s)),
]);

/** An id that is a string on the platform (ULIDs of locations and fulfillment orders), or a number. */
export const StringId = z.union([z.string(), z.number()]).transform((v) => String(v));

/** A count or amount that is not money: a number, or a numeric string; null or absent when unknown. */
export const Num = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v) => {
    if (v === null || v === undefined) return undefined;
    if (typeof v === 'number') return v;
    const t = v.trim();
    if (t === '' || !/^-?\d+(\.\d+)?$/.test(t)) return undefined;
    return Number(t);
  });

/** Money: a decimal string (never float arithmetic on it); a number is kept as its text; null when absent. */
export const Money = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? undefined : String(v)));

/** Free text that may be null or absent; numbers become their text. */
export const Text = z
  .union([z.string(), z.number(), z.boolean(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? undefined : String(v)));

/** Localized text: a plain string (one-language store) or an object keyed by language or locale. */
export const Localized = z
  .union([z.string(), z.record(z.string(), z.union([z.string(), z.null(), z.number()]).optional()), z.null()])
  .optional();

/** A timestamp as sent: kept as text; `parseTimestamp` (platform/timestamps.ts) reads both offset forms. */
export const Timestamp = Text;

/** A boolean that some records send as "true"/"false", 1/0 or null. */
export const Bool = z
  .union([z.boolean(), z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => {
    if (v === null || v === undefined) return undefined;
    if (typeof v === 'boolean') return v;
    if (typeof v === 'number') return v !== 0;
    const t = v.trim().toLowerCase();
    return t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : undefined;
  });

/**
 * The store's main language, once known (from the `x-main-language` header of any response or GET /store):
 * the default of `pickLocalized`, so a list shows names in it without asking GET /store first. One process
 * talks to one store, so one value is enough.
 */
let displayLanguage: string | undefined;

export function setDisplayLanguage(language: string | undefined): void {
  displayLanguage = language;
}

/** `pt` ↔ `pt_BR` / `pt-BR`: the language part of a language or locale key. */
function languageOf(key: string): string {
  return key.split(/[_-]/)[0]!.toLowerCase();
}

/**
 * The text of a localized value: the main language, then its locale form (`pt` ↔ `pt_BR`), then the first
 * language that has text. Never an empty string when some language has text.
 */
export function pickLocalized(value: unknown, mainLanguage: string | undefined = displayLanguage): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  const texts = Object.entries(record).filter(
    (entry): entry is [string, string | number] =>
      (typeof entry[1] === 'string' && entry[1] !== '') || typeof entry[1] === 'number',
  );
  if (texts.length === 0) return '';
  if (mainLanguage) {
    const exact = texts.find(([key]) => key === mainLanguage);
    if (exact) return String(exact[1]);
    const main = languageOf(mainLanguage);
    const sameLanguage = texts.find(([key]) => key.toLowerCase() === main) ?? texts.find(([key]) => languageOf(key) === main);
    if (sameLanguage) return String(sameLanguage[1]);
  }
  return String(texts[0]![1]);
}

/**
 * A field of a record the schema does not name (it passes through untouched) as text: a string trimmed, a number
 * as written, an object such as a province or country `{code, name}` by its name (else its code); '' otherwise.
 */
export function fieldText(record: unknown, key: string): string {
  const value = record && typeof record === 'object' ? (record as Record<string, unknown>)[key] : undefined;
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object') return fieldText(value, 'name') || fieldText(value, 'code');
  return '';
}

/**
 * Reads a list record by record: one odd record never fails the whole list. Records that do not parse are
 * left out and counted; `warn` is called once per list with the count and the first reason. A list none of whose
 * records can be read is an ApiError (exit 1) naming the first problem.
 */
export function parseRecords<S extends z.ZodType>(
  schema: S,
  items: unknown,
  what: string,
  warn?: (message: string) => void,
): z.infer<S>[] {
  const list = Array.isArray(items) ? items : [];
  const out: z.infer<S>[] = [];
  let skipped = 0;
  let firstReason = '';
  for (const [index, item] of list.entries()) {
    const result = schema.safeParse(item);
    if (result.success) {
      out.push(result.data);
      continue;
    }
    skipped += 1;
    if (!firstReason) {
      const issue = result.error.issues[0]!;
      const id = item && typeof item === 'object' && 'id' in item ? ` ${String((item as { id: unknown }).id)}` : ` #${index + 1}`;
      const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
      firstReason = `record${id}: ${issue.message}${where}`;
    }
  }
  if (skipped > 0 && out.length === 0) {
    // Nothing readable is not an empty list: "No orders match." would hide that the store's records were unreadable.
    throw new ApiError(
      `None of the ${skipped} ${what} ${skipped === 1 ? 'record' : 'records'} the store sent could be read (${firstReason}).`,
      { status: 200, method: 'GET', url: '' },
    );
  }
  if (skipped > 0) {
    warn?.(`${skipped} ${what} ${skipped === 1 ? 'record' : 'records'} could not be read and ${skipped === 1 ? 'was' : 'were'} left out (${firstReason}).`);
  }
  return out;
}

/** Every record of a list endpoint, page by page at the largest page size, read by `schema` like `parseRecords`. */
export async function readAll<S extends z.ZodType>(client: StoreClient, path: string, schema: S, what: string): Promise<z.infer<S>[]> {
  const all: z.infer<S>[] = [];
  for await (const page of client.paginate<unknown>(path)) {
    all.push(...parseRecords(schema, page.items, what, (message) => client.warn(message)));
  }
  return all;
}
