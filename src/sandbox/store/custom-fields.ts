import { randomUUID } from 'node:crypto';
import { invalid, parseTime } from '../http.js';
import type { CustomFieldRecord, ProductRecord, VariantRecord } from '../records.js';
import type { StoreData, Tx } from '../state.js';
import type { CustomFieldType } from '../../platform/custom-fields.js';

/**
 * Variant custom fields (docs/api-rules.md §5.13): definitions, and their values on variants. Deleting a definition
 * deletes its values.
 */

/** A value as stored, or a 422 naming the field when it does not fit the definition's type. */
export function checkValue(field: CustomFieldRecord, raw: string | number, name = 'value'): string {
  const value = String(raw).trim();
  switch (field.value_type) {
    case 'numeric':
      if (!/^-?\d+(\.\d+)?$/.test(value)) throw invalid(name, `must be a number for ${field.name}`);
      break;
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || parseTime(value) === undefined) {
        throw invalid(name, `must be a date (YYYY-MM-DD) for ${field.name}`);
      }
      break;
    case 'text_list':
      if (!field.values.includes(value)) {
        throw invalid(name, `must be one of ${field.values.join(', ')} for ${field.name}`);
      }
      break;
    default:
      break;
  }
  return value;
}

export function createCustomField(
  tx: Tx,
  store: StoreData,
  input: { name: string; description?: string | null; value_type: CustomFieldType; read_only?: boolean; values?: string[] },
): CustomFieldRecord {
  return tx.put(store.customFields, {
    id: randomUUID(),
    name: input.name,
    description: input.description ?? null,
    value_type: input.value_type,
    read_only: input.read_only ?? false,
    values: input.value_type === 'text_list' ? Array.from(new Set(input.values)) : [],
    created_at: tx.now(),
    updated_at: tx.now(),
  });
}

/** Changes a definition; `values` is the whole new list of a text_list's values. */
export function updateCustomField(
  tx: Tx,
  store: StoreData,
  field: CustomFieldRecord,
  change: { name?: string; description?: string | null; read_only?: boolean; values: string[] },
): CustomFieldRecord {
  return tx.put(store.customFields, {
    ...field,
    name: change.name ?? field.name,
    description: change.description === undefined ? field.description : change.description,
    read_only: change.read_only ?? field.read_only,
    values: change.values,
    updated_at: tx.now(),
  });
}

/** Deletes a definition and its values on every variant; returns the ids of the products that held some. */
export function deleteCustomField(tx: Tx, store: StoreData, field: CustomFieldRecord): number[] {
  const touched: number[] = [];
  tx.delete(store.customFields, field.id);
  for (const product of store.products.values()) {
    if (!product.variants.some((v) => v.custom_fields.some((c) => c.id === field.id))) continue;
    for (const v of product.variants) v.custom_fields = v.custom_fields.filter((c) => c.id !== field.id);
    tx.put(store.products, product);
    touched.push(product.id);
  }
  return touched;
}

/** Sets values (checked by `checkValue`) of a variant's custom fields; the others keep theirs. */
export function setCustomFieldValues(
  tx: Tx,
  store: StoreData,
  product: ProductRecord,
  variant: VariantRecord,
  values: { id: string; value: string }[],
): void {
  for (const { id, value } of values) {
    const current = variant.custom_fields.find((c) => c.id === id);
    if (current) current.value = value;
    else variant.custom_fields.push({ id, value });
  }
  variant.updated_at = product.updated_at = tx.now();
  tx.put(store.products, product);
}

export function unsetCustomFieldValue(tx: Tx, store: StoreData, product: ProductRecord, variant: VariantRecord, fieldId: string): void {
  variant.custom_fields = variant.custom_fields.filter((c) => c.id !== fieldId);
  variant.updated_at = product.updated_at = tx.now();
  tx.put(store.products, product);
}
