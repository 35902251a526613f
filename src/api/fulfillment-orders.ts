import { z } from 'zod';
import type { StoreClient } from '../client/index.js';
import { parseReply } from './reply.js';

export const TRACKING_STATUSES = ['dispatched', 'in_transit', 'out_for_delivery', 'delivered', 'delivery_failed', 'returned'] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export const TrackingEventSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  status: z.string(),
  description: z.string().nullish(),
  address: z.string().nullish(),
  geolocation: z.looseObject({ latitude: z.number(), longitude: z.number() }).nullish(),
  happened_at: z.string(),
  estimated_delivery_at: z.string().nullish(),
});
export type TrackingEvent = z.infer<typeof TrackingEventSchema>;

/** One shipment of an order from one source location (ids are ULIDs, DESIGN.md §5.15). */
export const FulfillmentOrderSchema = z.looseObject({
  id: z.string(),
  order_id: z.number(),
  status: z.string().nullish(),
  location_id: z.string().nullish(),
  products: z.array(z.looseObject({ variant_id: z.number().nullish(), quantity: z.number() })).default([]),
  tracking_events: z.array(TrackingEventSchema).default([]),
});
export type FulfillmentOrder = z.infer<typeof FulfillmentOrderSchema>;

const FulfillmentOrderListSchema = z.array(FulfillmentOrderSchema);

export interface TrackingEventInput {
  status?: TrackingStatus;
  description?: string;
  address?: string;
  geolocation?: { latitude: number; longitude: number };
  happened_at?: string;
  estimated_delivery_at?: string;
}

const base = (orderId: number) => `/orders/${orderId}/fulfillment-orders`;

export async function listFulfillmentOrders(client: StoreClient, orderId: number): Promise<FulfillmentOrder[]> {
  const all: FulfillmentOrder[] = [];
  for await (const page of client.paginate<unknown>(base(orderId), undefined, { perPage: 200 })) {
    all.push(...parseReply(FulfillmentOrderListSchema, page.items, 'fulfillment order list'));
  }
  return all;
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
): Promise<TrackingEvent> {
  const res = await client.request<unknown>({ method: 'POST', path: `${base(orderId)}/${foId}/tracking-events`, body: event });
  return parseReply(TrackingEventSchema, res.body, 'tracking event record');
}

export async function updateTrackingEvent(
  client: StoreClient,
  orderId: number,
  foId: string,
  eventId: string,
  event: TrackingEventInput,
): Promise<TrackingEvent> {
  const res = await client.request<unknown>({
    method: 'PUT',
    path: `${base(orderId)}/${foId}/tracking-events/${encodeURIComponent(eventId)}`,
    body: event,
  });
  return parseReply(TrackingEventSchema, res.body, 'tracking event record');
}

export async function deleteTrackingEvent(client: StoreClient, orderId: number, foId: string, eventId: string): Promise<void> {
  await client.request({ method: 'DELETE', path: `${base(orderId)}/${foId}/tracking-events/${encodeURIComponent(eventId)}` });
}
