import type { Product, ProductInput } from '../../api/products.js';
import type { Variant, VariantInput } from '../../api/variants.js';
import type { ChangeIntent } from '../../ledger/types.js';
import { productValue, sameValue, variantValue } from '../catalog-files/record-values.js';
import { type Decision, type DecideOptions, decideField } from './decide.js';
import type { Slot } from './slots.js';

/**
 * The undo of one product: every slot of a run on the product, its variants and its images, against the product as
 * the store holds it now (undefined: gone). Pure: it returns the writes, each with the change the undo records
 * (its own `before` is what the store holds now, so undoing the undo redoes), and what it leaves, with why.
 */

export interface VariantUndo {
  productId: number;
  variantId: number;
  key: string;
  /** The variant as the store holds it now: the before-values of the undo's own changes on the ledger. */
  current: Variant;
  /** Only the fields that go back; money as decimal text, stock plain (default location) or by level. */
  body: VariantInput;
  changes: ChangeIntent[];
}

export interface SingleUndo {
  resource: 'product' | 'variant' | 'image';
  productId: number;
  /** The variant or image (absent for a product). */
  id?: number;
  key: string;
  change: ChangeIntent;
}

export interface RecreateUndo {
  resource: 'product' | 'variant';
  /** The product a variant is recreated in. */
  productId?: number;
  key: string;
  body: ProductInput | (VariantInput & { values?: unknown[] });
  change: ChangeIntent;
  /** What does not come back. */
  lost: string;
}

/**
 * Why a field is left: changed since by someone else (`--force` writes it back), not known (the value before, or
 * whether the run's write reached the store), gone from the store, or an action no write takes back.
 */
export type LeftKind = 'changed' | 'unknown' | 'gone' | 'irreversible';

/** A field undo leaves as it is, with why: listed, never silently skipped. */
export interface LeftField {
  kind: LeftKind;
  resource: string;
  id: string | null;
  key: string;
  field: string;
  location: string | null;
  before: unknown;
  wrote: unknown;
  now: unknown;
  why: string;
}

/** A custom field's value of a variant put back (`PUT …/custom-fields`), or removed when it had none (`DELETE`). */
export interface CustomFieldValueUndo {
  productId: number;
  variantId: number;
  fieldId: string;
  value: string | null;
  change: ChangeIntent;
}

export interface ProductUndo {
  variantWrites: VariantUndo[];
  customFieldValues: CustomFieldValueUndo[];
  /** Stock made unlimited again (no batch endpoint takes a null stock: the relative stock endpoint does). */
  unlimited: SingleUndo[];
  productUpdate?: { productId: number; key: string; body: ProductInput; changes: ChangeIntent[] };
  deletes: SingleUndo[];
  recreates: RecreateUndo[];
  left: LeftField[];
  /** Fields already as before (nothing to write), writes the store never applied, fields an interrupted undo did. */
  already: number;
  notApplied: number;
  doneEarlier: number;
  notes: string[];
}

export interface PlanContext extends DecideOptions {
  defaultLocation?: string;
  /** `--only FIELDS`: the fields undo touches (`stock` covers every location). */
  only?: ReadonlySet<string>;
}

const PRODUCT_FIELDS = new Set(['name', 'description', 'handle', 'categories', 'published', 'seo_title', 'seo_description', 'attributes']);

const keyOf = (slot: Slot) => slot.key ?? slot.id ?? '';

export function emptyUndo(): ProductUndo {
  return { variantWrites: [], customFieldValues: [], unlimited: [], deletes: [], recreates: [], left: [], already: 0, notApplied: 0, doneEarlier: 0, notes: [] };
}

const fieldFilter = (only: ReadonlySet<string> | undefined) => (slot: Slot) =>
  !only || only.has(slot.field) || (slot.field.startsWith('stock') && only.has('stock'));

