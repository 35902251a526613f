import { randomBytes } from 'node:crypto';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Entry } from '@napi-rs/keyring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveProfile } from '../../../src/auth/config.js';
import { resolveContext } from '../../../src/auth/context.js';
import {
  credentialsPath,
  deleteSecrets,
  KEYCHAIN_SERVICE,
  keychainBackend,
  loadSecrets,
  saveSecrets,
} from '../../../src/auth/credentials.js';

// Runs against the real Secret Service. Skipped when none answers, unless STORE_TEST_KEYCHAIN=1 (set by .ci/run
// after starting one), where a missing keychain must fail the run rather than hide it.
async function secretServiceAnswers(): Promise<boolean> {
  const probe = keychainBackend();
  const account = `probe-${randomBytes(4).toString('hex')}`;
  try {
    await probe.set(account, { token: 'x' });
    const ok = (await probe.get(account)).token === 'x';
    await probe.delete(account);
    return ok;
  } catch {
    return false;
  }
}

/** Reads an entry straight from the Secret Service, bypassing the CLI's own code. */
function entry(account: string): string | null {
  return new Entry(KEYCHAIN_SERVICE, account).getPassword();
}

const required = process.env.STORE_TEST_KEYCHAIN === '1';
const available = required || (await secretServiceAnswers());

describe.runIf(available)('OS keychain (Secret Service)', () => {
  let dir: string;
  let env: Record<string, string | undefined>;
  const name = `test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'store-auth-keychain-'));
    env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state') };
  });

  afterAll(async () => {
    await deleteSecrets(name, 'keychain', { env }).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('stores secrets in the keychain, not in the file, without a warning', async () => {
    const result = await saveSecrets(name, { token: 'tok-kc', clientSecret: 'sec-kc' }, { env });
    expect(result).toEqual({ store: 'keychain' });
    expect(await loadSecrets(name, 'keychain', { env })).toEqual({ token: 'tok-kc', clientSecret: 'sec-kc' });
    // Where DESIGN.md §4 puts them, so other tools (and a later version) find them.
    expect(KEYCHAIN_SERVICE).toBe('store-cli');
    expect(entry(`${name}:token`)).toBe('tok-kc');
    expect(entry(`${name}:client_secret`)).toBe('sec-kc');
    await expect(access(credentialsPath(env))).rejects.toThrow();
  });

  it('resolves a keychain profile with tokenSource keychain', async () => {
    await saveProfile(
      name,
      { store_id: '5', api_url: 'http://127.0.0.1:9', app_name: 'A', app_id: '1', secrets_store: 'keychain' },
      { env },
    );
    const ctx = await resolveContext({ env, profile: name });
    expect(ctx).toMatchObject({ token: 'tok-kc', clientSecret: 'sec-kc', tokenSource: 'keychain' });
  });

  it('removes both accounts on delete', async () => {
    await deleteSecrets(name, 'keychain', { env });
    expect(await loadSecrets(name, 'keychain', { env })).toEqual({ token: undefined, clientSecret: undefined });
    expect(entry(`${name}:token`)).toBeNull();
    expect(entry(`${name}:client_secret`)).toBeNull();
  });
});
