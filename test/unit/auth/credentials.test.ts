import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  credentialsPath,
  deleteSecrets,
  fileBackend,
  keychainBackend,
  KeychainUnavailableError,
  loadSecrets,
  saveSecrets,
  type KeytarLike,
} from '../../../src/auth/credentials.js';

let dir: string;
let env: Record<string, string | undefined>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-auth-cred-'));
  env = { XDG_CONFIG_HOME: join(dir, 'config') };
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A keychain that never answers, like a Secret Service waiting on an unlock prompt nobody sees. */
const hangingKeychain = (): Promise<KeytarLike> =>
  Promise.resolve({
    getPassword: () => new Promise<string | null>(() => undefined),
    setPassword: () => new Promise<void>(() => undefined),
    deletePassword: () => new Promise<boolean>(() => undefined),
  });

const missingKeychain = (): Promise<KeytarLike> => Promise.reject(new Error('no D-Bus session'));

describe('file credential store', () => {
  it('keeps each profile apart, with mode 0600', async () => {
    const store = fileBackend(env);
    expect(await store.get('a')).toEqual({ token: undefined, clientSecret: undefined });
    await store.set('a', { token: 'ta', clientSecret: 'sa' });
    await store.set('b', { token: 'tb' });
    expect(await store.get('a')).toEqual({ token: 'ta', clientSecret: 'sa' });
    expect(await store.get('b')).toEqual({ token: 'tb', clientSecret: undefined });
    expect((await stat(credentialsPath(env))).mode & 0o777).toBe(0o600);

    await store.delete('a');
    expect(await store.get('a')).toEqual({ token: undefined, clientSecret: undefined });
    expect(JSON.parse(await readFile(credentialsPath(env), 'utf8'))).toEqual({ b: { token: 'tb' } });
  });

  it('names a damaged file', async () => {
    await mkdir(join(env.XDG_CONFIG_HOME!, 'store'), { recursive: true });
    await writeFile(credentialsPath(env), '{oops');
    await expect(fileBackend(env).get('a')).rejects.toThrow(/credentials\.json is not a JSON object; fix or delete it/);
  });
});

describe('keychain', () => {
  it('gives up after the timeout with KeychainUnavailableError', async () => {
    const keychain = keychainBackend({ timeoutMs: 50, load: hangingKeychain });
    await expect(keychain.get('a')).rejects.toThrow(KeychainUnavailableError);
    await expect(keychain.set('a', { token: 't' })).rejects.toThrow(/no answer within 0.05 s/);
  });

  it('waits 3 s by default, on the clock rather than the wall', async () => {
    vi.useFakeTimers();
    try {
      let outcome: unknown;
      void keychainBackend({ load: hangingKeychain })
        .get('a')
        .then(
          () => (outcome = 'answered'),
          (error: unknown) => (outcome = error),
        );
      await vi.advanceTimersByTimeAsync(2999);
      expect(outcome).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toBeInstanceOf(KeychainUnavailableError);
      expect((outcome as Error).message).toBe('The OS keychain is not available (no answer within 3 s).');
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports a keychain module or service failure as unavailable', async () => {
    await expect(keychainBackend({ load: missingKeychain }).get('a')).rejects.toThrow(/no D-Bus session/);
  });

  it('uses the service store-cli and accounts <profile>:token / <profile>:client_secret', async () => {
    const entries = new Map<string, string>();
    const keychain = keychainBackend({
      load: async () => ({
        getPassword: async (service, account) => entries.get(`${service}/${account}`) ?? null,
        setPassword: async (service, account, password) => void entries.set(`${service}/${account}`, password),
        deletePassword: async (service, account) => entries.delete(`${service}/${account}`),
      }),
    });
    await keychain.set('work', { token: 'T', clientSecret: 'S' });
    expect([...entries]).toEqual([
      ['store-cli/work:token', 'T'],
      ['store-cli/work:client_secret', 'S'],
    ]);
    await keychain.set('work', { token: 'T2' });
    expect([...entries]).toEqual([['store-cli/work:token', 'T2']]);
    expect(await keychain.get('work')).toEqual({ token: 'T2', clientSecret: undefined });
  });
});

describe('saveSecrets', () => {
  it('falls back to the file with a plain-text warning when no keychain answers', async () => {
    const result = await saveSecrets('a', { token: 't' }, { env, keychain: { timeoutMs: 50, load: hangingKeychain } });
    expect(result.store).toBe('file');
    expect(result.warning).toMatch(/not available.*plain text.*credentials\.json/);
    expect(await loadSecrets('a', 'file', { env })).toEqual({ token: 't', clientSecret: undefined });
  });

  it('goes straight to the file with --insecure-storage, never touching the keychain', async () => {
    const result = await saveSecrets('a', { token: 't' }, { env, insecureStorage: true, keychain: { load: missingKeychain } });
    expect(result).toEqual({ store: 'file', warning: expect.stringMatching(/plain text/) });
  });

  it('deleteSecrets clears the file even when the profile used it', async () => {
    await saveSecrets('a', { token: 't', clientSecret: 's' }, { env, insecureStorage: true });
    await deleteSecrets('a', 'file', { env, keychain: { load: missingKeychain } });
    expect(await loadSecrets('a', 'file', { env })).toEqual({ token: undefined, clientSecret: undefined });
  });
});
