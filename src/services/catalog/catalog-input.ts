import { pickLocalized } from '../../api/read.js';
import { UsageError } from '../../errors.js';
import { ValidationError } from '../../client/errors.js';
import { readMoney } from '../common/money.js';
import { readDecimal, readStock } from '../common/numbers.js';

/**
 * Parsing of the catalog flags before anything is sent: money and measures, stock, option pairs and
 * localized texts. Every error names the flag and exits 2 (docs/exit-codes.md).
 */

/**
 * A measure flag (`--weight`, `--width`, …): a non-negative decimal with `.` or `,` as the decimal separator,
 * read as a CSV cell is (common/numbers.ts) and sent in the same form ("19,9" → "19.90"). Thousands separators
 * are refused: "1.234,50" is ambiguous between locales.
 */
export function parseDecimal(flag: string, raw: string): string {
  const read = readDecimal(raw.trim());
  if (typeof read === 'string') return read;
  if (read.problem === 'negative') throw new UsageError(`${flag} must not be negative (got "${raw}").`);
  throw new UsageError(`${flag} "${raw}" is not a decimal number: use digits with "." or "," before the decimals, e.g. 19.90.`);
}

/**
 * A price flag: like parseDecimal, but never more than two decimals and below 10^13 (money.ts), written as
 * the store writes money ("19.90"). "--price 2.500" is refused with what it was read as, not rounded.
 */
export function parseMoney(flag: string, raw: string): string {
  const text = raw.trim();
  if (/^-\s*\d/.test(text)) throw new UsageError(`${flag} must not be negative (got "${raw}").`);
  if (!/^\d+(?:[.,]\d+)?$/.test(text)) {
    throw new UsageError(`${flag} "${raw}" is not a decimal number: use digits with "." or "," before the decimals, e.g. 19.90.`);
  }
  const money = readMoney(text);
  if (typeof money !== 'string') throw new UsageError(`${flag} ${money.error}.`);
  return money;
}

/** Stock is a whole number of units, 0 or more, read as a CSV cell is (common/numbers.ts). */
export function parseStock(flag: string, raw: string): number {
  const read = readStock(raw.trim());
  if (typeof read === 'number') return read;
  if (read.problem === 'negative') throw new UsageError(`${flag} must not be negative (got "${raw}").`);
  if (read.problem === 'too-large') throw new UsageError(`${flag} is too large (got "${raw}").`);
  throw new UsageError(`${flag} must be a whole number of units, 0 or more (got "${raw}").`);
}

/** `--stock-at LOCATION=N`: the location (name or id, may contain "=") and its stock. */
export function parseStockAt(raw: string): { location: string; stock: number } {
  const eq = raw.lastIndexOf('=');
  if (eq <= 0) throw new UsageError(`--stock-at "${raw}" must look like LOCATION=N, e.g. --stock-at Depósito=12.`);
  return { location: raw.slice(0, eq).trim(), stock: parseStock(`--stock-at ${raw.slice(0, eq).trim()}`, raw.slice(eq + 1)) };
}

/** `--option Size=M` pairs, in the order given; the product's options are fixed by its first variant. */
export function parseOptions(raws: string[]): { name: string; value: string }[] {
  const seen = new Set<string>();
  return raws.map((raw) => {
    const eq = raw.indexOf('=');
    const name = eq > 0 ? raw.slice(0, eq).trim() : '';
    const value = eq > 0 ? raw.slice(eq + 1).trim() : '';
    if (!name || !value) throw new UsageError(`--option "${raw}" must look like NAME=VALUE, e.g. --option Size=M.`);
    if (seen.has(name.toLowerCase())) throw new UsageError(`--option ${name} is given twice.`);
    seen.add(name.toLowerCase());
    return { name, value };
  });
}

/** `FIELD=VALUE` of `store variants custom-fields set`: the value may be empty or contain "=". */
export function parseFieldAssignment(raw: string): { field: string; value: string } {
  const eq = raw.indexOf('=');
  if (eq <= 0) throw new UsageError(`"${raw}" must look like FIELD=VALUE, e.g. Material=Algodón.`);
  return { field: raw.slice(0, eq).trim(), value: raw.slice(eq + 1) };
}

/** The store's languages (GET /store): one language means plain strings, several mean keyed objects. */
export interface StoreLanguages {
  languages: string[];
  main_language: string;
}

const LANGUAGE_KEY = /^([a-z]{2,3}(?:[_-][a-z]{2})?)=([\s\S]*)$/i;

/**
 * A localized text from repeated flag values. On a one-language store, `--name Camisa` is sent as the plain
 * string. On a multilingual store, `--name es=Camisa --name pt=Camisa` sets each language and a plain value
 * goes to the main language. A `xx=` prefix that is not one of the store's languages is an error there
 * (it is almost surely a typo), while on a one-language store it is just text.
 */
