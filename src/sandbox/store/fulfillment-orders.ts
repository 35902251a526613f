import { ulid } from 'ulid';
import type { Collection, StoreData, Tx } from '../state.js';
import type { FulfillmentStatus } from '../../platform/fulfillment.js';

/**
 * Fulfillment orders (docs/platform.md §5 and §10): one shipment of an order from one source location, made when
 * the order is created (store/orders.ts), with its status, its history, its tracking info and tracking events.
 *
 * Storage keeps what the sandbox needs to work (order id, location id, variant and quantity per line, events);
 * the record it sends is the documented one (`presentFulfillmentOrder`, routes/fulfillment-orders.ts):
 * `line_items` with nested string ids, `assigned_location`, `recipient`, `shipping`, and no `order_id` (it is in
 * the path).
 *
 * The status is the documented one (upper case) and moves only by the operations below: `moveTo` (a PATCH, or a
 * `delivered` tracking event), never by other tracking events. Which moves are allowed is platform/fulfillment.ts's
 * to say; the callers check before they call. The order's `shipping_status` follows (refreshShipping in
 * store/orders.ts, called in the same mutation).
 */

export type TrackingEventRecord = {
  id: string;
  /** One of the documented statuses, or `custom_{status}`. */
  status: string;
  description: string;
  address: string;
  geolocation: { latitude: number; longitude: number } | null;
  happened_at: number;
  estimated_delivery_at: number | null;
  created_at: number;
  updated_at: number;
};

export type StatusChange = { from_status: FulfillmentStatus | null; to_status: FulfillmentStatus; happened_at: number; created_at: number };

export type TrackingInfo = { code: string | null; url: string | null; notify_customer: boolean };

export type TrackingInfoChange = {
  from_tracking_info: { code: string | null; url: string | null } | null;
  to_tracking_info: { code: string | null; url: string | null };
  happened_at: number;
  created_at: number;
  app_id: string | null;
};

export type FulfillmentOrderRecord = {
  id: string;
  order_id: number;
  /** A documented status; a state written before §10 held lower-case tracking statuses (upgradeFulfillmentOrder). */
  status: string;
  location_id: string;
  products: { variant_id: number; quantity: number }[];
  tracking_events: TrackingEventRecord[];
  /** Absent in a state written before §10: rebuilt from the events on first read. */
  status_history?: StatusChange[];
  tracking_info?: TrackingInfo | null;
  tracking_info_history?: TrackingInfoChange[];
  fulfilled_at?: number | null;
  /** Set by a PATCH (until dispatch): replaces what the order's address and customer give. */
  destination?: Record<string, unknown> | null;
  recipient?: Record<string, unknown> | null;
  created_at: number;
  updated_at: number;
};

export function fulfillmentOrdersOf(store: StoreData): Collection<FulfillmentOrderRecord> {
  return store.fulfillmentOrders as unknown as Collection<FulfillmentOrderRecord>;
}

/** order id → its fulfillment order ids, kept by a collection listener so a lookup never scans the store. */
const byOrderIndexes = new WeakMap<StoreData, Map<number, Set<string>>>();

function byOrder(store: StoreData): Map<number, Set<string>> {
  let index = byOrderIndexes.get(store);
  if (index) return index;
  const built = new Map<number, Set<string>>();
  const owners = new Map<string, number>();
  const update = (key: string, record: FulfillmentOrderRecord | undefined) => {
    const before = owners.get(key);
    if (before !== undefined) built.get(before)?.delete(key);
    owners.delete(key);
    if (!record) return;
    owners.set(key, record.order_id);
    let set = built.get(record.order_id);
    if (!set) built.set(record.order_id, (set = new Set()));
    set.add(key);
  };
  const collection = fulfillmentOrdersOf(store);
  for (const record of collection.values()) update(record.id, record);
  collection.listen((key, record) => update(String(key), record));
  byOrderIndexes.set(store, (index = built));
  return index;
}

