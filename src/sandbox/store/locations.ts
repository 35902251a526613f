import { ulid } from 'ulid';
import type { Address, Localized, LocationRecord } from '../records.js';
import type { StoreData, Tx } from '../state.js';

/**
 * Locations (docs/api-rules.md §5.9): ULID ids; the first location is the default (exactly one is); priorities order
 * stock use; a location is deleted only once it holds no stock.
 */

/** An address as a request gives it: any part may be left out. */
export type AddressInput = Partial<Omit<Address, 'province' | 'region' | 'country'>> & {
  province?: { code?: string; name?: string };
  region?: { code?: string; name?: string };
  country?: { code?: string; name?: string };
};

export interface LocationInput {
  name: Localized;
  address?: AddressInput;
  is_default?: boolean;
  allows_pickup?: boolean;
  priority?: number;
}

function mergeAddress(base: Address, input: AddressInput | undefined): Address {
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

/** An address with nothing filled in but, when given, the country. */
export function blankAddress(country: Address['country'] = { code: '', name: '' }): Address {
  return {
    zipcode: '',
    street: '',
    number: '',
    floor: '',
    locality: '',
    city: '',
    province: { code: '', name: '' },
    region: { code: '', name: '' },
    country,
    reference: '',
    between_streets: '',
  };
}

/** Whether any variant holds stock at the location (a scan: deletions are rare). */
export function holdsStock(store: StoreData, locationId: string): boolean {
  for (const product of store.products.values()) {
    for (const variant of product.variants) {
      if (variant.inventory_levels.some((l) => l.location_id === locationId && l.stock > 0)) return true;
    }
  }
  return false;
}


/** Every other location stops being the default. */
function unsetDefault(tx: Tx, store: StoreData, at: number): void {
  for (const other of store.locations.list()) {
    if (other.is_default) tx.put(store.locations, { ...other, is_default: false, updated_at: at });
  }
}

/** The first location, or one asked to be, is the default; without a priority it comes after the others. */
export function createLocation(tx: Tx, store: StoreData, input: LocationInput): LocationRecord {
  const now = tx.now();
  const existing = store.locations.list();
  const isDefault = existing.length === 0 || input.is_default === true;
  if (isDefault) unsetDefault(tx, store, now);
  return tx.put(store.locations, {
    id: ulid(now),
    name: input.name,
    address: mergeAddress(blankAddress(), input.address),
    is_default: isDefault,
    allows_pickup: input.allows_pickup ?? false,
    priority: input.priority ?? (existing.length ? Math.max(...existing.map((l) => l.priority)) + 1 : 0),
    created_at: now,
    updated_at: now,
  });
}

/** Changes a location (becoming the default takes it from the other); the default cannot be unset here. */
export function updateLocation(tx: Tx, store: StoreData, location: LocationRecord, input: Partial<LocationInput>): LocationRecord {
  const now = tx.now();
  if (input.is_default === true && !location.is_default) unsetDefault(tx, store, now);
  return tx.put(store.locations, {
    ...location,
    name: input.name ?? location.name,
    address: mergeAddress(location.address, input.address),
    is_default: input.is_default ?? location.is_default,
    allows_pickup: input.allows_pickup ?? location.allows_pickup,
    priority: input.priority ?? location.priority,
    updated_at: now,
  });
}

/** Renumbers every location 0, 1, 2 … by the priorities given (each location named once); returns them. */
export function setPriorities(tx: Tx, store: StoreData, entries: { id: string; priority: number }[]): LocationRecord[] {
  // Stable sort: equal priorities keep the order they were sent in.
  const ordered = entries.map((e, index) => ({ ...e, index })).sort((a, b) => a.priority - b.priority || a.index - b.index);
  return ordered.map((entry, priority) => tx.put(store.locations, { ...store.locations.get(entry.id)!, priority, updated_at: tx.now() }));
}

/** Makes `location` the default; returns the locations that changed. */
export function chooseDefault(tx: Tx, store: StoreData, location: LocationRecord): LocationRecord[] {
  const now = tx.now();
  const result: LocationRecord[] = [];
  for (const other of store.locations.list()) {
    const isDefault = other.id === location.id;
    if (other.is_default !== isDefault) result.push(tx.put(store.locations, { ...other, is_default: isDefault, updated_at: now }));
  }
  return result;
}

/** Deletes a location (not the default, holding no stock) and the variants' empty levels there. */
export function deleteLocation(tx: Tx, store: StoreData, location: LocationRecord): void {
  tx.delete(store.locations, location.id);
  for (const product of store.products.values()) {
    if (!product.variants.some((v) => v.inventory_levels.some((l) => l.location_id === location.id))) continue;
    for (const v of product.variants) v.inventory_levels = v.inventory_levels.filter((l) => l.location_id !== location.id);
    tx.put(store.products, product);
  }
}
