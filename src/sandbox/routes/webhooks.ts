import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { intParam, isoTime, notFound, paginate, parseBody, refuseFields } from '../http.js';
import type { SandboxContext, WebhookEvent } from '../context.js';
import type { StoreData } from '../state.js';
import type { WebhookRecord } from '../records.js';
import { WebhookDeliverer } from '../webhook-delivery.js';
import { WEBHOOK_EVENTS } from '../../platform/webhook-events.js';
import { createWebhook, findDuplicate, headerErrors, updateWebhook, webhookUrlProblem } from '../store/webhooks.js';

/**
 * Webhooks (docs/api-rules.md §5.17): the registration routes (records and rules: store/webhooks.ts), and delivery of
 * every event the routes emit through `ctx.emit` to the store's webhooks of that event, signed with the
 * registering app's client secret.
 */

function presentWebhook(w: WebhookRecord) {
  return {
    id: w.id,
    event: w.event,
    url: w.url,
    // The platform leaves `headers` out of a webhook that has none (docs/platform.md §7).
    ...(Object.keys(w.headers ?? {}).length > 0 ? { headers: { ...w.headers } } : {}),
    created_at: isoTime(w.created_at),
    updated_at: isoTime(w.updated_at),
  };
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

/**
 * Delivers each event to the webhooks registered for it. Installed once on the root instance: the routes are
 * registered once per API version (server.ts), and an event must still reach each webhook once.
 */
export function deliverWebhooks(app: FastifyInstance, ctx: SandboxContext): void {
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
  app.addHook('onClose', async () => {
    ctx.events.off('webhook', onEvent);
    deliverer.close();
  });
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  /** Webhooks belong to the app that registered them: another app's are invisible. */
  const load = (store: StoreData, appId: string, idText: string | undefined) => {
    const id = intParam(idText, 'Webhook');
    const webhook = store.webhooks.get(id);
    if (!webhook || webhook.app_id !== appId) throw notFound('Webhook', id);
    return webhook;
  };

  api.post('/webhooks', async (req, reply) => {
    const store = req.store;
    const body = parseBody(CreateBody, req.body);
    const headers = body.headers ?? {};
    const problems = headerErrors(headers);
    if (problems) refuseFields(problems);
    const duplicate = findDuplicate(store, req.auth.appId, body.event, body.url);
    if (duplicate) refuseFields({ url: [`already receives ${body.event} (webhook ${duplicate.id})`] });
    const created = state.mutate('webhook.create', (tx) =>
      createWebhook(tx, store, { app_id: req.auth.appId, event: body.event, url: body.url, headers }),
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
      if (problems) refuseFields(problems);
    }
    const event = body.event ?? webhook.event;
    const url = body.url ?? webhook.url;
    const duplicate = findDuplicate(store, req.auth.appId, event, url, webhook.id);
    if (duplicate) refuseFields({ url: [`already receives ${event} (webhook ${duplicate.id})`] });
    const updated = state.mutate('webhook.update', (tx) =>
      updateWebhook(tx, store, webhook, { event, url, headers: body.headers === undefined ? webhook.headers : (body.headers ?? {}) }),
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
