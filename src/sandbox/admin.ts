import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ALL_SCOPES, httpError, parseBody } from './http.js';
import { createApp, createStore } from './store/stores.js';
import { PLANS } from '../platform/plans.js';
import type { SandboxContext } from './context.js';

/**
 * Sandbox-only endpoints (not in the platform's API), outside /v1 and without a token, since the sandbox is a
 * local test bed: more stores and apps, so that what the spec says "per store and per application" (the rate
 * bucket, tokens, webhooks) can be exercised. An app is installed on a store through the normal OAuth flow,
 * choosing the store with the authorize page's `store_id` parameter.
 *
 *   POST /sandbox/stores {name, plan?, languages?, main_language?, currency?, country?} → 201 store record
 *   POST /sandbox/apps   {name, redirect_url?, scopes?}                                → 201 {client_id, client_secret, …}
 *   POST /sandbox/apps/{client_id}/uninstall {store_id?}                                → 200 {store_id, app_id, …}
 *
 * Uninstalling is what the store owner does in the admin panel (docs/api-rules.md "Authentication": tokens stay valid "until the owner
 * uninstalls the application"); it is the only way `app/uninstalled` is ever emitted.
 *
 *   POST /sandbox/events {event, store_id?, id?}                                      → 200 {store_id, event, id?, …}
 *
 * Emits one of the documented events that no API request of the sandbox causes (an order packed in the admin
 * panel, a theme or domain changed, a cart, an app suspended), with the body the platform sends (docs/platform.md
 * §7): `domain/updated` without `id`, `theme/updated` with `old_theme` and `new_theme`. `webhooks trigger` uses it.
 *
 *   GET  /sandbox/clock                                                              → 200 {now, offset_ms}
 *   POST /sandbox/clock {offset_ms}                                                  → 200 {now, offset_ms}
 *
 * The store's clock, `offset_ms` from this machine's: what records are stamped with and the `Date` header says.
 * A client's machine whose clock is off (the store seen 10 minutes behind), or a store server whose clock runs
 * ahead (a record stamped in the future: set an offset, change the record, set it back), without touching the
 * machine's clock. Not persisted: a restart takes `--clock-offset` again.
 */
const NewStoreBody = z.strictObject({
  name: z.string().min(1),
  plan: z.enum(PLANS).default('enterprise'),
  languages: z.array(z.string().regex(/^[a-z]{2}(_[A-Z]{2})?$/)).min(1).default(['es']),
  main_language: z.string().optional(),
  currency: z.string().length(3).optional(),
  country: z.string().length(2).optional(),
});

const NewAppBody = z.strictObject({
  name: z.string().min(1),
  redirect_url: z.url({ protocol: /^https?$/ }).optional(),
  scopes: z.array(z.enum(ALL_SCOPES as [string, ...string[]])).min(1).optional(),
});

const UninstallBody = z.strictObject({ store_id: z.number().int().optional() });

/** Documented events that no API request of the sandbox causes; the others are triggered by doing the real thing. */
const ADMIN_EVENTS = [
  'order/packed',
  'order/fulfilled',
  'order/edited',
  'order/pending',
  'order/voided',
  'order/unpacked',
  'app/suspended',
  'app/resumed',
  'domain/updated',
  'theme/updated',
  'cart/created',
  'cart/updated',
  'fulfillment_order/status_updated',
] as const;

const EmitBody = z.strictObject({
  event: z.enum(ADMIN_EVENTS, {
    error: `must be one of ${ADMIN_EVENTS.join(', ')} (the other events follow the API request that causes them)`,
  }),
  store_id: z.number().int().optional(),
  id: z.union([z.number().int().positive(), z.string().min(1)]).optional(),
});

/** At most a year either way: a clock further off is no clock skew. */
const MAX_CLOCK_OFFSET_MS = 366 * 24 * 3_600_000;

/** `--clock-offset` that is not an offset the sandbox takes. */
export class ClockOffsetError extends Error {}

/** `--clock-offset -10m|+90s|2h|600`: seconds when no unit is given; negative puts the store behind. In ms. */
export function parseClockOffset(text: string): number {
  const match = /^\s*([+-]?)(\d{1,9})\s*(s|m|h)?\s*$/i.exec(text);
  const ms = match ? Number(match[2]) * { s: 1000, m: 60_000, h: 3_600_000 }[(match[3] ?? 's').toLowerCase() as 's' | 'm' | 'h'] : Number.NaN;
  if (!match || ms > MAX_CLOCK_OFFSET_MS) {
    throw new ClockOffsetError(`--clock-offset "${text}" is not an offset of at most a year; write it like -10m, +90s or 2h.`);
  }
  return match[1] === '-' ? -ms : ms;
}

const ClockBody = z.strictObject({
  offset_ms: z
    .number({ error: 'must be a number of milliseconds' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(-MAX_CLOCK_OFFSET_MS, { error: 'must be at most a year behind' })
    .max(MAX_CLOCK_OFFSET_MS, { error: 'must be at most a year ahead' }),
});

const THEMES = ['Amazonas', 'Idea', 'Lima', 'Material', 'Rio', 'Toluca'];

/**
 * These routes sit outside the /v1 pipeline, which parses bodies for the API: parse and check here. They
 * change the sandbox without a token, so only `Content-Type: application/json` is taken (else 415): a web page
 * can post a form or text/plain to 127.0.0.1 without asking, but not JSON without a CORS preflight.
 */
function jsonBody<S extends z.ZodType>(schema: S, req: FastifyRequest): z.infer<S> {
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw httpError(415, 'The sandbox admin endpoints take only Content-Type: application/json');
  const raw = req.body;
  let value: unknown = {};
  if (typeof raw === 'string' && raw.trim() !== '') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw httpError(400, 'The body is not valid JSON');
    }
  }
  return parseBody(schema, value);
}

