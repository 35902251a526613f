import type { Category, Localized } from '../../api/categories.js';
import type { CustomField } from '../../api/custom-fields.js';
import type { Location } from '../../api/locations.js';
import { type Product, type ProductInput, categoryIdOf } from '../../api/products.js';
import type { StoreInfo } from '../../api/store.js';
import type { Variant, VariantInput } from '../../api/variants.js';
import { pickLocalized } from '../../api/read.js';
import type { Catalog, ProductSpec, VariantSpec } from './catalog.js';
import { DECIMAL_FIELDS, type DecimalField, TEXT_FIELDS, type TextField } from './dialects.js';
import { type VariantWrite, minimumRequests } from './variant-writes.js';

/**
 * The import plan (docs/csv.md, "What an import does"): a pure function from the validated file and one snapshot of
 * the store to the writes that make the store match the file — creates for what is missing, updates of only
 * the fields that differ, nothing for what is equal. Nothing here does I/O, so every rule is unit-tested.
 */

export interface StoreSnapshot {
  store: Pick<StoreInfo, 'languages' | 'main_language'>;
  products: Product[];
  categories: Category[];
  locations: Location[];
  customFields: CustomField[];
}

export type Mode = 'upsert' | 'create' | 'update';

/** A category id, or the path key of a category the plan creates. */
export type CategoryRef = number | string;

export interface CategoryCreate {
  /** Normalised path key, e.g. "ropa > remeras". */
  ref: string;
  name: string;
  /** Existing parent id, or the ref of a parent created earlier in the plan, or null for a root. */
  parent: CategoryRef | null;
  depth: number;
  line: number;
}

/** The fields of a variant a row sets, besides its SKU and stock (columns of DECIMAL_FIELDS and TEXT_FIELDS). */
type VariantFields = { [F in DecimalField | TextField]?: string };
type StockFields = Pick<VariantInput, 'stock' | 'inventory_levels'>;

/** Product request bodies; the categories are sent as the ids `categories` resolves to once they exist. */
export type ProductBody = Omit<ProductInput, 'categories'>;

/** A variant created inside its product's POST /products: the row it comes from. */
export interface NestedVariant {
  sku: string;
  line: number;
  options: string[];
  /** The same variant as a one-by-one create, for a store that drops the variants of a POST /products. */
  fallback: VariantInput;
}

export type Step =
  | { kind: 'createProduct'; body: ProductBody; categories?: CategoryRef[]; variants?: NestedVariant[] }
  | { kind: 'updateProduct'; body: ProductBody; categories?: CategoryRef[] }
  | { kind: 'createVariant'; sku: string; line: number; body: VariantInput; options: string[] }
  | { kind: 'addImage'; src: string }
  | { kind: 'setCustomFields'; sku: string; line: number; variantId?: number; options: string[]; values: { id: string; value: string }[] };

/**
 * How a variant the plan creates is known until the store gives it an id: its SKU, or for a variant without
 * SKU its option values (unique within a product).
 */
export function variantKey(sku: string, options: string[]): string {
  return sku || `\u0000${options.map((o) => o.trim().toLowerCase()).join('\u0000')}`;
}

/** A variant as messages name it: its SKU, or its product and option values when it has no SKU. */
function variantLabel(productKey: string, v: Pick<VariantSpec, 'sku' | 'values'>): string {
  return v.sku || `${productKey} (${v.values.length ? v.values.join(' / ') : 'no SKU'})`;
}

/** The SKU a row sets, as request fields: none when the row leaves it blank. */
function skuField(v: VariantSpec): Pick<VariantInput, 'sku'> {
  return v.sku ? { sku: v.sku } : {};
}

/** One field of an existing variant the plan changes, from what the store holds to what the file says. */
export interface FieldChange {
  /** The request field (`price`, `cost`, `sku`…), or `stock:<location id>` for a stock level. */
  field: string;
  from: string | number | null;
  to: string | number | null;
}

/**
 * A change to an existing variant. The executor sends these across products in the fewest documented requests
 * (services/catalog-files/variant-writes.ts): price and stock 50 per PATCH /products/stock-price, anything else one
 * PATCH /products/{id}/variants per product. `changes` is the same diff field by field, for a dry run to show.
 */
export interface VariantUpdate {
  sku: string;
  line: number;
  variantId: number;
  body: VariantInput;
  changes: FieldChange[];
}

