import { timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { EVENT_NAME } from '../../platform/webhook-events.js';
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER, webhookSignature } from '../../platform/webhook-headers.js';
import { NotFoundError } from '../../client/errors.js';
import { UsageError } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import type { Webhook } from '../../api/webhooks.js';
import type { Recorder } from '../../ledger/recorder.js';
import { formatTimestamp } from '../common/validate.js';

/**
 * The receiver behind `store webhooks listen`: a node:http server on loopback that does what docs/api-rules.md "Webhook notifications" asks of a
 * receiver: check the notification comes from the store (signature) and has the expected shape, fetch the
 * resource, and answer 200 only once that is done. It never prints: it emits `notification`, `refused`,
 * `duplicate`, `ignored` and `problem` events that the command renders.
 *
 * Delivery is at least once (docs/api-rules.md §5.17), so duplicates are dropped: a delivery id seen before, or, for a
 * sender that sends none, the same event and id again within `duplicateWindowMs`. A notification whose handling
 * failed (the resource could not be fetched, the forward target did not accept it) is answered with 5xx so the
 * store retries it; the retry is not printed twice.
 */

/** Notifications are three small fields; anything much larger is not one. */
const MAX_BODY_BYTES = 64 * 1024;
const DEFAULT_DUPLICATE_WINDOW_MS = 10_000;
/** Delivery ids remembered (oldest forgotten first): ample for the retries of any recent notification. */
const MAX_REMEMBERED = 10_000;
const FORWARD_TIMEOUT_MS = 10_000;
/** Hop-by-hop headers describe one connection, not the message: they are not forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection', 'host']);

export interface Notification {
  store_id: number;
  event: string;
  /** The resource's id; absent for some events (`domain/updated`, docs/platform.md §7). */
  id?: number | string;
  /** What else the body carried (`theme/updated`: `old_theme`, `new_theme`); absent when nothing. */
  data?: Record<string, unknown>;
}

/** What the listener learnt about the notification's resource. */
export interface ResourceView {
  /** One line for people: order number, status and total; a product's name; … */
  summary: string;
  /** The record as the store returned it; absent when it was not fetched (deleted, or nothing to fetch). */
  resource?: unknown;
}

export interface ReceivedNotification extends Notification {
  received_at: string;
  delivery_id?: string;
  summary: string;
  resource?: unknown;
}

export type ListenerEvents = {
  notification: [ReceivedNotification];
  /** Answered 4xx: not from the store or not a notification. */
  refused: [{ status: number; reason: string }];
  duplicate: [{ event: string; id?: number | string; delivery_id?: string }];
  /** Authentic but not for us (another store, an event not listened to): answered 200 and dropped. */
  ignored: [{ event: string; id?: number | string; reason: string }];
  /** Handling failed; answered 5xx so the store retries. */
  problem: [{ event: string; id?: number | string; message: string }];
};

export interface ListenerOptions {
  /** The app's client secret: the signing key. */
  secret: string;
  /** The store this profile works on; notifications of other stores are ignored. */
  storeId: number;
  /** Fetches and summarises a notification's resource. */
  describe: (notification: Notification) => Promise<ResourceView>;
  /** Only these events are handled (default: every one). */
  events?: readonly string[];
  /** Where each accepted notification is forwarded, with its original headers and raw body. */
  forwardTo?: string;
  port?: number;
  host?: string;
  duplicateWindowMs?: number;
  now?: () => number;
}

interface Seen {
  /** The notification line was emitted. */
  shown: boolean;
  /** Fully handled (shown and forwarded): later copies are answered 200 and dropped. */
  done: boolean;
  at: number;
  /** A copy being handled right now: a concurrent retry waits for it instead of repeating the work. */
  running?: Promise<number>;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
  }
}

export class WebhookListener extends EventEmitter<ListenerEvents> {
  private readonly server: http.Server;
  private readonly seen = new Map<string, Seen>();
  private readonly now: () => number;
  private readonly windowMs: number;
  private readonly secret: Buffer;

