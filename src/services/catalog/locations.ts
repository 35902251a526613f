import { NotFoundError, ValidationError } from '../../client/errors.js';
import { UsageError } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import {
  type AddressInput,
  createLocation,
  deleteLocation,
  type Location,
  type LocationInput,
  listLocations,
  setDefaultLocation,
  setLocationPriorities,
  updateLocation,
} from '../../api/locations.js';
import { getStore } from '../../api/store.js';
import { created, deleted, fieldUpdates } from '../../ledger/changes.js';
import type { Recorder } from '../../ledger/recorder.js';
import { localText, localTexts, parseLocationName, withDescription } from './catalog-input.js';

/** Location fields as the commands take them (names still raw flag values). */
export interface LocationFields {
  name?: string[];
  street?: string;
  number?: string;
  floor?: string;
  locality?: string;
  city?: string;
  zipcode?: string;
  province?: string;
  country?: string;
  reference?: string;
  betweenStreets?: string;
  /** Region: a code, a name, or CODE=NAME. */
  region?: string;
  allowsPickup?: boolean;
  /** Priority as typed (a whole number, 0 first). */
  priority?: string;
}

/** Every location, highest priority (0) first: the order in which orders take stock. */
export async function locationsByPriority(client: StoreClient): Promise<Location[]> {
  return sortByPriority(await listLocations(client));
}

/**
 * The store's main language, to show names keyed by locale in it (docs/platform.md §7); undefined when the store
 * does not say, and then the first language present is shown.
 */
export async function storeMainLanguage(client: StoreClient): Promise<string | undefined> {
  try {
    return (await getStore(client)).main_language;
  } catch {
    return undefined;
  }
}

/** The locations by priority, with the main language to name them in. */
export async function locationsToShow(client: StoreClient): Promise<{ locations: Location[]; mainLanguage?: string }> {
  const [locations, mainLanguage] = await Promise.all([locationsByPriority(client), storeMainLanguage(client)]);
  return { locations, mainLanguage };
}

function sortByPriority(locations: Location[]): Location[] {
  // A location without a priority goes last.
  const rank = (l: Location) => l.priority ?? Number.MAX_SAFE_INTEGER;
  return [...locations].sort((a, b) => rank(a) - rank(b));
}

/** A location named by its id or by its name in any language (case-insensitive). */
export function resolveLocation(locations: Location[], ref: string): Location {
  const byId = locations.find((l) => l.id === ref || l.id.toLowerCase() === ref.toLowerCase());
  if (byId) return byId;
  const wanted = ref.trim().toLowerCase();
  const byName = locations.filter((l) => localTexts(l.name).some((n) => n.trim().toLowerCase() === wanted));
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) {
    throw new UsageError(`Several locations are named "${ref}" (${byName.map((l) => l.id).join(', ')}); use the id.`);
  }
  throw new NotFoundError(`Location "${ref}" not found; \`store locations list\` shows the ids and names.`);
}

export async function createLocationFrom(client: StoreClient, recorder: Recorder, fields: LocationFields & { makeDefault?: boolean }): Promise<Location> {
  if (!fields.name?.length) throw new UsageError('--name is required to create a location.');
  // Checked before anything is asked of the store.
  const priority = fields.priority === undefined ? undefined : parsePriority(fields.priority);
  if (fields.region !== undefined) parseRegion(fields.region);
  const store = await getStore(client);
  const input: LocationInput = {
    name: parseLocationName(fields.name, store),
    address: addressFrom(fields),
    allows_pickup: fields.allowsPickup ?? false,
  };
  if (priority !== undefined) input.priority = priority;
  if (fields.makeDefault) input.is_default = true;
  const write = recorder.intend([created({ resource: 'location', key: localText(input.name) || null }, input)]);
  try {
    const location = await createLocation(client, input, write);
    write.identify(location.id);
    return location;
  } catch (error) {
    throw explainPlanLimit(error, store.plan ?? 'current');
  }
}

