import { z } from 'zod';
import type { StoreClient } from '../client/index.js';
import { parseReply } from './reply.js';

/** A generic record attached to an owner; invoices live in the order's `nfe`/`list` metafield (spec §4). */
export const MetafieldSchema = z.looseObject({
  id: z.union([z.number(), z.string()]),
  namespace: z.string(),
  key: z.string(),
  value: z.string(),
  description: z.string().nullish(),
  owner_resource: z.string().nullish(),
  owner_id: z.union([z.number(), z.string()]),
});
export type Metafield = z.infer<typeof MetafieldSchema>;

const MetafieldListSchema = z.array(MetafieldSchema);

export interface MetafieldInput {
  namespace: string;
  key: string;
  value: string;
  description?: string;
  owner_resource: string;
  owner_id: number;
}

/** The metafields of one order, filtered by namespace and key. */
export async function findOrderMetafields(
  client: StoreClient,
  filter: { ownerId: number; namespace: string; key: string },
): Promise<Metafield[]> {
  const page = await client.page<unknown>('/metafields/orders', {
    owner_id: filter.ownerId,
    namespace: filter.namespace,
    key: filter.key,
  });
  return parseReply(MetafieldListSchema, page.items, 'metafield list');
}

export async function createMetafield(client: StoreClient, input: MetafieldInput): Promise<Metafield> {
  const res = await client.request<unknown>({ method: 'POST', path: '/metafields', body: input });
  return parseReply(MetafieldSchema, res.body, 'metafield record');
}

export async function updateMetafield(
  client: StoreClient,
  id: number | string,
  update: { value: string; description?: string },
): Promise<Metafield> {
  const res = await client.request<unknown>({ method: 'PUT', path: `/metafields/${id}`, body: update });
  return parseReply(MetafieldSchema, res.body, 'metafield record');
}
