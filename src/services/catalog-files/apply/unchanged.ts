import { type Product, findProductByHandle, findProductBySku, productPages } from '../../../api/products.js';
import type { StoreClient } from '../../../client/index.js';
import { MAX_PER_PAGE } from '../../../platform/pagination.js';
import type { PlannedWrite } from '../../bulk/brakes.js';
import { readTouched } from '../read-touched.js';
import { productValue, sameValue, shownValue, variantValue } from '../record-values.js';

/**
 * `store apply`'s check that the store still holds what a saved plan was computed against, before anything is
 * sent (Terraform's stale plan, for a catalog): every field the plan writes must hold the value it was planned
 * from, every record it updates must still exist, and every product or SKU it creates must still be free. Read
 * with the fewest requests: the products the plan updates one by one (`fields=`), or the whole catalog when that
 * takes fewer pages than the plan has records to look at.
 */

export interface StaleRecord {
  resource: string;
  id?: number | string;
  key: string;
  field?: string;
  location?: string;
  /** What the plan was computed against, and what the store holds now. */
  planned?: unknown;
  now?: unknown;
  why: string;
}

export interface UnchangedOptions {
  /** Products in the store when the plan was made. */
  catalogProducts?: number;
  defaultLocation?: string;
  /** `--resume` of an interrupted apply: a field may hold what the plan writes (the earlier apply wrote it). */
  resume?: boolean;
}

const productIdOf = (w: PlannedWrite): number | undefined => {
  const raw = w.resource === 'product' ? w.id : w.parent;
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isSafeInteger(n) ? n : undefined;
};

/** Every record of the plan the store changed since (empty: the plan may be written). */
export async function staleRecords(client: StoreClient, writes: PlannedWrite[], options: UnchangedOptions): Promise<StaleRecord[]> {
  const updates = writes.filter((w) => w.action === 'update' && w.id !== undefined && productIdOf(w) !== undefined);
  const creates = writes.filter((w) => w.action === 'create');
  const touched = new Set<number>(updates.map((w) => productIdOf(w)!));
  for (const c of creates) if (c.resource !== 'product' && productIdOf(c) !== undefined) touched.add(productIdOf(c)!);
  const newProducts = creates.filter((c) => c.resource === 'product');
  const newSkus = creates.filter((c) => c.resource === 'variant' && c.parent === undefined).map((c) => skuOf(c)).filter((s): s is string => !!s);
  const lookups = touched.size + newProducts.length + newSkus.length;
  const pages = options.catalogProducts !== undefined ? Math.max(1, Math.ceil(options.catalogProducts / MAX_PER_PAGE)) : Infinity;
  const stale: StaleRecord[] = [];
  const products = new Map<number, Product>();
  const handles = new Set<string>();
  const skus = new Map<string, number>();
  if (lookups > pages) {
    // The whole catalog in fewer requests than one per record: every check answered from it.
    const fields = ['id', 'handle', 'variants', ...productFields(updates)].join(',');
    for await (const page of productPages(client, { fields })) {
      for (const p of page.products) {
        if (touched.has(p.id)) products.set(p.id, p);
        for (const h of Object.values(typeof p.handle === 'string' ? { h: p.handle } : (p.handle ?? {}))) if (h) handles.add(h);
        for (const v of p.variants) if (v.sku) skus.set(v.sku, p.id);
      }
    }
  } else {
    for await (const page of readTouched(client, touched, { fields: ['variants', ...productFields(updates)] })) for (const p of page.products) products.set(p.id, p);
    for (const c of newProducts) if (await findProductByHandle(client, c.key)) handles.add(c.key);
    for (const sku of newSkus) {
      const holder = await findProductBySku(client, sku);
      if (holder) skus.set(sku, holder.id);
    }
  }
  for (const w of updates) {
    const product = products.get(productIdOf(w)!);
    const now = currentValue(w, product, options.defaultLocation);
    if (now === GONE) stale.push({ ...subject(w), why: `the ${w.resource} is gone from the store` });
    else if (!sameValue(now, w.before, w.field) && !(options.resume && sameValue(now, w.after, w.field))) {
      stale.push({ ...subject(w), field: w.field, ...(w.location ? { location: w.location } : {}), planned: w.before, now, why: `planned from ${shownValue(w.before, w.field)}, the store holds ${shownValue(now, w.field)} now` });
    }
  }
  if (!options.resume) {
    for (const c of newProducts) if (handles.has(c.key)) stale.push({ ...subject(c), why: `a product with handle ${c.key} exists now` });
    for (const c of creates.filter((w) => w.resource === 'variant')) {
      const sku = skuOf(c);
      const parent = productIdOf(c);
      const inParent = parent !== undefined && products.get(parent)?.variants.some((v) => v.sku === sku);
      if (sku && (inParent || (parent === undefined && skus.has(sku)))) stale.push({ ...subject(c), why: `SKU ${sku} is in the store now` });
    }
  }
  return dedupe(stale);
}

const GONE = Symbol('gone');

function currentValue(w: PlannedWrite, product: Product | undefined, defaultLocation: string | undefined): unknown {
  if (!product) return GONE;
  if (w.resource === 'product') return productValue(product, w.field);
  const variant = product.variants.find((v) => String(v.id) === String(w.id));
  if (!variant) return GONE;
  if (w.field.startsWith('custom:')) return variant.custom_fields?.find((c) => String(c.id) === w.field.slice('custom:'.length))?.value ?? null;
  return variantValue(variant, w.field, w.location, defaultLocation);
}

function productFields(updates: PlannedWrite[]): string[] {
  return [...new Set(updates.filter((w) => w.resource === 'product').map((w) => w.field))];
}

function skuOf(c: PlannedWrite): string | undefined {
  const sku = (c.after as { sku?: unknown } | null)?.sku;
  return typeof sku === 'string' && sku !== '' ? sku : undefined;
}

function subject(w: PlannedWrite): StaleRecord {
  return { resource: w.resource, ...(w.id !== undefined ? { id: w.id } : {}), key: w.key, why: '' };
}

/** One line per record and field. */
function dedupe(stale: StaleRecord[]): StaleRecord[] {
  const seen = new Set<string>();
  return stale.filter((s) => {
    const key = `${s.resource}\u0000${s.id ?? s.key}\u0000${s.field ?? ''}\u0000${s.location ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
