import { NotFoundError } from '../../client/errors.js';
import { UsageError } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import {
  createCustomField,
  CUSTOM_FIELD_TYPES,
  type CustomField,
  type CustomFieldInput,
  type CustomFieldType,
  deleteCustomField,
  listCustomFields,
  setVariantCustomFields,
  unsetVariantCustomField,
  updateCustomField,
} from '../../api/custom-fields.js';
import { listLocations } from '../../api/locations.js';
import { findProductBySku, listProducts, type Product } from '../../api/products.js';
import { MAX_PER_PAGE } from '../../platform/pagination.js';
import { MAX_OPTIONS } from '../../platform/catalog.js';
import {
  createVariant,
  deleteVariant,
  getVariant,
  listVariants,
  updateVariant,
  type Variant,
  type VariantInput,
  VARIANT_AGE_GROUPS,
  VARIANT_GENDERS,
} from '../../api/variants.js';
import { localText, parseDecimal, parseMoney, parseFieldAssignment, parseOptions, parseStock, parseStockAt } from './catalog-input.js';
import { stockInput } from './locations.js';
import { calendarDay, notOneOf, parseIntegerId } from '../common/validate.js';
import { created, deleted, fieldUpdates, recordCreate } from '../../ledger/changes.js';
import type { Recorder } from '../../ledger/recorder.js';
import { variantChanges, variantSubject } from './variant-changes.js';
import { findProduct, productIdFor } from './product-ref.js';

/** The money, SKU, stock and weight flags products and variants share, as raw flag values. */
export interface PriceStockFields {
  price?: string;
  /** "none" removes the promotional price (variants). */
  promotionalPrice?: string;
  cost?: string;
  sku?: string;
  stock?: string;
  stockAt?: string[];
  weight?: string;
}

/** Variant fields as the commands take them: raw flag values, checked here before anything is sent. */
export interface VariantFields extends PriceStockFields {
  options?: string[];
  stockManagement?: boolean;
  width?: string;
  height?: string;
  depth?: string;
  mpn?: string;
  barcode?: string;
  /** An image id of the product, or "none". */
  imageId?: string;
  ageGroup?: string;
  gender?: string;
}

/** A variant's stock in each location, with the location's name. */
export interface StockLevel {
  location_id: string;
  location: string;
  stock: number | null;
}

/**
 * How a command names one variant: `SKU` alone, or `PRODUCT_ID VARIANT_ID` (`variants get|update|delete`).
 * Checked before any request; ids must be whole numbers, a SKU any non-blank text.
 */
/** A variant named by its SKU alone, or by its product (id, handle or SKU: product-ref.ts) and its id. */
export type VariantTarget = { sku: string } | { product: string; variantId: number };

export function variantTarget(first: string, second: string | undefined): VariantTarget {
  if (second === undefined) {
    if (first.trim() === '') throw new UsageError('Give a variant\'s SKU, or its product and variant id.');
    return { sku: first };
  }
  if (first.trim() === '') throw new UsageError('Give the product as its id, handle or SKU, then VARIANT_ID.');
  return { product: first, variantId: parseIntegerId(second, 'VARIANT_ID', 'variant') };
}

/** A variant found by SKU, with the product that holds it. */
export interface VariantHolder {
  product: Product;
  variant: Variant;
}

/**
 * Every variant the store holds under this SKU, as far as the API lets one find them: `GET /products/sku/{sku}`
 * gives one product (docs/platform.md §3), whose variants may repeat the SKU; the store's search (`q`, which
 * covers SKUs) finds other products holding it — its first page, 200 products, is looked at.
 */
export async function variantsWithSku(client: StoreClient, sku: string): Promise<VariantHolder[]> {
  const product = await findProductBySku(client, sku);
  if (!product) return [];
  const holders = product.variants.filter((v) => v.sku === sku).map((variant) => ({ product, variant }));
  const { products } = await listProducts(client, { query: { q: sku }, perPage: MAX_PER_PAGE });
  for (const other of products) {
    if (other.id === product.id) continue;
    for (const variant of other.variants) if (variant.sku === sku) holders.push({ product: other, variant });
  }
  return holders;
}

