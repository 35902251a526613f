import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, schedulerFor, type ClientConfig } from '../../src/client/index.js';
import { ApiError, AuthError, NetworkError, NotFoundError, ServerError, ValidationError } from '../../src/client/errors.js';
import { UsageError } from '../../src/errors.js';
import { testLedger } from '../helpers/ledger.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/test-server.js';

const servers: TestServer[] = [];
const ledger = testLedger();

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(options: TestServerOptions = {}, config: Partial<ClientConfig> = {}) {
  const server = await startTestServer(options);
  servers.push(server);
  const client = createClient({
    apiUrl: server.url,
    storeId: server.storeId,
    token: server.token,
    appName: 'Stock Sync',
    appId: '4242',
    profile: 'work',
    retryBaseMs: 10,
    ...config,
  });
  return { server, client };
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the request to fail');
}

describe('createClient: requests', () => {
  it('sends the specified headers, and Content-Type only with a body', async () => {
    const { server, client } = await setup({ rate: 'off' });
    const get = await client.get<{ headers: Record<string, string> }>('/_echo/x', { status: 'open', ids: [1, 2] });
    expect(get.status).toBe(200);
    const sent = server.requests[0]!;
    expect(sent.path).toBe(`/v1/${server.storeId}/_echo/x`);
    expect(sent.query).toEqual({ status: 'open', ids: '1,2' });
    expect(sent.headers.authentication).toBe(`bearer ${server.token}`);
    expect(sent.headers['user-agent']).toBe('Stock Sync (4242)');
    expect(sent.headers.accept).toBe('application/json');
    expect(sent.headers['content-type']).toBeUndefined();
    expect(get.body.headers.authentication).toBe(`bearer ${server.token}`);

    const post = await client.request<{ body: unknown; method: string }>({ method: 'POST', path: '_echo', body: { name: 'Shirt', price: '25.00' }, record: ledger.record('POST', '_echo') });
    expect(post.body).toMatchObject({ method: 'POST', body: { name: 'Shirt', price: '25.00' } });
    expect(server.requests[1]!.headers['content-type']).toMatch(/^application\/json/);

    await client.request({ method: 'DELETE', path: '/_echo', record: ledger.record('DELETE', '/_echo') });
    expect(server.requests[2]!.headers['content-type']).toBeUndefined();
    expect(client.stats()).toEqual({ requests: 3, retries: 0, rateLimited: 0, writes: 2 });
  });

  it('answers a burst of 100 requests against a bucket of 10 (leak 50/s) without losing any', async () => {
    const { server, client } = await setup({ rate: { capacity: 10, leakPerSecond: 50 } });
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => client.get<{ path: string }>(`/_echo/${i}`)));
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(200));
    const answered = server.requests.filter((r) => r.status === 200).map((r) => r.path);
    expect(new Set(answered).size).toBe(100);
    expect(answered).toHaveLength(100);
    const refused = server.requests.filter((r) => r.status === 429).length;
    expect(refused).toBe(client.stats().rateLimited);
    expect(refused).toBeLessThanOrEqual(3);
  });

  it('shares one rate scheduler between the clients of one store and app', async () => {
    const { server, client } = await setup({ rate: { capacity: 10, leakPerSecond: 50 } });
    const twin = createClient({ apiUrl: server.url, storeId: server.storeId, token: server.token, appName: 'Stock Sync', appId: '4242' });
    const burst = (c: typeof client, tag: string) => Array.from({ length: 30 }, (_, i) => c.get(`/_echo/${tag}${i}`));
    await Promise.all([...burst(client, 'a'), ...burst(twin, 'b')]);
    expect(server.requests.filter((r) => r.status === 200)).toHaveLength(60);
    expect(server.requests.filter((r) => r.status === 429).length).toBeLessThanOrEqual(3);
    expect(schedulerFor(server.url, server.storeId, '4242')).toBe(schedulerFor(`${server.url}/`, String(server.storeId), '4242'));
    expect(schedulerFor(server.url, server.storeId, '4242')).not.toBe(schedulerFor(server.url, server.storeId, 'another-app'));
  });

  it('waits out a 429 caused by another client and then succeeds', async () => {
    const lines: string[] = [];
    const { server, client } = await setup({ rate: { capacity: 5, leakPerSecond: 5 } }, { debug: (line) => lines.push(line) });
    for (let i = 0; i < 5; i++) server.bucket!.take();
    const res = await client.get('/_echo/after-429');
    expect(res.status).toBe(200);
    expect(client.stats().rateLimited).toBe(1);
    expect(server.requests.map((r) => r.status)).toEqual([429, 200]);
    // Retry-After is 1 s: the retry was held that long by the scheduler, and --debug says so.
    expect(lines.filter((l) => l.startsWith('→'))[1]).toMatch(/ \(held \d\.\d s by the rate limit\)$/);
  });

  it('refuses to send the token to another host', async () => {
    const { client } = await setup({ rate: 'off' });
    const error = await failureOf(client.get('http://example.com/v1/1/orders'));
    expect(error).toBeInstanceOf(UsageError);
  });
});

