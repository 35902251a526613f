import { z } from 'zod';
import type { StoreClient, WriteRecord } from '../client/index.js';
import { type Localized, LocalizedSchema } from './categories.js';
import { Bool, Num, readAll, StringId, Text, Timestamp } from './read.js';
import { parseReply } from './reply.js';

const CodeName = z.looseObject({ code: Text, name: Text }).nullish().catch(undefined);

export const AddressSchema = z.looseObject({
  zipcode: Text,
  street: Text,
  number: Text,
  floor: Text,
  locality: Text,
  city: Text,
  province: CodeName,
  region: CodeName,
  country: CodeName,
  reference: Text,
  between_streets: Text,
  verified_at: Timestamp,
});
export type Address = z.infer<typeof AddressSchema>;

/**
 * A stock point (docs/platform.md §7): ULID id, `name` keyed by locale (`es_AR`, `pt_BR`, `en_US`), `store_id` as a
 * string, `priority` (which decides the order in which orders take stock), `address {…, verified_at}`,
 * `is_default`; `allows_pickup` may be absent.
 */
export const LocationSchema = z.looseObject({
  id: StringId,
  store_id: Text,
  name: LocalizedSchema,
  address: AddressSchema.nullish().catch(undefined),
  is_default: Bool,
  allows_pickup: Bool,
  priority: Num,
});
export type Location = z.infer<typeof LocationSchema>;

export interface AddressInput {
  zipcode?: string;
  street?: string;
  number?: string;
  floor?: string;
  locality?: string;
  city?: string;
  province?: { code?: string; name?: string };
  region?: { code?: string; name?: string };
  country?: { code?: string; name?: string };
  reference?: string;
  between_streets?: string;
}

export interface LocationInput {
  name?: Localized;
  address?: AddressInput;
  is_default?: boolean;
  allows_pickup?: boolean;
  priority?: number;
}

/** Every location, in the order the store returns them. */
export async function listLocations(client: StoreClient): Promise<Location[]> {
  return readAll(client, '/locations', LocationSchema, 'location');
}

/** Over the plan's location limit the store answers 422 naming the plan and its limit. */
export async function createLocation(client: StoreClient, input: LocationInput, record: WriteRecord): Promise<Location> {
  const res = await client.request({ method: 'POST', path: '/locations', body: input, record });
  return parseReply(LocationSchema, res.body, 'location record');
}

export async function updateLocation(client: StoreClient, id: string, input: LocationInput, record: WriteRecord): Promise<Location> {
  const res = await client.request({ method: 'PUT', path: `/locations/${encodeURIComponent(id)}`, body: input, record });
  return parseReply(LocationSchema, res.body, 'location record');
}

/** The store refuses (422) while the location is the default or holds stock. */
export async function deleteLocation(client: StoreClient, id: string, record: WriteRecord): Promise<void> {
  await client.request({ method: 'DELETE', path: `/locations/${encodeURIComponent(id)}`, record });
}

export async function setDefaultLocation(client: StoreClient, id: string, record: WriteRecord): Promise<void> {
  await client.request({ method: 'PATCH', path: `/locations/${encodeURIComponent(id)}/chosen-as-default`, record });
}

/** Must name every location exactly once; the store renumbers them 0…n−1 in the given order. */
export async function setLocationPriorities(client: StoreClient, priorities: { id: string; priority: number }[], record: WriteRecord): Promise<void> {
  await client.request({ method: 'PATCH', path: '/locations/priorities', body: priorities, record });
}