/** A variant as messages name it: its SKU, options, id and its product's name and handle. */
export function describeVariant(product: Product, variant: Variant): string {
  const options = variant.values.map((v) => localText(v)).filter(Boolean).join(' / ');
  const name = [localText(product.name), options].filter(Boolean).join(' — ');
  const handle = localText(product.handle);
  return `variant ${variant.id}${variant.sku ? ` (SKU ${variant.sku})` : ''} of product ${product.id} "${name}"${handle ? ` (${handle})` : ''}`;
}

/** The variant a target names, with its product, for a prompt or a message that must say what it is. */
export async function findVariantTarget(client: StoreClient, target: VariantTarget): Promise<VariantHolder> {
  if ('sku' in target) return findVariantBySkuOnly(client, target.sku);
  const product = await findProduct(client, target.product);
  const variant = product.variants.find((v) => v.id === target.variantId) ?? (await getVariant(client, product.id, target.variantId));
  return { product, variant };
}

/** The one variant with this SKU; a SKU held by none is not found (exit 1), one held by several a usage error naming them. */
export async function findVariantBySkuOnly(client: StoreClient, sku: string): Promise<VariantHolder> {
  const holders = await variantsWithSku(client, sku);
  if (holders.length === 0) throw new NotFoundError(`No variant has SKU ${sku}.`);
  if (holders.length > 1) {
    const named = holders.map((h) => describeVariant(h.product, h.variant)).join(' and ');
    throw new UsageError(`SKU ${sku} is held by ${holders.length} variants: ${named}; name the one you mean by PRODUCT VARIANT_ID.`);
  }
  return holders[0]!;
}

/** The product and variant ids a target names: a SKU is looked up (and must name exactly one variant). */
export async function resolveVariantTarget(
  client: StoreClient,
  target: VariantTarget,
): Promise<{ productId: number; variantId: number; holder?: VariantHolder }> {
  // A product id costs no request; a handle or SKU one lookup.
  if (!('sku' in target)) return { productId: await productIdFor(client, target.product), variantId: target.variantId };
  const holder = await findVariantBySkuOnly(client, target.sku);
  return { productId: holder.product.id, variantId: holder.variant.id, holder };
}

export async function listVariantsOf(client: StoreClient, productId: number): Promise<Variant[]> {
  return listVariants(client, productId);
}

export async function getVariantDetail(
  client: StoreClient,
  productId: number,
  variantId: number,
): Promise<{ variant: Variant; levels: StockLevel[]; customFields: VariantFieldValue[] }> {
  const variant = await getVariant(client, productId, variantId);
  const [locations, fields] = await Promise.all([
    variant.inventory_levels?.length ? listLocations(client) : Promise.resolve([]),
    variant.custom_fields?.length ? listCustomFields(client) : Promise.resolve([]),
  ]);
  const levels = (variant.inventory_levels ?? []).map((level) => {
    const location = locations.find((l) => l.id === level.location_id);
    return { location_id: level.location_id, location: location ? localText(location.name) : level.location_id, stock: level.stock };
  });
  return { variant, levels, customFields: namedValues(variant, fields) };
}

export async function createVariantFrom(client: StoreClient, recorder: Recorder, productId: number, fields: VariantFields): Promise<Variant> {
  const input = await variantInput(client, fields);
  const options = parseOptions(fields.options ?? []);
  if (options.length > MAX_OPTIONS) {
    throw new UsageError(`A variant has at most ${MAX_OPTIONS} options; --option is given ${options.length} times.`);
  }
  if (options.length > 0) input.attributes = options;
  return recordCreate(recorder, created({ resource: 'variant', parent: productId, key: input.sku ?? null }, input), (write) =>
    createVariant(client, productId, input, write),
  );
}

/** A variant's stock at one location before and after a change. */
export interface LevelChange {
  location_id: string;
  location: string;
  before: number | null;
  after: number | null;
}

/** What `variants update` changed: the variant before and after, and its stock per location. */
export interface VariantUpdate {
  before: Variant;
  after: Variant;
  /** Every location either side reports, in the store's location order; empty when stock was not touched. */
  levels: LevelChange[];
}

/**
 * `variants update`: the variant named by SKU or ids, read before the change (one GET, or none when the SKU
 * lookup already brought it) so that what changed can be said old → new, per location for stock.
 */
