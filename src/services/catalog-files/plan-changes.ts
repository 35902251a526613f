import type { Localized } from '../../api/categories.js';
import { categoryIdOf, type Product } from '../../api/products.js';
import type { VariantInput } from '../../api/variants.js';
import type { SyncPlan } from './sync-types.js';
import type { KeptChange } from './baseline.js';
import { type FieldChange, type Plan, type ProductBody, type StoreSnapshot } from './plan-model.js';
import { categoryPaths, indexSnapshot, textOf } from './store-index.js';
import { fieldChanges } from './variant-diff.js';

/**
 * What a dry run shows (docs/csv.md, "Dry runs"): the plan as changes a person reads — per product and variant
 * (handle, SKU), each field old → new — grouped by kind: created, updated, kept because the store changed it,
 * failed. A function over the plan and the snapshot it was made from; it never changes either (the planner and
 * the executor know nothing of it). `variants sync` uses the same shape.
 */

/**
 * One field as a dry run shows it. For a `kept` change: `old` is the value exported (still in the file), `new`
 * the store's since, which stays.
 */
export interface ShownChange {
  /** The column the change comes from: `price`, `stock`, `stock:Depósito Central`, `name:es`, `categories`, `images`. */
  field: string;
  /** '' for a value the store does not have (a create, an empty field). */
  old: string;
  new: string;
}

export interface PlannedChange {
  kind: 'deleted' | 'created' | 'updated' | 'kept' | 'failed';
  handle: string;
  /** '' for a product-level change or a variant without SKU. */
  sku: string;
  line: number;
  changes: ShownChange[];
  /** Why it failed. */
  reason?: string;
}

const TEXT = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** The fields a product body carries that are not its variant's (a product without variations carries both). */
const PRODUCT_KEYS = new Set(['name', 'description', 'handle', 'images', 'attributes', 'variants', 'categories']);

/** A location's name in the store's main language (its id when the store does not list it). */
function locationNamer(snapshot: StoreSnapshot): (id: string) => string {
  const main = snapshot.store.main_language;
  return (id) => {
    const location = snapshot.locations.find((l) => l.id === id);
    return location ? textOf(location.name as Localized, main, main) || id : id;
  };
}

/** The planner's diff of an existing variant (`VariantUpdate.changes`), shown: a stock level by its location's name. */
function shownChanges(changes: FieldChange[], locationName: (id: string) => string): ShownChange[] {
  return changes.map((c) => ({
    field: c.field.startsWith('stock:') ? `stock:${locationName(c.field.slice('stock:'.length))}` : c.field,
    old: TEXT(c.from),
    new: TEXT(c.to),
  }));
}

/** The variant fields of a new variant's request body, each '' → new; stock per location named. */
function createdChanges(body: VariantInput | ProductBody, locationName: (id: string) => string): ShownChange[] {
  const changes: ShownChange[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'inventory_levels' || PRODUCT_KEYS.has(key) || value === undefined) continue;
    changes.push({ field: key, old: '', new: TEXT(value) });
  }
  for (const level of body.inventory_levels ?? []) changes.push({ field: `stock:${locationName(level.location_id)}`, old: '', new: String(level.stock) });
  return changes;
}

/** Whether a change writes stock (a dry run warns: stock sold since the file was made would be overwritten). */
export function writesStock(change: ShownChange): boolean {
  return change.field === 'stock' || change.field.startsWith('stock:');
}

