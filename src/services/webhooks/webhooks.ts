import type { StoreClient } from '../../client/index.js';
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook, type Webhook, type WebhookInput, type WebhookUpdate } from '../../api/webhooks.js';
import { created, deleted, fieldUpdates, type Subject, recordCreate } from '../../ledger/changes.js';
import type { Recorder } from '../../ledger/recorder.js';
import { UsageError } from '../../errors.js';
import { EVENT_NAME, WEBHOOK_EVENTS, isWebhookEvent, type WebhookEvent } from '../../platform/webhook-events.js';
import { RESERVED_WEBHOOK_HEADERS, isHeaderName } from '../../platform/webhook-headers.js';
import { isLoopbackHost } from '../../util/loopback.js';
import { closestMatches, orList } from '../../util/suggest.js';
import { asHttpUrl, type InputName } from '../common/validate.js';

/**
 * Checks of the webhooks commands' input, made before anything is sent (exit 2, one sentence naming the argument
 * or flag). The store would refuse the same values with a 422; checking here
 * names the flag the user typed instead of the API field.
 */

/**
 * An event name of the form `resource/action` (docs/platform.md §7). Any well-formed name is taken: the platform's
 * list keeps growing, so a name this CLI does not know is sent and the store decides (`undocumentedEvent`
 * says what to warn about).
 */
export function parseWebhookEvent(value: string, name: InputName = 'EVENT'): string {
  const text = value.trim().toLowerCase();
  if (EVENT_NAME.test(text)) return text;
  throw new UsageError(`${name} "${value}" is not a webhook event name; events are resource/action, such as order/created or product/updated.`);
}

/** An event of the documented list (what the sandbox knows), for `webhooks trigger`. */
export function parseDocumentedEvent(value: string, name: InputName = 'EVENT'): WebhookEvent {
  const event = parseWebhookEvent(value, name);
  if (isWebhookEvent(event)) return event;
  throw new UsageError(`${name} "${value}" is not a documented webhook event; ${closeEvents(event)}`);
}

/** "did you mean order/paid?" (at most three edits away), or where the documented events are listed. */
function closeEvents(event: string): string {
  const close = closestMatches(event, WEBHOOK_EVENTS, { limit: 2, maxEdits: 3 });
  return close.length > 0 ? `did you mean ${orList(close)}?` : '--help lists them.';
}

/**
 * The one-line warning for a well-formed event outside the documented list (sent anyway: the platform adds
 * events over time and the store decides); undefined for a documented one.
 */
export function undocumentedEvent(event: string): string | undefined {
  if (isWebhookEvent(event)) return undefined;
  return `${event} is not a documented event; ${closeEvents(event)} Sending it anyway.`;
}

/** `--events a,b --events c` (repeatable and comma-separated), deduplicated in the order given. */
export function parseWebhookEvents(values: string[], name: InputName = '--events'): string[] {
  const events = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  if (events.length === 0) throw new UsageError(`${name} names no event; give one or more such as order/created,product/updated.`);
  return [...new Set(events.map((e) => parseWebhookEvent(e, name)))];
}

/** The store accepts https receivers; plain http only on loopback (127.0.0.1, ::1, localhost). */
export function parseWebhookUrl(value: string, name: InputName = 'URL'): string {
  const text = value.trim();
  const url = asHttpUrl(text);
  if (!url) {
    throw new UsageError(`${name} "${value}" is not a URL; use a full https address such as https://example.com/webhooks.`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`${name} "${value}" must use https; plain http is accepted only on loopback (127.0.0.1, ::1, localhost).`);
  }
  return text;
}


/** `--header K=V` (repeatable) as the object the store takes; a later value of the same name wins. */
export function parseHeaders(values: string[], name: InputName = '--header'): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const raw of values) {
    const eq = raw.indexOf('=');
    const key = eq < 0 ? '' : raw.slice(0, eq).trim();
    if (eq < 0 || key === '') throw new UsageError(`${name} "${raw}" is not NAME=VALUE, e.g. ${name} X-Api-Key=abc123.`);
    if (!isHeaderName(key)) throw new UsageError(`${name} "${key}" is not a valid HTTP header name.`);
    if (RESERVED_WEBHOOK_HEADERS.has(key.toLowerCase())) throw new UsageError(`${name} ${key} is set by the store on every notification; choose another header.`);
    const value = raw.slice(eq + 1);
    if (/[\r\n\0]/.test(value)) throw new UsageError(`${name} ${key} has a line break in its value.`);
    headers[key] = value;
  }
  return headers;
}

/** A webhook as a delete prompt names it: `12 (order/created → https://example.com/hook)`. */
export async function describeWebhook(client: StoreClient, id: number): Promise<string> {
  const hook = (await listWebhooks(client)).find((w) => w.id === id);
  return hook ? `${id} (${hook.event} → ${hook.url})` : String(id);
}

function webhookSubject(id: number | undefined, event: string | undefined): Subject {
  return { resource: 'webhook', id, key: event ?? null };
}

/** Registers a webhook, on the run ledger. */
export async function addWebhook(client: StoreClient, recorder: Recorder, input: WebhookInput): Promise<Webhook> {
  return recordCreate(recorder, created(webhookSubject(undefined, input.event), input), (write) => createWebhook(client, input, write));
}

/**
 * Changes a webhook's URL or headers. The store's webhooks are read first (one GET of the list, as `webhooks
 * list`), so the run ledger keeps what the change replaces.
 */
export async function changeWebhook(client: StoreClient, recorder: Recorder, id: number, update: WebhookUpdate): Promise<Webhook> {
  const current = (await listWebhooks(client)).find((w) => w.id === id);
  const write = recorder.intend(fieldUpdates(webhookSubject(id, current?.event), update, current ?? undefined));
  return updateWebhook(client, id, update, write);
}

/** Deletes a webhook, read first (one GET of the list) so the run ledger keeps it whole for undo. */
export async function removeWebhook(client: StoreClient, recorder: Recorder, id: number, known?: Webhook): Promise<void> {
  const current = known ?? (await listWebhooks(client)).find((w) => w.id === id);
  await deleteWebhook(client, id, recorder.intend([deleted(webhookSubject(id, current?.event), current)]));
}