/** Images a new product carries in its POST (the platform recommends at most 9 there); the rest go one by one. */
export const IMAGES_IN_CREATE = 9;

export interface RowFailure {
  line: number;
  key: string;
  reason: string;
}

export interface ProductPlan {
  key: string;
  line: number;
  lines: number[];
  action: 'create' | 'update' | 'unchanged' | 'skip' | 'fail';
  /** The store's product, when it exists. */
  productId?: number;
  /** Why the product is skipped or failed. */
  reason?: string;
  steps: Step[];
  /** Changes to the product's existing variants, sent after the steps, batched across products. */
  variantUpdates: VariantUpdate[];
  /** Rows of this product that fail while the rest goes ahead (e.g. a SKU held twice in the store). */
  rowFailures: RowFailure[];
  /** Images the product had when the store was fetched (0 for a create): how another writer's images show. */
  imagesBefore?: number;
}

export interface Plan {
  categories: CategoryCreate[];
  products: ProductPlan[];
  /** Problems of the whole file against this store (unknown location or custom field column…): nothing is sent. */
  fatal: string[];
  /** Write requests the plan sends (the variant updates counted as the batches they go in). */
  writes: number;
  /** The store's locations (where plain stock goes, and whether levels must name theirs). */
  locations?: Location[];
}

export interface PlanOptions {
  mode?: Mode;
}

export interface Indexes {
  main: string;
  multilingual: boolean;
  languages: string[];
  byHandle: Map<string, Product>;
  bySku: Map<string, { product: Product; variant: Variant }[]>;
  categoryByPath: Map<string, number>;
  locationByKey: Map<string, Location>;
  defaultLocation?: Location;
  customByName: Map<string, CustomField>;
}

function pathKey(levels: string[]): string {
  return levels.map((l) => l.trim().toLowerCase()).join(' > ');
}

/**
 * The text of a localized value in one language, as a `name:<lang>` column holds it: that language or its
 * locale form (`pt` ↔ `pt_BR`). The main language falls back to any language that has text (docs/platform.md
 * §0: an option named only in `en` on an `es` store is still named), so export writes it and import, reading
 * the same fallback, sees no change.
 */
export function textOf(value: Localized | null | undefined, lang: string, main: string): string {
  if (value === null || value === undefined) return '';
  if (lang === main) return pickLocalized(value, main);
  if (typeof value === 'string') return '';
  const exact = value[lang];
  if (exact) return exact;
  const language = lang.split(/[_-]/)[0]!.toLowerCase();
  return Object.entries(value).find(([key, text]) => text && key.split(/[_-]/)[0]!.toLowerCase() === language)?.[1] ?? '';
}

/** Every category's path of main-language names from the root. */
export function categoryPaths(categories: Category[], main: string): Map<number, string[]> {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const paths = new Map<number, string[]>();
  const pathOf = (c: Category, depth = 0): string[] => {
    const known = paths.get(c.id);
    if (known) return known;
    const parent = c.parent !== null && depth < 50 ? byId.get(c.parent) : undefined;
    const name = textOf(c.name, main, main) || firstText(c.name);
    const path = parent ? [...pathOf(parent, depth + 1), name] : [name];
    paths.set(c.id, path);
    return path;
  };
  for (const c of categories) pathOf(c);
  return paths;
}

function firstText(value: Localized): string {
  return typeof value === 'string' ? value : (Object.values(value).find((t) => t) ?? '');
}

/** The name a location is known by in a `stock:<location>` header: its id or any of its names. */
function locationKeys(location: Location): string[] {
  const names = typeof location.name === 'string' ? [location.name] : Object.values(location.name);
  return [location.id, ...names.filter((n): n is string => Boolean(n))].map((k) => k.trim().toLowerCase());
}

