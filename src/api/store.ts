import { z } from 'zod';
import type { StoreClient } from '../client/index.js';
import { Bool, Id, Localized, Text, pickLocalized, setDisplayLanguage } from './read.js';
import { parseReply } from './reply.js';

/**
 * GET /store in the platform's documented shape (docs/decisions.md, "GET /store"): `main_language`,
 * `main_currency`, `languages` as an object keyed by language code with `{currency, active}`, and
 * `plan_name` (free text such as "Business"). Only active languages are the store's languages.
 *
 * This module is the template for every resource module: a tolerant schema of what the commands use (the
 * rest passes through), and one small function per endpoint that calls the client and checks the reply.
 */
const LanguageEntry = z.looseObject({ currency: Text, active: Bool }).or(z.null());

export const StoreRecordSchema = z.looseObject({
  id: Id,
  name: Localized,
  main_language: Text,
  main_currency: Text,
  // Older records and other tools: a plain list of codes.
  languages: z.union([z.record(z.string(), LanguageEntry), z.array(z.string()), z.null()]).optional(),
  plan_name: Text,
  country: Text,
});
export type StoreRecord = z.infer<typeof StoreRecordSchema>;

/** What the commands use of the store, read from the record. */
export interface StoreInfo {
  id: number;
  /** The store's name in its main language. */
  name: string;
  /** The main language code (`pt`); `es` when the store does not say. */
  main_language: string;
  /** The active languages, the main one first. */
  languages: string[];
  /** `main_currency`, when sent. */
  currency?: string;
  /** `plan_name`, free text ("Business"), when sent. */
  plan?: string;
  country?: string;
  /** The record as the store sent it (for `--json`). */
  record: StoreRecord;
}

/** The active languages of a `languages` object (or list), the main language first. */
function activeLanguages(languages: StoreRecord['languages'], main: string): string[] {
  let codes: string[] = [];
  if (Array.isArray(languages)) codes = languages;
  else if (languages) codes = Object.entries(languages).filter(([, entry]) => entry?.active !== false).map(([code]) => code);
  const rest = codes.filter((code) => code !== main);
  return [main, ...rest];
}

export function storeInfo(record: StoreRecord, headerLanguage?: string): StoreInfo {
  const main = record.main_language ?? headerLanguage ?? 'es';
  setDisplayLanguage(main);
  return {
    id: record.id,
    name: pickLocalized(record.name, main),
    main_language: main,
    languages: activeLanguages(record.languages, main),
    currency: record.main_currency ?? (typeof record.currency === 'string' ? record.currency : undefined),
    plan: record.plan_name ?? (typeof record.plan === 'string' ? record.plan : undefined),
    country: record.country,
    record,
  };
}

export async function getStore(client: StoreClient): Promise<StoreInfo> {
  const res = await client.request({ method: 'GET', path: '/store' });
  const header = res.headers['x-main-language'];
  return storeInfo(parseReply(StoreRecordSchema, res.body, 'store record'), Array.isArray(header) ? header[0] : header);
}