/** The fulfillment orders of an order, oldest first (each brought to the §10 record, upgradeFulfillmentOrder). */
export function fulfillmentOrdersOfOrder(store: StoreData, orderId: number): FulfillmentOrderRecord[] {
  const ids = byOrder(store).get(orderId);
  if (!ids) return [];
  const collection = fulfillmentOrdersOf(store);
  return Array.from(ids, (id) => collection.get(id)!)
    .filter(Boolean)
    .map(upgradeFulfillmentOrder)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** One fulfillment order of an order, or undefined. */
export function fulfillmentOrderOf(store: StoreData, orderId: number, foId: string): FulfillmentOrderRecord | undefined {
  const fo = fulfillmentOrdersOf(store).get(foId);
  return fo && fo.order_id === orderId ? upgradeFulfillmentOrder(fo) : undefined;
}

/** Creates one fulfillment order, UNPACKED (inside the order's mutation). */
export function createFulfillmentOrder(
  tx: Tx,
  store: StoreData,
  orderId: number,
  locationId: string,
  products: { variant_id: number; quantity: number }[],
  at = tx.now(),
): FulfillmentOrderRecord {
  return tx.put(fulfillmentOrdersOf(store), newFulfillmentOrder(orderId, locationId, products, at));
}

/** The record of a new, UNPACKED fulfillment order (the large-store seed writes many at once). */
export function newFulfillmentOrder(orderId: number, locationId: string, products: { variant_id: number; quantity: number }[], at: number): FulfillmentOrderRecord {
  return {
    id: ulid(at),
    order_id: orderId,
    status: 'UNPACKED',
    location_id: locationId,
    products,
    tracking_events: [],
    status_history: [{ from_status: null, to_status: 'UNPACKED', happened_at: at, created_at: at }],
    tracking_info: null,
    tracking_info_history: [],
    fulfilled_at: null,
    created_at: at,
    updated_at: at,
  };
}

/**
 * Brings a fulfillment order of a state written before platform.md §10 to the current record, in place, on first
 * read: its status then followed its tracking events (lower case, `cancelled` while its order was), and it had no
 * history. The status becomes what the events had reached (UNPACKED without events), the history their steps.
 */
export function upgradeFulfillmentOrder(fo: FulfillmentOrderRecord): FulfillmentOrderRecord {
  if (fo.status_history) return fo;
  const events = byHappenedAt(fo.tracking_events);
  const history: StatusChange[] = [{ from_status: null, to_status: 'UNPACKED', happened_at: fo.created_at, created_at: fo.created_at }];
  let fulfilledAt: number | null = null;
  for (const event of events) {
    const to: FulfillmentStatus = event.status === 'delivered' ? 'DELIVERED' : event.status === 'ready_for_pickup' ? 'READY_FOR_PICKUP' : 'DISPATCHED';
    const from = history[history.length - 1]!.to_status;
    if (from === 'DELIVERED' || to === from) continue;
    history.push({ from_status: from, to_status: to, happened_at: event.happened_at, created_at: event.created_at });
    if (to === 'DELIVERED') fulfilledAt = event.happened_at;
  }
  Object.assign(fo, {
    status: history[history.length - 1]!.to_status,
    status_history: history,
    tracking_info: fo.tracking_info ?? null,
    tracking_info_history: [],
    fulfilled_at: fulfilledAt,
  });
  return fo;
}

export function byHappenedAt(events: readonly TrackingEventRecord[]): TrackingEventRecord[] {
  return [...events].sort((a, b) => a.happened_at - b.happened_at || (a.id < b.id ? -1 : 1));
}

/** Moves the status (the caller checked the move), with its history; DELIVERED sets `fulfilled_at` (to `at`). */
export function moveTo(fo: FulfillmentOrderRecord, to: FulfillmentStatus, at: number, createdAt = at): void {
  const history = (fo.status_history ??= []);
  history.push({ from_status: fo.status as FulfillmentStatus, to_status: to, happened_at: at, created_at: createdAt });
  fo.status = to;
  if (to === 'DELIVERED' && fo.fulfilled_at == null) fo.fulfilled_at = at;
}

/** Sets the tracking info, keeping its history; unchanged code and url only update `notify_customer`. */
export function setTrackingInfo(fo: FulfillmentOrderRecord, info: TrackingInfo, at: number, appId: string | null): void {
  const before = fo.tracking_info ?? null;
  fo.tracking_info = info;
  if (before && before.code === info.code && before.url === info.url) return;
  (fo.tracking_info_history ??= []).push({
    from_tracking_info: before ? { code: before.code, url: before.url } : null,
    to_tracking_info: { code: info.code, url: info.url },
    happened_at: at,
    created_at: at,
    app_id: appId,
  });
}

/** Stores the record after changes made in place. */
export function saveFulfillmentOrder(tx: Tx, store: StoreData, fo: FulfillmentOrderRecord, at = tx.now()): void {
  fo.updated_at = at;
  tx.put(fulfillmentOrdersOf(store), fo);
}

/** The fields of a tracking event that a request sets (the rest are the event's id and timestamps). */
export type TrackingEventFields = Pick<
  TrackingEventRecord,
  'status' | 'description' | 'address' | 'geolocation' | 'happened_at' | 'estimated_delivery_at'
>;

/**
 * Whether an event with these fields is one the shipment already has (platform.md §10): the same status,
 * description, address, geolocation and estimated delivery, happened within `windowMs` of it. `except` leaves out
 * the event being changed.
 */
export function hasIdenticalEvent(fo: FulfillmentOrderRecord, fields: TrackingEventFields, windowMs: number, except?: string): boolean {
  return fo.tracking_events.some(
    (e) =>
      e.id !== except &&
      e.status === fields.status &&
      e.description === fields.description &&
      e.address === fields.address &&
      JSON.stringify(e.geolocation) === JSON.stringify(fields.geolocation) &&
      e.estimated_delivery_at === fields.estimated_delivery_at &&
      Math.abs(e.happened_at - fields.happened_at) <= windowMs,
  );
}

/**
 * Adds a tracking event. A `delivered` event moves a DISPATCHED shipment to DELIVERED with `fulfilled_at` its
 * `happened_at` (the documented way to mark delivery); no other event moves the status.
 */
export function addTrackingEvent(tx: Tx, store: StoreData, fo: FulfillmentOrderRecord, fields: TrackingEventFields): TrackingEventRecord {
  const now = tx.now();
  const created: TrackingEventRecord = { id: ulid(now), ...fields, created_at: now, updated_at: now };
  fo.tracking_events.push(created);
  deliverByEvent(fo, created, now);
  saveFulfillmentOrder(tx, store, fo, now);
  return created;
}

export function updateTrackingEvent(
  tx: Tx,
  store: StoreData,
  fo: FulfillmentOrderRecord,
  event: TrackingEventRecord,
  fields: TrackingEventFields,
): TrackingEventRecord {
  const now = tx.now();
  Object.assign(event, fields, { updated_at: now });
  deliverByEvent(fo, event, now);
  saveFulfillmentOrder(tx, store, fo, now);
  return event;
}

export function deleteTrackingEvent(tx: Tx, store: StoreData, fo: FulfillmentOrderRecord, eventId: string): void {
  fo.tracking_events = fo.tracking_events.filter((e) => e.id !== eventId);
  saveFulfillmentOrder(tx, store, fo);
}

function deliverByEvent(fo: FulfillmentOrderRecord, event: TrackingEventRecord, now: number): void {
  if (event.status !== 'delivered' || fo.status === 'DELIVERED') return;
  moveTo(fo, 'DELIVERED', event.happened_at, now);
  fo.fulfilled_at = event.happened_at;
}
