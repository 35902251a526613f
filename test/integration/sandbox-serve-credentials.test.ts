import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/run-cli.js';

/**
 * Issue 24: `sandbox serve --json` prints the sandbox's own credentials as they are (docs/sandbox.md: they are not
 * secret), even when STORE_TOKEN holds the same token, so that a script restarting the sandbox reads a usable
 * token. Any other secret of the environment stays scrubbed (test/global-setup.ts checks every runCli).
 */

function serveOnce(env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--json', '--port', '0'], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!stdout.includes('\n')) return;
      child.kill('SIGTERM');
      child.on('exit', () => resolve(JSON.parse(stdout.split('\n')[0]!) as Record<string, unknown>));
    });
    child.on('exit', (code) => {
      if (!stdout.includes('\n')) reject(new Error(`serve exited ${code}: ${stderr}`));
    });
  });
}

describe('sandbox serve --json and the output guard', () => {
  it('prints its own token and client secret even when STORE_TOKEN and STORE_CLIENT_SECRET hold them', async () => {
    const root = mkdtempSync(join(tmpdir(), 'store-serve-creds-'));
    const env = {
      XDG_CONFIG_HOME: join(root, 'config'),
      XDG_STATE_HOME: join(root, 'state'),
      XDG_DATA_HOME: join(root, 'data'),
      STORE_TOKEN: undefined,
      STORE_CLIENT_SECRET: undefined,
    };
    const first = await serveOnce(env);
    expect(typeof first.access_token).toBe('string');
    expect(String(first.access_token).length).toBeGreaterThanOrEqual(8);
    // A restart on the same state, by a script that exported what the first run printed.
    const again = await serveOnce({ ...env, STORE_TOKEN: String(first.access_token), STORE_CLIENT_SECRET: String(first.client_secret) });
    expect(again.access_token).toBe(first.access_token);
    expect(again.client_secret).toBe(first.client_secret);
    expect(JSON.stringify(again)).not.toContain('[REDACTED]');
  });
});
