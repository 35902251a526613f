import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/run-cli.js';

/**
 * Issue 31, "Logins that vanish": a provisioning script runs twelve `auth login --with-token` at once. Each
 * reads config.json and credentials.json, changes them and writes them back; without a lock, half the profiles
 * were lost while every run reported success. The real binary, twelve processes.
 */

let sandbox: RunningSandbox;

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'empty', rate: 'off', host: '127.0.0.1', port: 0 });
});
afterAll(() => sandbox?.close());

describe('twelve concurrent logins', () => {
  it('all land: every profile and its token are in the files afterwards', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-concurrent-logins-'));
    const env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state'), XDG_DATA_HOME: join(dir, 'data') };
    const names = Array.from({ length: 12 }, (_, i) => `shop${i + 1}`);
    const runs = await Promise.all(
      names.map((profile) =>
        runCli(
          ['auth', 'login', '--profile', profile, '--with-token', '--store-id', String(sandbox.storeId), '--api-url', sandbox.apiUrl,
            '--client-id', sandbox.clientId, '--app-name', sandbox.appName, '--insecure-storage'],
          { env, input: `${sandbox.accessToken}\n`, timeoutMs: 120_000 },
        ),
      ),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(dir, 'config', 'store', 'config.json'), 'utf8')) as { profiles: Record<string, unknown> };
    expect(Object.keys(config.profiles).sort()).toEqual([...names].sort());
    const credentials = JSON.parse(readFileSync(join(dir, 'config', 'store', 'credentials.json'), 'utf8')) as Record<string, { token: string }>;
    expect(Object.keys(credentials).sort()).toEqual([...names].sort());
    for (const name of names) expect(credentials[name]!.token).toBe(sandbox.accessToken);
  }, 150_000);
});
