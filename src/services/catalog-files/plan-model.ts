import type { Category } from '../../api/categories.js';
import type { CustomField } from '../../api/custom-fields.js';
import type { Location } from '../../api/locations.js';
import type { Product, ProductInput } from '../../api/products.js';
import type { StoreInfo } from '../../api/store.js';
import type { Variant, VariantInput } from '../../api/variants.js';
import type { ImageSpec, VariantSpec } from './catalog-model.js';
import type { DecimalField, TextField } from './dialects.js';

/** The import plan's shapes (planner.ts): the store's snapshot it reads, and the steps and writes it makes. */

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
export type VariantFields = { [F in DecimalField | TextField]?: string };

export type StockFields = Pick<VariantInput, 'stock' | 'inventory_levels'>;

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
  /** One image: a URL sent as `src`, or a local file sent as its content (docs/platform.md §12). */
  | ({ kind: 'addImage' } & ImageSpec)
  | { kind: 'setCustomFields'; sku: string; line: number; variantId?: number; options: string[]; values: { id: string; value: string }[] }
  /** A DELETE row's product (plan-commands.ts), kept whole for the ledger: undo makes it again from there. */
  | { kind: 'deleteProduct'; line: number; record: Product }
  /** A DELETE row's variant, or one a product's REPLACE rows do not name, kept whole for the ledger. */
  | { kind: 'deleteVariant'; sku: string; line: number; variantId: number; record: Variant };

/**
 * How a variant the plan creates is known until the store gives it an id: its SKU, or for a variant without
 * SKU its option values (unique within a product).
 */
export function variantKey(sku: string, options: string[]): string {
  return sku || `\u0000${options.map((o) => o.trim().toLowerCase()).join('\u0000')}`;
}

/** A variant as messages name it: its SKU, or its product and option values when it has no SKU. */
export function variantLabel(productKey: string, v: Pick<VariantSpec, 'sku' | 'values'>): string {
  return v.sku || `${productKey} (${v.values.length ? v.values.join(' / ') : 'no SKU'})`;
}

/** The SKU a row sets, as request fields: none when the row leaves it blank. */
export function skuField(v: VariantSpec): Pick<VariantInput, 'sku'> {
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
  action: 'create' | 'update' | 'delete' | 'unchanged' | 'skip' | 'fail';
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
