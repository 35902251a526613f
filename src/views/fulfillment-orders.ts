import {
  type FulfillmentItem,
  type FulfillmentOrder,
  fulfillmentItems,
  fulfillmentLocationId,
  fulfillmentQuantity,
  fulfillmentStatus,
  type TrackingEvent,
} from '../api/fulfillment-orders.js';
import { pickLocalized } from '../api/read.js';
import { type DetailSection, section } from '../cli/record-view.js';
import type { Column } from '../output/format.js';

/**
 * Fulfillment orders as the commands show them (docs/platform.md §5): the documented record's lines, source
 * location by name, upper-case status and tracking info, with the older record (docs/api-rules.md §5.15) still read.
 */

/** "Depósito Central (01JD…)", or the id alone when the record names no location. */
export function locationLabel(fo: FulfillmentOrder, mainLanguage?: string): string {
  const id = fulfillmentLocationId(fo) ?? '';
  const name = pickLocalized(fo.assigned_location?.name, mainLanguage);
  if (!name) return id;
  return id ? `${name} (${id})` : name;
}

/** "TN123 https://…" from `tracking_info`; empty when the shipment has no tracking code yet. */
function trackingLabel(fo: FulfillmentOrder): string {
  const info = fo.tracking_info;
  if (!info) return '';
  return [info.code, info.url].filter(Boolean).join(' ');
}

function lastEventLabel(events: TrackingEvent[] | null | undefined, time: (timestamp: string) => string = (t) => t): string {
  const last = events?.at(-1);
  return last ? [last.status, last.happened_at ? time(last.happened_at) : undefined].filter(Boolean).join(' ') : '';
}

/** One row per shipment, for `fulfillment-orders list` and the section of `orders get`. */
export interface FulfillmentOrderRow {
  id: string;
  number: string;
  status: string;
  location: string;
  items: number;
  tracking: string;
  events: number;
  last_event: string;
  /** The shipment's tracking events, for a table to write the last one's time its way (not a column). */
  tracking_events: TrackingEvent[];
}

export function fulfillmentOrderRow(fo: FulfillmentOrder, mainLanguage?: string): FulfillmentOrderRow {
  return {
    id: fo.id,
    number: fo.number ?? '',
    status: fulfillmentStatus(fo),
    location: locationLabel(fo, mainLanguage),
    items: fulfillmentQuantity(fo),
    tracking: trackingLabel(fo),
    events: fo.tracking_events?.length ?? 0,
    last_event: lastEventLabel(fo.tracking_events),
    tracking_events: fo.tracking_events ?? [],
  };
}

/** The shipment's lines with their product name in the main language. */
function fulfillmentItemRows(fo: FulfillmentOrder, mainLanguage?: string): (FulfillmentItem & { label: string })[] {
  return fulfillmentItems(fo).map((item) => ({ ...item, label: pickLocalized(item.name, mainLanguage) }));
}

/** A tracking event's address as text: sent as text, or as an address object. */
function placeLabel(place: unknown): string {
  if (place === null || place === undefined) return '';
  if (typeof place !== 'object') return String(place);
  const parts = Object.values(place as Record<string, unknown>).filter((v) => typeof v === 'string' && v !== '');
  return parts.join(', ');
}

/** `fulfillment-orders list`: one row per shipment. */
export const fulfillmentOrderColumns: Column<FulfillmentOrderRow>[] = [
  { header: 'id', get: (r) => r.id, kind: 'id' },
  { header: 'number', get: (r) => r.number, kind: 'id' },
  { header: 'status', get: (r) => r.status, kind: 'state' },
  { header: 'location', get: (r) => r.location, kind: 'text' },
  { header: 'items', get: (r) => r.items, kind: 'count', priority: 2 },
  { header: 'tracking', get: (r) => r.tracking, kind: 'text', priority: 1 },
  { header: 'events', get: (r) => r.events, kind: 'count', priority: 3 },
  { header: 'last_event', get: (r) => r.last_event, show: (r, table) => lastEventLabel(r.tracking_events, table.time), kind: 'text', priority: 1 },
];

/** The shipments under an order (`orders get`): the list's columns without the number and the event count. */
export const fulfillmentOrderSectionColumns: Column<FulfillmentOrderRow>[] = fulfillmentOrderColumns.filter(
  (c) => c.header !== 'number' && c.header !== 'events',
);

/** The "key value" lines of `fulfillment-orders get`. */
export function fulfillmentOrderFields(fo: FulfillmentOrder, orderId: number, mainLanguage?: string): [string, unknown][] {
  const total = fo.total_price?.value ? [fo.total_price.value, fo.total_price.currency].filter(Boolean).join(' ') : '';
  const row = fulfillmentOrderRow(fo, mainLanguage);
  return [
    ['id', fo.id],
    ['number', fo.number ?? ''],
    ['order', orderId],
    ['status', row.status],
    ['location', row.location],
    ['items', row.items],
    ['total', total],
    ['tracking', row.tracking],
    ...(fo.fulfilled_at ? ([['fulfilled', fo.fulfilled_at]] as [string, unknown][]) : []),
  ];
}

const itemColumns: Column<FulfillmentItem & { label: string }>[] = [
  { header: 'variant', get: (item) => item.variant_id, kind: 'id', priority: 1 },
  { header: 'product', get: (item) => item.product_id, kind: 'id', priority: 2 },
  { header: 'sku', get: (row) => row.sku, kind: 'id' },
  { header: 'name', get: (item) => item.label, kind: 'text' },
  { header: 'quantity', label: 'qty', get: (item) => item.quantity, kind: 'count' },
  { header: 'unit_price', label: 'price', get: (item) => item.unit_price, show: (item) => [item.unit_price, item.currency].filter(Boolean).join(' '), kind: 'money' },
];

const trackingEventColumns: Column<TrackingEvent>[] = [
  { header: 'id', get: (e) => e.id, kind: 'id', priority: 4 },
  { header: 'status', get: (e) => e.status, kind: 'state' },
  { header: 'happened_at', label: 'when', get: (e) => e.happened_at, kind: 'time' },
  { header: 'description', get: (e) => e.description, kind: 'text' },
  { header: 'address', get: (e) => placeLabel(e.address), kind: 'text', priority: 1 },
  { header: 'lat_lon', get: (e) => (e.geolocation?.latitude !== undefined ? `${e.geolocation.latitude},${e.geolocation.longitude ?? ''}` : ''), kind: 'id', priority: 3 },
  { header: 'estimated_delivery', label: 'eta', get: (e) => e.estimated_delivery_at, kind: 'time', priority: 2 },
];

/** The sections of `fulfillment-orders get`: the items, then the tracking events. */
export function fulfillmentOrderSections(fo: FulfillmentOrder, mainLanguage?: string): DetailSection[] {
  return [section('Items', fulfillmentItemRows(fo, mainLanguage), itemColumns), section('Tracking events', fo.tracking_events ?? [], trackingEventColumns)];
}
