import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Clock } from '../platform/clock.js';
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER, webhookSignature } from '../platform/webhook-headers.js';

/**
 * Webhook notifications (docs/api-rules.md §5.17; docs/platform.md §7): a POST of `{store_id, event, id}` — without `id` for
 * some events (`domain/updated`), with more fields for others (`theme/updated`) — to the registered url with the
 * registered headers, signed with `x-linkedstore-hmac-sha256` (lowercase hex HMAC-SHA256 of the raw body,
 * keyed with the app's client secret) and identified by `x-store-delivery-id`, the same on every retry.
 * A non-2xx answer, a network error or no answer within the timeout is retried after base, 2×base, 4×base …
 * up to `maxAttempts` attempts: delivery is at least once, so a receiver may see duplicates.
 *
 * Pending deliveries live in memory only: a notification still being retried when the sandbox stops is
 * lost (its resource change itself is persisted; only the notification is dropped).
 */

export interface WebhookPayload {
  store_id: number;
  event: string;
  id?: number | string;
  /** Further fields of the body (`theme/updated`: `old_theme`, `new_theme`). */
  data?: Record<string, unknown>;
}

export interface WebhookTarget {
  url: string;
  headers?: Record<string, string>;
  /** The client secret of the app that registered the webhook: the signing key. */
  secret: string;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveryRecord {
  deliveryId: string;
  url: string;
  event: string;
  resourceId?: number | string;
  state: DeliveryState;
  attempts: number;
  /** HTTP status of the last attempt, or undefined when it got no answer. */
  lastStatus?: number;
  lastError?: string;
}

export interface DeliveryOptions {
  clock: Clock;
  /** Delay before the first retry; each later retry waits twice as long as the one before. */
  retryBaseMs?: number;
  maxAttempts?: number;
  timeoutMs?: number;
  /** Called after every attempt; the record is a snapshot. */
  onAttempt?: (record: DeliveryRecord) => void;
}

const DEFAULT_RETRY_BASE_MS = 1_000;
const DEFAULT_MAX_ATTEMPTS = 8;
const DELIVERY_TIMEOUT_MS = 3_000;
/** How many finished deliveries are kept for inspection. */
const HISTORY_LIMIT = 200;
/** Connections open at once per receiver host; more notifications wait their turn instead of flooding it. */
const MAX_SOCKETS_PER_HOST = 16;

interface Job {
  record: DeliveryRecord;
  body: string;
  headers: Record<string, string>;
  timer?: unknown;
  request?: http.ClientRequest;
}

export class WebhookDeliverer {
  private readonly clock: Clock;
  private readonly retryBaseMs: number;
  private readonly maxAttempts: number;
  private readonly timeoutMs: number;
  private readonly active = new Map<string, Job>();
  private readonly history: DeliveryRecord[] = [];
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  private readonly agents = {
    http: new http.Agent({ maxSockets: MAX_SOCKETS_PER_HOST }),
    https: new https.Agent({ maxSockets: MAX_SOCKETS_PER_HOST }),
  };

  constructor(private readonly options: DeliveryOptions) {
    this.clock = options.clock;
    this.retryBaseMs = options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
    this.maxAttempts = Math.max(2, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  }

  /** Starts delivering one notification now; returns its delivery id. */
  deliver(target: WebhookTarget, payload: WebhookPayload): string {
    const deliveryId = randomUUID();
    if (this.closed) return deliveryId;
    const body = JSON.stringify({
      store_id: payload.store_id,
      event: payload.event,
      ...(payload.id === undefined ? {} : { id: payload.id }),
      ...payload.data,
    });
    const headers: Record<string, string> = {
      ...lowerCaseKeys(target.headers ?? {}),
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'store-sandbox-webhooks',
      [SIGNATURE_HEADER]: webhookSignature(body, target.secret),
      [DELIVERY_ID_HEADER]: deliveryId,
    };
    const job: Job = {
      record: {
        deliveryId,
        url: target.url,
        event: payload.event,
        resourceId: payload.id,
        state: 'pending',
        attempts: 0,
      },
      body,
      headers,
    };
    this.active.set(deliveryId, job);
    this.attempt(job);
    return deliveryId;
  }

  /** Deliveries still being attempted or waiting for a retry. */
  pending(): number {
    return this.active.size;
  }

  /** Pending deliveries and the most recent finished ones, oldest first. */
  records(): DeliveryRecord[] {
    return [...this.history, ...[...this.active.values()].map((job) => job.record)].map((r) => ({ ...r }));
  }

  /** Resolves when no delivery is pending (with a fake clock, retries only progress when it is advanced). */
  whenIdle(): Promise<void> {
    if (this.active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops every retry and aborts requests in flight; pending notifications are dropped. */
  close(): void {
    this.closed = true;
    for (const job of this.active.values()) {
      if (job.timer !== undefined) this.clock.clearTimeout(job.timer);
      job.request?.destroy();
    }
    this.active.clear();
    this.agents.http.destroy();
    this.agents.https.destroy();
    this.notifyIdle();
  }

  private attempt(job: Job): void {
    job.record.attempts += 1;
    let settled = false;
    const settle = (status: number | undefined, error?: string) => {
      if (settled) return;
      settled = true;
      if (job.timer !== undefined) this.clock.clearTimeout(job.timer);
      job.timer = undefined;
      job.request = undefined;
      this.finishAttempt(job, status, error);
    };

    let url: URL;
    try {
      url = new URL(job.record.url);
    } catch {
      settle(undefined, 'invalid url');
      return;
    }
    const secure = url.protocol === 'https:';
    const request = (secure ? https : http).request(url, {
      method: 'POST',
      headers: job.headers,
      agent: secure ? this.agents.https : this.agents.http,
    });
    job.request = request;
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => settle(response.statusCode));
      response.on('error', (err) => settle(response.statusCode, err.message));
    });
    request.on('error', (err) => settle(undefined, err.message));
    // The timeout counts from the moment a connection is assigned, not while waiting for a free one.
    request.once('socket', () => {
      if (settled) return;
      job.timer = this.clock.setTimeout(() => {
        settle(undefined, `no answer within ${this.timeoutMs} ms`);
        request.destroy();
      }, this.timeoutMs);
    });
    request.end(job.body);
  }

  private finishAttempt(job: Job, status: number | undefined, error: string | undefined): void {
    if (this.closed || !this.active.has(job.record.deliveryId)) return;
    job.record.lastStatus = status;
    job.record.lastError = error;
    const ok = status !== undefined && status >= 200 && status < 300;
    if (ok || job.record.attempts >= this.maxAttempts) {
      job.record.state = ok ? 'delivered' : 'failed';
      this.options.onAttempt?.({ ...job.record });
      this.active.delete(job.record.deliveryId);
      this.history.push(job.record);
      if (this.history.length > HISTORY_LIMIT) this.history.shift();
      this.notifyIdle();
      return;
    }
    this.options.onAttempt?.({ ...job.record });
    const delay = this.retryBaseMs * 2 ** (job.record.attempts - 1);
    job.timer = this.clock.setTimeout(() => {
      job.timer = undefined;
      if (!this.closed) this.attempt(job);
    }, delay);
  }

  private notifyIdle(): void {
    if (this.active.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
}
