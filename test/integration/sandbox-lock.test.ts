import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockStateDir, StateDirInUseError } from '../../src/sandbox/state-dir.js';
import { runInProcess } from '../helpers/run-in-process.js';

/** Locks of the shared sandbox (DESIGN.md §6): a lock left by a killed process never blocks the next start. */

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('state dir lock of store sandbox serve', () => {
  it('a live holder → refused, naming its pid', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-lock-'));
    writeFileSync(join(dir, 'server.pid'), String(process.ppid));
    expect(() => lockStateDir(dir)).toThrow(StateDirInUseError);
    expect(() => lockStateDir(dir)).toThrow(String(process.ppid));
  });

  it('a dead holder → taken over; release removes only our own lock', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-lock-'));
    writeFileSync(join(dir, 'server.pid'), String(deadPid()));
    const release = lockStateDir(dir);
    expect(readFileSync(join(dir, 'server.pid'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, 'server.pid'))).toBe(false);
  });
});

describe('shared sandbox lock', () => {
  const root = mkdtempSync(join(tmpdir(), 'store-shared-lock-'));
  const env = { XDG_CONFIG_HOME: join(root, 'c'), XDG_STATE_HOME: join(root, 's'), XDG_DATA_HOME: join(root, 'd') };
  afterAll(async () => {
    await runInProcess(['sandbox', 'stop'], { env });
  });

  it('a sandbox.lock left by a dead process and a stale sandbox.json are replaced by a working server', async () => {
    mkdirSync(join(env.XDG_STATE_HOME, 'store'), { recursive: true });
    writeFileSync(join(env.XDG_STATE_HOME, 'store', 'sandbox.lock'), String(deadPid()));
    writeFileSync(
      join(env.XDG_STATE_HOME, 'store', 'sandbox.json'),
      JSON.stringify({ api_url: 'http://127.0.0.1:9', auth_url: 'http://127.0.0.1:9', store_id: 1, app_name: 'x', client_id: '1', client_secret: 's', access_token: 't', pid: deadPid() }),
    );
    const res = await runInProcess(['sandbox', 'status', '--start', '--json'], { env });
    expect(res.code, res.stderr).toBe(0);
    const status = JSON.parse(res.stdout);
    expect(status.running).toBe(true);
    expect(status.api_url).not.toBe('http://127.0.0.1:9');
    expect(existsSync(join(env.XDG_STATE_HOME, 'store', 'sandbox.lock'))).toBe(false);
  });
});

describe('recorded pid reused by another process', () => {
  it('sandbox stop never signals a process that is not a sandbox server', async () => {
    const root = mkdtempSync(join(tmpdir(), 'store-reuse-'));
    const env = { XDG_CONFIG_HOME: join(root, 'c'), XDG_STATE_HOME: join(root, 's'), XDG_DATA_HOME: join(root, 'd') };
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      mkdirSync(join(env.XDG_STATE_HOME, 'store'), { recursive: true });
      writeFileSync(
        join(env.XDG_STATE_HOME, 'store', 'sandbox.json'),
        JSON.stringify({ api_url: 'http://127.0.0.1:9', auth_url: 'http://127.0.0.1:9', store_id: 1, app_name: 'x', client_id: '1', client_secret: 's', access_token: 't', pid: other.pid }),
      );
      const res = await runInProcess(['sandbox', 'stop'], { env });
      expect(res.code).toBe(0);
      expect(res.stderr).toMatch(/not running/);
      expect(other.exitCode).toBeNull();
      expect(other.signalCode).toBeNull();
      expect(() => process.kill(other.pid!, 0)).not.toThrow();
    } finally {
      other.kill('SIGKILL');
    }
  });
});
