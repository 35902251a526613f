import { type Category, type CategoryInput, createCategory, deleteCategory, getCategory, updateCategory } from '../../api/categories.js';
import { type CustomField, listCustomFields, updateCustomField } from '../../api/custom-fields.js';
import { type Location, type LocationInput, createLocation, deleteLocation, listLocations, setDefaultLocation, setLocationPriorities, updateLocation } from '../../api/locations.js';
import { NotFoundError } from '../../client/errors.js';
import type { ChangeIntent } from '../../ledger/types.js';
import { sameValue } from '../catalog-files/record-values.js';
import { decideField } from './decide.js';
import type { Actor } from './actor.js';
import { left } from './plan-product.js';
import type { Slot } from './slots.js';

/**
 * The undo of category, location and custom field definition writes (issue 28: "category and location writes" are
 * on the record like any other): each record read as it is now (one GET per category; the list of locations, of
 * custom fields), a field still holding what the run wrote put back, one changed since left and listed; a record
 * the run created deleted when it still holds what was sent; one it deleted made again from the record it kept
 * (with a new id: said). What no write takes back is listed with why.
 */

const subjectOf = (slot: Slot) => ({ resource: slot.resource, id: slot.id, parent: slot.parent, key: slot.key });
const record = (x: unknown) => x as Record<string, unknown>;

/** Whether every field a create sent still holds what it sent. */
const unchangedSince = (sent: unknown, now: object) => Object.entries(record(sent ?? {})).every(([field, value]) => sameValue(record(now)[field], value, field));

/** Updates of one record's fields: the writes decided against `now`, or each slot left with why. */
function decideUpdates(act: Actor, slots: Slot[], now: object): { body: Record<string, unknown>; changes: ChangeIntent[] } {
  const body: Record<string, unknown> = {};
  const changes: ChangeIntent[] = [];
  for (const slot of slots) {
    const value = record(now)[slot.field] ?? null;
    const decision = decideField(slot, value, act.options);
    if (decision.action === 'write') {
      body[slot.field] = decision.value;
      changes.push({ ...subjectOf(slot), kind: 'update', field: slot.field, before: value, after: decision.value });
    } else if (decision.action === 'leave') act.summary.left.push(left(slot, value, decision.why, decision.kind));
    else act.summary.already++;
  }
  return { body, changes };
}

export async function undoCategories(act: Actor, slots: Slot[]): Promise<void> {
  const byId = new Map<string, Slot[]>();
  for (const slot of slots) {
    if (slot.kind === 'delete') await recreateCategory(act, slot);
    else if (slot.id === null) act.summary.left.push(left(slot, undefined, 'its id never came back: look for it in `store categories list`', 'gone'));
    else byId.set(slot.id, [...(byId.get(slot.id) ?? []), slot]);
  }
  for (const [id, list] of byId) {
    let category: Category;
    try {
      category = await getCategory(act.client, Number(id));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      for (const slot of list) act.summary.left.push(left(slot, undefined, 'the category is gone from the store', 'gone'));
      continue;
    }
    const created = list.find((s) => s.kind === 'create');
    if (created) {
      if (unchangedSince(created.after, category)) await act.write([{ ...subjectOf(created), kind: 'delete', field: '*', before: category }], (r) => deleteCategory(act.client, category.id, r));
      else act.summary.left.push(left(created, undefined, 'created by the run and changed since: kept', 'changed'));
      continue;
    }
    const { body, changes } = decideUpdates(act, list, category);
    if (changes.length > 0) await act.write(changes, (r) => updateCategory(act.client, category.id, body as CategoryInput, r));
  }
}

async function recreateCategory(act: Actor, slot: Slot): Promise<void> {
  const kept = slot.before as Category | undefined;
  if (!kept || typeof kept !== 'object') return void act.summary.left.push(left(slot, undefined, 'deleted without a record of it: it cannot come back', 'irreversible'));
  const body: CategoryInput = { name: kept.name, parent: kept.parent ?? null };
  for (const field of ['description', 'handle', 'seo_title', 'seo_description', 'google_shopping_category'] as const) {
    const value = record(kept)[field];
    if (value !== null && value !== undefined) record(body)[field] = value;
  }
  await act.write([{ ...subjectOf(slot), id: null, kind: 'create', field: '*', before: null, after: body }], (r) => createCategory(act.client, body, r));
  act.summary.notes.push(`category ${slot.id} (${slot.key ?? 'no handle'}) is made again with a new id; the products that were in it are not put back in it`);
}

