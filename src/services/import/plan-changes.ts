import type { Localized } from '../../api/categories.js';
import { categoryIdOf, type Product } from '../../api/products.js';
import type { Variant, VariantInput } from '../../api/variants.js';
import type { SyncPlan } from '../sync/planner.js';
import type { KeptChange } from './baseline.js';
import { type Plan, type ProductBody, type StoreSnapshot, categoryPaths, textOf } from './planner.js';

/**
 * What a dry run shows (docs/csv.md, "Dry runs"): the plan as changes a person reads — per product and variant
 * (handle, SKU), each field old → new — grouped by kind: created, updated, kept because the store changed it,
 * failed. A function over the plan and the snapshot it was made from; it never changes either (the planner and
 * the executor know nothing of it). `variants sync` uses the same shape.
 */

/** For a `kept` change: `old` is the value exported (still in the file), `new` the store's since, which stays. */
export interface FieldChange {
  /** The column the change comes from: `price`, `stock`, `stock:Depósito Central`, `name:es`, `categories`, `images`. */
  field: string;
  /** '' for a value the store does not have (a create, an empty field). */
  old: string;
  new: string;
}

export interface PlannedChange {
  kind: 'created' | 'updated' | 'kept' | 'failed';
  handle: string;
  /** '' for a product-level change or a variant without SKU. */
  sku: string;
  line: number;
  changes: FieldChange[];
  /** Why it failed. */
  reason?: string;
}

const TEXT = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** The variant fields of a request body, old (from the store's variant, when there is one) → new; stock per location named. */
export function variantChanges(body: VariantInput, current: Variant | undefined, locationName: (id: string) => string, defaultLocation?: string): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'inventory_levels' || key === 'attributes' || value === undefined) continue;
    if (key === 'stock') {
      // A stock without a split sets the default location's when the store reports the split (planner.ts).
      const old = current && defaultLocation && current.inventory_levels ? (current.inventory_levels.find((l) => l.location_id === defaultLocation)?.stock ?? 0) : current?.stock;
      changes.push({ field: 'stock', old: TEXT(old), new: TEXT(value) });
      continue;
    }
    changes.push({ field: key, old: TEXT(current?.[key as keyof Variant]), new: TEXT(value) });
  }
  for (const level of body.inventory_levels ?? []) {
    const old = current?.inventory_levels ? (current.inventory_levels.find((l) => l.location_id === level.location_id)?.stock ?? 0) : undefined;
    changes.push({ field: `stock:${locationName(level.location_id)}`, old: TEXT(old), new: String(level.stock) });
  }
  return changes;
}

/** Whether a change writes stock (a dry run warns: stock sold since the file was made would be overwritten). */
export function writesStock(change: FieldChange): boolean {
  return change.field === 'stock' || change.field.startsWith('stock:');
}

export function describePlan(plan: Plan, snapshot: StoreSnapshot, kept: KeptChange[]): PlannedChange[] {
  const main = snapshot.store.main_language;
  const byId = new Map(snapshot.products.map((p) => [p.id, p]));
  const paths = categoryPaths(snapshot.categories, main);
  const newCategories = new Map(plan.categories.map((c) => [c.ref, c.name]));
  const locationName = (id: string) => {
    const location = snapshot.locations.find((l) => l.id === id);
    return location ? textOf(location.name as Localized, main, main) || id : id;
  };
  const defaultLocation = (snapshot.locations.find((l) => l.is_default) ?? snapshot.locations[0])?.id;
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
    const productLevel: FieldChange[] = [];
    for (const step of p.steps) {
      switch (step.kind) {
        case 'createProduct':
        case 'updateProduct': {
          productLevel.push(...productBodyChanges(step.body, product, main));
          if (step.categories) {
            const old = product ? product.categories.map((c) => paths.get(categoryIdOf(c))?.join(' > ') ?? '').filter(Boolean).join('; ') : '';
            productLevel.push({ field: 'categories', old, new: categoryText(step.categories) });
          }
          const variant = product?.variants.length === 1 ? product.variants[0] : undefined;
          const variantPart = Object.fromEntries(Object.entries(step.body).filter(([k]) => !['name', 'description', 'handle'].includes(k))) as VariantInput;
          const changes = variantChanges(variantPart, variant, locationName, defaultLocation);
          if (changes.length > 0) out.push({ kind, handle: p.key, sku: step.body.sku ?? variant?.sku ?? '', line: p.line, changes });
          break;
        }
        case 'createVariant':
          out.push({ kind: 'created', handle: p.key, sku: step.sku, line: step.line, changes: variantChanges(step.body, undefined, locationName, defaultLocation) });
          break;
        case 'updateVariant': {
          const current = product?.variants.find((v) => v.id === step.variantId);
          out.push({ kind: 'updated', handle: p.key, sku: step.sku, line: step.line, changes: variantChanges(step.body, current, locationName, defaultLocation) });
          break;
        }
        case 'addImage':
          productLevel.push({ field: 'images', old: '', new: step.src });
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
    if (productLevel.length > 0) out.push({ kind, handle: p.key, sku: '', line: p.line, changes: productLevel });
  }
  for (const k of kept) out.push({ kind: 'kept', handle: k.key, sku: k.sku, line: k.line, changes: [{ field: k.column, old: k.exported, new: k.store }] });
  return out;
}

/** Names and descriptions of a product body, old → new, per language. */
function productBodyChanges(body: ProductBody, product: Product | undefined, main: string): FieldChange[] {
  const changes: FieldChange[] = [];
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

/** `variants sync --dry-run`: its writes and failed rows in the shape of an import's plan. */
export function describeSyncPlan(plan: SyncPlan, snapshot: StoreSnapshot): PlannedChange[] {
  const main = snapshot.store.main_language;
  const handleOf = new Map(snapshot.products.map((p) => [p.id, textOf(p.handle, main, main)]));
  const locationName = (id: string) => {
    const location = snapshot.locations.find((l) => l.id === id);
    return location ? textOf(location.name as Localized, main, main) || id : id;
  };
  const defaultLocation = (snapshot.locations.find((l) => l.is_default) ?? snapshot.locations[0])?.id;
  return [
    ...plan.writes.map((w): PlannedChange => ({
      kind: 'updated',
      handle: handleOf.get(w.variant.product_id) ?? '',
      sku: w.sku,
      line: w.line,
      changes: variantChanges(w.body, w.variant, locationName, defaultLocation),
    })),
    ...plan.failures.map((f): PlannedChange => ({ kind: 'failed', handle: '', sku: f.key, line: f.line, changes: [], reason: f.reason })),
  ];
}
