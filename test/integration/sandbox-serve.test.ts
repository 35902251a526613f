import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';

/** `store sandbox serve` as a user runs it (DESIGN.md §6). Needs the build: npx tsc -p tsconfig.build.json && npx oclif manifest. */

function xdg(): NodeJS.ProcessEnv {
  const root = mkdtempSync(join(tmpdir(), 'store-serve-'));
  return { XDG_CONFIG_HOME: join(root, 'config'), XDG_STATE_HOME: join(root, 'state'), XDG_DATA_HOME: join(root, 'data'), NO_COLOR: '1' };
}

function serve(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
    void exited.then(({ code }) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { child, firstLine, exited, output: () => ({ stdout, stderr }) };
}

describe('store sandbox serve', () => {
  it('--json prints exactly one JSON line once bound, the server answers, and SIGTERM closes it cleanly', async () => {
    const env = xdg();
    const s = serve(['--json', '--seed', 'demo'], env);
    const info = JSON.parse(await s.firstLine);
    expect(Object.keys(info)).toEqual(['api_url', 'auth_url', 'store_id', 'app_name', 'client_id', 'client_secret', 'access_token', 'pid']);
    expect(info.api_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number.isInteger(info.store_id)).toBe(true);
    expect(info.pid).toBe(s.child.pid);
    const res = await fetch(`${info.api_url}/v1/${info.store_id}/store`, {
      headers: { authentication: `bearer ${info.access_token}`, 'user-agent': `${info.app_name} (${info.client_id})` },
    });
    expect(res.status).toBe(200);
    const orders = await fetch(`${info.api_url}/v1/${info.store_id}/orders`, {
      headers: { authentication: `bearer ${info.access_token}`, 'user-agent': `${info.app_name} (${info.client_id})` },
    });
    expect(Number(orders.headers.get('x-total-count'))).toBeGreaterThan(0);
    s.child.kill('SIGTERM');
    const { code } = await s.exited;
    expect(code).toBe(0);
    expect(s.output().stdout.trim().split('\n')).toHaveLength(1);
    // default state dir: $XDG_DATA_HOME/store/sandbox
    expect(readdirSync(join(env.XDG_DATA_HOME!, 'store', 'sandbox')).length).toBeGreaterThan(0);
  });

  it('without --json prints the URLs, store id, app and token; a restart on the same state keeps the token', async () => {
    const env = xdg();
    const state = join(env.XDG_DATA_HOME!, 'custom');
    const first = serve(['--state', state, '--seed', 'empty', '--json'], env);
    const info = JSON.parse(await first.firstLine);
    first.child.kill('SIGINT');
    expect(await first.exited).toEqual({ code: 0, signal: null });

    const second = serve(['--state', state], env);
    await second.firstLine;
    await new Promise((r) => setTimeout(r, 200));
    const { stdout } = second.output();
    expect(stdout).toContain('http://127.0.0.1:');
    expect(stdout).toContain(String(info.store_id));
    expect(stdout).toContain(info.access_token);
    expect(stdout).toContain(info.client_id);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });

  it('--idle-timeout stops the server by itself after that long without requests', async () => {
    const env = xdg();
    const s = serve(['--json', '--seed', 'empty', '--idle-timeout', '1'], env);
    await s.firstLine;
    const { code } = await s.exited;
    expect(code).toBe(0);
  });

  it('a second server on the same state dir is refused (exit 1, names the pid)', async () => {
    const env = xdg();
    const state = join(env.XDG_DATA_HOME!, 'shared-dir');
    const first = serve(['--state', state, '--json', '--seed', 'empty'], env);
    const info = JSON.parse(await first.firstLine);
    const second = await runInProcess(['sandbox', 'serve', '--state', state, '--json'], { env });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(String(info.pid));
    expect(second.stdout).toBe('');
    first.child.kill('SIGTERM');
    await first.exited;
  });

  it('a port already in use → exit 1 naming the port and --port', async () => {
    const env = xdg();
    const first = serve(['--json', '--seed', 'empty', '--state', join(env.XDG_DATA_HOME!, 'one')], env);
    const port = new URL(JSON.parse(await first.firstLine).api_url).port;
    const second = await runInProcess(['sandbox', 'serve', '--port', port, '--state', join(env.XDG_DATA_HOME!, 'two')], { env });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(port);
    expect(second.stderr).toContain('--port');
    expect(existsSync(join(env.XDG_DATA_HOME!, 'two', 'server.pid'))).toBe(false);
    first.child.kill('SIGTERM');
    await first.exited;
  });

  it('invalid --rate / --faults → exit 2 with one sentence', async () => {
    const env = xdg();
    const rate = await runInProcess(['sandbox', 'serve', '--rate', 'fast'], { env });
    expect(rate.code).toBe(2);
    expect(rate.stderr).toMatch(/--rate/);
    const faults = await runInProcess(['sandbox', 'serve', '--faults', 'explode=1'], { env });
    expect(faults.code).toBe(2);
    expect(faults.stderr).toMatch(/explode/);
    const offset = await runInProcess(['sandbox', 'serve', '--clock-offset', '10 minutes'], { env });
    expect(offset.code).toBe(2);
    expect(offset.stderr).toMatch(/--clock-offset "10 minutes"/);
    expect(existsSync(join(env.XDG_DATA_HOME!, 'store', 'sandbox', 'server.pid'))).toBe(false);
  });

  it("--clock-offset -10m: the store's Date header and a new record's times are 10 minutes behind this machine", async () => {
    const s = serve(['--json', '--seed', 'empty', '--clock-offset', '-10m'], xdg());
    const info = JSON.parse(await s.firstLine);
    const res = await fetch(`${info.api_url}/sandbox/clock`);
    const clock = (await res.json()) as { now: string; offset_ms: number };
    expect(clock.offset_ms).toBe(-600_000);
    // Whole seconds, and the machine's clock has moved on a little since: at least 9 minutes behind, at most 10.
    const behind = Date.now() - Date.parse(res.headers.get('date')!);
    expect(behind).toBeGreaterThan(540_000);
    expect(behind).toBeLessThan(602_000);
    s.child.kill('SIGTERM');
    expect((await s.exited).code).toBe(0);
  });
});

describe('start-up discipline of the sandbox commands', () => {
  const TRACE = fileURLToPath(new URL('../helpers/trace-imports.mjs', import.meta.url));
  const HEAVY = ['got', 'zod', 'fastify', 'csv-parse', 'csv-stringify', 'jq-wasm', '@inquirer/prompts', '@napi-rs/keyring'];

  for (const command of ['serve', 'status', 'stop', 'reset']) {
    it(`store sandbox ${command} --help loads none of the heavy libraries`, async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'store-trace-')), 'imports.txt');
      const res = await runCli(['sandbox', command, '--help'], { nodeArgs: ['--import', TRACE], env: { ...xdg(), STORE_TRACE_IMPORTS: file } });
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('USAGE');
      const urls = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
      expect(HEAVY.filter((name) => urls.some((u) => u.includes(`/node_modules/${name}/`)))).toEqual([]);
    });
  }
});
