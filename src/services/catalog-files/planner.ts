import { type Product, categoryIdOf } from '../../api/products.js';
import type { VariantInput } from '../../api/variants.js';
import type { Catalog, ProductSpec, VariantSpec } from './catalog-model.js';
import { type VariantWrite, minimumRequests } from './variant-writes.js';
import type {
  StoreSnapshot,
  Mode,
  CategoryRef,
  CategoryCreate,
  ProductBody,
  Step,
  VariantUpdate,
  RowFailure,
  ProductPlan,
  Plan,
  PlanOptions,
} from './plan-model.js';
import { variantLabel, skuField, IMAGES_IN_CREATE } from './plan-model.js';
import { missingImages } from './image-identity.js';
import { type RowCommandsPlan, clearedFields, planRowCommands } from './plan-commands.js';
import { type Indexes, pathKey, textOf, firstText, indexSnapshot, locationColumnProblems } from './store-index.js';
import {
  fieldChanges,
  localizedBody,
  localizedDiffers,
  variantFields,
  stockBody,
  customValues,
  variantDiff,
  skuConflict,
} from './variant-diff.js';

/**
 * The import plan (docs/csv.md, "What an import does"): a pure function from the validated file and one snapshot of
 * the store to the writes that make the store match the file — creates for what is missing, updates of only
 * the fields that differ, nothing for what is equal. Nothing here does I/O, so every rule is unit-tested.
 */

/** Column-level checks against the store: languages, locations and custom fields the file names must exist. */
function checkColumns(catalog: Catalog, ix: Indexes, locations: StoreSnapshot['locations']): string[] {
  const fatal: string[] = [];
  // The `stock` column is not compared: beside `stock:` columns, an export writes there only the totals of variants whose split is unknown.
  fatal.push(...locationColumnProblems(catalog.file, catalog.locationColumns, locations));
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
  const fatal = checkColumns(catalog, ix, snapshot.locations);
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

  for (const given of catalog.products) {
    const existing = ix.byHandle.get(given.key);
    const commands = planRowCommands(given, existing, ix);
    plan.products.push(withRowCommands(commands, existing, (spec) =>
      existing ? planUpdate(spec, existing, ix, mode, resolveCategories) : planCreate(spec, ix, mode, resolveCategories),
    ));
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

/**
 * A product's plan with what its rows' commands add: the rows they fail, the deletes they make (the product's
 * own, or its variants' after its other steps). Rows left to plan are planned by `plan`.
 */
function withRowCommands(commands: RowCommandsPlan, existing: Product | undefined, plan: (spec: ProductSpec) => ProductPlan): ProductPlan {
  const { spec, rowFailures, productDelete, variantDeletes } = commands;
  const base = { key: spec.key, line: spec.line, lines: spec.lines, productId: existing?.id, variantUpdates: [] as VariantUpdate[] };
  if (productDelete) return { ...base, action: 'delete', steps: [productDelete], rowFailures };
  let product: ProductPlan;
  if (spec.variants.length > 0) product = plan(spec);
  else product = { ...base, action: 'unchanged', steps: [], rowFailures: [] };
  if (rowFailures.length === 0 && variantDeletes.length === 0) return product;
  // A product failed whole keeps its reason as a failed row beside the rows its commands failed, and loses no variant.
  const failedWhole = product.action === 'fail' && product.steps.length === 0;
  if (failedWhole && product.rowFailures.length === 0) product.rowFailures.push({ line: product.line, key: product.key, reason: product.reason ?? 'failed' });
  product.rowFailures.push(...rowFailures);
  product.rowFailures.sort((a, b) => a.line - b.line);
  if (!failedWhole) product.steps.push(...variantDeletes);
  if (product.steps.length > 0 || product.variantUpdates.length > 0) product.action = 'update';
  else if (product.rowFailures.length > 0) product.action = 'fail';
  product.reason ??= product.rowFailures[0]?.reason;
  return product;
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
  // One POST carries the product, all its variants and its first images (docs/platform.md §8): URLs only, up to the
  // first file or placed image, which go after it one by one (a file as its content, §12), so the order holds.
  const nested = spec.images.slice(0, IMAGES_IN_CREATE);
  const cut = nested.findIndex((image, i) => image.file !== undefined || (image.position !== undefined && image.position !== i + 1));
  const inCreate = cut === -1 ? nested : nested.slice(0, cut);
  if (inCreate.length > 0) body.images = inCreate.map((i) => ({ src: i.src, ...(i.alt !== undefined ? { alt: [i.alt] } : {}) }));
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
  for (const image of spec.images.slice(inCreate.length)) steps.push({ kind: 'addImage', ...image });
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
  for (const image of missingImages(spec.images, product.images)) steps.push({ kind: 'addImage', ...image });

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
    const diff = { ...variantDiff(v, current, ix), ...clearedFields(v, current) };
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
