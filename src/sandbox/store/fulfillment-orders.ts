import { ulid } from 'ulid';
import type { Collection, StoreData, Tx } from '../state.js';
import type { TrackingStatus } from '../../platform/tracking-statuses.js';

/**
 * Fulfillment orders (docs/platform.md §5, which replaces docs/api-rules.md §5.15's record): one shipment of an order
 * from one source location, made when the order is created (store/orders.ts), with its tracking events.
 *
 * Storage keeps what the sandbox needs to work (order id, location id, variant and quantity per line, events);
 * the record it sends is the documented one (`presentFulfillmentOrder`, routes/fulfillment-orders.ts):
 * upper-case status, `line_items` with nested string ids, `assigned_location`, `recipient`, `shipping`,
 * `tracking_info`, `status_history`, and no `order_id` (it is in the path).
 *
 * Stored status: `unfulfilled` until a tracking event exists, then the status of the latest event by
 * happened_at, and `cancelled` while its order is cancelled; `documentedStatus` names it as the platform does.
 */

export type TrackingEventRecord = {
  id: string;
  status: TrackingStatus;
  description: string;
  address: string;
  geolocation: { latitude: number; longitude: number } | null;
  happened_at: number;
  estimated_delivery_at: number | null;
  created_at: number;
  updated_at: number;
};

export type FulfillmentOrderRecord = {
  id: string;
  order_id: number;
  status: string;
  location_id: string;
  products: { variant_id: number; quantity: number }[];
  tracking_events: TrackingEventRecord[];
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

/** The fulfillment orders of an order, oldest first. */
export function fulfillmentOrdersOfOrder(store: StoreData, orderId: number): FulfillmentOrderRecord[] {
  const ids = byOrder(store).get(orderId);
  if (!ids) return [];
  const collection = fulfillmentOrdersOf(store);
  return Array.from(ids, (id) => collection.get(id)!)
    .filter(Boolean)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Creates one fulfillment order (inside the order's mutation). */
export function createFulfillmentOrder(
  tx: Tx,
  store: StoreData,
  orderId: number,
  locationId: string,
  products: { variant_id: number; quantity: number }[],
  at = tx.now(),
): FulfillmentOrderRecord {
  return tx.put(fulfillmentOrdersOf(store), {
    id: ulid(at),
    order_id: orderId,
    status: 'unfulfilled',
    location_id: locationId,
    products,
    tracking_events: [],
    created_at: at,
    updated_at: at,
  });
}

/** Recomputes the status from the tracking events and whether the order is cancelled. */
export function refreshStatus(fo: FulfillmentOrderRecord, orderCancelled: boolean): void {
  fo.tracking_events.sort((a, b) => a.happened_at - b.happened_at || (a.id < b.id ? -1 : 1));
  const latest = fo.tracking_events[fo.tracking_events.length - 1];
  fo.status = orderCancelled ? 'cancelled' : latest ? latest.status : 'unfulfilled';
}

/** The stored status as the platform names it (upper case). Events after dispatch keep the shipment DISPATCHED. */
export function documentedStatus(stored: string): string {
  switch (stored) {
    case 'unfulfilled':
      return 'UNPACKED';
    case 'ready_for_pickup':
      return 'READY_FOR_PICKUP';
    case 'delivered':
      return 'DELIVERED';
    case 'cancelled':
      return 'CANCELLED';
    default:
      return 'DISPATCHED';
  }
}


/** The fields of a tracking event that a request sets (the rest are the event's id and timestamps). */
export type TrackingEventFields = Pick<
  TrackingEventRecord,
  'status' | 'description' | 'address' | 'geolocation' | 'happened_at' | 'estimated_delivery_at'
>;

/** Whether the fulfillment order's own order is cancelled (a cancelled order keeps its shipments cancelled). */
function orderCancelled(store: StoreData, fo: FulfillmentOrderRecord): boolean {
  return store.orders.get(fo.order_id)?.status === 'cancelled';
}

function touch(tx: Tx, store: StoreData, fo: FulfillmentOrderRecord, at = tx.now()): void {
  fo.updated_at = at;
  refreshStatus(fo, orderCancelled(store, fo));
  tx.put(fulfillmentOrdersOf(store), fo);
}

export function addTrackingEvent(tx: Tx, store: StoreData, fo: FulfillmentOrderRecord, fields: TrackingEventFields): TrackingEventRecord {
  const now = tx.now();
  const created: TrackingEventRecord = { id: ulid(now), ...fields, created_at: now, updated_at: now };
  fo.tracking_events.push(created);
  touch(tx, store, fo, now);
  return created;
}

export function updateTrackingEvent(
  tx: Tx,
  store: StoreData,
  fo: FulfillmentOrderRecord,
  event: TrackingEventRecord,
  fields: TrackingEventFields,
): TrackingEventRecord {
  Object.assign(event, fields, { updated_at: tx.now() });
  touch(tx, store, fo);
  return event;
}

export function deleteTrackingEvent(tx: Tx, store: StoreData, fo: FulfillmentOrderRecord, eventId: string): void {
  fo.tracking_events = fo.tracking_events.filter((e) => e.id !== eventId);
  touch(tx, store, fo);
}
