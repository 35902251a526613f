import { z } from 'zod';
import type { StoreClient } from '../client/index.js';
import { type Localized, LocalizedSchema } from './categories.js';
import { parseReply } from './reply.js';

const CodeName = z.looseObject({ code: z.string().nullish(), name: z.string().nullish() });

export const AddressSchema = z.looseObject({
  zipcode: z.string().nullish(),
  street: z.string().nullish(),
  number: z.string().nullish(),
  floor: z.string().nullish(),
  locality: z.string().nullish(),
  city: z.string().nullish(),
  province: CodeName.nullish(),
  region: CodeName.nullish(),
  country: CodeName.nullish(),
  reference: z.string().nullish(),
  between_streets: z.string().nullish(),
});
export type Address = z.infer<typeof AddressSchema>;

/** A stock point; ids are ULIDs and `priority` decides the order in which orders take stock. */
export const LocationSchema = z.looseObject({
  id: z.string(),
  name: LocalizedSchema,
  address: AddressSchema.nullish(),
  is_default: z.boolean(),
  allows_pickup: z.boolean().nullish(),
  priority: z.number().int(),
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

const LocationListSchema = z.array(LocationSchema);

/** Every location, in the order the store returns them. */
export async function listLocations(client: StoreClient): Promise<Location[]> {
  const all: Location[] = [];
  for await (const page of client.paginate<unknown>('/locations', undefined, { perPage: 200 })) {
    all.push(...parseReply(LocationListSchema, page.items, 'location list'));
  }
  return all;
}

/** Over the plan's location limit the store answers 422 naming the plan and its limit. */
export async function createLocation(client: StoreClient, input: LocationInput): Promise<Location> {
  const res = await client.request({ method: 'POST', path: '/locations', body: input });
  return parseReply(LocationSchema, res.body, 'location record');
}

export async function updateLocation(client: StoreClient, id: string, input: LocationInput): Promise<Location> {
  const res = await client.request({ method: 'PUT', path: `/locations/${encodeURIComponent(id)}`, body: input });
  return parseReply(LocationSchema, res.body, 'location record');
}

/** The store refuses (422) while the location is the default or holds stock. */
export async function deleteLocation(client: StoreClient, id: string): Promise<void> {
  await client.request({ method: 'DELETE', path: `/locations/${encodeURIComponent(id)}` });
}

export async function setDefaultLocation(client: StoreClient, id: string): Promise<void> {
  await client.request({ method: 'PATCH', path: `/locations/${encodeURIComponent(id)}/chosen-as-default` });
}

/** Must name every location exactly once; the store renumbers them 0…n−1 in the given order. */
export async function setLocationPriorities(client: StoreClient, priorities: { id: string; priority: number }[]): Promise<void> {
  await client.request({ method: 'PATCH', path: '/locations/priorities', body: priorities });
}