export async function updateVariantTarget(client: StoreClient, recorder: Recorder, target: VariantTarget, fields: VariantFields): Promise<VariantUpdate> {
  const input = await variantInput(client, fields);
  if (Object.keys(input).length === 0) throw new UsageError('Nothing to update: give at least one field flag (see --help).');
  const { productId, variantId, holder } = await resolveVariantTarget(client, target);
  const before = holder?.variant ?? (await getVariant(client, productId, variantId));
  const write = recorder.intend(variantChanges(variantSubject(productId, variantId, before.sku), input, before));
  const after = await updateVariant(client, productId, variantId, input, write);
  const touchesStock = input.stock !== undefined || input.inventory_levels !== undefined;
  return { before, after, levels: touchesStock ? await levelChanges(client, before, after) : [] };
}

/** A variant's stock per location before and after a change, in the store's location order (one GET of the locations). */
export async function levelChanges(client: StoreClient, before: Variant, after: Variant): Promise<LevelChange[]> {
  if (!before.inventory_levels && !after.inventory_levels) return [];
  const locations = await listLocations(client);
  const at = (v: Variant, id: string) => (v.inventory_levels ? (v.inventory_levels.find((l) => l.location_id === id)?.stock ?? 0) : null);
  const ids = new Set([...(before.inventory_levels ?? []), ...(after.inventory_levels ?? [])].map((l) => l.location_id));
  const ordered = [...locations.filter((l) => ids.has(l.id)).map((l) => l.id), ...[...ids].filter((id) => !locations.some((l) => l.id === id))];
  return ordered.map((id) => {
    const location = locations.find((l) => l.id === id);
    return { location_id: id, location: location ? localText(location.name) : id, before: at(before, id), after: at(after, id) };
  });
}

/** Deletes the variant read before (`findVariantTarget`): the ledger keeps it whole, for undo to recreate it. */
export async function deleteFoundVariant(client: StoreClient, recorder: Recorder, { product, variant }: VariantHolder): Promise<void> {
  const write = recorder.intend([deleted(variantSubject(product.id, variant.id, variant.sku), variant)]);
  await deleteVariant(client, product.id, variant.id, write);
}

async function variantInput(client: StoreClient, fields: VariantFields): Promise<VariantInput> {
  // Every value is checked before the first request, so a typo never leaves a half-made change.
  const stock = fields.stock === undefined ? undefined : parseStock('--stock', fields.stock);
  const stockAt = (fields.stockAt ?? []).map(parseStockAt);
  const input: VariantInput = {};
  if (fields.price !== undefined) input.price = parseMoney('--price', fields.price);
  if (fields.promotionalPrice !== undefined) {
    input.promotional_price =
      fields.promotionalPrice.trim().toLowerCase() === 'none' ? null : parseMoney('--promotional-price', fields.promotionalPrice);
  }
  if (fields.cost !== undefined) input.cost = parseMoney('--cost', fields.cost);
  if (fields.weight !== undefined) input.weight = parseDecimal('--weight', fields.weight);
  if (fields.width !== undefined) input.width = parseDecimal('--width', fields.width);
  if (fields.height !== undefined) input.height = parseDecimal('--height', fields.height);
  if (fields.depth !== undefined) input.depth = parseDecimal('--depth', fields.depth);
  if (fields.sku !== undefined) input.sku = fields.sku;
  if (fields.mpn !== undefined) input.mpn = fields.mpn;
  if (fields.barcode !== undefined) input.barcode = parseBarcode(fields.barcode);
  if (fields.imageId !== undefined) {
    input.image_id = fields.imageId.trim().toLowerCase() === 'none' ? null : parseIntegerId(fields.imageId, '--image-id', 'product image');
  }
  if (fields.ageGroup !== undefined) input.age_group = oneOf('--age-group', fields.ageGroup, VARIANT_AGE_GROUPS);
  if (fields.gender !== undefined) input.gender = oneOf('--gender', fields.gender, VARIANT_GENDERS);
  if (fields.stockManagement !== undefined) input.stock_management = fields.stockManagement;
  Object.assign(input, await stockInput(client, stock, stockAt));
  return input;
}

/** A barcode as printed: letters, digits and "-" (GTINs are digits; stores also use internal codes). */
function parseBarcode(raw: string): string {
  const text = raw.trim();
  if (!/^[A-Za-z0-9-]{1,48}$/.test(text)) {
    throw new UsageError(`--barcode "${raw}" is not a barcode: use letters, digits and "-" (at most 48), e.g. 7790001234567.`);
  }
  return text;
}

