import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { registerSecret } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';

/**
 * Issue 31, "A pasted URL breaks the profile": `auth login` takes the documented base URL pasted whole
 * (`…/v1/{store_id}`, or a dated version) as its host root, and every login flow opens the store (GET /store)
 * before it says "Logged in": a check that fails is one sentence and no profile is saved.
 */

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'demo', rate: 'off' });
  registerSecret(sandbox.clientSecret);
  registerSecret(sandbox.accessToken);
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'login-checks-'));
  env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state'), XDG_DATA_HOME: join(dir, 'data'), STORE_TOKEN: '', STORE_ID: '', STORE_PROFILE: '' };
});

const configFile = () => join(env.XDG_CONFIG_HOME!, 'store', 'config.json');
const profiles = async () => (JSON.parse(await readFile(configFile(), 'utf8')) as { profiles: Record<string, { api_url: string; store_id: string }> }).profiles;
const tokenApp = () => ['--client-id', sandbox.clientId, '--app-name', sandbox.appName, '--insecure-storage'];

/** A fresh authorization code, as the platform hands it to the app's redirect URL (the test approves as the owner). */
async function freshCode(): Promise<string> {
  const authorize = new URL(`${sandbox.authUrl}/apps/${sandbox.clientId}/authorize`);
  authorize.searchParams.set('state', 'test');
  authorize.searchParams.set('redirect_uri', 'http://127.0.0.1:9/callback');
  const html = await (await fetch(authorize)).text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
  const decision = await fetch(new URL(action, authorize), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'decision=approve',
    redirect: 'manual',
  });
  return new URL(decision.headers.get('location')!).searchParams.get('code')!;
}

describe('a pasted API URL', () => {
  it('…/v1/{store_id}/ is the host root, the store id taken from it; commands then reach the store', async () => {
    const pasted = `${sandbox.apiUrl}/v1/${sandbox.storeId}/`;
    const r = await runInProcess(['auth', 'login', '--with-token', '--api-url', pasted, ...tokenApp()], { env, input: `${sandbox.accessToken}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`The API URL is the host root: /v1/${sandbox.storeId} was left out of ${pasted}`);
    expect(r.stderr).toContain(`Logged in to store ${sandbox.storeId}`);
    expect((await profiles()).default).toMatchObject({ api_url: sandbox.apiUrl, store_id: String(sandbox.storeId) });
    const status = await runInProcess(['auth', 'status'], { env });
    expect(status.code, status.stderr).toBe(0);
  });

  it('a dated version segment (…/2025-03) is left out too', async () => {
    const r = await runInProcess(['auth', 'login', '--with-token', '--store-id', String(sandbox.storeId), '--api-url', `${sandbox.apiUrl}/2025-03`, ...tokenApp()], {
      env,
      input: `${sandbox.accessToken}\n`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect((await profiles()).default!.api_url).toBe(sandbox.apiUrl);
  });
});

describe('every login flow opens the store before it says "Logged in"', () => {
  const noStore = (url: string) =>
    `Error: ${url} has no store ${sandbox.storeId} (404 on GET /store); check the API URL (the host root, e.g. https://api.tiendanube.com) and the store id; nothing was saved.\n`;

  it('--with-token: an API URL where the store is not is one sentence, and no profile is saved', async () => {
    const wrong = `${sandbox.apiUrl}/api`;
    const r = await runInProcess(['auth', 'login', '--with-token', '--store-id', String(sandbox.storeId), '--api-url', wrong, ...tokenApp()], {
      env,
      input: `${sandbox.accessToken}\n`,
    });
    expect(r.stderr).toBe(noStore(wrong));
    expect(r.code).toBe(1);
    await expect(stat(configFile())).rejects.toThrow();
  });

  it('--code (OAuth): the grant is checked against the API URL too; no profile is saved', async () => {
    const wrong = `${sandbox.apiUrl}/api`;
    const r = await runInProcess(
      ['auth', 'login', '--code', await freshCode(), '--api-url', wrong, '--auth-url', sandbox.authUrl, '--client-id', sandbox.clientId, '--client-secret', sandbox.clientSecret, '--insecure-storage'],
      { env },
    );
    expect(r.stderr).toBe(noStore(wrong));
    expect(r.code).toBe(1);
    await expect(stat(configFile())).rejects.toThrow();
  });
});