export function indexSnapshot(snapshot: StoreSnapshot): Indexes {
  const main = snapshot.store.main_language;
  const byHandle = new Map<string, Product>();
  const bySku = new Map<string, { product: Product; variant: Variant }[]>();
  for (const product of snapshot.products) {
    const handles = typeof product.handle === 'string' ? [product.handle] : Object.values(product.handle ?? {});
    for (const h of handles) if (h) byHandle.set(h, product);
    for (const variant of product.variants) {
      if (!variant.sku) continue;
      const list = bySku.get(variant.sku) ?? [];
      list.push({ product, variant });
      bySku.set(variant.sku, list);
    }
  }
  const categoryByPath = new Map<string, number>();
  for (const [id, path] of categoryPaths(snapshot.categories, main)) {
    if (!categoryByPath.has(pathKey(path))) categoryByPath.set(pathKey(path), id);
  }
  const locationByKey = new Map<string, Location>();
  for (const location of snapshot.locations) for (const key of locationKeys(location)) locationByKey.set(key, location);
  const customByName = new Map(snapshot.customFields.map((f) => [f.name.trim().toLowerCase(), f]));
  return {
    main,
    multilingual: snapshot.store.languages.length > 1,
    languages: snapshot.store.languages,
    byHandle,
    bySku,
    categoryByPath,
    locationByKey,
    defaultLocation: snapshot.locations.find((l) => l.is_default) ?? snapshot.locations[0],
    customByName,
  };
}

/** Column-level checks against the store: languages, locations and custom fields the file names must exist. */
function checkColumns(catalog: Catalog, ix: Indexes): string[] {
  const fatal: string[] = [];
  for (const location of catalog.locationColumns) {
    if (!ix.locationByKey.has(location.trim().toLowerCase())) {
      fatal.push(`${catalog.file}: column "stock:${location}" names no location of the store (use a location's name or id; see \`store locations list\`).`);
    }
  }
  for (const name of catalog.customColumns) {
    if (!ix.customByName.has(name.trim().toLowerCase())) {
      fatal.push(`${catalog.file}: column "custom:${name}" names no custom field of the store (create it with \`store variants custom-fields create\`).`);
    }
  }
  const langs = new Set<string>();
  for (const p of catalog.products) for (const lang of [...Object.keys(p.name), ...Object.keys(p.description)]) if (lang) langs.add(lang);
  for (const lang of langs) {
    if (!ix.languages.includes(lang)) {
      fatal.push(`${catalog.file}: columns ":${lang}" name a language the store does not use (its languages are ${ix.languages.join(', ')}).`);
    }
  }
  return fatal;
}

export function planImport(catalog: Catalog, snapshot: StoreSnapshot, options: PlanOptions = {}): Plan {
  const mode = options.mode ?? 'upsert';
  const ix = indexSnapshot(snapshot);
  const fatal = checkColumns(catalog, ix);
  const plan: Plan = { categories: [], products: [], fatal, writes: 0, locations: snapshot.locations };
  if (fatal.length > 0) return plan;

  const newCategories = new Map<string, CategoryCreate>();
  const resolveCategories = (spec: ProductSpec): CategoryRef[] | undefined => {
    if (!spec.categories) return undefined;
    const refs: CategoryRef[] = [];
    for (const levels of spec.categories) {
      let parent: CategoryRef | null = null;
      for (let depth = 0; depth < levels.length; depth++) {
        const key = pathKey(levels.slice(0, depth + 1));
        const existing = ix.categoryByPath.get(key);
        if (existing !== undefined) {
          parent = existing;
          continue;
        }
        if (!newCategories.has(key)) {
          newCategories.set(key, { ref: key, name: levels[depth]!, parent, depth, line: spec.line });
        }
        parent = key;
      }
      if (parent !== null && !refs.includes(parent)) refs.push(parent);
    }
    return refs;
  };

  for (const spec of catalog.products) {
    const existing = ix.byHandle.get(spec.key);
    const product = existing
      ? planUpdate(spec, existing, ix, mode, resolveCategories)
      : planCreate(spec, ix, mode, resolveCategories);
    plan.products.push(product);
  }

  // Only categories some product still needs (a failed product's categories are not created).
  const needed = new Set<string>();
  for (const p of plan.products) {
    for (const step of p.steps) {
      if (step.kind !== 'createProduct' && step.kind !== 'updateProduct') continue;
      for (const ref of step.categories ?? []) {
        let key: CategoryRef | null = ref;
        while (typeof key === 'string' && !needed.has(key)) {
          needed.add(key);
          key = newCategories.get(key)!.parent;
        }
      }
    }
  }
  plan.categories = [...newCategories.values()].filter((c) => needed.has(c.ref)).sort((a, b) => a.depth - b.depth);
  plan.writes = planRequests(plan);
  return plan;
}

