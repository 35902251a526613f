import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/platform/clock.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { bootstrap } from '../../../src/sandbox/seed.js';
import { createContext } from '../../../src/sandbox/context.js';
import { buildServer } from '../../../src/sandbox/server.js';
import { SandboxState } from '../../../src/sandbox/state.js';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function call(sb: RunningSandbox, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const headers = { 'user-agent': 'Test (1)', authentication: `bearer ${sb.accessToken}`, ...init.headers };
  const res = await fetch(`${sb.apiUrl}/v1/${sb.storeId}${path}`, { method: init.method ?? 'GET', headers, body: init.body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe('sandbox pipeline', () => {
  it('answers GET /store with the token in either header form', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    const a = await call(sandbox, '/store');
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ id: sandbox.storeId, main_language: 'es' });
    expect(Object.keys(a.body.languages)).toEqual(['es', 'pt', 'en']);
    const b = await call(sandbox, '/store', { headers: { authentication: '', authorization: `Bearer ${sandbox.accessToken}` } });
    expect(b.status).toBe(200);
    expect(a.headers.get('x-rate-limit-limit')).toBe('40');
  });

  it('rejects a missing token, a missing User-Agent, another store and a non-JSON body', async () => {
    sandbox = await startSandbox();
    const noToken = await call(sandbox, '/store', { headers: { authentication: '' } });
    expect(noToken.status).toBe(401);
    expect(noToken.body).toMatchObject({ code: 401, message: 'Unauthorized' });
    expect((await call(sandbox, '/store', { headers: { 'user-agent': '' } })).status).toBe(400);
    const other = await fetch(`${sandbox.apiUrl}/v1/999/store`, {
      headers: { 'user-agent': 'T (1)', authentication: `bearer ${sandbox.accessToken}` },
    });
    expect(other.status).toBe(401);
    const text = await call(sandbox, '/store', { method: 'GET', headers: {} });
    expect(text.status).toBe(200);
    const notJson = await call(sandbox, '/nothing', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect([404, 415]).toContain(notJson.status);
    expect(notJson.headers.get('x-rate-limit-remaining')).not.toBeNull();
  });

  it('removes limit headers with rate off', async () => {
    sandbox = await startSandbox({ rate: 'off' });
    const res = await call(sandbox, '/store');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-rate-limit-limit')).toBeNull();
  });
});

describe('sandbox pagination (inject)', () => {
  it('pages with absolute links, refuses per_page over 200, and names the last page', async () => {
    const clock = new FakeClock(0);
    const state = new SandboxState(clock);
    const store = bootstrap(state, 'empty', 'enterprise');
    const token = state.tokens.list()[0]!.token;
    const app = await buildServer(createContext(state, clock, { rate: 'off' }));
    const headers = { 'user-agent': 'T (1)', authentication: `bearer ${token}`, host: 'sandbox.test:9' };
    const get = (query: string) => app.inject({ method: 'GET', url: `/v1/${store.id}/categories${query}`, headers });

    const empty = await get('');
    // platform.md §1: an empty list is 404 "Last page is 0".
    expect(empty.statusCode).toBe(404);
    expect(empty.json()).toMatchObject({ code: 404, description: 'Last page is 0' });

    for (let i = 0; i < 5; i++) {
      const res = await app.inject({
        method: 'POST',
        url: `/v1/${store.id}/categories`,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: { name: `C${i}` },
      });
      expect(res.statusCode).toBe(201);
    }
    const page2 = await get('?per_page=2&page=2');
    expect(page2.json().map((c: { id: number }) => c.id)).toEqual([3, 4]);
    expect(page2.headers['x-total-count']).toBe('5');
    const link = String(page2.headers.link);
    expect(link).toContain(`<http://sandbox.test:9/v1/${store.id}/categories?per_page=2&page=3>; rel="next"`);
    expect(link).toContain('page=1>; rel="prev"');
    expect(link).toContain('page=1>; rel="first"');
    expect(link).toContain('page=3>; rel="last"');
    expect((await get('?page=4&per_page=2')).json().description).toBe('Last page is 3');
    const tooMany = await get('?per_page=201');
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors).toHaveProperty('per_page');
    await app.close();
  });
});
