import { z } from 'zod';
import type { StoreClient, WriteRecord } from '../client/index.js';
import { Id, readAll, Text, Timestamp } from './read.js';
import { parseReply } from './reply.js';
import { isLoopbackHost } from '../util/loopback.js';
import { withoutTrailingSlash } from '../util/url.js';

export { WEBHOOK_EVENTS, eventResource, isDeletionEvent, isWebhookEvent } from '../platform/webhook-events.js';
export type { WebhookEvent } from '../platform/webhook-events.js';

/**
 * A registered webhook (docs/platform.md §7): `id`, `event`, `url`, timestamps; `headers` may be absent. The store
 * POSTs `{store_id, event, id?}` to `url` with `headers` on each event.
 */
export const WebhookSchema = z.looseObject({
  id: Id,
  event: Text,
  url: Text,
  headers: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).nullish().catch(undefined),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Webhook = z.infer<typeof WebhookSchema>;

export interface WebhookInput {
  event: string;
  url: string;
  headers?: Record<string, string>;
}

/** PUT takes the url and/or the headers; headers replace the whole set. */
export interface WebhookUpdate {
  url?: string;
  headers?: Record<string, string>;
}

/** Every webhook of the store that this app registered. */
export async function listWebhooks(client: StoreClient): Promise<Webhook[]> {
  return readAll(client, '/webhooks', WebhookSchema, 'webhook');
}

export async function createWebhook(client: StoreClient, input: WebhookInput, record: WriteRecord): Promise<Webhook> {
  const res = await client.request<unknown>({ method: 'POST', path: '/webhooks', body: input, record });
  return parseReply(WebhookSchema, res.body, 'webhook record');
}

export async function updateWebhook(client: StoreClient, id: number, update: WebhookUpdate, record: WriteRecord): Promise<Webhook> {
  const res = await client.request<unknown>({ method: 'PUT', path: `/webhooks/${id}`, body: update, record });
  return parseReply(WebhookSchema, res.body, 'webhook record');
}

export async function deleteWebhook(client: StoreClient, id: number, record: WriteRecord): Promise<void> {
  await client.request({ method: 'DELETE', path: `/webhooks/${id}`, record });
}

const SandboxStatusSchema = z.looseObject({ status: z.literal('ok') });

/**
 * Whether the API host is a `store` sandbox: it answers `GET /sandbox/status` (outside `/v1`, no auth), which a
 * real store does not have. Only asked of loopback hosts, where a sandbox can run.
 */
export async function isSandboxHost(client: StoreClient, apiUrl: string): Promise<boolean> {
  let host: string;
  try {
    host = new URL(apiUrl).hostname;
  } catch {
    return false;
  }
  if (!isLoopbackHost(host)) return false;
  try {
    const res = await client.request<unknown>({ method: 'GET', path: `${withoutTrailingSlash(apiUrl)}/sandbox/status` });
    return SandboxStatusSchema.safeParse(res.body).success;
  } catch {
    return false;
  }
}