/** The write requests a plan sends: categories, each product's steps, and the variant updates' batches. */
export function planRequests(plan: Pick<Plan, 'categories' | 'products'>): number {
  const updates = plan.products.flatMap((p) => (p.productId === undefined ? [] : p.variantUpdates.map((u) => variantWriteOf(p.productId!, u))));
  return plan.categories.length + plan.products.reduce((n, p) => n + p.steps.length, 0) + minimumRequests(updates);
}

/** A variant update as the batch writer takes it. */
export function variantWriteOf(productId: number, u: VariantUpdate): VariantWrite {
  return { productId, variantId: u.variantId, line: u.line, key: u.sku, body: u.body };
}

/** The diff of `variantDiff` field by field, with the store's values (an import's and a sync's dry run show it). */
export function fieldChanges(body: VariantInput, current: Variant, ix: Indexes): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, to] of Object.entries(body)) {
    if (field === 'inventory_levels') {
      for (const level of body.inventory_levels ?? []) changes.push({ field: `stock:${level.location_id}`, from: levelOf(current, level.location_id) ?? null, to: level.stock });
    } else if (field === 'stock') {
      changes.push({ field, from: stockAtDefault(current, ix) ?? null, to: body.stock! });
    } else {
      const from = (current as Record<string, unknown>)[field];
      changes.push({ field, from: typeof from === 'string' || typeof from === 'number' ? from : null, to: (to as string | number | null) ?? null });
    }
  }
  return changes;
}

function localizedBody(values: Record<string, string>, ix: Indexes): Localized {
  const resolved: Record<string, string> = {};
  for (const [lang, text] of Object.entries(values)) resolved[lang || ix.main] = text;
  const langs = Object.keys(resolved);
  if (langs.length === 1 && langs[0] === ix.main && !ix.multilingual) return resolved[ix.main]!;
  return resolved;
}

function localizedDiffers(given: Record<string, string>, stored: Localized | null | undefined, ix: Indexes): boolean {
  return Object.entries(given).some(([lang, text]) => textOf(stored, lang || ix.main, ix.main) !== text);
}

/** The variant fields a row sets, as request fields (stock handled apart). */
function variantFields(v: VariantSpec): VariantFields {
  const body: VariantFields = {};
  for (const f of DECIMAL_FIELDS) if (v.decimals[f] !== undefined) body[f] = v.decimals[f];
  for (const f of TEXT_FIELDS) if (v.texts[f] !== undefined) body[f] = v.texts[f];
  return body;
}

function stockBody(v: VariantSpec, ix: Indexes, current?: Variant): StockFields {
  const levels = new Map<string, number>();
  for (const [key, stock] of Object.entries(v.stockAt)) levels.set(ix.locationByKey.get(key.trim().toLowerCase())!.id, stock);
  const body: StockFields = {};
  if (levels.size === 0) {
    if (v.stock === undefined) return body;
    if (!current || stockAtDefault(current, ix) !== v.stock) body.stock = v.stock;
    return body;
  }
  if (v.stock !== undefined) {
    if (ix.defaultLocation) levels.set(ix.defaultLocation.id, v.stock);
    else body.stock = v.stock;
  }
  const changed = [...levels].filter(([id, stock]) => !current || levelOf(current, id) !== stock);
  if (changed.length > 0) body.inventory_levels = changed.map(([location_id, stock]) => ({ location_id, stock }));
  return body;
}

/**
 * The stock at one location, or undefined when unknown: stock not managed, or `inventory_levels` absent (the
 * store did not say how the stock is split, docs/platform.md §3; never read as zero). A location missing from
 * reported levels holds nothing.
 */
function levelOf(variant: Variant, locationId: string): number | undefined {
  if (variant.stock === null || variant.stock === undefined || !variant.inventory_levels) return undefined;
  return variant.inventory_levels.find((l) => l.location_id === locationId)?.stock ?? 0;
}

function stockAtDefault(variant: Variant, ix: Indexes): number | undefined {
  if (variant.stock === null || variant.stock === undefined) return undefined;
  if (!ix.defaultLocation || !variant.inventory_levels) return variant.stock;
  return levelOf(variant, ix.defaultLocation.id);
}

