import { UsageError } from '../../errors.js';

/**
 * Brakes for unattended runs (issue 28): limits a plan is checked against before its first write. A plan that
 * passes one writes nothing; the command prints the plan's summary with the records that tripped it and exits 5.
 * Pure: it reads a plan's changes, never the store, so a dry run, `store apply` and `store undo` brake alike.
 *
 *   --max-changes N|P%      records (a product or a variant, however many of its fields) the plan writes
 *   --max-price-change P%   any single price (price, promotional_price) moving by more than P % of what it was
 *   --max-zero-stock N|P%   variants whose stock the plan takes from above 0 to 0
 *   --max-deletes N         records the plan deletes
 *
 * A percentage is of the store's records (max-changes) or of its stock-tracked variants (max-zero-stock), as the
 * plan's snapshot saw them, so "10%" means the same on a small and a large store.
 */

export type BrakeName = 'max-changes' | 'max-price-change' | 'max-zero-stock' | 'max-deletes';

export const BRAKE_NAMES: readonly BrakeName[] = ['max-changes', 'max-price-change', 'max-zero-stock', 'max-deletes'];

/** A count, or a share of a population (0–100, decimals allowed). */
export type BrakeLimit = { count: number } | { percent: number };

export interface BrakeSettings {
  maxChanges?: BrakeLimit;
  /** Percent. */
  maxPriceChange?: number;
  maxZeroStock?: BrakeLimit;
  maxDeletes?: number;
}

/**
 * One field a plan writes and the store's value it was computed against: what the brakes read, what a saved plan
 * keeps to check the store against, what `--verify` reads back (the ledger's change, without its outcome).
 */
export interface PlannedWrite {
  resource: string;
  /** The record's id in the store; undefined for one the plan creates. */
  id?: number | string;
  /** A variant's product. */
  parent?: number | string;
  /** Stock at this location (plain `stock`: the default location). */
  location?: string;
  /** Handle, SKU or number: how a person knows the record. */
  key: string;
  action: 'create' | 'update' | 'delete';
  /** `price`, `stock`, `stock:<location>`… */
  field: string;
  before: unknown;
  after: unknown;
}

/** What the percentages are of. */
export interface BrakePopulation {
  /** Products and variants in the store. */
  records: number;
  /** Products alone (how many pages the catalog is: what `store apply` weighs its reads by). */
  products?: number;
  /** Variants whose stock the store tracks. */
  stockVariants: number;
}

/** One record that tripped a brake, with what makes it count. */
export interface TrippedRecord {
  resource: string;
  id?: number | string;
  key: string;
  field?: string;
  before?: unknown;
  after?: unknown;
  /** The move of a price, in percent (max-price-change). */
  percent?: number;
}

export interface TrippedBrake {
  brake: BrakeName;
  /** As the user set it: `50`, `10%`. */
  limit: string;
  /** What the plan holds: a count, or the largest move in percent (max-price-change). */
  found: number;
  records: TrippedRecord[];
}

const FLAG: Record<BrakeName, string> = {
  'max-changes': '--max-changes',
  'max-price-change': '--max-price-change',
  'max-zero-stock': '--max-zero-stock',
  'max-deletes': '--max-deletes',
};

/** A brake's value that is not a count or a percentage (exit 2, naming where it was given). */
export class BrakeValueError extends UsageError {}

/**
 * Reads a brake's value as a flag or a config value gives it. `max-changes` and `max-zero-stock` take N or P%,
 * `max-price-change` only P% (a bare number is read as percent too), `max-deletes` only N. `where` names the source
 * in the message (`--max-changes`, `config key brakes.max-changes`).
 */
export function parseBrake(brake: BrakeName, text: string, where = FLAG[brake]): BrakeLimit {
  const value = text.trim();
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(value);
  const count = /^\d+$/.test(value) ? Number(value) : undefined;
  if (brake === 'max-price-change') {
    const p = percent ? Number(percent[1]) : /^\d+(?:\.\d+)?$/.test(value) ? Number(value) : undefined;
    if (p === undefined) throw new BrakeValueError(`${where} takes a percentage such as 50%; "${text}" is not one.`);
    return { percent: p };
  }
  if (brake === 'max-deletes') {
    if (count === undefined) throw new BrakeValueError(`${where} takes a whole number of records such as 10; "${text}" is not one.`);
    return { count };
  }
  if (percent) {
    const p = Number(percent[1]);
    if (p > 100) throw new BrakeValueError(`${where} takes at most 100%; "${text}" is more.`);
    return { percent: p };
  }
  if (count !== undefined) return { count };
  throw new BrakeValueError(`${where} takes a whole number (10) or a percentage (5%); "${text}" is neither.`);
}

/** A limit as the user wrote it. */
export function showLimit(limit: BrakeLimit): string {
  return 'count' in limit ? String(limit.count) : `${limit.percent}%`;
}

/** The settings from each brake's text (flags over profile defaults: the caller merges). */
export function brakeSettings(values: Partial<Record<BrakeName, string>>, where?: (brake: BrakeName) => string): BrakeSettings {
  const settings: BrakeSettings = {};
  const read = (brake: BrakeName) => {
    const text = values[brake];
    return text === undefined || text === '' ? undefined : parseBrake(brake, text, where?.(brake));
  };
  settings.maxChanges = read('max-changes');
  const price = read('max-price-change');
  if (price && 'percent' in price) settings.maxPriceChange = price.percent;
  settings.maxZeroStock = read('max-zero-stock');
  const deletes = read('max-deletes');
  if (deletes && 'count' in deletes) settings.maxDeletes = deletes.count;
  return settings;
}

