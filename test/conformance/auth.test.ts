import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/platform/clock.js';
import { errorShape, rawRequest, startTestSandbox, useSandbox } from '../helpers/sandbox.js';
import { REDIRECT_URI, authorize, exchangeCode, newToken } from './support.js';

/** Spec §5 (OAuth, request headers), §7 (401), DESIGN.md §5.2, §5.3, §5.6, §5.18, §9 (versioning). */

describe('spec §5 OAuth 2.0 authorization code flow (DESIGN.md §5.18)', () => {
  const t = useSandbox();

  it('§5 step 2-3: GET {auth_url}/apps/{app_id}/authorize, approve → redirect to redirect_uri with code and state', async () => {
    const { location } = await authorize(t, { state: 'abc-42' });
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe('abc-42');
    expect(location.searchParams.get('code')).toMatch(/\S+/);
  });

  it('§5.18: the approve page is an HTML form that POSTs decision to the same URL', async () => {
    const url = `${t.sandbox.authUrl}/apps/${t.sandbox.clientId}/authorize?state=s&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`;
    const res = await fetch(url, { redirect: 'manual' });
    const html = await res.text();
    // Spec §5 step 2: an app approved before may skip the page and redirect at once.
    if (res.status === 200) {
      expect(html).toMatch(/<form/i);
      expect(html).toMatch(/decision/);
    } else {
      expect(res.status).toBeGreaterThanOrEqual(300);
      expect(new URL(res.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    }
  });

  it('§5.18: deny → redirect with error=access_denied and the state', async () => {
    const { location } = await authorize(t, { decision: 'deny', state: 'd-1' });
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('d-1');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('§5 step 4: POST {auth_url}/apps/authorize/token → access_token, token_type bearer, scope, user_id = store id', async () => {
    const { location } = await authorize(t);
    const res = await exchangeCode(t, location.searchParams.get('code')!);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ access_token: expect.any(String), token_type: 'bearer', scope: expect.any(String) });
    expect(Number(res.body.user_id)).toBe(t.sandbox.storeId);
    const store = await t.get('/store', { token: res.body.access_token });
    expect(store.status).toBe(200);
  });

  it('§5.18: a code is single use → invalid_grant on the second exchange', async () => {
    const { location } = await authorize(t);
    const code = location.searchParams.get('code')!;
    expect((await exchangeCode(t, code)).status).toBe(200);
    const again = await exchangeCode(t, code);
    expect([400, 401]).toContain(again.status);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('§5.18: an unknown code → invalid_grant', async () => {
    const res = await exchangeCode(t, 'no-such-code');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    expect(typeof res.body.error_description).toBe('string');
  });

  it('§5.18: a wrong client_secret → invalid_client', async () => {
    const { location } = await authorize(t);
    const res = await exchangeCode(t, location.searchParams.get('code')!, { client_secret: 'wrong' });
    expect([400, 401]).toContain(res.status);
    expect(res.body.error).toBe('invalid_client');
  });

  it('§5 step 4: grant_type other than authorization_code is refused', async () => {
    const { location } = await authorize(t);
    const res = await exchangeCode(t, location.searchParams.get('code')!, { grant_type: 'password' });
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });

  it('§8 limit: the token endpoint is not rate limited (DESIGN.md §5.5)', async () => {
    const limited = await startTestSandbox({ rate: { capacity: 2, leakPerSecond: 0.01 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await exchangeCode(limited, `bogus-${i}`)).status);
      expect(statuses.every((s) => s !== 429)).toBe(true);
    } finally {
      await limited.close();
    }
  });
});

describe('spec §5.18 token renewal and lifetime', () => {
  it('§5.18: a new authorization renews the token and revokes the old one', async () => {
    const t = await startTestSandbox();
    try {
      const first = await newToken(t);
      const second = await newToken(t);
      expect(second.access_token).not.toBe(first.access_token);
      expect((await t.get('/store', { token: second.access_token })).status).toBe(200);
      expect((await t.get('/store', { token: first.access_token })).status).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('§8 limit: authorization code lifetime 5 minutes (valid just before, invalid_grant after)', async () => {
    const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
    const t = await startTestSandbox({ clock });
    try {
      const early = await authorize(t);
      const late = await authorize(t);
      clock.advance(5 * 60 * 1000 - 1000);
      expect((await exchangeCode(t, early.location.searchParams.get('code')!)).status).toBe(200);
      clock.advance(2000);
      const expired = await exchangeCode(t, late.location.searchParams.get('code')!);
      expect(expired.status).toBe(400);
      expect(expired.body.error).toBe('invalid_grant');
    } finally {
      await t.close();
    }
  });

  it('§6 --code-ttl: codeTtlSeconds shortens the code lifetime', async () => {
    const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
    const t = await startTestSandbox({ clock, codeTtlSeconds: 2 });
    try {
      const { location } = await authorize(t);
      clock.advance(3000);
      const res = await exchangeCode(t, location.searchParams.get('code')!);
      expect(res.body.error).toBe('invalid_grant');
    } finally {
      await t.close();
    }
  });

  it('§5: access tokens do not expire (still valid a year later)', async () => {
    const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
    const t = await startTestSandbox({ clock });
    try {
      clock.advance(366 * 24 * 3600 * 1000);
      expect((await t.get('/store')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('spec §5 request headers (DESIGN.md §5.2)', () => {
  const t = useSandbox();

  it('§5.2: Authentication: bearer <token> (lowercase scheme) is accepted', async () => {
    const res = await t.get('/store', { headers: { authentication: `bearer ${t.sandbox.accessToken}` } });
    expect(res.status).toBe(200);
  });

  it('§5.2: Authentication: Bearer / BEARER (scheme in any case) is accepted', async () => {
    for (const scheme of ['Bearer', 'BEARER']) {
      const res = await t.get('/store', { headers: { authentication: `${scheme} ${t.sandbox.accessToken}` } });
      expect(res.status).toBe(200);
    }
  });

  it('§5.2: Authorization: Bearer <token> is accepted', async () => {
    const res = await t.get('/store', {
      headers: { authentication: null, authorization: `Bearer ${t.sandbox.accessToken}` },
    });
    expect(res.status).toBe(200);
  });

  it('§7 401: token missing → 401 with the error body', async () => {
    const res = await t.get('/store', { headers: { authentication: null } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(errorShape(401));
  });

  it('§7 401: token wrong → 401 with the error body', async () => {
    const res = await t.get('/orders', { token: 'not-a-token' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(errorShape(401));
  });

  it('§7 401: a token used on another store id → 401 (or 404), never the data', async () => {
    const other = `${t.sandbox.apiUrl}/v1/${t.sandbox.storeId + 1}/store`;
    const res = await t.get(other);
    expect([401, 403, 404]).toContain(res.status);
  });

  it('§5.2: missing User-Agent → 400', async () => {
    const res = await rawRequest(`${t.base}/store`, {
      headers: { authentication: `bearer ${t.sandbox.accessToken}`, accept: 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(errorShape(400));
  });

  it('§5.2: a non-empty body without Content-Type: application/json → 415', async () => {
    const headers = {
      authentication: `bearer ${t.sandbox.accessToken}`,
      'user-agent': `${t.sandbox.appName} (${t.sandbox.clientId})`,
    };
    const none = await rawRequest(`${t.base}/categories`, { method: 'POST', headers, body: '{"name":"X"}' });
    expect(none.status).toBe(415);
    expect(none.body).toMatchObject(errorShape(415));
    const text = await rawRequest(`${t.base}/categories`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: '{"name":"X"}',
    });
    expect(text.status).toBe(415);
  });

  it('§5.2: Content-Type: application/json; charset=utf-8 is accepted', async () => {
    const res = await t.post('/categories', { name: 'Charset' }, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect([200, 201]).toContain(res.status);
  });

  it('§5.2: an empty body is accepted on any method (even with another Content-Type)', async () => {
    const headers = {
      authentication: `bearer ${t.sandbox.accessToken}`,
      'user-agent': `${t.sandbox.appName} (${t.sandbox.clientId})`,
    };
    const get = await rawRequest(`${t.base}/store`, { headers: { ...headers, 'content-type': 'text/plain' } });
    expect(get.status).toBe(200);
    // An empty POST reaches validation (422), it is not refused as a media type (415).
    const post = await rawRequest(`${t.base}/categories`, { method: 'POST', headers, body: '' });
    expect(post.status).toBe(422);
  });

  it('§5.3: malformed JSON → 400 with the error body', async () => {
    const res = await t.post('/categories', '{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(errorShape(400));
  });

  it('§5.3: 422 adds errors: {field: [problem, …]}', async () => {
    const res = await t.post('/categories', {});
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
    expect(Array.isArray(res.body.errors.name)).toBe(true);
    expect(typeof res.body.errors.name[0]).toBe('string');
  });

  it('§5.3: 404 has the error body', async () => {
    const res = await t.get('/orders/9999999999');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject(errorShape(404));
  });

  it('§9 versioning: only /v1 exists (/v2/{store_id}/store → 404)', async () => {
    const res = await t.get(`${t.sandbox.apiUrl}/v2/${t.sandbox.storeId}/store`);
    expect(res.status).toBe(404);
  });

  it('§5.1: resources live under /v1/{store_id}; /v1/categories without the store segment → 404', async () => {
    const res = await t.get(`${t.sandbox.apiUrl}/v1/categories`);
    expect([401, 404]).toContain(res.status);
  });

  it('§4: responses are JSON with Content-Type application/json', async () => {
    const res = await t.get('/store');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('DESIGN.md §5.6 scopes → 403', () => {
  const t = useSandbox();

  it('§5.6: a token without the scope → 403 naming the missing scope', async () => {
    const token = await newToken(t, 'read_products');
    expect(token.scope).toContain('read_products');
    expect(token.scope).not.toContain('write_orders');
    const res = await t.get('/orders', { token: token.access_token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject(errorShape(403));
    expect(res.body.description).toMatch(/read_orders/);
  });

  it('§5.6: read_ scope allows GET but not writes', async () => {
    const token = await newToken(t, 'read_products');
    // An empty list is the platform's 404 "Last page is 0" (platform.md §1): allowed, not refused.
    expect([200, 404]).toContain((await t.get('/products', { token: token.access_token })).status);
    const write = await t.post('/products', { name: 'Nope' }, { token: token.access_token });
    expect(write.status).toBe(403);
    expect(write.body.description).toMatch(/write_products/);
  });

  it('§5.6: write_ implies read_', async () => {
    const token = await newToken(t, 'write_orders');
    expect([200, 404]).toContain((await t.get('/orders', { token: token.access_token })).status);
  });

  it('§5.6: scopes map per resource (locations, fulfillment_orders, webhooks)', async () => {
    const token = await newToken(t, 'read_products,read_orders');
    expect((await t.get('/locations', { token: token.access_token })).status).toBe(403);
    expect((await t.get('/webhooks', { token: token.access_token })).status).toBe(403);
    expect([200, 404]).toContain((await t.get('/categories', { token: token.access_token })).status);
  });
});