describe('createClient: pagination', () => {
  it('follows Link rel="next" over 3 pages with x-total-count', async () => {
    const { server, client } = await setup({ rate: 'off', lists: { orders: 450 } });
    const pages = [];
    for await (const page of client.paginate<{ id: number }>('/orders', { status: 'open' })) pages.push(page);
    expect(pages.map((p) => [p.page, p.items.length, p.total])).toEqual([
      [1, 200, 450],
      [2, 200, 450],
      [3, 50, 450],
    ]);
    const ids = pages.flatMap((p) => p.items.map((i) => i.id));
    expect(ids).toEqual(Array.from({ length: 450 }, (_, i) => 1_000_000_001 + i));
    expect(server.requests.map((r) => r.query)).toEqual([
      { status: 'open', page: '1', per_page: '200' },
      { status: 'open', page: '2', per_page: '200' },
      { status: 'open', page: '3', per_page: '200' },
    ]);
  });

  it('ends the list at x-total-count when the server sends no Link, without asking for a page past the end', async () => {
    const { server, client } = await setup({ rate: 'off', lists: { orders: 400 }, links: false });
    const items = await client.all<{ id: number }>('/orders');
    expect(items).toHaveLength(400);
    expect(server.requests.map((r) => [r.query.page, r.status])).toEqual([
      ['1', 200],
      ['2', 200],
    ]);
  });

  it('yields one empty page for an empty list', async () => {
    const { client } = await setup({ rate: 'off', lists: { orders: 0 } });
    const pages = [];
    for await (const page of client.paginate('/orders', {}, { perPage: 50 })) pages.push(page);
    expect(pages).toEqual([{ items: [], page: 1, total: 0 }]);
  });
});

describe('createClient: errors', () => {
  it('maps 401 to AuthError (exit 4) naming the profile and `store auth login`', async () => {
    const { client } = await setup({ rate: 'off', token: 'the-right-token' }, { token: 'a-wrong-token' });
    const error = await failureOf(client.get('/orders'));
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).exitCode).toBe(4);
    expect(error.message).toBe('The store rejected the token of profile work; run `store auth login --profile work` to log in again.');
  });

  it('maps 403 to AuthError naming the missing scope', async () => {
    const { client } = await setup({ rate: 'off' });
    const error = await failureOf(
      client.request({ method: 'POST', path: '/_status/403', query: { description: 'This token lacks the scope write_products' }, record: ledger.record('POST', '/_status/403') }),
    );
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).exitCode).toBe(4);
    expect(error.message).toContain('write_products');
  });

  it('maps 404 to NotFoundError (exit 1) naming the resource and id', async () => {
    const { client } = await setup({ rate: 'off' });
    const error = await failureOf(client.get('/orders/1234567890'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).exitCode).toBe(1);
    expect(error.message).toBe('Order 1234567890 not found.');
    const noRoute = await failureOf(client.get('/nothing-here'));
    expect(noRoute.message).toBe(`No such path GET /v1/1234/nothing-here.`);
  });

  it('maps 422 to ValidationError (exit 2) listing the field errors', async () => {
    const { client } = await setup({ rate: 'off' });
    const error = await failureOf(client.request({ method: 'POST', path: '/products', body: { price: 'abc' }, record: ledger.record('POST', '/products') }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).exitCode).toBe(2);
    expect(error.message).toBe("Invalid request: name can't be blank; price must be a number.");
    expect((error as ValidationError).fieldErrors).toEqual({ name: ["can't be blank"], price: ['must be a number'] });
    expect((error as ValidationError).status).toBe(422);
    const tooBig = await failureOf(client.get('/orders', { per_page: 500 }));
    expect(tooBig).toBeInstanceOf(ValidationError);
    expect(tooBig.message).toBe('Invalid request: per_page must be at most 200.');
  });

  it('rejects a reply that is not JSON with exit 1', async () => {
    const { client } = await setup({ rate: 'off' });
    const error = await failureOf(client.get('/_html'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).exitCode).toBe(1);
    expect(error.message).toMatch(/not JSON/);
  });

  it('names the host and the cause when nothing answers, after the unreachable-store retries (not the 5xx budget)', async () => {
    const port = await closedPort();
    const notices: string[] = [];
    const client = createClient({
      apiUrl: `http://127.0.0.1:${port}`,
      storeId: 1,
      token: 't0ken-value',
      appName: 'A',
      appId: '1',
      retryBaseMs: 5,
      unreachableRetryBaseMs: 5,
      retries: 8,
      onWait: (notice) => notices.push(`${notice.kind}: ${notice.message}`),
    });
    const error = await failureOf(client.get('/orders'));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(1);
    expect(error.message).toMatch(new RegExp(`^Could not reach 127\\.0\\.0\\.1:${port}: connection refused after 4 attempts over \\d+ s\\.$`));
    expect(client.stats()).toMatchObject({ requests: 4, retries: 3 });
    // Each retry says why, whatever the wait (these are 5, 10 and 20 ms: shown as 1 s).
    expect(notices).toEqual([1, 2, 3].map((n) => `unreachable: Could not reach 127.0.0.1:${port} (connection refused); retrying in 1 s (${n}/3)`));
    // A refused connection proves the request was never sent: even a POST is retried.
    await failureOf(client.request({ method: 'POST', path: '/orders', body: { customer: {} }, record: ledger.record('POST', '/orders') }));
    expect(client.stats()).toMatchObject({ requests: 8, retries: 6 });
  });

  it('reports a timeout as a network error', async () => {
    const { client } = await setup({ rate: 'off' }, { timeoutMs: 100, retries: 0 });
    const error = await failureOf(client.get('/_slow', { ms: 2000 }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/^Could not reach 127\.0\.0\.1:\d+: no answer after 1 attempt over \d+ s\.$/);
  });
});