  constructor(private readonly options: ListenerOptions) {
    super();
    this.now = options.now ?? Date.now;
    this.windowMs = options.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS;
    this.secret = Buffer.from(options.secret, 'utf8');
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) answer(res, 500, 'internal error');
        this.emit('problem', { event: '', id: '', message: (error as Error).message });
      });
    });
  }

  /** Binds the port (0 picks a free one); resolves with the URL a webhook should be registered with. */
  async start(): Promise<{ port: number; url: string }> {
    const host = this.options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.server.address() as AddressInfo;
    return { port, url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/webhooks` };
  }

  /** Stops accepting notifications and closes idle connections. */
  async stop(): Promise<void> {
    if (!this.server.listening) return;
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeIdleConnections();
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let raw: Buffer;
    let notification: Notification;
    try {
      if (req.method !== 'POST') throw new Refusal(405, `${req.method} instead of POST`);
      raw = await readBody(req);
      this.checkSignature(req.headers[SIGNATURE_HEADER], raw);
      notification = parseNotification(raw);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      this.emit('refused', { status: error.status, reason: error.message });
      answer(res, error.status, error.message);
      return;
    }
    const { event, id } = notification;
    if (notification.store_id !== this.options.storeId) {
      this.emit('ignored', { event, id, reason: `it is for store ${notification.store_id}, not ${this.options.storeId}` });
      answer(res, 200, 'ignored: another store');
      return;
    }
    if (this.options.events && !this.options.events.includes(event)) {
      this.emit('ignored', { event, id, reason: 'not among the events listened to' });
      answer(res, 200, 'ignored: event not listened to');
      return;
    }

    const deliveryId = headerValue(req.headers[DELIVERY_ID_HEADER]);
    // Without a delivery id, an event without a resource id is told apart by its whole body.
    const key = deliveryId ? `delivery ${deliveryId}` : `event ${event} ${id ?? raw.toString('utf8')}`;
    this.forgetOld();
    let entry = this.seen.get(key);
    if (entry?.done) {
      this.emit('duplicate', { event, id, delivery_id: deliveryId });
      answer(res, 200, 'duplicate');
      return;
    }
    if (entry?.running) {
      const status = await entry.running;
      if (status === 200) this.emit('duplicate', { event, id, delivery_id: deliveryId });
      answer(res, status, status === 200 ? 'duplicate' : 'not handled');
      return;
    }
    if (!entry) {
      entry = { shown: false, done: false, at: this.now() };
      this.seen.set(key, entry);
    }
    const current = entry;
    current.running = this.process(current, notification, deliveryId, req.headers, raw);
    try {
      const status = await current.running;
      answer(res, status, status === 200 ? 'ok' : 'not handled');
    } finally {
      current.running = undefined;
    }
  }

  /** Shows the notification once, forwards it; resolves with the status to answer. */
  private async process(
    entry: Seen,
    notification: Notification,
    deliveryId: string | undefined,
    headers: http.IncomingHttpHeaders,
    raw: Buffer,
  ): Promise<number> {
    const { event, id } = notification;
    if (!entry.shown) {
      let view: ResourceView;
      try {
        view = await this.options.describe(notification);
      } catch (error) {
        this.emit('problem', { event, id, message: `could not fetch it: ${(error as Error).message}` });
        return 503;
      }
      entry.shown = true;
      this.emit('notification', {
        received_at: formatTimestamp(new Date(this.now())),
        store_id: notification.store_id,
        event,
        ...(id === undefined ? {} : { id }),
        ...(notification.data ? { data: notification.data } : {}),
        delivery_id: deliveryId,
        summary: view.summary,
        ...(view.resource === undefined ? {} : { resource: view.resource }),
      });
    }
    if (this.options.forwardTo) {
      const outcome = await forward(this.options.forwardTo, headers, raw);
      if (outcome.error !== undefined || outcome.status < 200 || outcome.status >= 300) {
        const what = outcome.error ?? `answered ${outcome.status}`;
        this.emit('problem', { event, id, message: `${this.options.forwardTo} ${what}; the store will retry` });
        return 502;
      }
    }
    entry.done = true;
    return 200;
  }

  private checkSignature(header: string | string[] | undefined, raw: Buffer): void {
    const given = headerValue(header)?.trim().toLowerCase();
    if (!given) throw new Refusal(401, `no ${SIGNATURE_HEADER} header`);
    const expected = Buffer.from(webhookSignature(raw, this.secret), 'utf8');
    const actual = Buffer.from(given, 'utf8');
    // timingSafeEqual needs equal lengths; a wrong length is as wrong as any other mismatch.
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
      throw new Refusal(401, `the ${SIGNATURE_HEADER} signature does not match the body (wrong client secret, or not from the store)`);
    }
  }

  /** Keeps the duplicate memory bounded: event-and-id keys last one window, delivery ids the newest MAX_REMEMBERED. */
  private forgetOld(): void {
    const now = this.now();
    for (const [key, entry] of this.seen) {
      if (entry.running) continue;
      const expired = key.startsWith('event ') && now - entry.at >= this.windowMs;
      if (expired || this.seen.size > MAX_REMEMBERED) this.seen.delete(key);
    }
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text;
}

function answer(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Refusal(413, `a body over ${MAX_BODY_BYTES} bytes`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * `{store_id, event, id?}` (docs/api-rules.md "Webhook notifications", docs/platform.md §7): store_id an integer, id an integer or a ULID string, and
 * absent for some events (`domain/updated`); other fields (`theme/updated`'s `old_theme`, `new_theme`) are kept.
 */
function parseNotification(raw: Buffer): Notification {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new Refusal(400, 'a body that is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Refusal(400, 'a body that is not a JSON object');
  const { store_id: rawStoreId, event, id, ...rest } = body as Record<string, unknown>;
  // A numeric string is read as the number it holds (docs/platform.md §0).
  const storeId = typeof rawStoreId === 'string' && /^\d+$/.test(rawStoreId) ? Number(rawStoreId) : rawStoreId;
  if (typeof storeId !== 'number' || !Number.isSafeInteger(storeId)) throw new Refusal(400, 'a notification without an integer store_id');
  if (typeof event !== 'string' || !EVENT_NAME.test(event)) throw new Refusal(400, 'a notification without an event such as order/created');
  const notification: Notification = { store_id: storeId, event };
  if (id !== undefined && id !== null) {
    const validId = (typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && id.trim() !== '');
    if (!validId) throw new Refusal(400, 'a notification whose id is neither an integer nor a text id');
    notification.id = id as number | string;
  }
  if (Object.keys(rest).length > 0) notification.data = rest;
  return notification;
}

/** Sends the original notification on: same headers (less hop-by-hop ones), same raw body, so its signature still verifies. */
function forward(target: string, headers: http.IncomingHttpHeaders, raw: Buffer): Promise<{ status: number; error?: string }> {
  const url = new URL(target);
  const outgoing: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) outgoing[name] = value;
  outgoing['content-length'] = raw.length;
  return new Promise((resolve) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, { method: 'POST', headers: outgoing, agent: false });
    request.setTimeout(FORWARD_TIMEOUT_MS, () => request.destroy(new Error(`gave no answer within ${FORWARD_TIMEOUT_MS / 1000} s`)));
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
      response.on('error', (err) => resolve({ status: 0, error: err.message }));
    });
    request.on('error', (err) => resolve({ status: 0, error: `could not be reached (${err.message})` }));
    request.end(raw);
  });
}

/**
 * The default `describe`: fetches the record through its API module (orders, products, categories, locations)
 * and summarises it. Deleted records, and the events whose id cannot be fetched on its own (a fulfillment order
 * is only reachable through its order; app/uninstalled has no record), are summarised without a request.
 */
export function resourceDescriber(client: StoreClient): (n: Notification) => Promise<ResourceView> {
  return async (notification) => {
    try {
      return await fetchAndSummarise(client, notification);
    } catch (error) {
      // Gone again before we looked (a later event will say so): nothing to fetch, nothing to retry.
      if (error instanceof NotFoundError) {
        const what = [notification.event.split('/')[0], notification.id].filter((part) => part !== undefined).join(' ');
        return { summary: `${what} no longer exists` };
      }
      throw error;
    }
  };
}

async function fetchAndSummarise(client: StoreClient, { event, id, data }: Notification): Promise<ResourceView> {
  const kind = event.slice(0, event.indexOf('/'));
  if (event.endsWith('/deleted')) return { summary: `${kind.replace('_', ' ')} deleted` };
  if (event === 'theme/updated') return { summary: `theme ${String(data?.old_theme ?? '?')} → ${String(data?.new_theme ?? '?')}` };
  if (event === 'domain/updated') return { summary: "the store's domain changed" };
  if (kind === 'fulfillment_order') return { summary: shipmentSummary(event, id, data) };
  // Nothing to fetch without an id: say what happened.
  if (id === undefined) return { summary: event.replace('/', ' ').replace(/_/g, ' ') };
  const numericId = typeof id === 'number' ? id : Number(id);
  switch (kind) {
    case 'order': {
      const { getOrder } = await import('../../api/orders.js');
      const order = await getOrder(client, numericId);
      const total = [order.total ?? order.price, order.currency].filter((p) => p !== undefined && p !== null && p !== '').join(' ');
      // Status and payment are separate states on the platform (docs/platform.md §4): "open/paid".
      const state = [order.status, order.payment_status].filter(Boolean).join('/');
      return { summary: `#${order.number ?? '?'} ${state}${total ? ` ${total}` : ''}`, resource: order };
    }
    case 'product': {
      const { getProduct } = await import('../../api/products.js');
      const product = await getProduct(client, numericId);
      const variants = product.variants.length;
      return { summary: `${localizedText(product.name)} (${variants} variant${variants === 1 ? '' : 's'})`, resource: product };
    }
    case 'category': {
      const { getCategory } = await import('../../api/categories.js');
      const category = await getCategory(client, numericId);
      return { summary: localizedText(category.name), resource: category };
    }
    case 'location': {
      const { listLocations } = await import('../../api/locations.js');
      const location = (await listLocations(client)).find((l) => l.id === String(id));
      if (!location) return { summary: 'location no longer exists' };
      return { summary: `${localizedText(location.name)}${location.is_default ? ' (default)' : ''}`, resource: location };
    }
    case 'app':
      if (event === 'app/uninstalled') return { summary: 'the app was uninstalled: its token no longer works' };
      return { summary: `the app was ${event.slice(event.indexOf('/') + 1)}` };
    case 'cart':
      return { summary: `cart ${id} ${event.slice(event.indexOf('/') + 1)}` };
    default:
      return { summary: '' };
  }
}

