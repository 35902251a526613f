import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';

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
    expect(a.body).toMatchObject({ id: sandbox.storeId, languages: ['es', 'pt', 'en'], main_language: 'es' });
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
