import { randomBytes } from 'node:crypto';
import { ALL_SCOPES, SCOPES_BEFORE_CUSTOMERS } from '../http.js';
import type { AppRecord } from '../records.js';
import type { SandboxState, Tx } from '../state.js';

/** Apps and stores of the sandbox: made at first start (seed.ts) and through the admin endpoints (admin.ts). */

/** The CLI's browser login listens here (docs/decisions.md "Profiles and credentials"), so it is the demo app's registered redirect URL. */
const SANDBOX_REDIRECT_URL = 'http://127.0.0.1:8976/callback';
const FIRST_STORE_ID = 1_000_001;
const FIRST_APP_ID = 5_001;

export interface NewApp {
  name: string;
  redirect_url?: string;
  scopes?: string[];
}

export interface NewStore {
  name: string;
  plan: string;
  languages: string[];
  main_language: string;
  currency?: string;
  country?: string;
}

/** Registers an app (the demo app at first start; more through POST /sandbox/apps). Returns its client id. */
export function createApp(tx: Tx, state: SandboxState, app: NewApp): AppRecord {
  const record: AppRecord = {
    client_id: String(tx.nextGlobalId('app', FIRST_APP_ID)),
    client_secret: randomBytes(24).toString('hex'),
    name: app.name,
    redirect_url: app.redirect_url ?? SANDBOX_REDIRECT_URL,
    scopes: app.scopes ?? ALL_SCOPES,
  };
  tx.put(state.apps, record);
  return record;
}

/** Opens an empty store (the first at first start; more through POST /sandbox/stores). Returns its id. */
export function createStore(tx: Tx, state: SandboxState, store: NewStore): number {
  const id = tx.nextGlobalId('store', FIRST_STORE_ID);
  tx.put(state.storeRecords, {
    id,
    name: store.name,
    plan: store.plan,
    languages: store.languages,
    main_language: store.main_language,
    currency: store.currency ?? 'ARS',
    country: store.country ?? 'AR',
    created_at: tx.now(),
  });
  return id;
}

/**
 * A state written before the customers scopes existed: every app and token that held all the scopes of then is
 * given the new ones, so the demo app's "token with every scope" still has every scope. Narrower ones stay as
 * they were (an app installed with read_orders does not gain read_customers).
 */
export function upgradeScopes(state: SandboxState): void {
  const widen = (scopes: string[]) =>
    SCOPES_BEFORE_CUSTOMERS.every((s) => scopes.includes(s)) && !ALL_SCOPES.every((s) => scopes.includes(s));
  const every = (scopes: string[]) => Array.from(new Set([...scopes, ...ALL_SCOPES]));
  const apps = state.apps.list().filter((a) => widen(a.scopes));
  const tokens = state.tokens.list().filter((t) => widen(t.scopes));
  if (apps.length === 0 && tokens.length === 0) return;
  state.mutate('sandbox.upgrade.scopes', (tx) => {
    for (const app of apps) tx.put(state.apps, { ...app, scopes: every(app.scopes) });
    for (const token of tokens) tx.put(state.tokens, { ...token, scopes: every(token.scopes) });
  });
}