describe('createClient: retries', () => {
  it('retries a GET after a 500 and a PUT after a 503', async () => {
    const { server, client } = await setup({ rate: 'off' });
    const res = await client.get('/_flaky/get-500');
    expect(res.status).toBe(200);
    expect(server.requests.map((r) => r.status)).toEqual([500, 200]);
    await client.request({ method: 'PUT', path: '/_flaky/put-503', body: { a: 1 }, query: { status: 503, fail: 2 }, record: ledger.record('PUT', '/_flaky/put-503') });
    expect(server.requests.slice(2).map((r) => r.status)).toEqual([503, 503, 200]);
    expect(client.stats()).toEqual({ requests: 5, retries: 3, rateLimited: 0, writes: 3 });
  });

  it('does not retry a POST after a 500 or a reset connection', async () => {
    const { server, client } = await setup({ rate: 'off' });
    const error = await failureOf(client.request({ method: 'POST', path: '/_flaky/post-500', body: { name: 'x' }, record: ledger.record('POST', '/_flaky/post-500') }));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).exitCode).toBe(1);
    expect(server.requests).toHaveLength(1);

    const reset = await failureOf(client.request({ method: 'POST', path: '/_reset/post-reset', body: { name: 'x' }, record: ledger.record('POST', '/_reset/post-reset') }));
    expect(reset).toBeInstanceOf(NetworkError);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a GET whose connection was reset, and gives up after the configured retries', async () => {
    const { server, client } = await setup({ rate: 'off' }, { retries: 2 });
    expect((await client.get('/_reset/get-reset')).status).toBe(200);
    expect(server.requests).toHaveLength(2);
    const error = await failureOf(client.get('/_flaky/always', { fail: 10 }));
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests.filter((r) => r.path.endsWith('/always'))).toHaveLength(3);
  });

  it('retries a POST that met a 429', async () => {
    const { server, client } = await setup({ rate: { capacity: 3, leakPerSecond: 3 } });
    for (let i = 0; i < 3; i++) server.bucket!.take();
    const res = await client.request({ method: 'POST', path: '/products', body: { name: 'Shirt' }, record: ledger.record('POST', '/products') });
    expect(res.status).toBe(201);
    expect(server.requests.map((r) => r.status)).toEqual([429, 201]);
  });
});

describe('createClient: debug', () => {
  it('logs one line per request and response and never the token', async () => {
    const lines: string[] = [];
    const { server, client } = await setup({ rate: { capacity: 40, leakPerSecond: 20 } }, { debug: (line) => lines.push(line) });
    await client.get('/orders', { page: 2, per_page: 5 });
    await client.get('/_echo', { access_token: server.token });
    await client.request({ method: 'POST', path: '/_echo', body: { client_secret: 'shh-secret', code: 'auth-code-1', note: server.token }, record: ledger.record('POST', '/_echo') });
    await failureOf(client.get('/_status/500', { description: `bad token ${server.token}` }));

    const base = `${server.url}/v1/${server.storeId}`;
    expect(lines[0]).toBe(`→ GET ${base}/orders?page=2&per_page=5`);
    expect(lines[1]).toMatch(new RegExp(`^← 200 GET ${base.replace(/[.]/g, '\\.')}/orders\\?page=2&per_page=5 \\d+ms remaining=\\d+$`));
    const all = lines.join('\n');
    expect(all).not.toContain(server.token);
    expect(all).not.toContain('shh-secret');
    expect(all).not.toContain('auth-code-1');
    expect(all).toContain('[REDACTED]');
    expect(lines).toContain(`→ POST ${base}/_echo {"client_secret":"[REDACTED]","code":"[REDACTED]","note":"[REDACTED]"}`);
    expect(lines.some((l) => l.startsWith('↻ retry 1 of GET'))).toBe(true);
  });
});