function customValues(v: VariantSpec, ix: Indexes, current?: Variant): { id: string; value: string }[] {
  const out: { id: string; value: string }[] = [];
  for (const [name, value] of Object.entries(v.custom)) {
    const field = ix.customByName.get(name.trim().toLowerCase())!;
    const stored = current?.custom_fields?.find((c) => String(c.id) === field.id)?.value;
    if (stored === undefined || stored === null || String(stored) !== value) out.push({ id: field.id, value });
  }
  return out;
}

/** The request fields that make `current` match the row: only the fields the row gives and that differ. */
export function variantDiff(v: VariantSpec, current: Variant, ix: Indexes): VariantInput {
  const body: VariantInput = {};
  for (const f of DECIMAL_FIELDS) {
    const given = v.decimals[f];
    if (given === undefined) continue;
    const stored = current[f];
    if (stored === null || stored === undefined || stored === '' || Number(stored) !== Number(given)) body[f] = given;
  }
  for (const f of TEXT_FIELDS) {
    const given = v.texts[f];
    if (given !== undefined && (current[f] ?? '') !== given) body[f] = given;
  }
  Object.assign(body, stockBody(v, ix, current));
  return body;
}

/** Why a SKU the store holds on several variants cannot be matched (import and sync alike). */
export function ambiguousSku(sku: string, holders: { product: { id: number } }[]): string {
  const ids = [...new Set(holders.map((h) => h.product.id))];
  return `SKU ${sku} is held by ${holders.length} variants in the store (${ids.length === 1 ? 'product' : 'products'} ${ids.join(', ')}); the store is ambiguous`;
}

/** A SKU of the file that the store holds on another product, or more than once. */
function skuConflict(sku: string, productId: number | undefined, ix: Indexes): string | undefined {
  const holders = ix.bySku.get(sku) ?? [];
  if (holders.length > 1) return ambiguousSku(sku, holders);
  const holder = holders[0];
  if (holder && holder.product.id !== productId) {
    return `SKU ${sku} belongs to product ${holder.product.id} (${textOf(holder.product.handle, ix.main, ix.main) || 'no handle'})`;
  }
  return undefined;
}

function planCreate(
  spec: ProductSpec,
  ix: Indexes,
  mode: Mode,
  resolveCategories: (spec: ProductSpec) => CategoryRef[] | undefined,
): ProductPlan {
  const base = { key: spec.key, line: spec.line, lines: spec.lines, steps: [] as Step[], variantUpdates: [] as VariantUpdate[], rowFailures: [] as RowFailure[] };
  if (mode === 'update') return { ...base, action: 'fail', reason: `product ${spec.key} does not exist in the store (--mode update)` };
  for (const v of spec.variants) {
    const conflict = v.sku ? skuConflict(v.sku, undefined, ix) : undefined;
    if (conflict) return { ...base, action: 'fail', reason: conflict };
  }
  if (!spec.optionsGiven && spec.variants.length > 1) {
    return { ...base, action: 'fail', reason: `product ${spec.key} does not exist and the file has no option columns to create its ${spec.variants.length} variants with` };
  }
  if (!Object.values(spec.name).some(Boolean)) {
    return { ...base, action: 'fail', reason: `product ${spec.key} does not exist and its rows give no name to create it with` };
  }
  const body: ProductBody = { name: localizedBody(spec.name, ix), handle: spec.key };
  if (Object.keys(spec.description).length > 0) body.description = localizedBody(spec.description, ix);
  const categories = resolveCategories(spec);
  const steps: Step[] = [];
  // One POST carries the product, all its variants and its first images (docs/platform.md §8).
  if (spec.images.length > 0) body.images = spec.images.slice(0, IMAGES_IN_CREATE).map((src) => ({ src }));
  const withoutVariations = spec.optionNames.length === 0;
  if (withoutVariations) {
    const v = spec.variants[0]!;
    Object.assign(body, skuField(v), variantFields(v), stockBody(v, ix));
    steps.push({ kind: 'createProduct', body, categories });
  } else {
    body.attributes = spec.optionNames.map((name) => ({ [ix.main]: name }));
    body.variants = spec.variants.map((v) => ({ values: v.values.map((value) => ({ [ix.main]: value })), ...skuField(v), ...variantFields(v), ...stockBody(v, ix) }));
    const variants = variantCreates(spec, spec.variants, ix).flatMap((step) =>
      step.kind === 'createVariant' ? [{ sku: step.sku, line: step.line, options: step.options, fallback: step.body }] : [],
    );
    steps.push({ kind: 'createProduct', body, categories, variants });
  }
  // Custom field values go on once the variants exist (they need the variant's id).
  for (const v of withoutVariations ? spec.variants.slice(0, 1) : spec.variants) {
    const custom = customValues(v, ix);
    if (custom.length > 0) steps.push({ kind: 'setCustomFields', sku: v.sku, line: v.line, options: v.values, values: custom });
  }
  for (const src of spec.images.slice(IMAGES_IN_CREATE)) steps.push({ kind: 'addImage', src });
  return { ...base, action: 'create', steps };
}