/** One of a fixed list of values, case ignored. */
function oneOf<T extends string>(flag: string, raw: string, allowed: readonly T[]): T {
  const value = allowed.find((a) => a === raw.trim().toLowerCase());
  if (!value) throw notOneOf(flag, raw, allowed);
  return value;
}

// ---- custom fields ----

export async function listCustomFieldDefinitions(client: StoreClient): Promise<CustomField[]> {
  return listCustomFields(client);
}

/** A custom field named by its id or its name (case ignored). */
export function resolveCustomField(fields: CustomField[], ref: string): CustomField {
  const byId = fields.find((f) => f.id === ref || f.id.toLowerCase() === ref.toLowerCase());
  if (byId) return byId;
  const byName = fields.filter((f) => f.name.trim().toLowerCase() === ref.trim().toLowerCase());
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) {
    throw new UsageError(`Several custom fields are named "${ref}" (${byName.map((f) => f.id).join(', ')}); use the id.`);
  }
  throw new NotFoundError(`Custom field "${ref}" not found; \`store variants custom-fields list\` shows them.`);
}

export interface CustomFieldFields {
  name?: string;
  description?: string;
  type?: string;
  readOnly?: boolean;
  values?: string[];
}

export async function createCustomFieldFrom(client: StoreClient, recorder: Recorder, fields: CustomFieldFields): Promise<CustomField> {
  if (!fields.name?.trim()) throw new UsageError('--name is required to create a custom field.');
  const type = (fields.type ?? 'text') as CustomFieldType;
  if (!CUSTOM_FIELD_TYPES.includes(type)) {
    throw notOneOf('--type', fields.type ?? '', CUSTOM_FIELD_TYPES);
  }
  if (fields.values?.length && type !== 'text_list') throw new UsageError('--value lists allowed values and needs --type text_list.');
  if (!fields.values?.length && type === 'text_list') throw new UsageError('--type text_list needs its allowed values: give --value at least once.');
  const input: CustomFieldInput = { name: fields.name, value_type: type, read_only: fields.readOnly ?? false };
  if (fields.description !== undefined) input.description = fields.description;
  if (type === 'text_list') input.values = fields.values ?? [];
  return recordCreate(recorder, created({ resource: 'custom-field', key: input.name }, input), (write) => createCustomField(client, input, write));
}

/**
 * The store's update takes one allowed value at a time (`value`, for a text_list); each --add-value is
 * one request. Returns the definition as it now stands.
 */
export async function updateCustomFieldFrom(
  client: StoreClient,
  recorder: Recorder,
  ref: string,
  change: { addValues?: string[]; description?: string; readOnly?: boolean; name?: string },
): Promise<CustomField> {
  const field = resolveCustomField(await listCustomFields(client), ref);
  const addValues = change.addValues ?? [];
  if (addValues.length > 0 && field.value_type !== 'text_list') {
    throw new UsageError(`--add-value needs a text_list field; "${field.name}" is ${field.value_type}.`);
  }
  const other: { name?: string; description?: string; read_only?: boolean } = {};
  if (change.name !== undefined) other.name = change.name;
  if (change.description !== undefined) other.description = change.description;
  if (change.readOnly !== undefined) other.read_only = change.readOnly;
  if (addValues.length === 0 && Object.keys(other).length === 0) {
    throw new UsageError('Nothing to update: give --add-value, --name, --description or --read-only.');
  }
  let updated: CustomField | undefined;
  const subject = { resource: 'custom-field', id: field.id, key: field.name };
  if (Object.keys(other).length > 0) updated = await updateCustomField(client, field.id, other, recorder.intend(fieldUpdates(subject, other, field)));
  for (const value of addValues) {
    // An allowed value added to the list: undo removes it again.
    const write = recorder.intend([{ ...subject, kind: 'create', field: 'values', after: value }]);
    updated = await updateCustomField(client, field.id, { value }, write);
  }
  return updated ?? resolveCustomField(await listCustomFields(client), field.id);
}

/** A custom field as a delete prompt names it: `"Origen" (id 3f…, text)`. */
export async function describeCustomField(client: StoreClient, ref: string): Promise<string> {
  const field = resolveCustomField(await listCustomFields(client), ref);
  return `"${field.name}" (id ${field.id}, ${field.value_type})`;
}

