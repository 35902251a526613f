import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { FakeClock } from '../../src/platform/clock.js';
import { Persistence } from '../../src/sandbox/persistence.js';
import { bootstrap } from '../../src/sandbox/seed.js';
import { createContext } from '../../src/sandbox/context.js';
import { buildServer } from '../../src/sandbox/server.js';
import { SandboxState } from '../../src/sandbox/state.js';
import type { ApiResponse, TestSandbox } from '../helpers/sandbox.js';
import { address, errorShape } from '../helpers/sandbox.js';

/** Shared steps of the conformance files: OAuth round trips and the small catalog an order needs. */

export const REDIRECT_URI = 'http://127.0.0.1:8976/callback';

export interface AuthorizeResult {
  status: number;
  location: URL;
}

/**
 * Runs DESIGN.md §5.18's authorization: GET the authorize URL; when it shows the approve page (200), POST the
 * decision to the same URL. Returns the redirect (with `code`/`state` or `error`).
 */
export async function authorize(
  t: TestSandbox,
  opts: { state?: string; decision?: 'approve' | 'deny'; scope?: string; redirectUri?: string } = {},
): Promise<AuthorizeResult> {
  const url = new URL(`${t.sandbox.authUrl}/apps/${t.sandbox.clientId}/authorize`);
  url.searchParams.set('state', opts.state ?? 'st-123');
  url.searchParams.set('redirect_uri', opts.redirectUri ?? REDIRECT_URI);
  if (opts.scope) url.searchParams.set('scope', opts.scope);
  if (opts.decision !== 'deny') {
    const first = await fetch(url, { redirect: 'manual' });
    await first.text();
    if (first.status >= 300 && first.status < 400) {
      return { status: first.status, location: new URL(first.headers.get('location')!) };
    }
    expect(first.status).toBe(200);
  }
  const decided = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision: opts.decision ?? 'approve' }).toString(),
  });
  await decided.text();
  expect(decided.status).toBeGreaterThanOrEqual(300);
  expect(decided.status).toBeLessThan(400);
  return { status: decided.status, location: new URL(decided.headers.get('location')!) };
}

export async function exchangeCode(
  t: TestSandbox,
  code: string,
  overrides: Record<string, unknown> = {},
): Promise<ApiResponse> {
  const res = await fetch(`${t.sandbox.authUrl}/apps/authorize/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: t.sandbox.clientId,
      client_secret: t.sandbox.clientSecret,
      grant_type: 'authorization_code',
      code,
      ...overrides,
    }),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** A full authorization: returns the new token response body. */
export async function newToken(t: TestSandbox, scope?: string): Promise<{ access_token: string; scope: string; user_id: number }> {
  const { location } = await authorize(t, { scope });
  const code = location.searchParams.get('code');
  expect(code).toBeTruthy();
  const res = await exchangeCode(t, code!);
  expect(res.status).toBe(200);
  return res.body;
}

/** Installs an app on a store (the default one without storeId) through the approve form and the token exchange. */
export async function installApp(t: TestSandbox, app: { client_id: string; client_secret: string }, storeId?: number): Promise<{ token: string; userId: number }> {
  const root = t.sandbox.apiUrl;
  const query = new URLSearchParams({ state: 's1', redirect_uri: 'http://127.0.0.1:9/callback' });
  if (storeId !== undefined) query.set('store_id', String(storeId));
  const approve = await fetch(`${root}/apps/${app.client_id}/authorize?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'decision=approve',
    redirect: 'manual',
  });
  expect(approve.status).toBe(302);
  const code = new URL(approve.headers.get('location')!).searchParams.get('code');
  const exchange = await fetch(`${root}/apps/authorize/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: app.client_id, client_secret: app.client_secret, grant_type: 'authorization_code', code }),
  });
  expect(exchange.status).toBe(200);
  const body = (await exchange.json()) as { access_token: string; user_id: number };
  return { token: body.access_token, userId: body.user_id };
}

export function expectCreated(res: ApiResponse): void {
  expect([200, 201], `${res.status} ${res.text}`).toContain(res.status);
}

export function expectOk(res: ApiResponse): void {
  expect(res.status, res.text).toBeGreaterThanOrEqual(200);
  expect(res.status, res.text).toBeLessThan(300);
}

export async function createLocation(t: TestSandbox, name = 'Warehouse', extra: Record<string, unknown> = {}): Promise<any> {
  const res = await t.post('/locations', { name, address: address(), allows_pickup: false, ...extra });
  expectCreated(res);
  return res.body;
}

/** A product without variation holding `stock` units: returns {product, variant}. */
export async function createSimpleProduct(
  t: TestSandbox,
  opts: { name?: string; sku?: string; price?: number | string; stock?: number; inventory_levels?: unknown[] } = {},
): Promise<{ product: any; variant: any }> {
  const res = await t.post('/products', {
    name: opts.name ?? `Product ${uniq()}`,
    sku: opts.sku ?? `SKU-${uniq()}`,
    price: opts.price ?? 10,
    ...(opts.inventory_levels ? { inventory_levels: opts.inventory_levels } : { stock: opts.stock ?? 10 }),
  });
  expectCreated(res);
  const product = res.body;
  expect(Array.isArray(product.variants) && product.variants.length === 1, res.text).toBe(true);
  return { product, variant: product.variants[0] };
}

export async function createOrder(t: TestSandbox, items: { variant_id: number; quantity: number }[]): Promise<ApiResponse> {
  return t.post('/orders', {
    customer: { name: 'Ana Souza', email: 'ana@example.com', phone: '+55 11 99999-0000' },
    products: items,
  });
}

let counter = 0;
export function uniq(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter}`;
}

