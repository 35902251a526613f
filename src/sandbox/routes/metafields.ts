import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isValidAccessKey } from '../../platform/invoice-key.js';
import { httpError, intParam, invalid, isoTime, notFound, paginate, parseBody, type FieldErrors } from '../http.js';
import type { SandboxContext } from '../context.js';
import type { Collection, StoreData } from '../state.js';
import { fulfillmentOrdersOf } from '../store/fulfillment-orders.js';

/**
 * Metafields of orders (DESIGN.md §5.16), the carrier of invoices: namespace `nfe`, key `list`, value a JSON
 * array of `{key, link, fulfillment_order_id?}`. One metafield per (owner, namespace, key): a second POST is
 * a 422 that points at PUT. Every write of an `nfe`/`list` value is validated entry by entry.
 */

export type MetafieldRecord = {
  id: number;
  namespace: string;
  key: string;
  value: string;
  description: string;
  owner_resource: 'Order';
  owner_id: number;
  created_at: number;
  updated_at: number;
};

export interface InvoiceEntry {
  key: string;
  link: string;
  fulfillment_order_id?: string;
}

export const INVOICE_NAMESPACE = 'nfe';
export const INVOICE_KEY = 'list';

export function metafieldsOf(store: StoreData): Collection<MetafieldRecord> {
  return store.metafields as unknown as Collection<MetafieldRecord>;
}

export function presentMetafield(m: MetafieldRecord) {
  return {
    id: m.id,
    namespace: m.namespace,
    key: m.key,
    value: m.value,
    description: m.description,
    owner_resource: m.owner_resource,
    owner_id: m.owner_id,
    created_at: isoTime(m.created_at),
    updated_at: isoTime(m.updated_at),
  };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Problems of an invoice list value, keyed by field (`value.1.key`), or undefined when it is valid.
 * A fulfillment order must belong to the owning order.
 */
export function invoiceListErrors(store: StoreData, orderId: number, value: string): FieldErrors | undefined {
  let entries: unknown;
  try {
    entries = JSON.parse(value);
  } catch {
    return { value: ['must be a JSON array of {key, link, fulfillment_order_id}'] };
  }
  if (!Array.isArray(entries)) return { value: ['must be a JSON array of {key, link, fulfillment_order_id}'] };
  const errors: FieldErrors = {};
  const add = (field: string, problem: string) => (errors[field] ??= []).push(problem);
  const seen = new Set<string>();
  entries.forEach((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      add(`value.${i}`, 'must be an object with key, link and fulfillment_order_id');
      return;
    }
    const { key, link, fulfillment_order_id: foId } = entry as Record<string, unknown>;
    if (typeof key !== 'string' || !isValidAccessKey(key)) {
      add(`value.${i}.key`, 'must be a 44-digit access key with a valid check digit');
    } else if (seen.has(key)) {
      add(`value.${i}.key`, 'appears twice in the list');
    } else {
      seen.add(key);
    }
    if (typeof link !== 'string' || !isHttpUrl(link)) add(`value.${i}.link`, 'must be an http or https URL');
    if (foId !== undefined && foId !== null && foId !== '') {
      const fo = typeof foId === 'string' ? fulfillmentOrdersOf(store).get(foId) : undefined;
      if (!fo || fo.order_id !== orderId) {
        add(`value.${i}.fulfillment_order_id`, `is not a fulfillment order of order ${orderId}`);
      }
    }
  });
  return Object.keys(errors).length ? errors : undefined;
}

function fail(errors: FieldErrors): never {
  const [field, problems] = Object.entries(errors)[0]!;
  throw httpError(422, `${field} ${problems[0]}`, errors);
}

