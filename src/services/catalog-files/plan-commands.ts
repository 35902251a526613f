import type { Product } from '../../api/products.js';
import type { Variant, VariantInput } from '../../api/variants.js';
import type { ProductSpec, VariantSpec } from './catalog-model.js';
import type { RowFailure, Step } from './plan-model.js';
import { variantLabel } from './plan-model.js';
import { type Indexes, firstText, textOf } from './store-index.js';

/**
 * The `command` column against the store (commands.ts, docs/csv.md "What each row does"): which rows fail
 * because the store holds (NEW) or lacks (UPDATE) their record, which records the DELETE rows and a product's
 * REPLACE rows remove. What is left is planned as before (MERGE). Pure, like the planner.
 */

export interface RowCommandsPlan {
  /** The product's rows that are still planned the usual way (create or update). */
  spec: ProductSpec;
  rowFailures: RowFailure[];
  /** The product's DELETE row, when the store holds the product. */
  productDelete?: Step & { kind: 'deleteProduct' };
  /** Variants to remove, sent after the product's other steps (a product never goes through having none). */
  variantDeletes: (Step & { kind: 'deleteVariant' })[];
}

export function planRowCommands(spec: ProductSpec, product: Product | undefined, ix: Indexes): RowCommandsPlan {
  const rowFailures: RowFailure[] = [];
  const commanded = spec.deletes.length > 0 || spec.variants.some((v) => v.command !== undefined);
  if (!commanded) return { spec, rowFailures, variantDeletes: [] };
  // A DELETE of what the store does not hold does nothing: it is gone already, so the file can run again.
  if (!product) {
    const variants = spec.variants.filter((v) => {
      if (v.command !== 'UPDATE') return true;
      rowFailures.push({ line: v.line, key: variantLabel(spec.key, v), reason: `product ${spec.key} is not in the store; UPDATE changes only what exists (write NEW or MERGE to create it)` });
      return false;
    });
    return { spec: { ...spec, variants }, rowFailures, variantDeletes: [] };
  }
  const productDelete = spec.deletes.find((d) => d.product);
  if (productDelete) return { spec: { ...spec, variants: [] }, rowFailures, productDelete: { kind: 'deleteProduct', line: productDelete.line, record: product }, variantDeletes: [] };

  const match = variantMatcher(spec, product, ix);
  const named = new Set<number>();
  const variants = spec.variants.filter((v) => {
    const current = match(v.sku, v.values);
    if (current) named.add(current.id);
    if (v.command === 'NEW' && current) {
      rowFailures.push({ line: v.line, key: variantLabel(spec.key, v), reason: `${what(spec, v)} is already in the store (variant ${current.id}); NEW only creates (write UPDATE or MERGE to change it)` });
      return false;
    }
    if (v.command === 'UPDATE' && !current) {
      rowFailures.push({ line: v.line, key: variantLabel(spec.key, v), reason: `${what(spec, v)} is not in the store; UPDATE changes only what exists (write NEW or MERGE to create it)` });
      return false;
    }
    return true;
  });
  const variantDeletes: RowCommandsPlan['variantDeletes'] = [];
  const remove = (variant: Variant, line: number) => {
    if (variantDeletes.some((d) => d.variantId === variant.id)) return;
    variantDeletes.push({ kind: 'deleteVariant', line, sku: variant.sku ?? '', variantId: variant.id, record: variant });
  };
  for (const d of spec.deletes) {
    const current = match(d.sku, d.values);
    if (current) remove(current, d.line);
  }
  // Every row of the product says REPLACE: the product is what its rows say, so the variants no row names go.
  if (spec.variants.length > 0 && spec.variants.every((v) => v.command === 'REPLACE')) {
    for (const v of product.variants) if (!named.has(v.id)) remove(v, spec.line);
  }
  const kept = product.variants.length - variantDeletes.length;
  const created = variants.filter((v) => !match(v.sku, v.values)).length;
  if (variantDeletes.length > 0 && kept === 0 && created === 0) {
    for (const d of variantDeletes) {
      rowFailures.push({
        line: d.line,
        key: d.sku || spec.key,
        reason: `this would leave product ${spec.key} without variants; delete the product instead (a DELETE row without SKU and option values)`,
      });
    }
    return { spec: { ...spec, variants }, rowFailures, variantDeletes: [] };
  }
  return { spec: { ...spec, variants }, rowFailures, variantDeletes };
}

/** How a row names its record in a message. */
function what(spec: ProductSpec, v: VariantSpec): string {
  if (v.sku) return `SKU ${v.sku}`;
  return v.values.length > 0 ? `the variant ${v.values.join(' / ')} of product ${spec.key}` : `product ${spec.key}`;
}

/**
 * The store's variant a row names, as the planner matches it: by SKU, else by option values, else the one variant
 * of a product without variations.
 */
function variantMatcher(spec: ProductSpec, product: Product, ix: Indexes): (sku: string, values: string[]) => Variant | undefined {
  const key = (values: string[]) => values.map((v) => v.trim().toLowerCase()).join('\u0000');
  const byValues = new Map(product.variants.map((v) => [key(v.values.map((val) => textOf(val, ix.main, ix.main) || firstText(val))), v]));
  const withoutOptions = product.attributes.length === 0 && product.variants.length === 1;
  return (sku, values) => {
    const bySku = sku ? product.variants.find((v) => v.sku === sku) : undefined;
    if (bySku) return bySku;
    if (values.length > 0) return byValues.get(key(values));
    return withoutOptions && spec.optionNames.length === 0 ? product.variants[0] : undefined;
  };
}

/** REPLACE: the fields the row leaves blank that the store's variant holds, cleared. */
export function clearedFields(v: VariantSpec, current: Variant): VariantInput {
  const body: Record<string, null> = {};
  for (const field of v.cleared ?? []) {
    const value = current[field];
    if (value !== null && value !== undefined && value !== '') body[field] = null;
  }
  return body as VariantInput;
}