export async function deleteCustomFieldByRef(client: StoreClient, recorder: Recorder, ref: string): Promise<CustomField> {
  const field = resolveCustomField(await listCustomFields(client), ref);
  const write = recorder.intend([
    {
      ...deleted({ resource: 'custom-field', id: field.id, key: field.name }, field),
      irreversible: 'deleting a custom field deletes its value on every variant; recreating it brings back the definition, not the values',
    },
  ]);
  await deleteCustomField(client, field.id, write);
  return field;
}

export interface VariantFieldValue {
  id: string;
  name: string;
  value: unknown;
}

/** Checks values against each field's type before sending, so the error names the field and the rule. */
export function checkFieldValue(field: CustomField, value: string): string {
  switch (field.value_type) {
    case 'numeric':
      if (!/^-?\d+(?:[.,]\d+)?$/.test(value.trim())) throw new UsageError(`${field.name} is numeric; "${value}" is not a number.`);
      return value.trim().replace(',', '.');
    case 'date':
      if (!calendarDay(value.trim())) {
        throw new UsageError(`${field.name} is a date; "${value}" is not a date like 2026-11-22.`);
      }
      return value.trim();
    case 'text_list':
      if (!(field.values ?? []).includes(value)) {
        throw new UsageError(
          `${field.name} allows only ${(field.values ?? []).map((v) => `"${v}"`).join(', ') || 'no values yet'}; "${value}" is not one of them (add it with \`store variants custom-fields update ${field.id} --add-value\`).`,
        );
      }
      return value;
    default:
      return value;
  }
}

/**
 * Sets custom field values of one variant. The variant is read first (one GET) so the ledger keeps the values
 * it replaces; it is read again after, to show what the store now holds.
 */
export async function setVariantFieldValues(
  client: StoreClient,
  recorder: Recorder,
  productId: number,
  variantId: number,
  assignments: string[],
): Promise<VariantFieldValue[]> {
  const parsed = assignments.map(parseFieldAssignment);
  const fields = await listCustomFields(client);
  const values = parsed.map(({ field: ref, value }) => {
    const field = resolveCustomField(fields, ref);
    if (field.read_only) throw new UsageError(`Custom field "${field.name}" is read-only.`);
    return { id: field.id, value: checkFieldValue(field, value) };
  });
  const before = await getVariant(client, productId, variantId);
  const write = recorder.intend(values.map((v) => fieldValueChange(before, v.id, v.value)));
  await setVariantCustomFields(client, productId, variantId, values, write);
  return variantFieldValues(client, productId, variantId, fields);
}

/** Removes custom field values of one variant; read first (one GET) as `setVariantFieldValues`. */
export async function unsetVariantFieldValues(
  client: StoreClient,
  recorder: Recorder,
  productId: number,
  variantId: number,
  refs: string[],
): Promise<VariantFieldValue[]> {
  const fields = await listCustomFields(client);
  const ids = [...new Set(refs.map((ref) => resolveCustomField(fields, ref).id))];
  const before = await getVariant(client, productId, variantId);
  for (const id of ids) await unsetVariantCustomField(client, productId, variantId, id, recorder.intend([fieldValueChange(before, id, null)]));
  return variantFieldValues(client, productId, variantId, fields);
}

/** A custom field value of a variant, as a change: `custom_fields.<id>`, before as the variant held it (null: none). */
function fieldValueChange(before: Variant, fieldId: string, value: string | null) {
  const was = before.custom_fields?.find((cf) => String(cf.id) === fieldId)?.value ?? null;
  return { ...variantSubject(before.product_id, before.id, before.sku), kind: 'update' as const, field: `custom_fields.${fieldId}`, before: was, after: value };
}

async function variantFieldValues(
  client: StoreClient,
  productId: number,
  variantId: number,
  fields: CustomField[],
): Promise<VariantFieldValue[]> {
  return namedValues(await getVariant(client, productId, variantId), fields);
}

function namedValues(variant: Variant, fields: CustomField[]): VariantFieldValue[] {
  return (variant.custom_fields ?? []).map((cf) => ({
    id: String(cf.id),
    name: fields.find((f) => f.id === String(cf.id))?.name ?? String(cf.id),
    value: cf.value,
  }));
}