const CreateBody = z.object({
  namespace: z.string({ error: 'is required' }).trim().min(1, { error: "can't be blank" }).max(100),
  key: z.string({ error: 'is required' }).trim().min(1, { error: "can't be blank" }).max(100),
  value: z.string({ error: 'must be a string (JSON-encode structured values)' }).max(65_535),
  description: z.string({ error: 'must be a string' }).max(1000).nullish(),
  owner_resource: z.literal('Order', { error: 'must be Order' }),
  owner_id: z.number({ error: 'must be an order id' }).int({ error: 'must be an order id' }).positive({ error: 'must be an order id' }),
});

const UpdateBody = z.object({
  value: z.string({ error: 'must be a string (JSON-encode structured values)' }).max(65_535).optional(),
  description: z.string({ error: 'must be a string' }).max(1000).nullish(),
});

function filterText(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(name, 'must be given once');
  return value;
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  const validateValue = (store: StoreData, m: { namespace: string; key: string; owner_id: number; value: string }) => {
    if (m.namespace === INVOICE_NAMESPACE && m.key === INVOICE_KEY) {
      const errors = invoiceListErrors(store, m.owner_id, m.value);
      if (errors) fail(errors);
    }
  };

  const load = (store: StoreData, idText: string | undefined) => {
    const id = intParam(idText, 'Metafield');
    const metafield = metafieldsOf(store).get(id);
    if (!metafield) throw notFound('Metafield', id);
    return metafield;
  };

  api.post('/metafields', async (req, reply) => {
    const store = req.store;
    const body = parseBody(CreateBody, req.body);
    if (!store.orders.has(body.owner_id)) fail({ owner_id: [`order ${body.owner_id} does not exist`] });
    const existing = metafieldsOf(store)
      .list()
      .find((m) => m.owner_id === body.owner_id && m.namespace === body.namespace && m.key === body.key);
    if (existing) {
      fail({ key: [`already exists for this order as metafield ${existing.id}; update it with PUT /metafields/${existing.id}`] });
    }
    validateValue(store, body);
    const created = state.mutate('metafield.create', (tx) =>
      tx.put<MetafieldRecord>(metafieldsOf(store), {
        id: tx.nextId(store, 'metafield'),
        namespace: body.namespace,
        key: body.key,
        value: body.value,
        description: body.description ?? '',
        owner_resource: 'Order',
        owner_id: body.owner_id,
        created_at: tx.now(),
        updated_at: tx.now(),
      }),
    );
    return reply.code(201).send(presentMetafield(created));
  });

  api.get('/metafields/orders', async (req, reply) => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const ownerText = filterText(query, 'owner_id');
    if (ownerText !== undefined && !/^\d{1,15}$/.test(ownerText)) throw invalid('owner_id', 'must be an order id');
    const ownerId = ownerText === undefined ? undefined : Number(ownerText);
    const namespace = filterText(query, 'namespace');
    const key = filterText(query, 'key');
    const items = metafieldsOf(req.store)
      .list()
      .filter(
        (m) =>
          (ownerId === undefined || m.owner_id === ownerId) &&
          (namespace === undefined || m.namespace === namespace) &&
          (key === undefined || m.key === key),
      );
    return paginate(req, reply, items, presentMetafield);
  });

  api.get('/metafields/:id', async (req) => presentMetafield(load(req.store, (req.params as { id: string }).id)));

  api.put('/metafields/:id', async (req) => {
    const store = req.store;
    const metafield = load(store, (req.params as { id: string }).id);
    const body = parseBody(UpdateBody, req.body);
    if (body.value !== undefined) validateValue(store, { ...metafield, value: body.value });
    const updated = state.mutate('metafield.update', (tx) => {
      if (body.value !== undefined) metafield.value = body.value;
      if (body.description !== undefined) metafield.description = body.description ?? '';
      metafield.updated_at = tx.now();
      return tx.put(metafieldsOf(store), metafield);
    });
    return presentMetafield(updated);
  });

  api.delete('/metafields/:id', async (req) => {
    const store = req.store;
    const metafield = load(store, (req.params as { id: string }).id);
    state.mutate('metafield.delete', (tx) => tx.delete(metafieldsOf(store), metafield.id));
    return {};
  });
}