function variantCreates(spec: ProductSpec, variants: VariantSpec[], ix: Indexes): Step[] {
  const steps: Step[] = [];
  for (const v of variants) {
    const attributes = spec.optionNames.map((name, i) => ({ name, value: v.values[i]! }));
    const body: VariantInput = { ...skuField(v), attributes, ...variantFields(v), ...stockBody(v, ix) };
    steps.push({ kind: 'createVariant', sku: v.sku, line: v.line, body, options: v.values });
  }
  // Custom field values go on once every variant exists (they need the variant's id).
  for (const v of variants) {
    const custom = customValues(v, ix);
    if (custom.length > 0) steps.push({ kind: 'setCustomFields', sku: v.sku, line: v.line, options: v.values, values: custom });
  }
  return steps;
}

function valuesKey(values: string[]): string {
  return values.map((v) => v.trim().toLowerCase()).join('\u0000');
}

function planUpdate(
  spec: ProductSpec,
  product: Product,
  ix: Indexes,
  mode: Mode,
  resolveCategories: (spec: ProductSpec) => CategoryRef[] | undefined,
): ProductPlan {
  const base = {
    key: spec.key,
    line: spec.line,
    lines: spec.lines,
    productId: product.id,
    steps: [] as Step[],
    variantUpdates: [] as VariantUpdate[],
    rowFailures: [] as RowFailure[],
  };
  if (mode === 'create') return { ...base, action: 'skip', reason: `product ${spec.key} already exists (--mode create)` };
  const storeOptions = product.attributes.map((a) => textOf(a, ix.main, ix.main) || firstText(a));
  const mismatch = optionsMismatch(spec, product, storeOptions);
  if (mismatch) return { ...base, action: 'fail', reason: mismatch };

  const steps: Step[] = [];
  const update = productUpdate(spec, product, ix, resolveCategories);
  if (update) steps.push(update);
  const variants = planVariants(spec, product, storeOptions, ix);
  steps.push(...variants.steps);
  const srcs = new Set(product.images.map((i) => i.src));
  for (const src of spec.images) if (!srcs.has(src)) steps.push({ kind: 'addImage', src });

  const { rowFailures, updates } = variants;
  const action = steps.length > 0 || updates.length > 0 ? 'update' : rowFailures.length > 0 ? 'fail' : 'unchanged';
  return { ...base, action, steps, variantUpdates: updates, rowFailures, reason: rowFailures[0]?.reason, imagesBefore: product.images.length };
}

/** Why the file's options cannot apply to the store's product (a product's options are changed in the store). */
function optionsMismatch(spec: ProductSpec, product: Product, storeOptions: string[]): string | undefined {
  const fileHasOptions = spec.optionNames.length > 0;
  // A product created with variation whose variants were never posted (an interrupted import) has neither.
  if (spec.optionsGiven && product.variants.length > 0 && fileHasOptions !== storeOptions.length > 0) {
    const now = storeOptions.length > 0 ? `has variations (${storeOptions.join(', ')})` : 'has no variations';
    const file = fileHasOptions ? `gives it options (${spec.optionNames.join(', ')})` : 'gives it none';
    return `product ${spec.key} ${now} in the store but the file ${file}; change it in the store first (delete and import again)`;
  }
  if (storeOptions.length > 0 && fileHasOptions && spec.optionsGiven) {
    const same =
      storeOptions.length === spec.optionNames.length &&
      storeOptions.every((o, i) => o.trim().toLowerCase() === spec.optionNames[i]!.trim().toLowerCase());
    if (!same) return `product ${spec.key} has the options ${storeOptions.join(', ')} in the store but ${spec.optionNames.join(', ')} in the file`;
  }
  return undefined;
}

