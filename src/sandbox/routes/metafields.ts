import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { intParam, invalid, isoTime, notFound, paginate, parseBody, refuseFields } from '../http.js';
import type { SandboxContext } from '../context.js';
import type { StoreData } from '../state.js';
import {
  createMetafield,
  findMetafield,
  findMetafields,
  metafieldValueErrors,
  metafieldsOf,
  updateMetafield,
  type MetafieldRecord,
} from '../store/metafields.js';

/** The metafield routes (records, the invoice list's rules and operations: store/metafields.ts). */

function presentMetafield(m: MetafieldRecord) {
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
    const errors = metafieldValueErrors(store, m);
    if (errors) refuseFields(errors);
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
    if (!store.orders.has(body.owner_id)) refuseFields({ owner_id: [`order ${body.owner_id} does not exist`] });
    const existing = findMetafield(store, body.owner_id, body.namespace, body.key);
    if (existing) {
      refuseFields({ key: [`already exists for this order as metafield ${existing.id}; update it with PUT /metafields/${existing.id}`] });
    }
    validateValue(store, body);
    const created = state.mutate('metafield.create', (tx) => createMetafield(tx, store, body));
    return reply.code(201).send(presentMetafield(created));
  });

  api.get('/metafields/orders', async (req, reply) => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const ownerText = filterText(query, 'owner_id');
    if (ownerText !== undefined && !/^\d{1,15}$/.test(ownerText)) throw invalid('owner_id', 'must be an order id');
    const ownerId = ownerText === undefined ? undefined : Number(ownerText);
    const namespace = filterText(query, 'namespace');
    const key = filterText(query, 'key');
    return paginate(req, reply, findMetafields(req.store, { ownerId, namespace, key }), presentMetafield);
  });

  api.get('/metafields/:id', async (req) => presentMetafield(load(req.store, (req.params as { id: string }).id)));

  api.put('/metafields/:id', async (req) => {
    const store = req.store;
    const metafield = load(store, (req.params as { id: string }).id);
    const body = parseBody(UpdateBody, req.body);
    if (body.value !== undefined) validateValue(store, { ...metafield, value: body.value });
    const updated = state.mutate('metafield.update', (tx) => updateMetafield(tx, store, metafield, body));
    return presentMetafield(updated);
  });

  api.delete('/metafields/:id', async (req) => {
    const store = req.store;
    const metafield = load(store, (req.params as { id: string }).id);
    state.mutate('metafield.delete', (tx) => tx.delete(metafieldsOf(store), metafield.id));
    return {};
  });
}
