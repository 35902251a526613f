import { z } from 'zod';
import type { StoreClient, WriteRecord } from '../client/index.js';
import { Localized, Money, Num, readAll, StringId, Text, Timestamp } from './read.js';
import { parseReply } from './reply.js';
import { TRACKING_STATUSES, type TrackingStatus } from '../platform/tracking-statuses.js';
import { shippingTypeOf, type FulfillmentStatus, type ShippingType } from '../platform/fulfillment.js';

export { TRACKING_STATUSES, type TrackingStatus };

/** A place as text or as an address object; kept as sent. */
const Place = z.unknown().optional();

export const TrackingEventSchema = z.looseObject({
  id: StringId,
  // Any status the store sends is shown: the documented list keeps growing.
  status: Text,
  description: Text,
  address: Place,
  geolocation: z.looseObject({ latitude: Num, longitude: Num }).nullish().catch(undefined),
  happened_at: Timestamp,
  estimated_delivery_at: Timestamp,
});
export type TrackingEvent = z.infer<typeof TrackingEventSchema>;

const Amount = z.looseObject({ value: Money, currency: Text }).nullish().catch(undefined);

/** A list of which an odd entry is left out rather than failing the whole record (docs/platform.md §0). */
function tolerantList<S extends z.ZodType>(item: S) {
  return z
    .array(z.unknown())
    .nullish()
    .catch(undefined)
    .transform((list) =>
      list?.flatMap((entry) => {
        const parsed = item.safeParse(entry);
        return parsed.success ? [parsed.data as z.infer<S>] : [];
      }),
    );
}

const LineItemSchema = z.looseObject({
  id: StringId.nullish(),
  quantity: Num,
  variant: z.looseObject({ variant_id: StringId.nullish(), sku: Text }).nullish().catch(undefined),
  product: z.looseObject({ product_id: StringId.nullish(), name: Localized }).nullish().catch(undefined),
  unit_price: Amount,
});

const StatusChangeSchema = z.looseObject({ from_status: Text, to_status: Text, happened_at: Timestamp });

/**
 * One shipment of an order from one source location (docs/platform.md §5, §10): ULID `id`, `number` as text, an
 * upper-case `status` (any value is kept and shown: older stores hold deprecated ones), `line_items` with the
 * variant and product ids nested as strings, `assigned_location`, `shipping.type`, `status_history`,
 * `tracking_info`, `tracking_info_history` and `tracking_events`. The order id is not in the body (it is in the path).
 *
 * Older records (docs/api-rules.md §5.15) had `location_id` and `products [{variant_id, quantity}]`; they are still read.
 */
