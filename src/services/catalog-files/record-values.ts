import { type Product, categoryIdOf } from '../../api/products.js';
import type { Variant } from '../../api/variants.js';
import type { HeldJudgement } from '../../ledger/jobs.js';
import type { ChangeRecord } from '../../ledger/types.js';

/**
 * A field of a product or variant as the store holds it now, in the form the run ledger records a change's
 * values (docs/ledger.md: money as decimal text, stock as a number or null for unlimited, stock at a location by
 * the location's id, plain `stock` at the default location), and whether two such values are the same. `--verify`
 * (does the store hold what was written?), `store apply` (does it still hold what the plan was made against?) and
 * `store undo` (does it still hold what the run wrote?) all ask through here, so they agree.
 */

/**
 * Stock at one location: the level there. Without a location, the stock the ledger calls plain (docs/ledger.md):
 * the variant's total, or on a variant listing several levels the default location's. A variant whose split is
 * unreported holds all of it at the default location.
 */
export function stockAt(variant: Variant, location: string | null | undefined, defaultLocation: string | undefined): number | null {
  if (variant.stock === null) return null;
  const levels = variant.inventory_levels ?? [];
  if (!location) return levels.length > 1 && defaultLocation ? (levels.find((l) => l.location_id === defaultLocation)?.stock ?? 0) : (variant.stock ?? 0);
  if (levels.length === 0) return location === defaultLocation ? (variant.stock ?? 0) : 0;
  return levels.find((l) => l.location_id === location)?.stock ?? 0;
}

/** A variant's field now (`stock` with a location: that level). */
export function variantValue(variant: Variant, field: string, location: string | null | undefined, defaultLocation: string | undefined): unknown {
  if (field === 'stock') return stockAt(variant, location, defaultLocation);
  if (field.startsWith('stock:')) return stockAt(variant, field.slice('stock:'.length), defaultLocation);
  // A custom field's value (`variants custom-fields set`): null when the variant holds none.
  if (field.startsWith('custom_fields.')) return variant.custom_fields?.find((cf) => String(cf.id) === field.slice('custom_fields.'.length))?.value ?? null;
  const value = (variant as Record<string, unknown>)[field];
  return value === undefined ? null : value;
}

/** A product's field now; categories as their ids. */
export function productValue(product: Product, field: string): unknown {
  if (field === 'categories') return product.categories.map(categoryIdOf);
  const value = (product as Record<string, unknown>)[field];
  return value === undefined ? null : value;
}

/** Money and measures compare as numbers ("19.9" is "19.90"). */
const NUMERIC = /^\s*-?\d+(?:[.,]\d+)?\s*$/;

function normal(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return NUMERIC.test(value) ? Number(value.replace(',', '.')) : value;
  if (Array.isArray(value)) return value.map(normal);
  if (typeof value === 'object') {
    // A localized text: its languages that hold text, in a fixed order.
    const entries = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => [k, normal(v)] as const)
      .filter(([, v]) => v !== null)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return Object.fromEntries(entries);
  }
  return value;
}

/**
 * Whether two values of a field are the same: numbers and numeric text alike, null/''/absent alike, a localized
 * object's empty languages ignored, a plain text equal to a localized object holding only that text (a store
 * with one language may send either), categories in any order.
 */
export function sameValue(a: unknown, b: unknown, field = ''): boolean {
  let x = normal(a);
  let y = normal(b);
  if (field === 'categories' && Array.isArray(x) && Array.isArray(y)) {
    x = [...x].sort();
    y = [...y].sort();
  }
  if (typeof x === 'string' && isPlainObject(y)) return Object.values(y).length === 1 && Object.values(y)[0] === x;
  if (typeof y === 'string' && isPlainObject(x)) return Object.values(x).length === 1 && Object.values(x)[0] === y;
  return JSON.stringify(x) === JSON.stringify(y);
}

/**
 * Whether the store holds what was written: `sameValue`, except that a localized text written in some languages
 * is held when those languages hold it (the others are the store's own), and a plain text when any language does.
 */
export function holdsValue(holds: unknown, wrote: unknown, field = ''): boolean {
  if (isPlainObject(holds) && (isPlainObject(wrote) || typeof wrote === 'string')) {
    const kept = normal(holds) as Record<string, unknown>;
    if (typeof wrote === 'string') return Object.values(kept).includes(normal(wrote));
    return Object.entries(normal(wrote) as Record<string, unknown>).every(([lang, text]) => kept[lang] === text);
  }
  return sameValue(holds, wrote, field);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as a person reads it in a list of changes: `19.90`, `∞` for unlimited stock, `(none)`. */
export function shownValue(value: unknown, field = ''): string {
  if (value === undefined) return '(not known)';
  if (value === null || value === '') return (field === 'stock' || field.startsWith('stock:')) ? '∞' : '(none)';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Whether a catalog read (a job's snapshot) holds a product or variant field a run sent without a reply: `--resume`
 * settles such a write on the record by it (ledger/jobs.ts). A record not in the catalog, or a field holding
 * neither value, is not known.
 */
export function judgeHeld(products: readonly Product[], change: ChangeRecord, defaultLocation: string | undefined): HeldJudgement {
  if (change.kind !== 'update' || change.id === null) return undefined;
  let now: unknown;
  if (change.resource === 'variant') {
    const variant = products.find((p) => String(p.id) === change.parent)?.variants.find((v) => String(v.id) === change.id);
    if (!variant) return undefined;
    now = variantValue(variant, change.field, change.location, defaultLocation);
  } else if (change.resource === 'product') {
    const product = products.find((p) => String(p.id) === change.id);
    if (!product || !(change.field in product)) return undefined;
    now = productValue(product, change.field);
  } else return undefined;
  if (sameValue(now, change.after, change.field)) return 'applied';
  return change.before !== undefined && sameValue(now, change.before, change.field) ? 'not-applied' : undefined;
}
