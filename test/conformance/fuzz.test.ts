import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoreData } from '../../src/sandbox/state.js';
import { rawRequest, useSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { expectErrorBody, expectPlatform400, reloadedStateMatches, sandboxRoutes, tempStateDir, type RouteRow } from './support.js';

/**
 * Issue 3 "Bad input … the server never crashes": random bodies, content types, ids and query parameters sent to every route of a
 * running demo sandbox over HTTP. Every answer must be a proper status with a well-formed body (the error body
 * of DESIGN.md §5.3 on the API, the OAuth error body on the token endpoint), the server must keep answering,
 * and the state in memory must be exactly what the journal replays (no half-applied change).
 */

/** FUZZ_RUNS and FUZZ_SEED widen a hunt by hand (`FUZZ_RUNS=300 FUZZ_SEED=7 npx vitest run …`); the suite stays fixed. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 20);

/** Field names of every request body of the spec and DESIGN.md §5, so random objects reach the validators. */
const FIELDS = [
  'name', 'description', 'handle', 'parent', 'google_shopping_category', 'seo_title', 'seo_description', 'address',
  'is_default', 'allows_pickup', 'priority', 'id', 'price', 'promotional_price', 'cost', 'sku', 'stock',
  'stock_management', 'weight', 'width', 'inventory_levels', 'location_id', 'categories', 'images', 'src', 'position',
  'attributes', 'values', 'value', 'value_type', 'read_only', 'custom_fields', 'status', 'owner_note', 'customer',
  'products', 'variant_id', 'quantity', 'shipping', 'reason', 'restock', 'happened_at', 'estimated_delivery_at',
  'geolocation', 'latitude', 'longitude', 'namespace', 'key', 'owner_resource', 'owner_id', 'event', 'url',
  'headers', 'created_at', 'code', 'client_id', 'client_secret', 'grant_type', 'decision', 'plan', 'languages',
  'scopes', '__proto__', 'constructor',
];

/** Values that are nearly right as often as wrong: dates, money, ids, URLs, localized objects, extremes. */
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    '2026-11-21T14:05:00+00:00', '2026-02-30T10:00:00Z', '2026-11-21', 'yesterday', '25.00', '-1', '1e400', 'NaN',
    'https://example.com/a.jpg', 'http://127.0.0.1:1/hook', 'javascript:alert(1)', 'order/created', 'text_list', 'nfe',
    'list', 'Order', 'dispatched', 'paid', 'cancelled', 'fraud', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '',
  ),
  fc.constantFrom(0, -1, 1.5, 2 ** 53, -(2 ** 31), 1e308, 1234567890, 200, 201, 1001),
  fc.record({ es: fc.string(), pt: fc.oneof(fc.string(), fc.integer()) }, { requiredKeys: [] }),
  fc.record({ latitude: fc.double(), longitude: fc.double() }, { requiredKeys: [] }),
);

const fieldObject = fc.dictionary(fc.constantFrom(...FIELDS), nastyValue, { maxKeys: 6 });

type Body = { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType?: string };

const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 4, arbitrary: fieldObject.map((value) => ({ kind: 'json' as const, value })) },
  { weight: 2, arbitrary: fc.array(fieldObject, { maxLength: 3 }).map((value) => ({ kind: 'json' as const, value })) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => ({ kind: 'json' as const, value })) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }).map((text) => ({ kind: 'raw' as const, text, contentType: 'application/json' })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom(undefined, 'text/plain', 'application/x-www-form-urlencoded', 'application/jsonx'))
      .map(([text, contentType]) => ({ kind: 'raw' as const, text, contentType })),
  },
);

