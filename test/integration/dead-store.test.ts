import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

/**
 * Issue 31, "A dead store says so": a store whose port is closed is retried a few times with the cause on each
 * line, under one policy for every command (an interactive list and a bulk job alike), and `--quiet` says it in
 * one line. It used to look like a busy store: 2 min 46 s of "The store asked to wait N s (retry)" in a bulk
 * command, silent under --quiet. The real binary: these are the lines a user or cron sees.
 */

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function deadStoreEnv(port: number): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), 'store-dead-store-'));
  return {
    STORE_TOKEN: 'dead-store-token-0123456789',
    STORE_ID: '1',
    STORE_API_URL: `http://127.0.0.1:${port}`,
    STORE_APP_NAME: 'Dead Store Test',
    STORE_APP_ID: '1',
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
  };
}

describe('a store whose port is closed', () => {
  it('is retried 3 times with the cause on each line, by an interactive list and a bulk job alike; --quiet says it once', async () => {
    const port = await closedPort();
    const feed = join(mkdtempSync(join(tmpdir(), 'store-dead-feed-')), 'stock.csv');
    writeFileSync(feed, 'sku,stock\nCAM-OXF-S,3\n');
    const [list, sync, quietSync] = await Promise.all([
      runCli(['orders', 'list'], { env: deadStoreEnv(port) }),
      // Each run its own state directory: two syncs of one store would meet on its lock.
      runCli(['variants', 'sync', feed], { env: deadStoreEnv(port) }),
      runCli(['variants', 'sync', feed, '--quiet'], { env: deadStoreEnv(port) }),
    ]);
    const retrying = (n: number, seconds: number) =>
      `Could not reach 127.0.0.1:${port} (connection refused); retrying in ${seconds} s (${n}/3)`;
    const failed = new RegExp(`^Error: Could not reach 127\\.0\\.0\\.1:${port}: connection refused after 4 attempts over \\d+ s\\.$`);

    for (const r of [list, sync]) {
      const lines = r.stderr.split('\n').filter(Boolean);
      expect(lines.slice(0, 3)).toEqual([retrying(1, 1), retrying(2, 2), retrying(3, 4)]);
      expect(lines.slice(3)).toHaveLength(1);
      expect(lines[3]).toMatch(failed);
      expect(r.stdout).toBe('');
      expect(r.code).toBe(1);
    }
    const quiet = quietSync.stderr.split('\n').filter(Boolean);
    expect(quiet[0]).toBe(retrying(1, 1));
    expect(quiet.slice(1)).toHaveLength(1);
    expect(quiet[1]).toMatch(failed);
    expect(quietSync.code).toBe(1);
  }, 60_000);
});
