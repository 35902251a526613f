import { z } from 'zod';
import type { StoreClient, WriteRecord } from '../client/index.js';
import { Id, parseRecords, Text, Timestamp } from './read.js';
import { parseReply } from './reply.js';

/**
 * A generic record attached to an owner (docs/platform.md §6): `id`, `namespace`, `key`, `value`, `description`,
 * `owner_resource`, `owner_id`, timestamps. Invoices live in the order's `nfe` metafields.
 */
export const MetafieldSchema = z.looseObject({
  id: z.union([z.number(), z.string()]),
  namespace: Text,
  key: Text,
  value: Text,
  description: Text,
  owner_resource: Text,
  owner_id: Id,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Metafield = z.infer<typeof MetafieldSchema>;

export interface MetafieldInput {
  namespace: string;
  key: string;
  value: string;
  description?: string;
  owner_resource: string;
  owner_id: number;
}

/**
 * The metafields of one order in a namespace (and with a key, when given). The store may ignore the filters,
 * so they are applied again here; an empty result (the platform's 404 "Last page is 0") is no metafields.
 */
export async function findOrderMetafields(
  client: StoreClient,
  filter: { ownerId: number; namespace: string; key?: string },
): Promise<Metafield[]> {
  const page = await client.page<unknown>('/metafields/orders', {
    owner_id: filter.ownerId,
    namespace: filter.namespace,
    ...(filter.key !== undefined ? { key: filter.key } : {}),
  });
  return parseRecords(MetafieldSchema, page.items, 'metafield', (message) => client.warn(message)).filter(
    (m) =>
      m.owner_id === filter.ownerId && m.namespace === filter.namespace && (filter.key === undefined || m.key === filter.key),
  );
}

export async function createMetafield(client: StoreClient, input: MetafieldInput, record: WriteRecord): Promise<Metafield> {
  const res = await client.request<unknown>({ method: 'POST', path: '/metafields', body: input, record });
  return parseReply(MetafieldSchema, res.body, 'metafield record');
}

export async function updateMetafield(
  client: StoreClient,
  id: number | string,
  update: { value: string; description?: string },
  record: WriteRecord,
): Promise<Metafield> {
  const res = await client.request<unknown>({ method: 'PUT', path: `/metafields/${id}`, body: update, record });
  return parseReply(MetafieldSchema, res.body, 'metafield record');
}
