import { z } from 'zod';
import type { StoreClient, WriteRecord } from '../client/index.js';
import { Bool, parseRecords, readAll, StringId, Text } from './read.js';
import { parseReply } from './reply.js';
import type { CustomFieldType } from '../platform/custom-fields.js';

export { CUSTOM_FIELD_TYPES, type CustomFieldType } from '../platform/custom-fields.js';

/**
 * A variant custom field definition (ids are UUIDs; docs/platform.md §7: `owner_resource` is `product_variant`,
 * `value_type` one of text, numeric, date, text_list). Null is read as absent; allowed values of any type
 * are read as their text.
 */
export const CustomFieldSchema = z.looseObject({
  id: StringId,
  name: Text.transform((v) => v ?? ''),
  description: Text,
  value_type: Text.transform((v) => v ?? 'text'),
  owner_resource: Text,
  read_only: Bool,
  // Allowed values of a text_list, as text; an entry that is not a value (null, an object) is dropped.
  values: z
    .array(z.unknown())
    .nullish()
    .catch(undefined)
    .transform((list) =>
      list
        ?.filter((v): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
        .map(String),
    ),
});
export type CustomField = z.infer<typeof CustomFieldSchema>;

export interface CustomFieldInput {
  name?: string;
  description?: string;
  value_type?: CustomFieldType;
  read_only?: boolean;
  values?: string[];
}

/** An update of a definition; `value` adds one allowed value to a `text_list`. */
export interface CustomFieldUpdate {
  name?: string;
  description?: string;
  read_only?: boolean;
  value?: string;
}

/** A custom field's value on one variant. */
export const CustomFieldValueSchema = z.looseObject({
  id: StringId,
  value: z.unknown(),
});
export type CustomFieldValue = z.infer<typeof CustomFieldValueSchema>;

const BASE = '/products/variants/custom-fields';

export async function listCustomFields(client: StoreClient): Promise<CustomField[]> {
  return readAll(client, BASE, CustomFieldSchema, 'custom field');
}

export async function getCustomField(client: StoreClient, id: string): Promise<CustomField> {
  const res = await client.request({ method: 'GET', path: `${BASE}/${encodeURIComponent(id)}` });
  return parseReply(CustomFieldSchema, res.body, 'custom field record');
}

export async function createCustomField(client: StoreClient, input: CustomFieldInput, record: WriteRecord): Promise<CustomField> {
  const res = await client.request({ method: 'POST', path: BASE, body: input, record });
  return parseReply(CustomFieldSchema, res.body, 'custom field record');
}

/** Some stores answer an update without a body; the caller then re-reads the list. */
export async function updateCustomField(
  client: StoreClient,
  id: string,
  input: CustomFieldUpdate,
  record: WriteRecord,
): Promise<CustomField | undefined> {
  const res = await client.request({ method: 'PUT', path: `${BASE}/${encodeURIComponent(id)}`, body: input, record });
  if (res.body === undefined || res.body === null || res.body === '') return undefined;
  return parseReply(CustomFieldSchema, res.body, 'custom field record');
}

/** Deletes the definition and every variant's value of it. */
export async function deleteCustomField(client: StoreClient, id: string, record: WriteRecord): Promise<void> {
  await client.request({ method: 'DELETE', path: `${BASE}/${encodeURIComponent(id)}`, record });
}

/** The custom field values of one variant. */
export async function listVariantCustomFields(client: StoreClient, productId: number, variantId: number): Promise<CustomFieldValue[]> {
  const res = await client.page<unknown>(`/products/${productId}/variants/${variantId}/custom-fields`);
  return parseRecords(CustomFieldValueSchema, res.items, 'custom field value', (m) => client.warn(m));
}

/** Sets the given fields on one variant; fields not named keep their values. */
export async function setVariantCustomFields(
  client: StoreClient,
  productId: number,
  variantId: number,
  values: { id: string; value: string }[],
  record: WriteRecord,
): Promise<CustomFieldValue[] | undefined> {
  const res = await client.request({
    method: 'PUT',
    path: `/products/${productId}/variants/${variantId}/custom-fields`,
    body: values,
    record,
  });
  if (!Array.isArray(res.body)) return undefined;
  return parseReply(z.array(CustomFieldValueSchema), res.body, 'custom field values');
}

/** Removes one field's value from one variant (the definition stays). */
export async function unsetVariantCustomField(
  client: StoreClient,
  productId: number,
  variantId: number,
  fieldId: string,
  record: WriteRecord,
): Promise<void> {
  await client.request({
    method: 'DELETE',
    path: `/products/${productId}/variants/${variantId}/custom_fields/${encodeURIComponent(fieldId)}`,
    record,
  });
}
