import type { Product } from '../../api/products.js';
import type { HeldJudgement } from '../../ledger/jobs.js';
import type { ChangeRecord } from '../../ledger/types.js';
import type { BrakePopulation, PlannedWrite } from '../bulk/brakes.js';
import type { FieldChange, Plan, StoreSnapshot } from './plan-model.js';
import { judgeHeld } from './record-values.js';
import { indexSnapshot } from './store-index.js';
import { fieldChanges } from './variant-diff.js';
import type { SyncPlan } from './sync-types.js';

/**
 * A catalog plan as the fields it writes, each with the store's value it was computed against: what the brakes
 * check (bulk/brakes.ts), what a saved plan keeps to see whether the store changed since (`store apply`), what
 * `--verify` reads back. Stock at a location is `stock` with that `location`; plain `stock` is the default
 * location's, as the planner compares it.
 */

/** The planner's field change of a variant as a planned write. */
function variantWrite(change: FieldChange, variant: { id: number; product_id: number }, key: string): PlannedWrite {
  const level = change.field.startsWith('stock:') ? change.field.slice('stock:'.length) : undefined;
  return {
    resource: 'variant',
    id: variant.id,
    parent: variant.product_id,
    key,
    action: 'update',
    field: level !== undefined ? 'stock' : change.field,
    ...(level !== undefined ? { location: level } : {}),
    before: change.from,
    after: change.to,
  };
}

export function* syncPlannedWrites(plan: SyncPlan, snapshot: StoreSnapshot): Generator<PlannedWrite> {
  const ix = indexSnapshot(snapshot);
  for (const w of plan.writes) for (const change of fieldChanges(w.body, w.variant, ix)) yield variantWrite(change, w.variant, w.sku);
}

const PRODUCT_FIELDS = ['name', 'description', 'handle', 'published', 'seo_title', 'seo_description'] as const;

export function* importPlannedWrites(plan: Plan, snapshot: StoreSnapshot): Generator<PlannedWrite> {
  const byId = new Map(snapshot.products.map((p) => [p.id, p]));
  for (const p of plan.products) {
    const product = p.productId !== undefined ? byId.get(p.productId) : undefined;
    const subject = { resource: 'product', key: p.key, ...(p.productId !== undefined ? { id: p.productId } : {}) };
    for (const step of p.steps) {
      switch (step.kind) {
        case 'createProduct':
          yield { ...subject, action: 'create', field: '*', before: null, after: step.body };
          for (const v of step.variants ?? []) yield { resource: 'variant', key: v.sku || p.key, action: 'create', field: '*', before: null, after: v.fallback };
          break;
        case 'updateProduct':
          for (const field of PRODUCT_FIELDS) {
            const value = (step.body as Record<string, unknown>)[field];
            if (value !== undefined) yield { ...subject, action: 'update', field, before: productBefore(product, field), after: value };
          }
          if (step.categories?.every((c) => typeof c === 'number')) {
            yield { ...subject, action: 'update', field: 'categories', before: product?.categories ?? [], after: step.categories };
          }
          break;
        case 'createVariant':
          yield { resource: 'variant', parent: p.productId, key: step.sku || p.key, action: 'create', field: '*', before: null, after: step.body };
          break;
        case 'addImage':
          yield { resource: 'image', parent: p.productId, key: p.key, action: 'create', field: '*', before: null, after: { src: step.src } };
          break;
        case 'deleteProduct':
          yield { ...subject, action: 'delete', field: '*', before: step.record, after: null };
          break;
        case 'deleteVariant':
          yield { resource: 'variant', id: step.variantId, parent: p.productId, key: step.sku || p.key, action: 'delete', field: '*', before: step.record, after: null };
          break;
        case 'setCustomFields':
          for (const { id, value } of step.values) {
            yield { resource: 'variant', ...(step.variantId !== undefined ? { id: step.variantId } : {}), parent: p.productId, key: step.sku || p.key, action: 'update', field: `custom:${id}`, before: null, after: value };
          }
          break;
      }
    }
    for (const u of p.variantUpdates) for (const change of u.changes) yield variantWrite(change, { id: u.variantId, product_id: p.productId! }, u.sku || p.key);
  }
}

function productBefore(product: Product | undefined, field: string): unknown {
  return product ? ((product as Record<string, unknown>)[field] ?? null) : null;
}

/** What a plan's percentage brakes are of: the store's products and variants, and its stock-tracked variants. */
export function catalogPopulation(snapshot: StoreSnapshot): BrakePopulation {
  let variants = 0;
  let stockVariants = 0;
  for (const p of snapshot.products) {
    variants += p.variants.length;
    for (const v of p.variants) if (v.stock !== null && v.stock !== undefined) stockVariants++;
  }
  return { records: snapshot.products.length + variants, products: snapshot.products.length, stockVariants };
}

/** `--resume`: whether the snapshot holds a write an interrupted run of the job sent without a reply. */
export function judgeInterruptedIn(snapshot: StoreSnapshot, change: ChangeRecord): HeldJudgement {
  return judgeHeld(snapshot.products, change, (snapshot.locations.find((l) => l.is_default) ?? snapshot.locations[0])?.id);
}
