import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { httpError, invalid, isoTime, notFound, paginate, parseBody } from '../http.js';
import type { SandboxContext } from '../context.js';
import type { Localized, LocationRecord } from '../records.js';
import type { StoreData } from '../state.js';
import {
  chooseDefault,
  createLocation,
  deleteLocation,
  holdsStock,
  setPriorities,
  updateLocation,
} from '../store/locations.js';
import { locationLimit } from '../../platform/plans.js';

/**
 * Locations (docs/api-rules.md §5.9): ULID ids; the first location is the default; priorities order stock use;
 * plan limits; DELETE refused while default or holding stock.
 */

const codeName = z.object({ code: z.string().optional(), name: z.string().optional() }).partial();
const addressSchema = z
  .object({
    zipcode: z.string(),
    street: z.string(),
    number: z.string(),
    floor: z.string(),
    locality: z.string(),
    city: z.string(),
    province: codeName,
    region: codeName,
    country: codeName,
    reference: z.string(),
    between_streets: z.string(),
  })
  .partial();
const nameSchema = z.union([z.string().min(1), z.record(z.string(), z.string())]);
const locationSchema = z.object({
  name: nameSchema,
  address: addressSchema.optional(),
  is_default: z.boolean().optional(),
  allows_pickup: z.boolean().optional(),
  priority: z.number().int().min(0).optional(),
});
const prioritiesSchema = z.array(z.object({ id: z.string(), priority: z.number().int() }));

/**
 * The documented location record (docs/platform.md §7): `name` keyed by locale, `store_id` as a string, `priority`,
 * `address {…, verified_at}` (the sandbox verifies no address: null), `is_default`, `allows_pickup`.
 */
function presentLocation(storeId: number, l: LocationRecord) {
  return {
    id: l.id,
    store_id: String(storeId),
    name: l.name,
    address: { ...l.address, verified_at: null },
    is_default: l.is_default,
    allows_pickup: l.allows_pickup,
    priority: l.priority,
    created_at: isoTime(l.created_at),
    updated_at: isoTime(l.updated_at),
  };
}

function locationName(store: StoreData, value: string | Record<string, string>): Localized {
  if (typeof value === 'string') return { [`${store.record.main_language}_${store.record.country}`]: value };
  if (Object.keys(value).length === 0) throw invalid('name', "can't be blank");
  return value;
}

function getLocation(store: StoreData, id: string): LocationRecord {
  const location = store.locations.get(id);
  if (!location) throw notFound('Location', id);
  return location;
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  api.get('/locations', async (req, reply) =>
    paginate(req, reply, req.store.locationsByPriority(), (l) => presentLocation(req.store.id, l)),
  );

  api.get('/locations/:id', async (req) => presentLocation(req.store.id, getLocation(req.store, (req.params as { id: string }).id)));

  api.post('/locations', async (req, reply) => {
    const store = req.store;
    const body = parseBody(locationSchema, req.body);
    const limit = locationLimit(store.record.plan);
    if (store.locations.size >= limit) {
      throw httpError(
        422,
        `The plan ${store.record.plan} allows at most ${limit} location${limit === 1 ? '' : 's'}`,
        { base: [`plan ${store.record.plan} allows at most ${limit} locations`] },
      );
    }
    const name = locationName(store, body.name);
    const location = state.mutate('location.create', (tx) => createLocation(tx, store, { ...body, name }));
    ctx.emit('location/created', store.id, location.id);
    return reply.code(201).send(presentLocation(store.id, location));
  });

  api.put('/locations/:id', async (req) => {
    const store = req.store;
    const location = getLocation(store, (req.params as { id: string }).id);
    const body = parseBody(locationSchema.partial(), req.body);
    if (body.is_default === false && location.is_default) {
      throw invalid('is_default', 'cannot be unset on the default location; choose another location as default');
    }
    const name = body.name === undefined ? location.name : locationName(store, body.name);
    const updated = state.mutate('location.update', (tx) => updateLocation(tx, store, location, { ...body, name }));
    ctx.emit('location/updated', store.id, updated.id);
    return presentLocation(store.id, updated);
  });

  api.patch('/locations/priorities', async (req) => {
    const store = req.store;
    const body = parseBody(prioritiesSchema, req.body);
    const seen = new Set<string>();
    for (const entry of body) {
      if (!store.locations.has(entry.id)) throw invalid('id', `${entry.id} is not a location of this store`);
      if (seen.has(entry.id)) throw invalid('id', `${entry.id} is named more than once`);
      seen.add(entry.id);
    }
    if (seen.size !== store.locations.size) {
      const missing = store.locations.list().filter((l) => !seen.has(l.id)).map((l) => l.id);
      throw invalid('id', `every location must be named once; missing ${missing.join(', ')}`);
    }
    const changed = state.mutate('location.priorities', (tx) => setPriorities(tx, store, body));
    for (const l of changed) ctx.emit('location/updated', store.id, l.id);
    return store.locationsByPriority().map((l) => presentLocation(store.id, l));
  });

  api.patch('/locations/:id/chosen-as-default', async (req) => {
    const store = req.store;
    const location = getLocation(store, (req.params as { id: string }).id);
    const changed = state.mutate('location.default', (tx) => chooseDefault(tx, store, location));
    for (const l of changed) ctx.emit('location/updated', store.id, l.id);
    return presentLocation(store.id, store.locations.get(location.id)!);
  });

  api.delete('/locations/:id', async (req) => {
    const store = req.store;
    const location = getLocation(store, (req.params as { id: string }).id);
    if (location.is_default) {
      throw httpError(422, 'The default location cannot be deleted; choose another default first', {
        id: ['is the default location'],
      });
    }
    if (holdsStock(store, location.id)) {
      throw httpError(422, 'The location still holds stock; move or zero it first', { id: ['holds stock'] });
    }
    state.mutate('location.delete', (tx) => deleteLocation(tx, store, location));
    ctx.emit('location/deleted', store.id, location.id);
    return {};
  });
}