export function describePlan(plan: Plan, snapshot: StoreSnapshot, kept: KeptChange[]): PlannedChange[] {
  const main = snapshot.store.main_language;
  const byId = new Map(snapshot.products.map((p) => [p.id, p]));
  const paths = categoryPaths(snapshot.categories, main);
  const newCategories = new Map(plan.categories.map((c) => [c.ref, c.name]));
  const locationName = locationNamer(snapshot);
  const categoryText = (refs: (number | string)[] | undefined) =>
    (refs ?? []).map((r) => (typeof r === 'number' ? (paths.get(r)?.join(' > ') ?? String(r)) : (newCategories.get(r) ?? r))).join('; ');
  const out: PlannedChange[] = [];
  for (const p of plan.products) {
    const product = p.productId !== undefined ? byId.get(p.productId) : undefined;
    if (p.action === 'fail' && p.rowFailures.length === 0) {
      out.push({ kind: 'failed', handle: p.key, sku: '', line: p.line, changes: [], reason: p.reason });
      continue;
    }
    for (const f of p.rowFailures) out.push({ kind: 'failed', handle: p.key, sku: f.key === p.key ? '' : f.key, line: f.line, changes: [], reason: f.reason });
    const kind = p.action === 'create' ? 'created' : 'updated';
    const productLevel: ShownChange[] = [];
    for (const step of p.steps) {
      switch (step.kind) {
        case 'createProduct':
        case 'updateProduct': {
          productLevel.push(...productBodyChanges(step.body, product, main));
          if (step.categories) {
            const old = product ? product.categories.map((c) => paths.get(categoryIdOf(c))?.join(' > ') ?? '').filter(Boolean).join('; ') : '';
            productLevel.push({ field: 'categories', old, new: categoryText(step.categories) });
          }
          for (const image of step.body.images ?? []) productLevel.push({ field: 'images', old: '', new: image.src ?? '' });
          if (step.kind === 'createProduct' && step.variants) {
            // A product with variations: its variants ride in its POST, each as the row it comes from.
            for (const v of step.variants) out.push({ kind: 'created', handle: p.key, sku: v.sku, line: v.line, changes: createdChanges(v.fallback, locationName) });
          } else {
            // A product without variations carries its one variant's fields (a create, or one that lost its variant).
            const changes = createdChanges(step.body, locationName);
            if (changes.length > 0) out.push({ kind: 'created', handle: p.key, sku: step.body.sku ?? '', line: p.line, changes });
          }
          break;
        }
        case 'createVariant':
          out.push({ kind: 'created', handle: p.key, sku: step.sku, line: step.line, changes: createdChanges(step.body, locationName) });
          break;
        case 'addImage':
          productLevel.push({ field: 'images', old: '', new: step.src });
          break;
        case 'deleteProduct':
          out.push({ kind: 'deleted', handle: p.key, sku: '', line: step.line, changes: [{ field: 'product', old: String(step.record.id), new: '' }] });
          break;
        case 'deleteVariant':
          out.push({ kind: 'deleted', handle: p.key, sku: step.sku, line: step.line, changes: [{ field: 'variant', old: String(step.variantId), new: '' }] });
          break;
        case 'setCustomFields': {
          const current = step.variantId !== undefined ? product?.variants.find((v) => v.id === step.variantId) : undefined;
          const changes = step.values.map(({ id, value }) => {
            const name = snapshot.customFields.find((f) => f.id === id)?.name ?? id;
            return { field: `custom:${name}`, old: TEXT(current?.custom_fields?.find((c) => String(c.id) === id)?.value), new: value };
          });
          out.push({ kind: step.variantId !== undefined ? 'updated' : 'created', handle: p.key, sku: step.sku, line: step.line, changes });
          break;
        }
      }
    }
    for (const u of p.variantUpdates) out.push({ kind: 'updated', handle: p.key, sku: u.sku, line: u.line, changes: shownChanges(u.changes, locationName) });
    if (productLevel.length > 0) out.push({ kind, handle: p.key, sku: '', line: p.line, changes: productLevel });
  }
  for (const k of kept) out.push({ kind: 'kept', handle: k.key, sku: k.sku, line: k.line, changes: [{ field: k.column, old: k.exported, new: k.store }] });
  // Deletes first: what cannot be taken back by editing the file again is what a dry run is read for.
  return [...out.filter((c) => c.kind === 'deleted'), ...out.filter((c) => c.kind !== 'deleted')];
}

/** Names and descriptions of a product body, old → new, per language. */
function productBodyChanges(body: ProductBody, product: Product | undefined, main: string): ShownChange[] {
  const changes: ShownChange[] = [];
  for (const field of ['name', 'description'] as const) {
    const value = body[field];
    if (value === undefined) continue;
    const langs = typeof value === 'string' ? { [main]: value } : value;
    for (const [lang, text] of Object.entries(langs)) {
      changes.push({ field: lang === main ? field : `${field}:${lang}`, old: textOf(product?.[field], lang, main), new: text ?? '' });
    }
  }
  return changes;
}

/** `variants sync --dry-run`: its writes and failed rows in the shape of an import's plan, the planner's diff shown. */
export function describeSyncPlan(plan: SyncPlan, snapshot: StoreSnapshot): PlannedChange[] {
  const main = snapshot.store.main_language;
  const ix = indexSnapshot(snapshot);
  const handleOf = new Map(snapshot.products.map((p) => [p.id, textOf(p.handle, main, main)]));
  const locationName = locationNamer(snapshot);
  return [
    ...plan.writes.map((w): PlannedChange => ({
      kind: 'updated',
      handle: handleOf.get(w.variant.product_id) ?? '',
      sku: w.sku,
      line: w.line,
      changes: shownChanges(fieldChanges(w.body, w.variant, ix), locationName),
    })),
    ...plan.failures.map((f): PlannedChange => ({ kind: 'failed', handle: '', sku: f.key, line: f.line, changes: [], reason: f.reason })),
  ];
}
