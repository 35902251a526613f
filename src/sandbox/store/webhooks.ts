import type { FieldErrors } from '../http.js';
import type { StoreData, Tx } from '../state.js';
import type { WebhookRecord } from '../records.js';
import { RESERVED_WEBHOOK_HEADERS, isHeaderName } from '../../platform/webhook-headers.js';
import { isLoopbackHost } from '../../util/loopback.js';

/** Webhooks (docs/api-rules.md §5.17): registered per app; the rules of their URL and custom headers. */

/** https anywhere; http only on loopback (the sandbox's allowance for local receivers like `webhooks listen`). */
export function webhookUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return 'must be an https URL (http is accepted only on loopback: 127.0.0.1, ::1, localhost)';
}

/** Problems of a webhook's custom headers, keyed by field (`headers.X-Name`), or undefined when they may be stored. */
export function headerErrors(headers: Record<string, string>): FieldErrors | undefined {
  const errors: FieldErrors = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!isHeaderName(name)) errors[`headers.${name}`] = ['is not a valid header name'];
    else if (RESERVED_WEBHOOK_HEADERS.has(name.toLowerCase())) errors[`headers.${name}`] = ['is set by the delivery itself'];
    else if (/[\r\n\0]/.test(value)) errors[`headers.${name}`] = ['must not contain line breaks'];
  }
  return Object.keys(errors).length ? errors : undefined;
}

/** The app's webhook (other than `except`) that already sends this event to this URL. */
export function findDuplicate(store: StoreData, appId: string, event: string, url: string, except?: number): WebhookRecord | undefined {
  return store.webhooks.list().find((w) => w.app_id === appId && w.event === event && w.url === url && w.id !== except);
}

export function createWebhook(tx: Tx, store: StoreData, input: Pick<WebhookRecord, 'app_id' | 'event' | 'url' | 'headers'>): WebhookRecord {
  return tx.put(store.webhooks, {
    id: tx.nextId(store, 'webhook'),
    app_id: input.app_id,
    event: input.event,
    url: input.url,
    headers: input.headers,
    created_at: tx.now(),
    updated_at: tx.now(),
  });
}

export function updateWebhook(
  tx: Tx,
  store: StoreData,
  webhook: WebhookRecord,
  change: Pick<WebhookRecord, 'event' | 'url' | 'headers'>,
): WebhookRecord {
  return tx.put(store.webhooks, { ...webhook, ...change, updated_at: tx.now() });
}
