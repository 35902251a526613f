import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';

/** The shared local sandbox of DESIGN.md §6 through the real binary, with temp XDG dirs. */

const root = mkdtempSync(join(tmpdir(), 'store-shared-'));
const env = {
  XDG_CONFIG_HOME: join(root, 'config'),
  XDG_STATE_HOME: join(root, 'state'),
  XDG_DATA_HOME: join(root, 'data'),
  NO_COLOR: '1',
};

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('shared local sandbox', () => {
  afterAll(async () => {
    await runInProcess(['sandbox', 'stop'], { env });
  });

  it('status when nothing runs → running false (exit 0)', async () => {
    const res = await runInProcess(['sandbox', 'status', '--json'], { env });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ running: false, pid: null });
  });

  it('two concurrent callers get one server (one pid, one URL) recorded in $XDG_STATE_HOME/store/sandbox.json', async () => {
    const [a, b] = await Promise.all([
      runCli(['sandbox', 'status', '--start', '--json'], { env }),
      runCli(['sandbox', 'status', '--start', '--json'], { env }),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const ia = JSON.parse(a.stdout);
    const ib = JSON.parse(b.stdout);
    expect(ia.running).toBe(true);
    expect(ib.pid).toBe(ia.pid);
    expect(ib.api_url).toBe(ia.api_url);
    const recorded = JSON.parse(readFileSync(join(env.XDG_STATE_HOME, 'store', 'sandbox.json'), 'utf8'));
    expect(recorded.pid).toBe(ia.pid);
    expect(pidAlive(ia.pid)).toBe(true);
    // the status output never shows the token or the secret
    expect(a.stdout).not.toContain(recorded.access_token);
    expect(a.stdout).not.toContain(recorded.client_secret);
  });

  it('the detached server does not hold the caller\'s pipes (the CLI exits while the server keeps running)', async () => {
    const res = await runCli(['sandbox', 'status', '--start'], { env, timeoutMs: 20_000 });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/Running\s+yes/);
  });

  it('the seeded demo store answers with the recorded token; reset restores it and keeps the token', async () => {
    const info = JSON.parse(readFileSync(join(env.XDG_STATE_HOME, 'store', 'sandbox.json'), 'utf8'));
    const headers = { authentication: `bearer ${info.access_token}`, 'user-agent': `${info.app_name} (${info.client_id})`, 'content-type': 'application/json' };
    const base = `${info.api_url}/v1/${info.store_id}`;
    const before = Number((await fetch(`${base}/categories`, { headers })).headers.get('x-total-count'));
    expect(before).toBeGreaterThan(0);
    const created = await fetch(`${base}/categories`, { method: 'POST', headers, body: JSON.stringify({ name: 'Temporary' }) });
    expect(created.status).toBeLessThan(300);

    const reset = await runInProcess(['sandbox', 'reset', '--yes'], { env });
    expect(reset.code, reset.stderr).toBe(0);
    const after = JSON.parse(readFileSync(join(env.XDG_STATE_HOME, 'store', 'sandbox.json'), 'utf8'));
    expect(after.access_token).toBe(info.access_token);
    expect(after.store_id).toBe(info.store_id);
    const base2 = `${after.api_url}/v1/${after.store_id}`;
    const count = Number((await fetch(`${base2}/categories`, { headers })).headers.get('x-total-count'));
    expect(count).toBe(before);
  });

  it('reset without --yes and without a terminal → exit 2', async () => {
    const res = await runInProcess(['sandbox', 'reset'], { env });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--yes/);
  });

  it('stop stops it; status then says not running; a later --start starts it again with the same token', async () => {
    const info = JSON.parse(readFileSync(join(env.XDG_STATE_HOME, 'store', 'sandbox.json'), 'utf8'));
    const stop = await runInProcess(['sandbox', 'stop'], { env });
    expect(stop.code).toBe(0);
    expect(stop.stderr).toContain(String(info.pid));
    expect(pidAlive(info.pid)).toBe(false);
    const status = await runInProcess(['sandbox', 'status', '--json'], { env });
    expect(JSON.parse(status.stdout).running).toBe(false);
    const again = await runInProcess(['sandbox', 'status', '--start', '--json'], { env });
    expect(JSON.parse(again.stdout).running).toBe(true);
    const restarted = JSON.parse(readFileSync(join(env.XDG_STATE_HOME, 'store', 'sandbox.json'), 'utf8'));
    expect(restarted.access_token).toBe(info.access_token);
    expect(restarted.pid).not.toBe(info.pid);
  });

  it('a server killed without notice is replaced on the next use', async () => {
    const info = JSON.parse(readFileSync(join(env.XDG_STATE_HOME, 'store', 'sandbox.json'), 'utf8'));
    process.kill(info.pid, 'SIGKILL');
    const deadline = Date.now() + 5000;
    while (pidAlive(info.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const res = await runInProcess(['sandbox', 'status', '--start', '--json'], { env });
    const now = JSON.parse(res.stdout);
    expect(now.running).toBe(true);
    expect(now.pid).not.toBe(info.pid);
  });
});