export function planProductUndo(productId: number, slots: Slot[], product: Product | undefined, ctx: PlanContext): ProductUndo {
  const undo = emptyUndo();
  const wanted = slots.filter(fieldFilter(ctx.only));
  const created = wanted.find((s) => s.resource === 'product' && s.kind === 'create');
  if (created) {
    planCreatedProduct(productId, created, product, undo);
    return undo;
  }
  const deleted = wanted.find((s) => s.resource === 'product' && s.kind === 'delete');
  if (deleted) {
    planRecreate(deleted, undo);
    return undo;
  }
  const variantSlots = new Map<string, Slot[]>();
  const productChanges: ChangeIntent[] = [];
  const productBody: Record<string, unknown> = {};
  let productKey = String(productId);
  for (const slot of wanted) {
    if (slot.irreversible) {
      undo.left.push(left(slot, undefined, slot.irreversible, 'irreversible'));
      continue;
    }
    if (slot.resource === 'variant') {
      const list = variantSlots.get(slot.id ?? '') ?? [];
      list.push(slot);
      variantSlots.set(slot.id ?? '', list);
    } else if (slot.resource === 'image') planImage(productId, slot, product, undo);
    else if (slot.resource === 'product' && slot.kind === 'update' && PRODUCT_FIELDS.has(slot.field)) {
      if (!product) {
        undo.left.push(left(slot, undefined, 'the product was deleted since the run', 'gone'));
        continue;
      }
      const now = productValue(product, slot.field);
      const decision = decideField(slot, now, ctx);
      if (apply(decision, slot, now, undo)) {
        productKey = keyOf(slot) || productKey;
        productBody[slot.field] = decision.value;
        productChanges.push(intent(slot, now, decision.value));
      }
    } else undo.left.push(left(slot, undefined, `undo does not revert a ${slot.kind} of ${slot.resource} field ${slot.field}`, 'irreversible'));
  }
  if (productChanges.length > 0) undo.productUpdate = { productId, key: productKey, body: productBody as ProductInput, changes: productChanges };
  for (const [variantId, list] of variantSlots) planVariant(productId, Number(variantId), list, product, ctx, undo);
  return undo;
}

/** Counts a decision that writes nothing, or lists what it leaves; true when it writes. */
function apply(decision: Decision, slot: Slot, now: unknown, undo: ProductUndo): decision is Decision & { action: 'write' } {
  if (decision.action === 'write') {
    if (decision.note) undo.notes.push(`${keyOf(slot)} ${fieldName(slot)}: ${decision.note}`);
    return true;
  }
  if (decision.action === 'leave') undo.left.push(left(slot, now, decision.why, decision.kind));
  else if (decision.why === 'not-applied') undo.notApplied++;
  else if (decision.why === 'done-earlier') undo.doneEarlier++;
  else undo.already++;
  return false;
}

const fieldName = (slot: Slot) => (slot.location ? `${slot.field}@${slot.location}` : slot.field);

export function left(slot: Slot, now: unknown, why: string, kind: LeftKind): LeftField {
  return { kind, resource: slot.resource, id: slot.id, key: keyOf(slot), field: slot.field, location: slot.location, before: slot.before, wrote: slot.after, now, why };
}

function intent(slot: Slot, now: unknown, value: unknown): ChangeIntent {
  return { resource: slot.resource, id: slot.id, parent: slot.parent, key: slot.key, field: slot.field, location: slot.location, kind: 'update', before: now, after: value };
}

