import type { StoreClient } from '../client/index.js';
import {
  type FulfillmentItem,
  type FulfillmentOrder,
  fulfillmentItems,
  fulfillmentLocationId,
  fulfillmentQuantity,
  fulfillmentStatus,
  getFulfillmentOrder,
  listFulfillmentOrders,
  type TrackingEvent,
} from '../api/fulfillment-orders.js';
import { pickLocalized } from '../api/read.js';
import { storeMainLanguage } from './locations.js';

/**
 * Fulfillment orders as the commands show them (spec/platform.md §5): the documented record's lines, source
 * location by name, upper-case status and tracking info, with the older record (DESIGN.md §5.15) still read.
 */

export interface FulfillmentOrders {
  fulfillmentOrders: FulfillmentOrder[];
  /** The store's main language, to name the source location; undefined when the store did not say. */
  mainLanguage?: string;
}

export async function fulfillmentOrdersOf(client: StoreClient, orderId: number): Promise<FulfillmentOrders> {
  const [fulfillmentOrders, mainLanguage] = await Promise.all([listFulfillmentOrders(client, orderId), storeMainLanguage(client)]);
  return { fulfillmentOrders, mainLanguage };
}

export async function fulfillmentOrder(
  client: StoreClient,
  orderId: number,
  foId: string,
): Promise<{ fulfillmentOrder: FulfillmentOrder; mainLanguage?: string }> {
  const [fo, mainLanguage] = await Promise.all([getFulfillmentOrder(client, orderId, foId), storeMainLanguage(client)]);
  return { fulfillmentOrder: fo, mainLanguage };
}

/** "Depósito Central (01JD…)", or the id alone when the record names no location. */
export function locationLabel(fo: FulfillmentOrder, mainLanguage?: string): string {
  const id = fulfillmentLocationId(fo) ?? '';
  const name = pickLocalized(fo.assigned_location?.name, mainLanguage);
  if (!name) return id;
  return id ? `${name} (${id})` : name;
}

/** "TN123 https://…" from `tracking_info`; empty when the shipment has no tracking code yet. */
export function trackingLabel(fo: FulfillmentOrder): string {
  const info = fo.tracking_info;
  if (!info) return '';
  return [info.code, info.url].filter(Boolean).join(' ');
}

export function lastEventLabel(events: TrackingEvent[] | null | undefined): string {
  const last = events?.at(-1);
  return last ? [last.status, last.happened_at].filter(Boolean).join(' ') : '';
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
  };
}

/** The shipment's lines with their product name in the main language. */
export function fulfillmentItemRows(fo: FulfillmentOrder, mainLanguage?: string): (FulfillmentItem & { label: string })[] {
  return fulfillmentItems(fo).map((item) => ({ ...item, label: pickLocalized(item.name, mainLanguage) }));
}

/** A tracking event's address as text: sent as text, or as an address object. */
export function placeLabel(place: unknown): string {
  if (place === null || place === undefined) return '';
  if (typeof place !== 'object') return String(place);
  const parts = Object.values(place as Record<string, unknown>).filter((v) => typeof v === 'string' && v !== '');
  return parts.join(', ');
}