export async function variantStock(t: TestSandbox, productId: number, variantId: number): Promise<any> {
  const res = await t.get(`/products/${productId}/variants/${variantId}`);
  expect(res.status).toBe(200);
  return res.body;
}

export function tempStateDir(): string {
  return mkdtempSync(join(tmpdir(), 'store-sandbox-state-'));
}

/**
 * The 422s whose body platform.md §8 and §12 document word for word: the envelope alone, or with its fields at the top
 * level (`"price": [...]`, `"duplicate_variant_ids": [...]`) instead of the sandbox's `errors` map.
 */
const PLATFORM_422 = [
  /^Validation error$/,
  /^Too many variants sent for update$/,
  /^Variants cannot be repeated$/,
  /^Product is not allowed to have more than \d+ (variants|images)$/,
  /^Valid actions are 'replace', 'variation'\.$/,
];

/**
 * Asserts the error body of DESIGN.md §5.3: code, reason phrase, description; a 422 adds field errors (or, for the
 * 422s platform.md §8 documents, has the platform's own shape: every further field a non-empty array).
 */
export function expectErrorBody(res: { status: number; body: any; text: string }, status: number, message = res.text): void {
  expect(res.status, message).toBe(status);
  expect(res.body, message).toMatchObject(errorShape(status));
  expect(res.body.description, message).not.toBe('');
  if (status === 422 && res.body.errors === undefined && PLATFORM_422.some((d) => d.test(res.body.description))) {
    const { code: _code, message: _message, description: _description, ...fields } = res.body;
    for (const value of Object.values(fields)) expect(Array.isArray(value) && value.length > 0, message).toBe(true);
    return;
  }
  if (status === 422) {
    const errors = Object.entries(res.body.errors ?? {});
    expect(errors.length, message).toBeGreaterThan(0);
    for (const [, problems] of errors) {
      expect(Array.isArray(problems) && problems.length > 0 && problems.every((p) => typeof p === 'string'), message).toBe(true);
    }
  }
}

/** The generic 400 `{description, message}` or the validation `{description, messages: {field: [...]}}` (platform.md §10). */
export function expectPlatform400(body: any, message: string): void {
  expect(typeof body?.description, message).toBe('string');
  const keys = Object.keys(body).sort();
  if (keys.includes('messages')) {
    expect(keys, message).toEqual(['description', 'messages']);
    for (const problems of Object.values(body.messages)) expect(Array.isArray(problems) && problems.every((p) => typeof p === 'string'), message).toBe(true);
  } else {
    expect(keys, message).toEqual(['description', 'message']);
    expect(body.message, message).not.toBe('');
  }
}

export interface RouteRow {
  method: string;
  /** The route pattern, e.g. `/v1/:store_id/orders/:order_id`. */
  url: string;
}

/** Every route the sandbox serves, read from fastify's route tree, so a route added later is covered too. */
export async function sandboxRoutes(): Promise<RouteRow[]> {
  const clock = new FakeClock(0);
  const state = new SandboxState(clock);
  bootstrap(state, 'empty', 'enterprise');
  const app = await buildServer(createContext(state, clock, { rate: 'off' }));
  await app.ready();
  const tree = app.printRoutes({ commonPrefix: false });
  await app.close();
  const rows: RouteRow[] = [];
  const prefixes: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^(.*?)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = [...m[1]!].length / 4;
    prefixes.length = depth;
    const url = (depth ? prefixes[depth - 1] : '') + m[2];
    prefixes[depth] = url;
    for (const method of m[3]?.split(', ') ?? []) rows.push({ method, url });
  }
  return rows;
}

/** The whole state as sorted lines, for comparing two states regardless of insertion order. */
function stateLines(state: SandboxState): string[] {
  return [...state.dump()].map((change) => JSON.stringify(change)).sort();
}

/**
 * True when replaying a copy of the sandbox's state dir (snapshot + journal) gives exactly the state the sandbox
 * holds in memory: no change was applied in memory without being journaled, and the files load.
 */
export function reloadedStateMatches(sandbox: { state: SandboxState }, stateDir: string): boolean {
  const copy = tempStateDir();
  cpSync(stateDir, copy, { recursive: true });
  const replayed = new SandboxState(new FakeClock(0));
  Persistence.open(copy, replayed).persistence.close();
  const live = stateLines(sandbox.state);
  const loaded = stateLines(replayed);
  expect(loaded.length).toBe(live.length);
  expect(loaded.filter((line, i) => line !== live[i]).slice(0, 3)).toEqual([]);
  return true;
}