/** Fields not given keep their values: the name per language and the address per part. */
export async function updateLocationFrom(client: StoreClient, recorder: Recorder, ref: string, fields: LocationFields): Promise<Location> {
  // Checked before anything is asked of the store.
  const priority = fields.priority === undefined ? undefined : parsePriority(fields.priority);
  if (fields.region !== undefined) parseRegion(fields.region);
  const current = resolveLocation(await listLocations(client), ref);
  const input: LocationInput = {};
  if (fields.name?.length) {
    const store = await getStore(client);
    input.name = parseLocationName(fields.name, store, current.name);
  }
  const address = addressFrom(fields);
  if (Object.keys(address).length > 0) input.address = { ...(stripNulls(current.address) as AddressInput), ...address };
  if (fields.allowsPickup !== undefined) input.allows_pickup = fields.allowsPickup;
  if (priority !== undefined) input.priority = priority;
  if (Object.keys(input).length === 0) throw new UsageError('Nothing to update: give at least one field flag (see --help).');
  const write = recorder.intend(fieldUpdates({ resource: 'location', id: current.id, key: localText(current.name) || null }, input, current));
  return updateLocation(client, current.id, input, write);
}

/** A location as a delete prompt names it: `"Local Palermo" (id 01H…, Thames 1234, Buenos Aires)`. */
export async function describeLocation(client: StoreClient, ref: string): Promise<string> {
  const location = resolveLocation(await listLocations(client), ref);
  const address = location.address as { street?: string | null; number?: string | null; city?: string | null } | null | undefined;
  const where = [[address?.street, address?.number].filter(Boolean).join(' '), address?.city].filter(Boolean).join(', ');
  return `"${localText(location.name)}" (id ${location.id}${where ? `, ${where}` : ''}${location.is_default ? ', the default location' : ''})`;
}

export async function deleteLocationByRef(client: StoreClient, recorder: Recorder, ref: string): Promise<Location> {
  const location = resolveLocation(await listLocations(client), ref);
  try {
    await deleteLocation(client, location.id, recorder.intend([deleted({ resource: 'location', id: location.id, key: localText(location.name) || null }, location)]));
  } catch (error) {
    throw withDescription(error, `Cannot delete location "${localText(location.name)}"`);
  }
  return location;
}

export async function setDefaultLocationByRef(client: StoreClient, recorder: Recorder, ref: string): Promise<Location[]> {
  const locations = await listLocations(client);
  const location = resolveLocation(locations, ref);
  const previous = locations.find((l) => l.is_default);
  const write = recorder.intend([
    { resource: 'location', id: location.id, key: localText(location.name) || null, kind: 'action', field: 'is_default', before: previous?.id === location.id, after: true },
    ...(previous && previous.id !== location.id
      ? [{ resource: 'location', id: previous.id, key: localText(previous.name) || null, kind: 'action' as const, field: 'is_default', before: true, after: false }]
      : []),
  ]);
  await setDefaultLocation(client, location.id, write);
  return locationsByPriority(client);
}

/**
 * The full priority order for PATCH /locations/priorities: the locations given come first, in the order
 * given; the others keep their current relative order after them.
 */
export function planPriorities(locations: Location[], refs: string[]): { id: string; priority: number }[] {
  const current = sortByPriority(locations);
  const chosen: Location[] = [];
  for (const ref of refs) {
    const location = resolveLocation(current, ref);
    if (chosen.includes(location)) throw new UsageError(`Location "${ref}" is named twice.`);
    chosen.push(location);
  }
  const rest = current.filter((l) => !chosen.includes(l));
  return [...chosen, ...rest].map((l, priority) => ({ id: l.id, priority }));
}

/** Applies the order and returns the locations as the store now ranks them. */
export async function reorderLocations(client: StoreClient, recorder: Recorder, refs: string[]): Promise<Location[]> {
  const locations = await listLocations(client);
  const plan = planPriorities(locations, refs);
  const write = recorder.intend(
    plan.map(({ id, priority }) => {
      const location = locations.find((l) => l.id === id);
      return { resource: 'location', id, key: location ? localText(location.name) || null : null, kind: 'update' as const, field: 'priority', before: location?.priority ?? null, after: priority };
    }),
  );
  await setLocationPriorities(client, plan, write);
  return locationsByPriority(client);
}

/**
 * The stock part of a product or variant body. `--stock N` alone is sent as `stock` (the store puts it in the
 * default location); with `--stock-at` every level is sent as `inventory_levels`, `--stock` then naming the
 * default location's level.
 */