/** A path parameter: mostly an id that exists (so the request reaches the body validators), sometimes garbage. */
const idChoice = fc.oneof(
  { weight: 6, arbitrary: fc.nat().map((pick) => ({ kind: 'existing' as const, pick })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: fc.constantFrom('0', '-1', '99999999999999999999', '1.5', '1e3', 'null', '%00', '..').map((text) => ({ kind: 'text' as const, text })) },
);

/** Query parameters of the lists (pages, filters) with values that are right, wrong or absurd. */
const query = fc.dictionary(
  fc.constantFrom('page', 'per_page', 'status', 'created_at_min', 'created_at_max', 'handle', 'sku', 'owner_id', 'namespace', 'key', 'state', 'redirect_uri', 'scope', 'store_id'),
  fc.oneof(
    fc.constantFrom('1', '2', '0', '-1', '200', '201', '1e2', '99999999999999999999', 'open', 'closed', '2026-11-21T14:05:00+00:00', '2026-02-30', 'nfe', 'list', 'http://127.0.0.1:1/cb', 'https://evil.example/cb', ''),
    fc.string({ maxLength: 20 }),
  ),
  { maxKeys: 3 },
);

type IdChoice = { kind: 'existing'; pick: number } | { kind: 'text'; text: string };

function pickFrom<T>(items: T[], pick: number): T | undefined {
  return items.length ? items[pick % items.length] : undefined;
}

/** Fills the route's path parameters with ids that exist right now in the store (resources get deleted as we go). */
function fillPath(t: TestSandbox, store: StoreData, route: RouteRow, choice: IdChoice): string {
  const products = store.products.list().filter((p) => p.variants.length > 0);
  const product = choice.kind === 'existing' ? pickFrom(products, choice.pick) : undefined;
  const orders = store.fulfillmentOrders.list();
  const fo = choice.kind === 'existing' ? pickFrom(orders, choice.pick) : undefined;
  const events = (fo?.tracking_events as { id: string }[] | undefined) ?? [];
  const plainId = (): string | undefined => {
    const pick = choice.kind === 'existing' ? choice.pick : 0;
    const collection = route.url.includes('/locations/')
      ? store.locations
      : route.url.includes('/categories/')
        ? store.categories
        : route.url.includes('custom-fields/') || route.url.includes('custom_fields/')
          ? store.customFields
          : route.url.includes('/metafields/')
            ? store.metafields
            : route.url.includes('/webhooks/')
              ? store.webhooks
              : undefined;
    const record = collection ? pickFrom(collection.list() as { id: unknown }[], pick) : undefined;
    return record === undefined ? undefined : String(record.id);
  };
  const existing: Record<string, string | undefined> = {
    store_id: String(store.id),
    app_id: t.sandbox.clientId,
    product_id: product && String(product.id),
    variant_id: product && String(pickFrom(product.variants, choice.kind === 'existing' ? choice.pick : 0)!.id),
    image_id: product && product.images[0] && String(product.images[0].id),
    order_id: fo ? String(fo.order_id) : undefined,
    fulfillment_order_id: fo && String(fo.id),
    event_id: events[0]?.id,
    id: plainId(),
  };
  return route.url.replace(/:(\w+)/g, (_, name: string) => {
    if (name === 'store_id') return String(store.id);
    if (choice.kind === 'text') return encodeURIComponent(choice.text) || 'x';
    return encodeURIComponent(existing[name] ?? '1');
  });
}

/** The statuses a well-behaved API answers to a client's mistakes (a valid token with every scope is sent). */
const API_STATUSES = [200, 201, 204, 400, 404, 413, 415, 422];

describe('fuzz: random bodies to every route', () => {
  const stateDir = tempStateDir();
  const t = useSandbox({ seed: 'demo', stateDir });

  it('every route answers random bodies, content types, ids and queries with a proper status and body, and never fails', async () => {
    // Deletes go last, so the other routes still find resources to work on.
    const routes = (await sandboxRoutes())
      .filter((r) => r.method !== 'HEAD')
      .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    expect(routes.length).toBeGreaterThan(50);
    // The demo seed has no webhook; one gives the /webhooks/{id} routes something to find.
    expect((await t.post('/webhooks', { event: 'order/created', url: 'http://127.0.0.1:9/hook' })).status).toBe(201);
    const store = t.sandbox.state.store(t.sandbox.storeId)!;
    const origin = t.sandbox.apiUrl;
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(body, idChoice, query, async (b, id, params) => {
          const search = new URLSearchParams(params).toString();
          const path = fillPath(t, store, route, id) + (search ? `?${search}` : '');
          const headers: Record<string, string> = {
            'user-agent': `${t.sandbox.appName} (${t.sandbox.clientId})`,
            authentication: `bearer ${t.sandbox.accessToken}`,
          };
          const text = b.kind === 'json' ? JSON.stringify(b.value) : b.text;
          const contentType = b.kind === 'json' ? 'application/json' : b.contentType;
          if (contentType) headers['content-type'] = contentType;
          const res = await rawRequest(origin + path, { method: route.method, headers, body: text });
          const where = `${route.method} ${path} ${JSON.stringify(text).slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status, where).toBeLessThan(500);
          if (route.url.startsWith('/v1/')) {
            expect(API_STATUSES, where).toContain(res.status);
            if (res.status === 204) return;
            expect(res.headers['content-type'], where).toMatch(/^application\/json/);
            expect(res.body, where).not.toBeUndefined();
            // The fulfillment-order writes answer the 2025-03 resources' own 400 (platform.md §10), not the §1 envelope.
            if (res.status === 400 && route.url.includes('/fulfillment-orders') && !('code' in (res.body ?? {}))) expectPlatform400(res.body, where);
            else if (res.status >= 400) expectErrorBody(res, res.status, where);
            // The body rule of §5.2 comes before any route logic; a body on GET has no meaning and is ignored.
            if (route.method === 'GET') return;
            if (text.trim() !== '' && contentType?.split(';')[0] !== 'application/json') expect(res.status, where).toBe(415);
            else if (contentType === 'application/json' && text.trim() !== '' && !isJson(text)) expect(res.status, where).toBe(400);
          } else if (route.url === '/apps/authorize/token' && res.status >= 400) {
            expect(res.body, where).toEqual(expect.objectContaining({ error: expect.any(String) }));
          }
        }),
        { numRuns: RUNS_PER_ROUTE, seed: Number(process.env.FUZZ_SEED ?? 42) + routes.indexOf(route) },
      );
    }
    const alive = await t.get('/store');
    expect(alive.status).toBe(200);
    // Nothing a refused request touched stayed half-changed in memory: the journal replays to the same state.
    expect(reloadedStateMatches(t.sandbox, stateDir)).toBe(true);
  }, 300_000);
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
