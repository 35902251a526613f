import { mkdtemp, readdir, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  configPath,
  readConfig,
  removeProfile,
  saveProfile,
  selectProfileName,
  setDefaultProfile,
  type ProfileInput,
} from '../../../src/auth/config.js';
import { resolveContext } from '../../../src/auth/context.js';
import { credentialsPath, fileBackend } from '../../../src/auth/credentials.js';
import { writeFileAtomic } from '../../../src/util/atomic-file.js';
import { AuthError } from '../../../src/client/errors.js';
import { UsageError } from '../../../src/errors.js';

let dir: string;
let env: Record<string, string | undefined>;

const profile = (storeId: string, over: Partial<ProfileInput> = {}): ProfileInput => ({
  store_id: storeId,
  api_url: 'http://127.0.0.1:9/',
  auth_url: 'http://127.0.0.1:9/auth',
  app_name: 'My App',
  app_id: '42',
  scopes: ['read_products'],
  secrets_store: 'file',
  ...over,
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-auth-config-'));
  env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state'), XDG_DATA_HOME: join(dir, 'data') };
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('config file', () => {
  it('starts empty when no file exists', async () => {
    expect(await readConfig(env)).toEqual({ profiles: {} });
  });

  it('is written with mode 0600 in a 0700 directory, and the first profile becomes the default', async () => {
    await saveProfile('work', profile('111'), { env });
    expect(await mode(configPath(env))).toBe(0o600);
    expect(await mode(join(env.XDG_CONFIG_HOME!, 'store'))).toBe(0o700);
    const config = await readConfig(env);
    expect(config.default).toBe('work');
    expect(config.profiles.work?.store_id).toBe('111');
  });

  it('keeps 0600 under a permissive umask and leaves no temp file behind', async () => {
    const old = process.umask(0o000);
    try {
      await writeFileAtomic(configPath(env), '{}');
      await writeFileAtomic(configPath(env), '{"profiles":{}}');
    } finally {
      process.umask(old);
    }
    expect(await mode(configPath(env))).toBe(0o600);
    expect(await readdir(join(env.XDG_CONFIG_HOME!, 'store'))).toEqual(['config.json']);
    expect(await readFile(configPath(env), 'utf8')).toBe('{"profiles":{}}');
  });

  it('replaces the file by rename, so a reader holding the old file never sees a partial one', async () => {
    await saveProfile('a', profile('1'), { env });
    const before = (await stat(configPath(env))).ino;
    await saveProfile('b', profile('2'), { env });
    expect((await stat(configPath(env))).ino).not.toBe(before);
  });

  it('tightens a hand-copied config file to 0600 when reading it', async () => {
    await mkdir(join(env.XDG_CONFIG_HOME!, 'store'), { recursive: true });
    await writeFile(configPath(env), JSON.stringify({ profiles: {} }), { mode: 0o644 });
    await readConfig(env);
    expect(await mode(configPath(env))).toBe(0o600);
  });

  it('reports an invalid file in one sentence naming it', async () => {
    await mkdir(join(env.XDG_CONFIG_HOME!, 'store'), { recursive: true });
    await writeFile(configPath(env), '{not json');
    await expect(readConfig(env)).rejects.toThrow(UsageError);
    await writeFile(configPath(env), JSON.stringify({ profiles: { x: { store_id: 1 } } }));
    await expect(readConfig(env)).rejects.toThrow(/config\.json is invalid at profiles\.x/);
  });

  it('rejects profile names that cannot be keychain accounts', async () => {
    await expect(saveProfile('a:b', profile('1'), { env })).rejects.toThrow(UsageError);
  });

  it('switches, removes and re-elects the default', async () => {
    await saveProfile('a', profile('1'), { env });
    await saveProfile('b', profile('2'), { env });
    expect((await readConfig(env)).default).toBe('a');
    await setDefaultProfile('b', env);
    expect((await readConfig(env)).default).toBe('b');
    await expect(setDefaultProfile('nope', env)).rejects.toThrow(/the profiles are: a, b/);
    expect(await removeProfile('b', env)).toBe(true);
    expect((await readConfig(env)).default).toBe('a');
    expect(await removeProfile('b', env)).toBe(false);
  });
});

describe('profile selection', () => {
  const config = { default: 'a', profiles: { a: {} as never, b: {} as never } };

  it('prefers --profile, then STORE_PROFILE, then the default', () => {
    expect(selectProfileName(config, { profile: 'b', env: { STORE_PROFILE: 'c' } })).toBe('b');
    expect(selectProfileName(config, { env: { STORE_PROFILE: 'c' } })).toBe('c');
    expect(selectProfileName(config, { env: {} })).toBe('a');
  });

  it('uses the only profile when there is no default, and none when several', () => {
    expect(selectProfileName({ profiles: { solo: {} as never } }, { env: {} })).toBe('solo');
    expect(selectProfileName({ profiles: config.profiles }, { env: {} })).toBeUndefined();
  });
});

describe('resolveContext', () => {
  it('fails with exit 4 and names `store auth login` when there are no credentials', async () => {
    const error = await resolveContext({ env }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).exitCode).toBe(4);
    expect((error as AuthError).message).toMatch(/store auth login`.*--sandbox/);
  });

  it('reads the selected profile and its token from the credentials file', async () => {
    await saveProfile('a', profile('1'), { env });
    await saveProfile('b', profile('2', { api_url: 'http://127.0.0.1:8/' }), { env });
    await fileBackend(env).set('a', { token: 'tok-a' });
    await fileBackend(env).set('b', { token: 'tok-b', clientSecret: 'sec-b' });
    expect(await mode(credentialsPath(env))).toBe(0o600);

    const a = await resolveContext({ env });
    expect(a).toMatchObject({ profile: 'a', storeId: '1', token: 'tok-a', tokenSource: 'file', sandbox: false });
    expect(a.apiUrl).toBe('http://127.0.0.1:9');

    const b = await resolveContext({ env: { ...env, STORE_PROFILE: 'b' } });
    expect(b).toMatchObject({ profile: 'b', storeId: '2', apiUrl: 'http://127.0.0.1:8', token: 'tok-b', clientSecret: 'sec-b' });
    expect((await resolveContext({ env, profile: 'b' })).token).toBe('tok-b');
  });

  it('names the missing profile and the missing token', async () => {
    await saveProfile('a', profile('1'), { env });
    await expect(resolveContext({ env, profile: 'zz' })).rejects.toThrow(/Profile "zz" does not exist.*--profile zz/);
    await expect(resolveContext({ env })).rejects.toThrow(/Profile "a" has no token in the credentials file/);
  });

  it('lets STORE_TOKEN + STORE_ID win over any profile', async () => {
    await saveProfile('a', profile('1'), { env });
    await fileBackend(env).set('a', { token: 'tok-a' });
    const ctx = await resolveContext({
      profile: 'a',
      env: {
        ...env,
        STORE_TOKEN: 'env-token',
        STORE_ID: '777',
        STORE_API_URL: 'http://127.0.0.1:7/',
        STORE_APP_NAME: 'Cron',
        STORE_APP_ID: '9',
        STORE_CLIENT_SECRET: 'env-secret',
      },
    });
    expect(ctx).toEqual({
      profile: 'env',
      storeId: '777',
      apiUrl: 'http://127.0.0.1:7',
      authUrl: 'http://127.0.0.1:9/auth',
      appName: 'Cron',
      appId: '9',
      token: 'env-token',
      clientSecret: 'env-secret',
      tokenSource: 'env',
      sandbox: false,
    });
  });

  it('ignores a broken config file when the environment gives the credentials', async () => {
    await mkdir(join(env.XDG_CONFIG_HOME!, 'store'), { recursive: true });
    await writeFile(configPath(env), '{broken');
    const ctx = await resolveContext({ env: { ...env, STORE_TOKEN: 't', STORE_ID: '1', STORE_API_URL: 'http://127.0.0.1:7' } });
    expect(ctx).toMatchObject({ tokenSource: 'env', storeId: '1', appName: 'store-cli' });
    await expect(resolveContext({ env })).rejects.toThrow(/config\.json is not valid JSON/);
  });

  it('needs both STORE_TOKEN and STORE_ID, and an API URL from the environment or a profile', async () => {
    await expect(resolveContext({ env: { ...env, STORE_TOKEN: 't' } })).rejects.toThrow(/STORE_ID is not/);
    await expect(resolveContext({ env: { ...env, STORE_TOKEN: 't', STORE_ID: '1' } })).rejects.toThrow(/STORE_API_URL/);
  });
});