export function registerAdmin(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.post('/sandbox/stores', async (req, reply) => {
    const body = jsonBody(NewStoreBody, req);
    const main = body.main_language ?? body.languages[0];
    if (!body.languages.includes(main)) {
      throw httpError(422, 'Invalid main_language: must be one of languages', { main_language: ['must be one of languages'] });
    }
    const id = state.mutate('sandbox.store.create', (tx) => createStore(tx, state, { ...body, main_language: main }));
    return reply.code(201).send(state.storeRecords.get(id));
  });

  app.post('/sandbox/apps', async (req, reply) => {
    const body = jsonBody(NewAppBody, req);
    const created = state.mutate('sandbox.app.create', (tx) => createApp(tx, state, body));
    return reply.code(201).send(created);
  });

  app.post<{ Params: { clientId: string } }>('/sandbox/apps/:clientId/uninstall', async (req, reply) => {
    const body = jsonBody(UninstallBody, req);
    const uninstalled = state.apps.get(req.params.clientId);
    if (!uninstalled) throw httpError(404, `App ${req.params.clientId} not found`);
    const store = body.store_id === undefined ? state.defaultStore() : state.store(body.store_id);
    if (!store) throw httpError(404, `Store ${body.store_id} not found`);
    const appId = uninstalled.client_id;
    if (appId === state.apps.values().next().value?.client_id) {
      // Its token is the one every CLI command on the sandbox profile uses, and `sandbox reset` keeps it.
      throw httpError(422, 'The demo app cannot be uninstalled: the CLI works through its token; register another app with POST /sandbox/apps', {
        client_id: ['is the demo app'],
      });
    }
    const tokens = state.tokens.list().filter((t) => t.store_id === store.id && t.app_id === appId);
    const webhooks = store.webhooks.list().filter((w) => w.app_id === appId);
    if (tokens.length === 0 && webhooks.length === 0) {
      throw httpError(422, `App ${appId} is not installed on store ${store.id}`, { client_id: ['is not installed on this store'] });
    }
    state.mutate('sandbox.app.uninstall', (tx) => {
      for (const t of tokens) tx.delete(state.tokens, t.token);
    });
    // Delivered while the app's webhooks still exist (delivery reads them now), then they go with the app.
    ctx.emit('app/uninstalled', store.id, Number(appId));
    state.mutate('sandbox.app.webhooks.remove', (tx) => {
      for (const w of webhooks) tx.delete(store.webhooks, w.id);
    });
    return reply.send({ store_id: store.id, app_id: appId, tokens_revoked: tokens.length, webhooks_removed: webhooks.length });
  });

  const clockReply = () => ({ now: new Date(state.storeNow()).toISOString(), offset_ms: state.clockOffsetMs });
  app.get('/sandbox/clock', async () => clockReply());
  app.post('/sandbox/clock', async (req) => {
    state.clockOffsetMs = jsonBody(ClockBody, req).offset_ms;
    return clockReply();
  });

  app.post('/sandbox/events', async (req, reply) => {
    const body = jsonBody(EmitBody, req);
    const store = body.store_id === undefined ? state.defaultStore() : state.store(body.store_id);
    if (!store) throw httpError(404, `Store ${body.store_id} not found`);
    const { event } = body;
    let id: number | string | undefined = body.id;
    let data: Record<string, unknown> | undefined;
    const resource = event.slice(0, event.indexOf('/'));
    if (resource === 'order' && id === undefined) {
      // The newest order, as the admin panel would act on.
      id = store.orders.list().reduce<number | undefined>((newest, o) => Math.max(newest ?? 0, Number(o.id)), undefined);
      if (id === undefined) throw httpError(422, 'The store has no order to emit an order event about', { id: ['no order exists'] });
    } else if (resource === 'fulfillment_order' && id === undefined) {
      // ULIDs sort by time: the last is the newest.
      id = store.fulfillmentOrders.list().map((f) => String(f.id)).sort().at(-1);
      if (id === undefined) throw httpError(422, 'The store has no fulfillment order to emit an event about', { id: ['no fulfillment order exists'] });
    } else if (resource === 'cart' && id === undefined) {
      id = state.mutate('sandbox.event.cart', (tx) => tx.nextId(store, 'cart', 1_000_001));
    } else if (resource === 'app' && id === undefined) {
      id = Number(state.apps.values().next().value?.client_id);
    } else if (event === 'domain/updated') {
      id = undefined;
    } else if (event === 'theme/updated') {
      id = undefined;
      const n = state.mutate('sandbox.event.theme', (tx) => tx.nextId(store, 'theme'));
      data = { old_theme: THEMES[(n - 1) % THEMES.length], new_theme: THEMES[n % THEMES.length] };
    }
    ctx.emit(event, store.id, id, data);
    return reply.send({ store_id: store.id, event, ...(id === undefined ? {} : { id }), ...data });
  });
}
