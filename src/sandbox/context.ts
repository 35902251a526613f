import { EventEmitter } from 'node:events';
import type { BucketConfig } from './bucket.js';
import type { Clock } from '../platform/clock.js';
import type { SandboxState } from './state.js';

/**
 * The route contract: what a route module (routes/*.ts), OAuth and the admin endpoints receive from the server.
 * Routes import it from here, never from server.ts, which imports every route.
 *
 * How a route module plugs in:
 *
 *   // src/sandbox/routes/orders.ts
 *   import type { FastifyInstance } from 'fastify';
 *   import type { SandboxContext } from '../context.js';
 *   export function register(api: FastifyInstance, ctx: SandboxContext): void {
 *     api.get('/orders/:order_id', async (req, reply) => { ... req.store ... });
 *   }
 *
 * - `api` is the `/v1/:store_id` plugin: paths are relative to the store (`/orders`), and by the time a
 *   handler runs the pipeline (http.ts) has checked User-Agent, token, store, bucket (headers set), JSON body
 *   (parsed into `req.body`) and the scope, which is derived from the path (override with
 *   `{ config: { scope: 'orders' } }`, or `null` for none). `req.store` is the StoreData, `req.auth` the token.
 * - Throw `httpError(status, description, fieldErrors?)`; lists answer with `paginate(req, reply, items, present)`.
 * - Change state only through `ctx.state.mutate(label, tx => …)` (see state.ts), calling the operations of
 *   store/*.ts (records and what changes them; the seeds use them too), then announce with
 *   `ctx.emit('order/created', storeId, id)`; webhook delivery subscribes with
 *   `ctx.events.on('webhook', (e: WebhookEvent) => …)`, typically in its own `register`.
 * - Cleanup: `api.addHook('onClose', …)` runs when the sandbox closes.
 * - Add the module to ROUTE_MODULES in server.ts.
 */

export interface SandboxOptions {
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Directory of the journal and snapshot; undefined = in memory only. */
  stateDir?: string;
  /** What a new state starts with (ignored when stateDir already holds a state). Default `empty`. */
  seed?: 'demo' | 'empty';
  /** Orders to add at start, spread over the last year (`--orders N`: seed-many-orders.ts). */
  orders?: number;
  /** The store's plan (applied on every start). Default `enterprise`. */
  plan?: string;
  /** Bucket capacity and leak rate (×10 on plans next/evolution), or 'off'. Default 40 and 2/s. */
  rate?: BucketConfig | 'off';
  /**
   * The weighted bucket of variant writes (weighted.ts, docs/platform.md §12): capacity and leak in weight units,
   * or 'off'. Default: WEIGHTED_RATE (×10 on plans next/evolution) when `rate` is on, off when `rate` is 'off'.
   */
  weightedRate?: BucketConfig | 'off';
  /** Fault injection spec (faults.ts). */
  faults?: string;
  /** Approve OAuth requests without showing the approve page. */
  autoApprove?: boolean;
  /** Lifetime of OAuth codes. Default 300. */
  codeTtlSeconds?: number;
  /** Delay before the first webhook retry. */
  webhookRetryBaseMs?: number;
  /** Calls onIdle (default: closes the sandbox) after this long without requests. */
  idleTimeoutSeconds?: number;
  onIdle?: () => void;
  clock?: Clock;
  /**
   * How far the store's clock runs from the machine's (ms; negative: behind): records are stamped, and the
   * `Date` header set, by that clock (`--clock-offset`; `POST /sandbox/clock` changes it while running).
   */
  clockOffsetMs?: number;
  /**
   * Called with every request the server receives, before any check or injected fault: lets a test count
   * exactly what reached the sandbox (not what a client believes it sent). A promise it returns is awaited
   * before the request is handled, so a test can change the store between two pages of a client's walk.
   */
  onRequest?: (request: { method: string; url: string }) => void | Promise<void>;
}

export interface WebhookEvent {
  event: string;
  storeId: number;
  /** The resource's id; absent for events about no one record (`domain/updated`). */
  id?: number | string;
  /** Further fields of the notification body (`theme/updated`: `old_theme`, `new_theme`). */
  data?: Record<string, unknown>;
}

export interface SandboxContext {
  state: SandboxState;
  clock: Clock;
  options: SandboxOptions;
  /** Emits `webhook` with a WebhookEvent; call after the change is committed. */
  emit(event: string, storeId: number, id?: number | string, data?: Record<string, unknown>): void;
  events: EventEmitter;
}

export function createContext(state: SandboxState, clock: Clock, options: SandboxOptions): SandboxContext {
  const events = new EventEmitter();
  return {
    state,
    clock,
    options,
    events,
    emit(event, storeId, id, data) {
      const payload: WebhookEvent = { event, storeId, ...(id === undefined ? {} : { id }), ...(data ? { data } : {}) };
      events.emit('webhook', payload);
    },
  };
}
