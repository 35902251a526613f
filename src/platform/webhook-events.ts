/**
 * The webhook events the platform documents (docs/platform.md §7, which replaces docs/api-rules.md §5.17's list) and
 * helpers about them, for every webhooks command, the listener, the trigger and the sandbox (which accepts
 * exactly these). The list keeps growing on the platform, so the client never refuses a well-formed
 * `resource/action` name it does not know: it warns and lets the store answer. Dependency-free, so that
 * command modules can name the events in their help without loading zod at start-up.
 */
export const WEBHOOK_EVENTS = [
  'app/uninstalled',
  'app/suspended',
  'app/resumed',
  'category/created',
  'category/updated',
  'category/deleted',
  'customer/created',
  'customer/updated',
  'customer/deleted',
  'order/created',
  'order/updated',
  'order/paid',
  'order/packed',
  'order/fulfilled',
  'order/cancelled',
  'order/edited',
  'order/pending',
  'order/voided',
  'order/unpacked',
  'product/created',
  'product/updated',
  'product/deleted',
  'domain/updated',
  'theme/updated',
  'cart/created',
  'cart/updated',
  'location/created',
  'location/updated',
  'location/deleted',
  'fulfillment_order/status_updated',
  'fulfillment_order/tracking_event_created',
  'fulfillment_order/tracking_event_updated',
  'fulfillment_order/tracking_event_deleted',
] as const;

/** A documented event. */
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The form of every event name: `resource/action`, lower case with underscores. */
export const EVENT_NAME = /^[a-z][a-z0-9_]*\/[a-z][a-z0-9_]*$/;

export function isWebhookEvent(value: string): value is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

/** The kind of record an event is about: the part before the slash. */
export function eventResource(event: string): string {
  return event.slice(0, event.indexOf('/'));
}

/** After these the record is gone: a receiver has nothing to fetch. */
export function isDeletionEvent(event: string): boolean {
  return event.endsWith('/deleted');
}