export const FulfillmentOrderSchema = z.looseObject({
  id: StringId,
  number: Text,
  status: Text,
  total_quantity: Num,
  total_weight: Num,
  total_price: Amount,
  assigned_location: z
    .looseObject({ location_id: StringId.nullish(), name: Localized, address: z.unknown().optional() })
    .nullish()
    .catch(undefined),
  line_items: tolerantList(LineItemSchema),
  shipping: z.looseObject({ type: Text }).nullish().catch(undefined),
  status_history: tolerantList(StatusChangeSchema),
  tracking_info: z.looseObject({ code: Text, url: Text, notify_customer: z.unknown().optional() }).nullish().catch(undefined),
  tracking_events: tolerantList(TrackingEventSchema),
  location_id: Text,
  products: z.array(z.looseObject({ variant_id: StringId.nullish(), quantity: Num })).nullish().catch(undefined),
  fulfilled_at: Timestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type FulfillmentOrder = z.infer<typeof FulfillmentOrderSchema>;

/** A line of a shipment as the commands show it, from the documented record or the older one. */
export interface FulfillmentItem {
  variant_id?: string;
  product_id?: string;
  sku?: string;
  name: unknown;
  quantity?: number;
  unit_price?: string;
  currency?: string;
}

export function fulfillmentItems(fo: FulfillmentOrder): FulfillmentItem[] {
  if (fo.line_items) {
    return fo.line_items.map((line) => ({
      variant_id: line.variant?.variant_id ?? undefined,
      product_id: line.product?.product_id ?? undefined,
      sku: line.variant?.sku,
      name: line.product?.name,
      quantity: line.quantity,
      unit_price: line.unit_price?.value,
      currency: line.unit_price?.currency,
    }));
  }
  return (fo.products ?? []).map((p) => ({ variant_id: p.variant_id ?? undefined, name: undefined, quantity: p.quantity }));
}

/** Units in the shipment: `total_quantity` when sent, else the sum of its lines. */
export function fulfillmentQuantity(fo: FulfillmentOrder): number {
  return fo.total_quantity ?? fulfillmentItems(fo).reduce((n, item) => n + (item.quantity ?? 0), 0);
}

/** The source location's id, from `assigned_location` or the older `location_id`. */
export function fulfillmentLocationId(fo: FulfillmentOrder): string | undefined {
  return fo.assigned_location?.location_id ?? fo.location_id ?? undefined;
}

/** Statuses are upper case on the platform; a lower-case one is shown the same way. */
export function fulfillmentStatus(fo: FulfillmentOrder): string {
  return (fo.status ?? '').toUpperCase();
}

/** `shipping.type` (`ship`, `pickup`, `non-shippable`; either case); absent is `ship`. */
export function fulfillmentShippingType(fo: FulfillmentOrder): ShippingType {
  return shippingTypeOf(fo.shipping?.type);
}

/** The shipment's tracking code, from `tracking_info` (or the older `number` the v1 mapping names). */
export function trackingCode(fo: FulfillmentOrder): string | undefined {
  const info = fo.tracking_info as { code?: string; number?: unknown } | null | undefined;
  return info?.code ?? (typeof info?.number === 'string' && info.number !== '' ? info.number : undefined);
}

export interface TrackingEventInput {
  /** One of the documented statuses, or a partner's `custom_{status}`. */
  status?: TrackingStatus | `custom_${string}`;
  description?: string;
  address?: string;
  geolocation?: { latitude: number; longitude: number };
  happened_at?: string;
  estimated_delivery_at?: string;
}

const base = (orderId: number) => `/orders/${orderId}/fulfillment-orders`;

/** A move of a shipment (docs/platform.md §10): the status, with tracking info when it is dispatched. */
export interface FulfillmentOrderChange {
  status?: FulfillmentStatus;
  tracking_info?: { code: string; url?: string; notify_customer: boolean };
}

/**
 * `PATCH /orders/{order_id}/fulfillment-orders/{fo_id}`: the documented way to pack and ship (never the deprecated
 * `POST /orders/{id}/pack|fulfill`). Answers the shipment.
 */
export async function updateFulfillmentOrder(
  client: StoreClient,
  orderId: number,
  foId: string,
  change: FulfillmentOrderChange,
  record: WriteRecord,
): Promise<FulfillmentOrder> {
  const res = await client.request<unknown>({ method: 'PATCH', path: `${base(orderId)}/${encodeURIComponent(foId)}`, body: change, record });
  return parseReply(FulfillmentOrderSchema, res.body, 'fulfillment order record');
}

/** Every fulfillment order of an order; an odd record is left out with one warning, the rest are shown. */
export async function listFulfillmentOrders(client: StoreClient, orderId: number): Promise<FulfillmentOrder[]> {
  return readAll(client, base(orderId), FulfillmentOrderSchema, 'fulfillment order');
}

export async function getFulfillmentOrder(client: StoreClient, orderId: number, foId: string): Promise<FulfillmentOrder> {
  const res = await client.request<unknown>({ method: 'GET', path: `${base(orderId)}/${foId}` });
  return parseReply(FulfillmentOrderSchema, res.body, 'fulfillment order record');
}

export async function createTrackingEvent(
  client: StoreClient,
  orderId: number,
  foId: string,
  event: TrackingEventInput,
  record: WriteRecord,
): Promise<TrackingEvent> {
  const res = await client.request<unknown>({ method: 'POST', path: `${base(orderId)}/${foId}/tracking-events`, body: event, record });
  return parseReply(TrackingEventSchema, res.body, 'tracking event record');
}

export async function updateTrackingEvent(
  client: StoreClient,
  orderId: number,
  foId: string,
  eventId: string,
  event: TrackingEventInput,
  record: WriteRecord,
): Promise<TrackingEvent> {
  const res = await client.request<unknown>({
    method: 'PUT',
    path: `${base(orderId)}/${foId}/tracking-events/${encodeURIComponent(eventId)}`,
    body: event,
    record,
  });
  return parseReply(TrackingEventSchema, res.body, 'tracking event record');
}

export async function deleteTrackingEvent(client: StoreClient, orderId: number, foId: string, eventId: string, record: WriteRecord): Promise<void> {
  await client.request({ method: 'DELETE', path: `${base(orderId)}/${foId}/tracking-events/${encodeURIComponent(eventId)}`, record });
}