export async function undoLocations(act: Actor, slots: Slot[]): Promise<void> {
  const locations = await listLocations(act.client);
  const byId = new Map(locations.map((l) => [l.id, l]));
  const priorities: { slot: Slot; now: unknown; value: unknown }[] = [];
  const defaults = slots.filter((s) => s.kind === 'action' && s.field === 'is_default');
  if (defaults.length > 0) await undoDefault(act, defaults, byId);
  const updates = new Map<string, Slot[]>();
  for (const slot of slots) {
    if (slot.kind === 'action') continue;
    const location = slot.id === null ? undefined : byId.get(slot.id);
    if (slot.kind === 'delete') await recreateLocation(act, slot);
    else if (!location) act.summary.left.push(left(slot, undefined, slot.id === null ? 'its id never came back: look for it in `store locations list`' : 'the location is gone from the store', 'gone'));
    else if (slot.kind === 'create') {
      if (unchangedSince(record(slot.after).name === undefined ? {} : { name: record(slot.after).name }, location)) {
        await act.write([{ ...subjectOf(slot), kind: 'delete', field: '*', before: location }], (r) => deleteLocation(act.client, location.id, r));
      } else act.summary.left.push(left(slot, undefined, 'created by the run and changed since: kept', 'changed'));
    } else if (slot.field === 'priority') {
      const decision = decideField(slot, location.priority ?? null, act.options);
      if (decision.action === 'write') priorities.push({ slot, now: location.priority ?? null, value: decision.value });
      else if (decision.action === 'leave') act.summary.left.push(left(slot, location.priority ?? null, decision.why, decision.kind));
      else act.summary.already++;
    } else updates.set(location.id, [...(updates.get(location.id) ?? []), slot]);
  }
  for (const [id, list] of updates) {
    const { body, changes } = decideUpdates(act, list, byId.get(id)!);
    if (changes.length > 0) await act.write(changes, (r) => updateLocation(act.client, id, body as LocationInput, r));
  }
  if (priorities.length > 0) {
    // One request for the whole order, as `locations reorder` sent it: the others keep theirs.
    const back = new Map(priorities.map((p) => [p.slot.id!, Number(p.value)]));
    const order = locations.map((l) => ({ id: l.id, priority: back.get(l.id) ?? Number(l.priority ?? 0) }));
    const changes = priorities.map((p): ChangeIntent => ({ ...subjectOf(p.slot), kind: 'update', field: 'priority', before: p.now, after: p.value }));
    await act.write(changes, (r) => setLocationPriorities(act.client, order, r));
  }
}

/** `locations set-default` taken back: the previous default made default again, if the run's is still it. */
async function undoDefault(act: Actor, slots: Slot[], byId: Map<string, Location>): Promise<void> {
  const made = slots.find((s) => s.after === true);
  const previous = slots.find((s) => s.before === true && s.after === false);
  const current = [...byId.values()].find((l) => l.is_default);
  if (!made || !previous?.id || !byId.has(previous.id)) {
    for (const slot of slots) act.summary.left.push(left(slot, undefined, previous ? 'the location that was the default is gone' : 'it was the default already', previous ? 'gone' : 'changed'));
    return;
  }
  if (current?.id !== made.id && !act.options.force) {
    for (const slot of slots) act.summary.left.push(left(slot, current?.id ?? null, 'another location was made the default since the run', 'changed'));
    return;
  }
  await act.write(
    [
      { ...subjectOf(previous), kind: 'action', field: 'is_default', before: false, after: true },
      { ...subjectOf(made), kind: 'action', field: 'is_default', before: true, after: false },
    ],
    (r) => setDefaultLocation(act.client, previous.id!, r),
  );
}

async function recreateLocation(act: Actor, slot: Slot): Promise<void> {
  const kept = slot.before as Location | undefined;
  if (!kept || typeof kept !== 'object') return void act.summary.left.push(left(slot, undefined, 'deleted without a record of it: it cannot come back', 'irreversible'));
  const body: LocationInput = { name: kept.name, allows_pickup: Boolean(kept.allows_pickup) };
  if (kept.address) body.address = Object.fromEntries(Object.entries(kept.address).filter(([k, v]) => v !== null && v !== undefined && k !== 'verified_at')) as LocationInput['address'];
  await act.write([{ ...subjectOf(slot), id: null, kind: 'create', field: '*', before: null, after: body }], (r) => createLocation(act.client, body, r));
  act.summary.notes.push(`location ${slot.id} (${slot.key ?? ''}) is made again with a new id; the stock it held does not come back`);
}

export async function undoCustomFields(act: Actor, slots: Slot[]): Promise<void> {
  let fields: Map<string, CustomField> | undefined;
  const updates = new Map<string, Slot[]>();
  for (const slot of slots) {
    if (slot.kind === 'create' && slot.field === 'values') {
      act.summary.left.push(left(slot, undefined, "an allowed value added to a list stays: the store's API adds allowed values one at a time and removes none", 'irreversible'));
    } else if (slot.kind === 'create') {
      act.summary.left.push(left(slot, undefined, 'a custom field the run created is kept: deleting it deletes every value variants were given since (`store variants custom-fields delete` does it)', 'irreversible'));
    } else if (slot.kind === 'update' && slot.id !== null) updates.set(slot.id, [...(updates.get(slot.id) ?? []), slot]);
    else act.summary.left.push(left(slot, undefined, `undo does not take back a ${slot.kind} of a custom field`, 'irreversible'));
  }
  for (const [id, list] of updates) {
    fields ??= new Map((await listCustomFields(act.client)).map((f) => [f.id, f]));
    const field = fields.get(id);
    if (!field) {
      for (const slot of list) act.summary.left.push(left(slot, undefined, 'the custom field is gone from the store', 'gone'));
      continue;
    }
    const { body, changes } = decideUpdates(act, list, field);
    if (changes.length > 0) await act.write(changes, (r) => updateCustomField(act.client, id, body, r));
  }
}