/** A fulfillment_order/* body names the order, shipment, status and event (docs/platform.md §10); older ones only `id`. */
function shipmentSummary(event: string, id: number | string | undefined, data: Record<string, unknown> | undefined): string {
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);
  const [order, status, tracking] = [text(data?.order_id), text(data?.status), text(data?.tracking_event_id)];
  const of = `shipment ${text(data?.fulfillment_id) ?? text(id) ?? '?'}${order ? ` of order ${order}` : ''}`;
  if (event === 'fulfillment_order/status_updated') return status ? `${of} is now ${status}` : `${of}: status updated`;
  return `tracking event${tracking ? ` ${tracking}` : ''} ${event.slice(event.lastIndexOf('_') + 1)} on ${of}${status ? ` (${status})` : ''}`;
}

function localizedText(value: string | Record<string, string | null>): string {
  if (typeof value === 'string') return value;
  return Object.values(value).find((v): v is string => typeof v === 'string' && v !== '') ?? '';
}

export interface ListenSession {
  listener: WebhookListener;
  /** The address the store posts to. */
  url: string;
  port: number;
  /** Webhooks registered for this session (removed by `close`). */
  registered: { id: number; event: string }[];
  /** Removes the registered webhooks, then stops the receiver. */
  close(): Promise<{ removed: number[]; failed: { id: number; message: string }[] }>;
}

