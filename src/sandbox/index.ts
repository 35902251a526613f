import type { AddressInfo } from 'node:net';
import { systemClock } from '../platform/clock.js';
import { Persistence } from './persistence.js';
import { bootstrap } from './seed.js';
import { seedManyOrders } from './seed-many-orders.js';
import { PLANS, isPlan } from '../platform/plans.js';
import { createContext, type SandboxOptions } from './context.js';
import { buildServer } from './server.js';
import { SandboxState } from './state.js';
import { customersFromOrders } from './store/customers.js';
import { upgradeScopes } from './store/stores.js';

export type { SandboxOptions } from './context.js';

export interface RunningSandbox {
  /** Host root, without /v1. */
  apiUrl: string;
  /** OAuth host root (the same server). */
  authUrl: string;
  storeId: number;
  appName: string;
  clientId: string;
  clientSecret: string;
  /** The demo app's current token on the store (a renewal through OAuth replaces it). */
  readonly accessToken: string;
  pid: number;
  state: SandboxState;
  /** Stops listening, compacts the state to disk. Idempotent. */
  close(): Promise<void>;
  /** Settles once the sandbox has closed (by close() or by the idle timeout). */
  closed: Promise<void>;
}

/**
 * Brings a state written by an earlier sandbox up to what this one serves: the customers scopes for tokens that
 * held every scope, and a customer record for each customer its orders name (docs/platform.md §11).
 */
function upgradeState(state: SandboxState): void {
  upgradeScopes(state);
  for (const store of state.stores.values()) state.mutate('sandbox.upgrade.customers', (tx) => customersFromOrders(tx, store));
}

/**
 * Starts a sandbox (docs/sandbox.md). A state dir that already holds a state is replayed (seed is ignored); an
 * empty one, or none, starts with one app, one store and a token with every scope, plus the seed.
 */
export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const clock = opts.clock ?? systemClock;
  const plan = opts.plan ?? 'enterprise';
  if (!isPlan(plan)) {
    throw new Error(`Unknown plan "${plan}"; use one of ${PLANS.join(', ')}`);
  }
  const state = new SandboxState(clock);
  state.clockOffsetMs = opts.clockOffsetMs ?? 0;
  const persistence = opts.stateDir ? Persistence.open(opts.stateDir, state).persistence : undefined;
  upgradeState(state);
  let store = state.defaultStore();
  if (!store) {
    store = bootstrap(state, opts.seed ?? 'empty', plan);
  } else if (opts.plan && store.record.plan !== plan) {
    const current = store;
    state.mutate('store.plan', (tx) => tx.put(state.storeRecords, { ...current.record, plan }));
  }
  if (opts.orders !== undefined && opts.orders > 0) seedManyOrders(state, store.id, opts.orders);
  const defaultStore = store;
  const app = state.apps.values().next().value!;

  const ctx = createContext(state, clock, opts);
  const server = await buildServer(ctx);

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  let idleTimer: unknown;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      if (idleTimer !== undefined) clock.clearTimeout(idleTimer);
      await server.close();
      persistence?.close();
      resolveClosed();
    })();
    return closing;
  };

  if (opts.idleTimeoutSeconds !== undefined && opts.idleTimeoutSeconds > 0) {
    const idleMs = opts.idleTimeoutSeconds * 1000;
    let lastActivity = clock.now();
    let inFlight = 0;
    server.addHook('onRequest', async (_req, reply) => {
      inFlight++;
      lastActivity = clock.now();
      // 'close' fires for answered, aborted and destroyed responses alike; onResponse misses the last two,
      // which the `lost` and `reset` faults produce on purpose.
      reply.raw.once('close', () => {
        inFlight--;
        lastActivity = clock.now();
      });
    });
    // One timer at a time: when it fires early (activity since it was set) it re-arms for the remainder.
    const arm = (ms: number) => {
      idleTimer = clock.setTimeout(() => {
        const quiet = clock.now() - lastActivity;
        if (inFlight > 0 || quiet < idleMs) return arm(inFlight > 0 ? idleMs : idleMs - quiet);
        idleTimer = undefined;
        if (opts.onIdle) opts.onIdle();
        else void close();
      }, ms);
    };
    arm(idleMs);
  }

  const host = opts.host ?? '127.0.0.1';
  try {
    await server.listen({ host, port: opts.port ?? 0 });
  } catch (error) {
    await close();
    throw error;
  }
  const { port } = server.server.address() as AddressInfo;
  const root = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    apiUrl: root,
    authUrl: root,
    storeId: defaultStore.id,
    appName: app.name,
    clientId: app.client_id,
    clientSecret: app.client_secret,
    get accessToken() {
      const token = state.tokens.list().find((t) => t.store_id === defaultStore.id && t.app_id === app.client_id);
      return token?.token ?? '';
    },
    pid: process.pid,
    state,
    close,
    closed,
  };
}
