import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { httpError, intParam, isoTime, notFound, paginate, parseBody, type FieldErrors } from '../http.js';
import type { SandboxContext, WebhookEvent } from '../context.js';
import type { StoreData, WebhookRecord } from '../state.js';
import { WebhookDeliverer } from '../webhook-delivery.js';
import { WEBHOOK_EVENTS } from '../../platform/webhook-events.js';
import { RESERVED_WEBHOOK_HEADERS } from '../../platform/webhook-headers.js';
import { isLoopbackHost } from '../../util/loopback.js';

/**
 * Webhooks (DESIGN.md §5.17): registration per app, and delivery of every event the routes emit through
 * `ctx.emit` to the store's webhooks of that event, signed with the registering app's client secret.
 */

export function presentWebhook(w: WebhookRecord) {
  return {
    id: w.id,
    event: w.event,
    url: w.url,
    // The platform leaves `headers` out of a webhook that has none (platform.md §7).
    ...(Object.keys(w.headers ?? {}).length > 0 ? { headers: { ...w.headers } } : {}),
    created_at: isoTime(w.created_at),
    updated_at: isoTime(w.updated_at),
  };
}

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

const HeaderName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function headerErrors(headers: Record<string, string>): FieldErrors | undefined {
  const errors: FieldErrors = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HeaderName.test(name)) errors[`headers.${name}`] = ['is not a valid header name'];
    else if (RESERVED_WEBHOOK_HEADERS.has(name.toLowerCase())) errors[`headers.${name}`] = ['is set by the delivery itself'];
    else if (/[\r\n\0]/.test(value)) errors[`headers.${name}`] = ['must not contain line breaks'];
  }
  return Object.keys(errors).length ? errors : undefined;
}

const Url = z.string({ error: 'is required' }).refine((u) => webhookUrlProblem(u) === undefined, {
  error: (issue) => webhookUrlProblem(String(issue.input)) ?? 'is invalid',
});
const Headers = z.record(z.string(), z.string({ error: 'values must be strings' }), {
  error: 'must be an object of header names to string values',
});
const Event = z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(', ')}` });

const CreateBody = z.object({ event: Event, url: Url, headers: Headers.nullish() });
const UpdateBody = z.object({ event: Event.optional(), url: Url.optional(), headers: Headers.nullish() });

function fail(errors: FieldErrors): never {
  const [field, problems] = Object.entries(errors)[0]!;
  throw httpError(422, `${field} ${problems[0]}`, errors);
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const deliverer = new WebhookDeliverer({ clock: ctx.clock, retryBaseMs: ctx.options.webhookRetryBaseMs });

  const onEvent = (e: WebhookEvent) => {
    const store = state.store(e.storeId);
    if (!store) return;
    for (const webhook of store.webhooks.values()) {
      if (webhook.event !== e.event) continue;
      const app = state.apps.get(webhook.app_id);
      if (!app) continue;
      deliverer.deliver(
        { url: webhook.url, headers: webhook.headers, secret: app.client_secret },
        { store_id: e.storeId, event: e.event, id: e.id, data: e.data },
      );
    }
  };
  ctx.events.on('webhook', onEvent);
  api.addHook('onClose', async () => {
    ctx.events.off('webhook', onEvent);
    deliverer.close();
  });

  /** Webhooks belong to the app that registered them: another app's are invisible. */
  const load = (store: StoreData, appId: string, idText: string | undefined) => {
    const id = intParam(idText, 'Webhook');
    const webhook = store.webhooks.get(id);
    if (!webhook || webhook.app_id !== appId) throw notFound('Webhook', id);
    return webhook;
  };

  const duplicateOf = (store: StoreData, appId: string, event: string, url: string, except?: number) =>
    store.webhooks.list().find((w) => w.app_id === appId && w.event === event && w.url === url && w.id !== except);

  api.post('/webhooks', async (req, reply) => {
    const store = req.store;
    const body = parseBody(CreateBody, req.body);
    const headers = body.headers ?? {};
    const problems = headerErrors(headers);
    if (problems) fail(problems);
    const duplicate = duplicateOf(store, req.auth.appId, body.event, body.url);
    if (duplicate) fail({ url: [`already receives ${body.event} (webhook ${duplicate.id})`] });
    const created = state.mutate('webhook.create', (tx) =>
      tx.put(store.webhooks, {
        id: tx.nextId(store, 'webhook'),
        app_id: req.auth.appId,
        event: body.event,
        url: body.url,
        headers,
        created_at: tx.now(),
        updated_at: tx.now(),
      }),
    );
    return reply.code(201).send(presentWebhook(created));
  });

  api.get('/webhooks', async (req, reply) => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const event = typeof query.event === 'string' && query.event !== '' ? query.event : undefined;
    const items = req.store.webhooks
      .list()
      .filter((w) => w.app_id === req.auth.appId && (event === undefined || w.event === event));
    return paginate(req, reply, items, presentWebhook);
  });

  api.get('/webhooks/:id', async (req) =>
    presentWebhook(load(req.store, req.auth.appId, (req.params as { id: string }).id)),
  );

  api.put('/webhooks/:id', async (req) => {
    const store = req.store;
    const webhook = load(store, req.auth.appId, (req.params as { id: string }).id);
    const body = parseBody(UpdateBody, req.body);
    if (body.headers) {
      const problems = headerErrors(body.headers);
      if (problems) fail(problems);
    }
    const event = body.event ?? webhook.event;
    const url = body.url ?? webhook.url;
    const duplicate = duplicateOf(store, req.auth.appId, event, url, webhook.id);
    if (duplicate) fail({ url: [`already receives ${event} (webhook ${duplicate.id})`] });
    const updated = state.mutate('webhook.update', (tx) =>
      tx.put(store.webhooks, {
        ...webhook,
        event,
        url,
        headers: body.headers === undefined ? webhook.headers : (body.headers ?? {}),
        updated_at: tx.now(),
      }),
    );
    return presentWebhook(updated);
  });

  api.delete('/webhooks/:id', async (req) => {
    const store = req.store;
    const webhook = load(store, req.auth.appId, (req.params as { id: string }).id);
    state.mutate('webhook.delete', (tx) => tx.delete(store.webhooks, webhook.id));
    return {};
  });
}