export async function stockInput(
  client: StoreClient,
  stock: number | undefined,
  stockAt: { location: string; stock: number }[],
): Promise<{ stock?: number; inventory_levels?: { location_id: string; stock: number }[] }> {
  if (stockAt.length === 0) return stock === undefined ? {} : { stock };
  const locations = await listLocations(client);
  const levels = new Map<string, number>();
  for (const level of stockAt) {
    const location = resolveLocation(locations, level.location);
    if (levels.has(location.id)) throw new UsageError(`--stock-at names the location "${level.location}" twice.`);
    levels.set(location.id, level.stock);
  }
  if (stock !== undefined) {
    const main = locations.find((l) => l.is_default);
    if (!main) throw new UsageError('--stock needs a default location; the store has none (use --stock-at).');
    if (levels.has(main.id)) throw new UsageError('--stock and --stock-at both set the default location; give one of them.');
    levels.set(main.id, stock);
  }
  return { inventory_levels: [...levels].map(([location_id, n]) => ({ location_id, stock: n })) };
}

function addressFrom(fields: LocationFields): AddressInput {
  const address: AddressInput = {};
  if (fields.street !== undefined) address.street = fields.street;
  if (fields.number !== undefined) address.number = fields.number;
  if (fields.floor !== undefined) address.floor = fields.floor;
  if (fields.locality !== undefined) address.locality = fields.locality;
  if (fields.city !== undefined) address.city = fields.city;
  if (fields.zipcode !== undefined) address.zipcode = fields.zipcode;
  if (fields.reference !== undefined) address.reference = fields.reference;
  if (fields.betweenStreets !== undefined) address.between_streets = fields.betweenStreets;
  if (fields.province !== undefined) address.province = codeOrName(fields.province);
  if (fields.country !== undefined) address.country = codeOrName(fields.country);
  if (fields.region !== undefined) address.region = parseRegion(fields.region);
  return address;
}

/** `--priority`: the rank in which orders take stock, a whole number, 0 first. */
function parsePriority(raw: string): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text)) throw new UsageError(`--priority must be a whole number, 0 or more (got "${raw}").`);
  return Number(text);
}

/** `--region`: part of the address, `{code, name}`: "NOA" a code, "Noroeste" a name, "NOA=Noroeste" both. */
function parseRegion(raw: string): { code?: string; name?: string } {
  const eq = raw.indexOf('=');
  if (eq < 0) {
    if (raw.trim() === '') throw new UsageError('--region is empty; give a code (NOA), a name (Noroeste) or both as NOA=Noroeste.');
    return codeOrName(raw);
  }
  const code = raw.slice(0, eq).trim();
  const name = raw.slice(eq + 1).trim();
  if (code === '' || name === '') throw new UsageError(`--region "${raw}" needs a code and a name around "=", e.g. --region NOA=Noroeste.`);
  return { code, name };
}

/** "AR" or "BA" reads as a code, anything longer as a name. */
function codeOrName(value: string): { code?: string; name?: string } {
  return /^[A-Z0-9]{1,3}$/.test(value.trim()) ? { code: value.trim() } : { name: value };
}

function stripNulls(value: unknown): Record<string, unknown> {
  if (value === null || value === undefined || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * Over the plan's location limit the store answers 422; the sentence names the plan and its limit (from
 * the store's reply when it gives them, the plan from GET /store otherwise).
 */
function explainPlanLimit(error: unknown, plan: string): unknown {
  if (!(error instanceof ValidationError)) return error;
  const text = [error.description ?? '', ...Object.values(error.fieldErrors ?? {}).flat()].join(' ');
  if (!/limit|plan|allow/i.test(text)) return error;
  const limit = text.match(/(\d+)\s+locations?/i)?.[1] ?? text.match(/limit(?: is| of)?\s+(\d+)/i)?.[1];
  const namedPlan = text.match(/plan\s+"?([\w-]+)"?/i)?.[1] ?? plan;
  const allows = limit ? `allows ${limit} location${limit === '1' ? '' : 's'}` : 'allows no more locations';
  return new ValidationError(
    `The store's plan "${namedPlan}" ${allows}; delete a location or move to a larger plan to add another.`,
    { status: error.status, method: error.method, url: error.url, description: error.description, fieldErrors: error.fieldErrors, body: error.body },
  );
}
