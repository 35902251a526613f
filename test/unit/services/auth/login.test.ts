import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../../../src/auth/config.js';
import { resolveContext, type StoreContext } from '../../../../src/auth/context.js';
import { loadSecrets, type KeytarLike } from '../../../../src/auth/credentials.js';
import { AuthError } from '../../../../src/client/errors.js';
import { UsageError } from '../../../../src/errors.js';
import { createClient } from '../../../../src/client/index.js';
import { SANDBOX_CHOICE, authStatus, listProfiles, login, logout, type MissingValue } from '../../../../src/services/auth/login.js';
import { useSandbox } from '../../../helpers/sandbox.js';

let dir: string;
let env: Record<string, string | undefined>;
const noKeychain = { load: (): Promise<KeytarLike> => Promise.reject(new Error('no Secret Service')) };
const noTerminal = async (missing: MissingValue): Promise<string> => {
  throw new UsageError(`Missing --${missing.flag}.`);
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-auth-login-'));
  env = { XDG_CONFIG_HOME: join(dir, 'config') };
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('login --with-token', () => {
  // The token is checked against the store (GET /store) before it is saved: a real sandbox answers.
  const store = useSandbox();
  const app = () => ({ apiUrl: store.sandbox.apiUrl, clientId: store.sandbox.clientId, appName: store.sandbox.appName });
  const url = () => store.sandbox.apiUrl;

  it('saves the profile and token, falls back to the file with a warning, and becomes the default', async () => {
    const result = await login({
      profile: 'shop',
      token: `${store.sandbox.accessToken}\n`,
      storeId: String(store.sandbox.storeId),
      ...app(),
      apiUrl: `${url()}/`,
      ask: noTerminal,
      env,
      keychain: noKeychain,
    });
    expect(result).toMatchObject({ profile: 'shop', storeId: String(store.sandbox.storeId), secretsStore: 'file', sandbox: false });
    expect(result.warnings[0]).toMatch(/no Secret Service.*plain text/);
    const ctx = await resolveContext({ env });
    expect(ctx).toMatchObject({ profile: 'shop', storeId: String(store.sandbox.storeId), apiUrl: url(), token: store.sandbox.accessToken, tokenSource: 'file' });
    expect(await listProfiles(env)).toEqual([
      {
        name: 'shop',
        default: true,
        storeId: String(store.sandbox.storeId),
        appName: store.sandbox.appName,
        appId: store.sandbox.clientId,
        apiUrl: url(),
        secretsStore: 'file',
      },
    ]);
  });

  it('asks for each missing value by its flag', async () => {
    const asked: string[] = [];
    const answers: Record<string, string> = {
      'api-url': url(),
      'store-id': String(store.sandbox.storeId),
      'client-id': store.sandbox.clientId,
      'app-name': store.sandbox.appName,
    };
    await login({
      token: async () => store.sandbox.accessToken,
      insecureStorage: true,
      ask: async (missing) => {
        asked.push(missing.flag);
        return answers[missing.flag]!;
      },
      env,
    });
    expect(asked).toEqual(['api-url', 'store-id', 'client-id', 'app-name']);
    expect((await readConfig(env)).profiles.default?.store_id).toBe(String(store.sandbox.storeId));
  });

  it('offers the platform\'s API hosts and the sandbox for --api-url; a platform host brings its authorization host', async () => {
    const asked: MissingValue[] = [];
    const stop = new Error('stop here');
    await expect(
      login({
        code: 'c',
        insecureStorage: true,
        ask: async (missing) => {
          asked.push(missing);
          if (missing.flag === 'api-url') return 'https://api.nuvemshop.com.br';
          throw stop;
        },
        env,
      }),
    ).rejects.toBe(stop);
    expect(asked[0]!.choices).toEqual({
      message: 'Which store API?',
      options: [
        { name: 'Tiendanube (https://api.tiendanube.com)', value: 'https://api.tiendanube.com' },
        { name: 'Nuvemshop (https://api.nuvemshop.com.br)', value: 'https://api.nuvemshop.com.br' },
        { name: 'The local sandbox (a test store with demo data)', value: SANDBOX_CHOICE },
      ],
    });
    // Not asked for the authorization server: https://www.nuvemshop.com.br goes with the API host.
    expect(asked.map((m) => m.flag)).toEqual(['api-url', 'client-id']);
    // A typed answer is still checked.
    expect(asked[0]!.validate!('api.example.com')).toBe('must be an http(s) URL');
    expect(asked[0]!.validate!(SANDBOX_CHOICE)).toBeUndefined();
    expect(asked[0]!.validate!('https://api.example.com')).toBeUndefined();
  });

  it('fails naming the flag when nothing can ask', async () => {
    await expect(login({ token: 't', apiUrl: 'http://127.0.0.1:9', ask: noTerminal, env })).rejects.toThrow('Missing --store-id.');
    await expect(login({ token: 't', apiUrl: 'http://127.0.0.1:9', storeId: '1', ask: noTerminal, env })).rejects.toThrow('Missing --client-id.');
    await expect(login({ token: 'wrong', storeId: String(store.sandbox.storeId), ...app(), ask: noTerminal, env })).rejects.toThrow(
      'The store rejected the token (401 on GET /store); nothing was saved.',
    );
    expect((await readConfig(env)).profiles).toEqual({});
    await expect(login({ code: 'c', apiUrl: 'http://127.0.0.1:9', ask: noTerminal, env })).rejects.toThrow('Missing --auth-url.');
    await expect(login({ token: 't', apiUrl: 'ftp://x', storeId: '1', ask: noTerminal, env })).rejects.toThrow(/--api-url must be an http/);
  });

  it('warns that STORE_TOKEN overrides the new profile', async () => {
    const result = await login({
      token: store.sandbox.accessToken,
      storeId: String(store.sandbox.storeId),
      ...app(),
      insecureStorage: true,
      ask: noTerminal,
      env: { ...env, STORE_TOKEN: 'other' },
    });
    expect(result.warnings.at(-1)).toBe('STORE_TOKEN is set, so commands use it rather than profile "default" until it is unset.');
  });

  it('checks the profile name before spending a code', async () => {
    await expect(login({ profile: 'a:b', code: 'c', ask: noTerminal, env })).rejects.toThrow(/Invalid profile name "a:b"/);
  });

  it('rejects an empty token from stdin', async () => {
    await expect(login({ token: '\n', storeId: '1', ...app(), ask: noTerminal, env })).rejects.toThrow(
      /No token was read from stdin/,
    );
  });

  it('logging in again reuses the profile’s store and addresses; logout removes profile and secrets', async () => {
    const token = store.sandbox.accessToken;
    const storeId = String(store.sandbox.storeId);
    await login({ profile: 'a', token, storeId, ...app(), insecureStorage: true, ask: noTerminal, env });
    await login({ profile: 'b', token, storeId, ...app(), insecureStorage: true, ask: noTerminal, env });
    expect((await readConfig(env)).default).toBe('b');
    await login({ profile: 'a', token: `${token}\n`, insecureStorage: true, ask: noTerminal, env });
    expect(await resolveContext({ env })).toMatchObject({ profile: 'a', storeId, token, appName: store.sandbox.appName });

    expect(await logout({ profile: 'a', env })).toEqual({ profile: 'a', warnings: [] });
    expect(await loadSecrets('a', 'file', { env })).toEqual({ token: undefined, clientSecret: undefined });
    const config = await readConfig(env);
    expect(Object.keys(config.profiles)).toEqual(['b']);
    expect(config.default).toBe('b');
    await expect(logout({ profile: 'a', env })).rejects.toThrow(/No profile named "a"/);
  });
});

describe('authStatus', () => {
  const api = useSandbox();

  /** The context and client a command would build for this token and API address. */
  function check(token: string, apiUrl = api.sandbox.apiUrl) {
    const { storeId, appName, clientId } = api.sandbox;
    const ctx: StoreContext = {
      profile: 'p',
      storeId: String(storeId),
      apiUrl,
      appName,
      appId: clientId,
      token,
      tokenSource: 'file',
      sandbox: false,
    };
    return authStatus(ctx, createClient({ ...ctx, retries: 0 }));
  }

  it('reports an accepted token, masked, with the store name', async () => {
    const status = await check(api.sandbox.accessToken);
    expect(status).toMatchObject({ profile: 'p', tokenSource: 'file', accepted: true, storeName: expect.any(String) });
    expect(status.token).toBe(`${api.sandbox.accessToken.slice(0, 4)}…${api.sandbox.accessToken.slice(-4)}`);
    expect(status.error).toBeUndefined();
  });

  it('says no when the store refuses the token, with the exit-4 error', async () => {
    const status = await check('f'.repeat(40));
    expect(status).toMatchObject({ accepted: false, problem: 'The store rejected the token of profile p; run `store auth login --profile p` to log in again.' });
    expect(status.error).toBeInstanceOf(AuthError);
  });

  it('does not call the token refused when the store cannot be reached', async () => {
    const status = await check(api.sandbox.accessToken, 'http://127.0.0.1:1');
    expect(status.accepted).toBeNull();
    expect(status.problem).toMatch(/Could not reach 127\.0\.0\.1:1/);
    expect(status.error).not.toBeInstanceOf(AuthError);
  });
});