export function hasBrakes(settings: BrakeSettings): boolean {
  return (
    settings.maxChanges !== undefined || settings.maxPriceChange !== undefined || settings.maxZeroStock !== undefined || settings.maxDeletes !== undefined
  );
}

const PRICE_FIELDS = new Set(['price', 'promotional_price']);

const isStockField = (field: string) => field === 'stock' || field.startsWith('stock:');

/** A money or stock value as a number; undefined for none (null, '', not a number). */
function amount(value: unknown): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(String(value).trim().replace(',', '.'));
  return Number.isFinite(n) ? n : undefined;
}

/** More than the limit: a count above N, or a share above P % of the population. */
function exceeds(found: number, limit: BrakeLimit, population: number): boolean {
  if ('count' in limit) return found > limit.count;
  return population > 0 ? (found / population) * 100 > limit.percent : found > 0;
}

const recordKey = (c: PlannedWrite) => `${c.resource}\u0000${c.id ?? `new:${c.key}`}`;

/**
 * Every brake the plan passes, each with the records that tripped it (the records counted for max-changes,
 * max-zero-stock and max-deletes; the prices that moved too far for max-price-change). Empty: the plan may run.
 */
export function checkBrakes(changes: Iterable<PlannedWrite>, settings: BrakeSettings, population: BrakePopulation): TrippedBrake[] {
  const records = new Map<string, TrippedRecord>();
  const deletes = new Map<string, TrippedRecord>();
  const zeroed = new Map<string, TrippedRecord>();
  const stockTotals = new Map<string, { change: PlannedWrite; before: number; after: number; levels: boolean }>();
  const prices: TrippedRecord[] = [];
  for (const c of changes) {
    const key = recordKey(c);
    if (!records.has(key)) records.set(key, { resource: c.resource, id: c.id, key: c.key });
    if (c.action === 'delete' && !deletes.has(key)) deletes.set(key, { resource: c.resource, id: c.id, key: c.key });
    if (c.action === 'update' && PRICE_FIELDS.has(c.field) && settings.maxPriceChange !== undefined) {
      const before = amount(c.before);
      const after = amount(c.after);
      if (before !== undefined && after !== undefined && before > 0) {
        const percent = (Math.abs(after - before) / before) * 100;
        if (percent > settings.maxPriceChange) prices.push({ resource: c.resource, id: c.id, key: c.key, field: c.field, before: c.before, after: c.after, percent: round(percent) });
      }
    }
    if (c.action === 'update' && isStockField(c.field)) {
      // A variant's stock is the sum of its levels: it is zeroed when the sum goes from above 0 to 0.
      const total = stockTotals.get(key) ?? { change: c, before: 0, after: 0, levels: false };
      total.before += amount(c.before) ?? 0;
      total.after += amount(c.after) ?? 0;
      total.levels ||= c.field !== 'stock';
      stockTotals.set(key, total);
    }
  }
  for (const [key, total] of stockTotals) {
    if (total.before > 0 && total.after === 0) {
      const c = total.change;
      zeroed.set(key, { resource: c.resource, id: c.id, key: c.key, field: total.levels ? 'stock' : c.field, before: total.before, after: 0 });
    }
  }
  const tripped: TrippedBrake[] = [];
  if (settings.maxChanges && exceeds(records.size, settings.maxChanges, population.records)) {
    tripped.push({ brake: 'max-changes', limit: showLimit(settings.maxChanges), found: records.size, records: [...records.values()] });
  }
  if (settings.maxPriceChange !== undefined && prices.length > 0) {
    prices.sort((a, b) => (b.percent ?? 0) - (a.percent ?? 0));
    tripped.push({ brake: 'max-price-change', limit: `${settings.maxPriceChange}%`, found: prices[0]!.percent ?? 0, records: prices });
  }
  if (settings.maxZeroStock && exceeds(zeroed.size, settings.maxZeroStock, population.stockVariants)) {
    tripped.push({ brake: 'max-zero-stock', limit: showLimit(settings.maxZeroStock), found: zeroed.size, records: [...zeroed.values()] });
  }
  if (settings.maxDeletes !== undefined && deletes.size > settings.maxDeletes) {
    tripped.push({ brake: 'max-deletes', limit: String(settings.maxDeletes), found: deletes.size, records: [...deletes.values()] });
  }
  return tripped;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** One sentence per tripped brake: "--max-price-change 50%: 3 prices move by more (up to 9,900%)". */
export function brakeSentence(t: TrippedBrake): string {
  const flag = FLAG[t.brake];
  const n = t.records.length;
  switch (t.brake) {
    case 'max-changes':
      return `${flag} ${t.limit}: the plan changes ${t.found} ${t.found === 1 ? 'record' : 'records'}`;
    case 'max-price-change':
      return `${flag} ${t.limit}: ${n} ${n === 1 ? 'price moves' : 'prices move'} by more (up to ${t.found.toLocaleString('en-US')}%)`;
    case 'max-zero-stock':
      return `${flag} ${t.limit}: the plan takes the stock of ${t.found} ${t.found === 1 ? 'variant' : 'variants'} to 0`;
    case 'max-deletes':
      return `${flag} ${t.limit}: the plan deletes ${t.found} ${t.found === 1 ? 'record' : 'records'}`;
  }
}