/** The product's own fields that differ (names, descriptions, categories), as one update; none when all are equal. */
function productUpdate(
  spec: ProductSpec,
  product: Product,
  ix: Indexes,
  resolveCategories: (spec: ProductSpec) => CategoryRef[] | undefined,
): Step | undefined {
  const body: ProductBody = {};
  if (localizedDiffers(spec.name, product.name, ix)) body.name = localizedBody(spec.name, ix);
  if (localizedDiffers(spec.description, product.description, ix)) body.description = localizedBody(spec.description, ix);
  let categories = resolveCategories(spec);
  if (categories) {
    const current = product.categories.map((c) => categoryIdOf(c));
    const same = categories.length === current.length && categories.every((c) => typeof c === 'number' && current.includes(c));
    if (same) categories = undefined;
  }
  return Object.keys(body).length > 0 || categories ? { kind: 'updateProduct', body, categories } : undefined;
}

/**
 * The file's variants against the store's: each is matched (by SKU, else by option values), then updated
 * where it differs or created; custom field values go last (a created variant needs its id first).
 */
function planVariants(
  spec: ProductSpec,
  product: Product,
  storeOptions: string[],
  ix: Indexes,
): { steps: Step[]; updates: VariantUpdate[]; rowFailures: RowFailure[] } {
  const fileHasOptions = spec.optionNames.length > 0;
  const steps: Step[] = [];
  const updates: VariantUpdate[] = [];
  const rowFailures: RowFailure[] = [];
  const toCreate: VariantSpec[] = [];
  const customSteps: Step[] = [];
  const byValues = new Map(product.variants.map((v) => [valuesKey(v.values.map((val) => textOf(val, ix.main, ix.main) || firstText(val))), v]));
  for (const v of spec.variants) {
    const conflict = v.sku ? skuConflict(v.sku, product.id, ix) : undefined;
    if (conflict) {
      rowFailures.push({ line: v.line, key: v.sku, reason: conflict });
      continue;
    }
    // A row without SKU is matched by its option values (or as the one variant of a product without them).
    let current = v.sku ? product.variants.find((pv) => pv.sku === v.sku) : undefined;
    let sku: string | undefined;
    if (!current) {
      // The same option values (or the one variant of a product without variations) under another SKU.
      if (fileHasOptions) current = byValues.get(valuesKey(v.values));
      else if (storeOptions.length === 0 && spec.variants.length === 1) current = product.variants[0];
      if (current && current.sku && spec.variants.some((other) => other.sku === current!.sku)) current = undefined;
      if (current && v.sku) sku = v.sku;
    }
    if (!current && !spec.optionsGiven && storeOptions.length > 0) {
      const what = v.sku ? `SKU ${v.sku} is not a variant of product ${spec.key}` : `the row without SKU matches no variant of product ${spec.key}`;
      rowFailures.push({ line: v.line, key: variantLabel(spec.key, v), reason: `${what}, and without option columns it cannot be created` });
      continue;
    }
    if (!current) {
      toCreate.push(v);
      continue;
    }
    const diff = variantDiff(v, current, ix);
    if (sku !== undefined) diff.sku = sku;
    if (Object.keys(diff).length > 0) updates.push({ sku: v.sku, line: v.line, variantId: current.id, body: diff, changes: fieldChanges(diff, current, ix) });
    const custom = customValues(v, ix, current);
    if (custom.length > 0) customSteps.push({ kind: 'setCustomFields', sku: v.sku, line: v.line, variantId: current.id, options: v.values, values: custom });
  }
  if (toCreate.length > 0 && !fileHasOptions && product.variants.length === 0) {
    // A product without variation that lost its variant: the product update recreates it.
    const v = toCreate[0]!;
    steps.push({ kind: 'updateProduct', body: { ...skuField(v), ...variantFields(v), ...stockBody(v, ix) } });
    const custom = customValues(v, ix);
    if (custom.length > 0) customSteps.push({ kind: 'setCustomFields', sku: v.sku, line: v.line, options: v.values, values: custom });
  } else if (toCreate.length > 0) {
    steps.push(...variantCreates(spec, toCreate, ix));
  }
  steps.push(...customSteps);
  return { steps, updates, rowFailures };
}