function planVariant(productId: number, variantId: number, slots: Slot[], product: Product | undefined, ctx: PlanContext, undo: ProductUndo): void {
  const created = slots.find((s) => s.kind === 'create');
  const variant = product?.variants.find((v) => v.id === variantId);
  if (created) {
    if (!variant) return void undo.notes.push(`${keyOf(created)}: the variant the run created is gone already`);
    if (createdUnchanged(created.after, variant)) {
      undo.deletes.push({ resource: 'variant', productId, id: variantId, key: keyOf(created), change: { ...intent(created, variant, undefined), kind: 'delete', field: '*' } });
    } else undo.left.push(left(created, undefined, 'created by the run and changed since: kept', 'changed'));
    return;
  }
  const deleted = slots.find((s) => s.kind === 'delete');
  if (deleted) return planRecreate(deleted, undo);
  if (!variant) {
    for (const slot of slots) undo.left.push(left(slot, undefined, product ? 'the variant was deleted since the run' : 'the product was deleted since the run', 'gone'));
    return;
  }
  const body: VariantInput & Record<string, unknown> = {};
  const changes: ChangeIntent[] = [];
  const levels: { location_id: string; stock: number }[] = [];
  for (const slot of slots) {
    if (slot.irreversible) {
      undo.left.push(left(slot, undefined, slot.irreversible, 'irreversible'));
      continue;
    }
    if (slot.kind !== 'update') {
      undo.left.push(left(slot, undefined, `undo does not revert a ${slot.kind} of a variant's ${slot.field}`, 'irreversible'));
      continue;
    }
    const now = variantValue(variant, slot.field, slot.location, ctx.defaultLocation);
    const decision = decideField(slot, now, ctx);
    if (!apply(decision, slot, now, undo)) continue;
    const change = intent(slot, now, decision.value);
    if (slot.field.startsWith('custom_fields.')) {
      const value = decision.value === null || decision.value === undefined ? null : String(decision.value);
      undo.customFieldValues.push({ productId, variantId, fieldId: slot.field.slice('custom_fields.'.length), value, change });
      continue;
    }
    if (slot.field === 'stock' && decision.value === null) {
      undo.unlimited.push({ resource: 'variant', productId, id: variantId, key: keyOf(slot), change });
      continue;
    }
    changes.push(change);
    if (slot.field === 'stock' && slot.location && slot.location !== ctx.defaultLocation) levels.push({ location_id: slot.location, stock: decision.value as number });
    else if (slot.field === 'stock') body.stock = decision.value as number;
    else body[slot.field] = decision.value;
  }
  if (levels.length > 0) {
    // Levels and a plain stock together: the plain one is the default location's level.
    if (body.stock !== undefined && ctx.defaultLocation) levels.push({ location_id: ctx.defaultLocation, stock: body.stock });
    if (body.stock === undefined || ctx.defaultLocation) delete body.stock;
    body.inventory_levels = levels;
  }
  if (changes.length > 0) undo.variantWrites.push({ productId, variantId, key: variant.sku ?? keyOf(slots[0]!), current: variant, body, changes });
}

function planImage(productId: number, slot: Slot, product: Product | undefined, undo: ProductUndo): void {
  if (slot.kind !== 'create' || slot.id === null) return void undo.left.push(left(slot, undefined, `undo does not revert a ${slot.kind} of an image`, 'irreversible'));
  const image = product?.images.find((i) => String(i.id) === slot.id);
  if (!image) return void undo.already++;
  undo.deletes.push({ resource: 'image', productId, id: Number(slot.id), key: keyOf(slot), change: { ...intent(slot, { src: image.src }, undefined), kind: 'delete', field: '*' } });
}

/** A product the run created goes only if the store still holds it as the run left it. */
function planCreatedProduct(productId: number, created: Slot, product: Product | undefined, undo: ProductUndo): void {
  if (!product) return void undo.notes.push(`${keyOf(created)}: the product the run created is gone already`);
  const body = (created.after ?? {}) as ProductInput;
  const sent = body.variants ?? (body.sku !== undefined || body.price !== undefined ? [body as never] : []);
  const unchanged =
    (body.name === undefined || sameValue(product.name, body.name, 'name')) &&
    (sent.length === 0 || product.variants.length === sent.length) &&
    sent.every((v: Record<string, unknown>, i: number) => {
      const current = (v.sku ? product.variants.find((c) => c.sku === v.sku) : product.variants[i]) as Variant | undefined;
      return current !== undefined && createdUnchanged(v, current);
    });
  if (!unchanged) return void undo.left.push(left(created, undefined, 'created by the run and changed since: kept', 'changed'));
  undo.deletes.push({ resource: 'product', productId, key: keyOf(created), change: { ...intent(created, product, undefined), id: String(productId), kind: 'delete', field: '*' } });
}

