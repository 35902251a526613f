/**
 * The webhook events of DESIGN.md §5.17 (the sandbox's list, which is the platform's) and helpers about them,
 * for every webhooks command, the listener and the trigger. It lives apart from the zod schemas of
 * `webhooks.ts` (which re-exports it) so that command modules can name the events in their help without
 * loading zod at start-up.
 */
import { WEBHOOK_EVENTS } from '../sandbox/webhook-events.js';

export { WEBHOOK_EVENTS };

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The kind of record an event is about: the part before the slash. */
export type WebhookResource = 'order' | 'product' | 'category' | 'location' | 'fulfillment_order' | 'app';

export function isWebhookEvent(value: string): value is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

export function eventResource(event: WebhookEvent): WebhookResource {
  return event.slice(0, event.indexOf('/')) as WebhookResource;
}

/** After these the record is gone: a receiver has nothing to fetch. */
export function isDeletionEvent(event: string): boolean {
  return event.endsWith('/deleted');
}
