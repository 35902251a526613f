import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { profileTokenVariable } from '../../src/auth/context.js';
import { cliEnv } from './sandbox.js';
import type { BulkStore } from './bulk-store-server.js';

/** A store of a test fleet: its profile and where it is. */
export interface FleetStore {
  profile: string;
  storeId: string;
  apiUrl: string;
  token: string;
  appName: string;
  appId: string;
}

/**
 * The environment of a fleet in temp XDG dirs: config.json with one profile per store (no stored login), each
 * token in its profile's own variable (STORE_TOKEN_<PROFILE>), as a CI runner or a pod without a keychain has them.
 */
export function fleetEnv(stores: FleetStore[], name = 'fleet'): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), `store-${name}-`));
  const config = join(dir, 'config', 'store');
  mkdirSync(config, { recursive: true });
  const profiles = Object.fromEntries(
    stores.map((s) => [s.profile, { store_id: s.storeId, api_url: s.apiUrl, app_name: s.appName, app_id: s.appId, scopes: [], secrets_store: 'file' }]),
  );
  writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles }, null, 2));
  return {
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
    STORE_TOKEN: '',
    STORE_ID: '',
    ...Object.fromEntries(stores.map((s) => [profileTokenVariable(s.profile), s.token])),
  };
}

/** A sandbox as a fleet's store under `profile`. */
export function sandboxStore(profile: string, sandbox: RunningSandbox): FleetStore {
  return { profile, storeId: String(sandbox.storeId), apiUrl: sandbox.apiUrl, token: sandbox.accessToken, appName: sandbox.appName, appId: sandbox.clientId };
}

/** Starts `n` sandboxes on loopback (each its own store and bucket), the demo store unless told. */
export async function startSandboxes(n: number, opts: SandboxOptions = {}): Promise<RunningSandbox[]> {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  return Promise.all(Array.from({ length: n }, () => startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0, ...opts })));
}

/** The environment that runs one store alone (STORE_TOKEN + STORE_ID), to compare a fleet's output with. */
export function aloneEnv(sandbox: RunningSandbox): NodeJS.ProcessEnv {
  return cliEnv(sandbox, 'alone');
}

/**
 * A fleet's independent store seeded through its own POST /products (platform.md §8), one product a request,
 * then its log of requests emptied: what a test then counts is the CLI's.
 */
export async function seedProducts(store: BulkStore, products: object[]): Promise<void> {
  for (const body of products) {
    const reply = await fetch(`${store.url}/v1/${store.storeId}/products`, {
      method: 'POST',
      headers: { authentication: `bearer ${store.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (reply.status !== 201) throw new Error(`seeding store ${store.storeId}: POST /products answered ${reply.status}: ${await reply.text()}`);
  }
  store.requests.length = 0;
}
