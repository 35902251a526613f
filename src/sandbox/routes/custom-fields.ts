import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { invalid, isoTime, notFound, paginate, parseBody } from '../http.js';
import type { SandboxContext } from '../context.js';
import type { CustomFieldRecord } from '../records.js';
import type { StoreData } from '../state.js';
import { CUSTOM_FIELD_TYPES } from '../../platform/custom-fields.js';
import { getProduct } from '../store/products.js';
import { getVariant } from '../store/variants.js';
import {
  checkValue,
  createCustomField,
  deleteCustomField,
  setCustomFieldValues,
  unsetCustomFieldValue,
  updateCustomField,
} from '../store/custom-fields.js';

/** The routes of variant custom fields and their values (docs/api-rules.md §5.13; records and operations: store/custom-fields.ts). */

const definitionSchema = z.object({
  name: z.string().trim().min(1),
  description: z.string().nullable().optional(),
  value_type: z.enum(CUSTOM_FIELD_TYPES),
  read_only: z.boolean().optional(),
  values: z.array(z.string()).optional(),
});
const updateSchema = z.object({
  name: z.string().trim().min(1).optional(),
  description: z.string().nullable().optional(),
  value_type: z.enum(CUSTOM_FIELD_TYPES).optional(),
  read_only: z.boolean().optional(),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
});
const valuesSchema = z.array(z.object({ id: z.string(), value: z.union([z.string(), z.number()]) }));

function presentCustomField(f: CustomFieldRecord) {
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    // Definitions belong to variants (docs/platform.md §7).
    owner_resource: 'product_variant',
    value_type: f.value_type,
    read_only: f.read_only,
    values: f.values,
    created_at: isoTime(f.created_at),
    updated_at: isoTime(f.updated_at),
  };
}

function getField(store: StoreData, id: string): CustomFieldRecord {
  const field = store.customFields.get(id);
  if (!field) throw notFound('Custom field', id);
  return field;
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const base = '/products/variants/custom-fields';

  api.get(base, async (req, reply) => paginate(req, reply, req.store.customFields.list(), presentCustomField));

  api.get(`${base}/:id`, async (req) => presentCustomField(getField(req.store, (req.params as { id: string }).id)));

  api.post(base, async (req, reply) => {
    const store = req.store;
    const body = parseBody(definitionSchema, req.body);
    if (store.customFields.list().some((f) => f.name.toLowerCase() === body.name.toLowerCase())) {
      throw invalid('name', `a custom field named ${body.name} already exists`);
    }
    if (body.value_type === 'text_list' && (!body.values || body.values.length === 0)) {
      throw invalid('values', 'must list the allowed values of a text_list');
    }
    const field = state.mutate('custom_field.create', (tx) => createCustomField(tx, store, body));
    return reply.code(201).send(presentCustomField(field));
  });

  api.put(`${base}/:id`, async (req) => {
    const store = req.store;
    const field = getField(store, (req.params as { id: string }).id);
    const body = parseBody(updateSchema, req.body);
    if (body.value_type !== undefined && body.value_type !== field.value_type) {
      throw invalid('value_type', 'cannot change once the field exists');
    }
    if ((body.value !== undefined || body.values !== undefined) && field.value_type !== 'text_list') {
      throw invalid(body.value !== undefined ? 'value' : 'values', 'only a text_list has a list of values');
    }
    if (body.name && store.customFields.list().some((f) => f !== field && f.name.toLowerCase() === body.name!.toLowerCase())) {
      throw invalid('name', `a custom field named ${body.name} already exists`);
    }
    let values = body.values ? Array.from(new Set(body.values)) : field.values;
    if (body.value !== undefined) {
      if (body.value.trim() === '') throw invalid('value', "can't be blank");
      if (!values.includes(body.value)) values = [...values, body.value];
    }
    const updated = state.mutate('custom_field.update', (tx) => updateCustomField(tx, store, field, { ...body, values }));
    return presentCustomField(updated);
  });

  api.delete(`${base}/:id`, async (req) => {
    const store = req.store;
    const field = getField(store, (req.params as { id: string }).id);
    const touched = state.mutate('custom_field.delete', (tx) => deleteCustomField(tx, store, field));
    for (const id of touched) ctx.emit('product/updated', store.id, id);
    return {};
  });

  type Params = { product_id: string; variant_id: string; id: string };

  api.get('/products/:product_id/variants/:variant_id/custom-fields', async (req) => {
    const params = req.params as Params;
    const product = getProduct(req.store, params.product_id);
    return getVariant(req.store, product, params.variant_id).custom_fields;
  });

  api.put('/products/:product_id/variants/:variant_id/custom-fields', async (req) => {
    const store = req.store;
    const params = req.params as Params;
    const product = getProduct(store, params.product_id);
    const variant = getVariant(store, product, params.variant_id);
    const body = parseBody(valuesSchema, req.body);
    const values = body.map((entry, i) => {
      const field = store.customFields.get(entry.id);
      if (!field) throw invalid(`${i}.id`, `${entry.id} is not a custom field of this store`);
      return { id: field.id, value: checkValue(field, entry.value, `${i}.value`) };
    });
    state.mutate('variant.custom_fields', (tx) => setCustomFieldValues(tx, store, product, variant, values));
    ctx.emit('product/updated', store.id, product.id);
    return variant.custom_fields;
  });

  api.delete('/products/:product_id/variants/:variant_id/custom_fields/:id', async (req) => {
    const store = req.store;
    const params = req.params as Params;
    const product = getProduct(store, params.product_id);
    const variant = getVariant(store, product, params.variant_id);
    if (!variant.custom_fields.some((c) => c.id === params.id)) throw notFound('Custom field value', params.id);
    state.mutate('variant.custom_field.delete', (tx) => unsetCustomFieldValue(tx, store, product, variant, params.id));
    ctx.emit('product/updated', store.id, product.id);
    return {};
  });
}