const CREATE_COMPARED = ['sku', 'price', 'promotional_price', 'cost', 'weight', 'width', 'height', 'depth', 'mpn', 'barcode', 'age_group', 'gender'] as const;

/** Every field the create sent still holds what it sent (stock as the sum of what it put anywhere). */
function createdUnchanged(sent: unknown, variant: Variant): boolean {
  const body = (sent ?? {}) as Record<string, unknown>;
  for (const field of CREATE_COMPARED) if (body[field] !== undefined && !sameValue(variant[field], body[field], field)) return false;
  const levels = body.inventory_levels as { stock: number }[] | undefined;
  const stock = levels ? levels.reduce((sum, l) => sum + l.stock, 0) : (body.stock as number | null | undefined);
  return stock === undefined || sameValue(variant.stock, stock, 'stock');
}

/** A record the run deleted, made again from the record it kept (ids, and image URLs re-hosted, do not come back). */
function planRecreate(deleted: Slot, undo: ProductUndo): void {
  const record = deleted.before as Record<string, unknown> | undefined;
  if (!record || typeof record !== 'object') return void undo.left.push(left(deleted, undefined, 'deleted by the run, which kept no record of it: it cannot come back', 'irreversible'));
  const change: ChangeIntent = { resource: deleted.resource, id: null, parent: deleted.parent, key: deleted.key, field: '*', location: null, kind: 'create', before: null };
  if (deleted.resource === 'product') {
    const body = productCreateBody(record as unknown as Product);
    undo.recreates.push({ resource: 'product', key: keyOf(deleted), body, change: { ...change, after: body }, lost: `product ${deleted.id} comes back with a new id, its variants and images too` });
    return;
  }
  const body = variantCreateBody(record as unknown as Variant);
  undo.recreates.push({ resource: 'variant', productId: Number(deleted.parent), key: keyOf(deleted), body, change: { ...change, after: body }, lost: `variant ${deleted.id} comes back with a new id` });
}

const VARIANT_COPIED = ['sku', 'price', 'promotional_price', 'cost', 'weight', 'width', 'height', 'depth', 'mpn', 'barcode', 'age_group', 'gender'] as const;

function variantCreateBody(v: Variant): VariantInput & { values: unknown[] } {
  const body: Record<string, unknown> = { values: v.values ?? [] };
  for (const field of VARIANT_COPIED) if (v[field] !== null && v[field] !== undefined) body[field] = v[field];
  if (v.inventory_levels && v.inventory_levels.length > 0) body.inventory_levels = v.inventory_levels.map((l) => ({ location_id: l.location_id, stock: l.stock ?? 0 }));
  else if (typeof v.stock === 'number') body.stock = v.stock;
  return body as unknown as VariantInput & { values: unknown[] };
}

/** POST /products from a kept product record: its texts, options, categories, variants and images (by URL). */
export function productCreateBody(p: Product): ProductInput {
  const body: Record<string, unknown> = { name: p.name };
  for (const field of ['description', 'handle', 'attributes', 'published'] as const) if ((p as Record<string, unknown>)[field] !== undefined) body[field] = (p as Record<string, unknown>)[field];
  if (p.categories?.length) body.categories = p.categories.map((c) => (typeof c === 'object' ? (c as { id: number }).id : c));
  body.variants = p.variants.map(variantCreateBody);
  if (p.images?.length) body.images = p.images.map((i) => ({ src: i.src }));
  return body as ProductInput;
}