export interface ListenOptions {
  client: StoreClient;
  /** The run ledger's recorder: the webhooks registered and removed are writes like any other. */
  recorder: Recorder;
  storeId: number;
  secret: string;
  events?: readonly string[];
  forwardTo?: string;
  port?: number;
  /** Register a webhook per event pointing at the receiver (only a store that can reach loopback, the sandbox, can use it). */
  register: boolean;
  /** Called before a notification can arrive, so no event is missed. */
  subscribe?: (listener: WebhookListener) => void;
}

/**
 * Starts the receiver and, when asked, registers one webhook per event (every event by default) pointing at it.
 * If a registration fails, the ones already made are removed before the error is passed on.
 */
export async function startListening(options: ListenOptions): Promise<ListenSession> {
  const { WEBHOOK_EVENTS } = await import('../../api/webhooks.js');
  const { addWebhook, removeWebhook } = await import('./webhooks.js');
  const listener = new WebhookListener({
    secret: options.secret,
    storeId: options.storeId,
    events: options.events,
    forwardTo: options.forwardTo,
    port: options.port,
    describe: resourceDescriber(options.client),
  });
  options.subscribe?.(listener);
  const { url, port } = await listener.start().catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE' || error.code === 'EACCES') {
      const why = error.code === 'EADDRINUSE' ? 'already in use' : 'not open to this user';
      throw new UsageError(`--port ${options.port}: the port is ${why} on 127.0.0.1; choose another, or leave --port out for a free one.`);
    }
    throw error;
  });
  const registered: { id: number; event: string; record: Webhook }[] = [];

  const close = async () => {
    const removed: number[] = [];
    const failed: { id: number; message: string }[] = [];
    for (const webhook of registered.splice(0)) {
      try {
        await removeWebhook(options.client, options.recorder, webhook.id, webhook.record);
        removed.push(webhook.id);
      } catch (error) {
        failed.push({ id: webhook.id, message: (error as Error).message });
      }
    }
    await listener.stop();
    return { removed, failed };
  };

  if (options.register) {
    try {
      for (const event of options.events ?? WEBHOOK_EVENTS) {
        const webhook = await addWebhook(options.client, options.recorder, { event, url });
        registered.push({ id: webhook.id, event: webhook.event ?? event, record: webhook });
      }
    } catch (error) {
      await close();
      throw error;
    }
  }
  return { listener, url, port, registered, close };
}