export function parseLocalized(flag: string, values: string[], store: StoreLanguages): string | Record<string, string> {
  const multilingual = store.languages.length > 1;
  const byKey = new Map(store.languages.map((lang) => [lang.toLowerCase(), lang]));
  const out: Record<string, string> = {};
  for (const raw of values) {
    const match = raw.match(LANGUAGE_KEY);
    let lang = store.main_language;
    let text = raw;
    if (match) {
      const known = byKey.get(match[1].toLowerCase());
      if (known) {
        lang = known;
        text = match[2];
      } else if (multilingual) {
        throw new UsageError(
          `${flag} ${match[1]}=…: the store has no language "${match[1]}" (its languages are ${store.languages.join(', ')}).`,
        );
      }
    }
    if (lang in out) {
      throw new UsageError(
        multilingual ? `${flag} gives the language ${lang} twice.` : `${flag} is given twice; this store has one language (${lang}).`,
      );
    }
    out[lang] = text;
  }
  return multilingual ? out : out[store.main_language] ?? Object.values(out)[0]!;
}

/** The locale a language usually means when it is not the store's own (pt → Brazil, en → United States). */
const USUAL_LOCALE: Record<string, string> = { es: 'es_AR', pt: 'pt_BR', en: 'en_US' };

const LOCALE_KEY = /^([a-z]{2,3})(?:[_-]([a-z]{2}))?=([\s\S]*)$/i;

/**
 * A location name. Unlike catalog texts, location names are keyed by locale (`es_AR`, `pt_BR`), so a plain
 * value goes to the main language's locale (the one the name already has, else main language + country),
 * `es=…` to the name's existing `es_*` key, and `pt_BR=…` as written. Keys not given keep their text.
 */
export function parseLocationName(
  values: string[],
  store: StoreLanguages & { country?: string },
  current: Record<string, string | null> | string | null | undefined = {},
): Record<string, string> {
  const existing: Record<string, string> = {};
  if (current && typeof current === 'object') for (const [k, v] of Object.entries(current)) if (v !== null) existing[k] = v;
  const localeOf = (lang: string, region?: string) => {
    if (region) return `${lang.toLowerCase()}_${region.toUpperCase()}`;
    const prefix = `${lang.toLowerCase()}_`;
    const known = Object.keys(existing).find((k) => k.toLowerCase().startsWith(prefix));
    if (known) return known;
    const main = lang.toLowerCase() === store.main_language.toLowerCase();
    const usual = USUAL_LOCALE[lang.toLowerCase()];
    // Without a country (a store that does not send one) the language's usual locale is the best guess.
    const country = store.country ? `${lang.toLowerCase()}_${store.country.toUpperCase()}` : undefined;
    return (main ? (country ?? usual) : (usual ?? country)) ?? lang.toLowerCase();
  };
  const languages = new Set(store.languages.map((l) => l.toLowerCase()));
  const given: Record<string, string> = {};
  for (const raw of values) {
    const match = raw.match(LOCALE_KEY);
    let key: string;
    let text = raw;
    if (match && (match[2] !== undefined || languages.has(match[1].toLowerCase()))) {
      key = localeOf(match[1], match[2]);
      text = match[3];
    } else if (match && store.languages.length > 1) {
      throw new UsageError(`--name ${match[1]}=…: the store has no language "${match[1]}" (its languages are ${store.languages.join(', ')}).`);
    } else {
      key = localeOf(store.main_language);
    }
    if (key in given) throw new UsageError(`--name gives the locale ${key} twice.`);
    given[key] = text;
  }
  const name = { ...existing, ...given };
  // The store keeps a blank name as given; the location would then show nowhere by name.
  const mainKey = localeOf(store.main_language);
  if (Object.values(name).every((t) => t.trim() === '') || (mainKey in given && given[mainKey]!.trim() === '')) {
    throw new UsageError(`--name must not be empty in the main language (${mainKey}); a location needs a name.`);
  }
  return name;
}

/**
 * A localized update on a multilingual store: languages not given keep their current text, since the
 * store replaces the whole object.
 */
export function mergeLocalized(
  current: string | Record<string, string | null> | null | undefined,
  update: string | Record<string, string | null>,
): string | Record<string, string | null> {
  if (typeof update === 'string' || current === null || current === undefined || typeof current === 'string') return update;
  const merged: Record<string, string | null> = {};
  for (const [lang, text] of Object.entries(current)) if (text !== null) merged[lang] = text;
  return { ...merged, ...update };
}

/** The text of a localized value in the preferred language, its locale form, else the first one present. */
export function localText(value: unknown, lang?: string): string {
  return pickLocalized(value, lang);
}

/** Every text of a localized value (to match a name typed in any language). */
export function localTexts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value as Record<string, unknown>).filter((v): v is string => typeof v === 'string' && v !== '');
}

/**
 * A refusal (422) whose field list says less than the store's own sentence ("is the default location" vs
 * "The default location cannot be deleted; choose another default first"): the sentence wins.
 */
export function withDescription(error: unknown, what: string): unknown {
  if (!(error instanceof ValidationError) || !error.description) return error;
  const reason = error.description.trim().replace(/\.+$/, '');
  return new ValidationError(`${what}: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}.`, {
    status: error.status,
    method: error.method,
    url: error.url,
    description: error.description,
    fieldErrors: error.fieldErrors,
    body: error.body,
    headers: error.headers,
  });
}
