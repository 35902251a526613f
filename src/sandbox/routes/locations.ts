import type { FastifyInstance } from 'fastify';
import { ulid } from 'ulid';
import { z } from 'zod';
import { httpError, invalid, isoTime, notFound, paginate, parseBody } from '../http.js';
import type { SandboxContext } from '../context.js';
import type { Address, Localized, LocationRecord, StoreData } from '../state.js';
import { locationLimit } from '../../platform/plans.js';

/**
 * Locations (DESIGN.md §5.9): ULID ids; the first location is the default; priorities order stock use;
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
 * The documented location record (platform.md §7): `name` keyed by locale, `store_id` as a string, `priority`,
 * `address {…, verified_at}` (the sandbox verifies no address: null), `is_default`, `allows_pickup`.
 */
export function presentLocation(storeId: number, l: LocationRecord) {
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

function mergeAddress(base: Address, input: z.infer<typeof addressSchema> | undefined): Address {
  if (!input) return base;
  const pair = (b: { code: string; name: string }, i?: { code?: string; name?: string }) => ({
    code: i?.code ?? b.code,
    name: i?.name ?? b.name,
  });
  return {
    zipcode: input.zipcode ?? base.zipcode,
    street: input.street ?? base.street,
    number: input.number ?? base.number,
    floor: input.floor ?? base.floor,
    locality: input.locality ?? base.locality,
    city: input.city ?? base.city,
    province: pair(base.province, input.province),
    region: pair(base.region, input.region),
    country: pair(base.country, input.country),
    reference: input.reference ?? base.reference,
    between_streets: input.between_streets ?? base.between_streets,
  };
}

const blankAddress: Address = {
  zipcode: '',
  street: '',
  number: '',
  floor: '',
  locality: '',
  city: '',
  province: { code: '', name: '' },
  region: { code: '', name: '' },
  country: { code: '', name: '' },
  reference: '',
  between_streets: '',
};

function getLocation(store: StoreData, id: string): LocationRecord {
  const location = store.locations.get(id);
  if (!location) throw notFound('Location', id);
  return location;
}

/** Whether any variant holds stock at the location (a scan: deletions are rare). */
function holdsStock(store: StoreData, locationId: string): boolean {
  for (const product of store.products.values()) {
    for (const variant of product.variants) {
      if (variant.inventory_levels.some((l) => l.location_id === locationId && l.stock > 0)) return true;
    }
  }
  return false;
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
    const existing = store.locations.list();
    const location = state.mutate('location.create', (tx) => {
      const now = tx.now();
      const isDefault = existing.length === 0 || body.is_default === true;
      if (isDefault) {
        for (const other of existing) if (other.is_default) tx.put(store.locations, { ...other, is_default: false, updated_at: now });
      }
      return tx.put(store.locations, {
        id: ulid(now),
        name,
        address: mergeAddress(blankAddress, body.address),
        is_default: isDefault,
        allows_pickup: body.allows_pickup ?? false,
        priority: body.priority ?? (existing.length ? Math.max(...existing.map((l) => l.priority)) + 1 : 0),
        created_at: now,
        updated_at: now,
      });
    });
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
    const updated = state.mutate('location.update', (tx) => {
      const now = tx.now();
      if (body.is_default === true && !location.is_default) {
        for (const other of store.locations.list()) {
          if (other.is_default) tx.put(store.locations, { ...other, is_default: false, updated_at: now });
        }
      }
      return tx.put(store.locations, {
        ...location,
        name,
        address: mergeAddress(location.address, body.address),
        is_default: body.is_default ?? location.is_default,
        allows_pickup: body.allows_pickup ?? location.allows_pickup,
        priority: body.priority ?? location.priority,
        updated_at: now,
      });
    });
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
    // Stable sort: equal priorities keep the order they were sent in.
    const ordered = body.map((e, index) => ({ ...e, index })).sort((a, b) => a.priority - b.priority || a.index - b.index);
    const changed = state.mutate('location.priorities', (tx) =>
      ordered.map((entry, priority) =>
        tx.put(store.locations, { ...store.locations.get(entry.id)!, priority, updated_at: tx.now() }),
      ),
    );
    for (const l of changed) ctx.emit('location/updated', store.id, l.id);
    return store.locationsByPriority().map((l) => presentLocation(store.id, l));
  });

  api.patch('/locations/:id/chosen-as-default', async (req) => {
    const store = req.store;
    const location = getLocation(store, (req.params as { id: string }).id);
    const changed = state.mutate('location.default', (tx) => {
      const now = tx.now();
      const result: LocationRecord[] = [];
      for (const other of store.locations.list()) {
        const isDefault = other.id === location.id;
        if (other.is_default !== isDefault) result.push(tx.put(store.locations, { ...other, is_default: isDefault, updated_at: now }));
      }
      return result;
    });
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
    state.mutate('location.delete', (tx) => {
      tx.delete(store.locations, location.id);
      for (const product of store.products.values()) {
        if (!product.variants.some((v) => v.inventory_levels.some((l) => l.location_id === location.id))) continue;
        for (const v of product.variants) v.inventory_levels = v.inventory_levels.filter((l) => l.location_id !== location.id);
        tx.put(store.products, product);
      }
    });
    ctx.emit('location/deleted', store.id, location.id);
    return {};
  });
}
