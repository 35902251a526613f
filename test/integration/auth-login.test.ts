import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/sandbox/clock.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { BIN, runCli, type CliResult } from '../helpers/run-cli.js';

// The real `store` binary against an in-process sandbox whose clock the test drives (code expiry).
// The test plays the browser: it fetches the authorize page, submits the approve form and follows the redirect.

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

let sandbox: Sandbox;
let clock: FakeClock;
let dir: string;
let env: NodeJS.ProcessEnv;
/** Every output of every run except `store auth token`, checked at the end for leaked secrets. */
const outputs: string[] = [];
const secrets = new Set<string>();

beforeAll(async () => {
  clock = new FakeClock(Date.now());
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', clock });
  secrets.add(sandbox.clientSecret);
  secrets.add(sandbox.accessToken);
});

afterAll(async () => {
  await sandbox?.close();
});

beforeEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = await mkdtemp(join(tmpdir(), 'store-auth-it-'));
  env = {
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
    STORE_TOKEN: '',
    STORE_ID: '',
    STORE_PROFILE: '',
  };
});

async function store(args: string[], extra: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliResult> {
  const result = await runCli(args, { env: { ...env, ...extra.env }, input: extra.input });
  if (args[0] !== 'auth' || args[1] !== 'token') outputs.push(result.stdout, result.stderr);
  return result;
}

/** The one-sentence errors a run printed (other stderr lines are notes and warnings). */
function errorLines(result: CliResult): string[] {
  return result.stderr.split('\n').filter((line) => line.startsWith('Error:'));
}

function appFlags(overrides: Record<string, string> = {}): string[] {
  const values: Record<string, string> = {
    '--api-url': sandbox.apiUrl,
    '--auth-url': sandbox.authUrl,
    '--client-id': sandbox.clientId,
    '--client-secret': sandbox.clientSecret,
    ...overrides,
  };
  return Object.entries(values).flat();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Acts as the store owner in a browser: opens the authorize URL, approves, returns where it redirects. */
async function approveInBrowser(authorize: string): Promise<URL> {
  const page = await fetch(authorize);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  expect(action).toBeDefined();
  const decision = await fetch(new URL(action!, authorize), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'decision=approve',
    redirect: 'manual',
  });
  expect(decision.status).toBe(302);
  return new URL(decision.headers.get('location')!);
}

/** A fresh authorization code, as the platform would hand it to the app's redirect URL. */
async function freshCode(): Promise<string> {
  const authorize = new URL(`${sandbox.authUrl}/apps/${sandbox.clientId}/authorize`);
  authorize.searchParams.set('state', 'test');
  authorize.searchParams.set('redirect_uri', 'http://127.0.0.1:9/callback');
  const location = await approveInBrowser(authorize.toString());
  return location.searchParams.get('code')!;
}

/** Starts `store auth login` in browser mode and resolves with the authorize URL it prints. */
function startBrowserLogin(args: string[]): { url: Promise<string>; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, 'auth', 'login', '--no-browser', ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let found: (url: string) => void;
  const url = new Promise<string>((resolve) => (found = resolve));
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    const match = /^\s+(http\S+\/authorize\S*)$/m.exec(stderr);
    if (match) found(match[1]!);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      outputs.push(stdout, stderr);
      resolve({ code, stdout, stderr });
    }),
  );
  return { url, done };
}

async function currentToken(): Promise<string> {
  const result = await store(['auth', 'token']);
  expect(result.code).toBe(0);
  const token = result.stdout.trim();
  secrets.add(token);
  return token;
}

describe('store auth login (browser flow)', () => {
  it('logs in through the loopback redirect, stores 0600 files, and the token works', async () => {
    const port = await freePort();
    const login = startBrowserLogin(['--profile', 'shop', '--insecure-storage', '--port', String(port), ...appFlags()]);
    const authorize = new URL(await login.url);
    expect(authorize.pathname).toBe(`/apps/${sandbox.clientId}/authorize`);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${port}/callback`);
    expect(authorize.searchParams.get('state')).toMatch(/^[\w-]{16,}$/);

    const redirect = await approveInBrowser(authorize.toString());
    expect(redirect.origin).toBe(`http://127.0.0.1:${port}`);
    const landing = await fetch(redirect);
    expect(landing.status).toBe(200);

    const result = await login.done;
    expect(result.stderr).toContain(`Logged in to store ${sandbox.storeId} as profile "shop"`);
    expect(result.stderr).toMatch(/plain text/);
    expect(result.code).toBe(0);

    expect((await stat(join(env.XDG_CONFIG_HOME!, 'store', 'config.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(env.XDG_CONFIG_HOME!, 'store', 'credentials.json'))).mode & 0o777).toBe(0o600);

    await currentToken();
    const status = await store(['auth', 'status', '--debug']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Profile\s+shop/);
    expect(status.stdout).toMatch(new RegExp(`Store\\s+${sandbox.storeId}\\b`));
    expect(status.stdout).toMatch(/Token kept in\s+credentials file/);
    expect(status.stdout).toMatch(/Token\s+\w{4}…\w{4}/);
    expect(status.stdout).toMatch(/Accepted\s+yes/);

    const api = await store(['api', 'GET', '/store', '--debug']);
    expect(api.code).toBe(0);
    expect(JSON.parse(api.stdout).id).toBe(sandbox.storeId);
  });

  it('refuses a redirect whose state does not match, exit 4', async () => {
    const port = await freePort();
    const login = startBrowserLogin(['--insecure-storage', '--port', String(port), ...appFlags()]);
    const authorize = new URL(await login.url);
    const forged = await fetch(`http://127.0.0.1:${port}/callback?code=whatever&state=not-${authorize.searchParams.get('state')}`);
    expect(forged.status).toBe(400);
    const result = await login.done;
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/state that does not match this login, so it was refused/);
  });
});

describe('store auth login --code', () => {
  it('logs in with a pasted code', async () => {
    const result = await store(['auth', 'login', '--code', await freshCode(), '--insecure-storage', '--debug', ...appFlags()]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`200 POST ${sandbox.authUrl}/apps/authorize/token`);
    expect(result.stderr).toContain(`Logged in to store ${sandbox.storeId} as profile "default"`);
    await currentToken();
  });

  it('refuses an expired code with exit 4 and one sentence', async () => {
    const code = await freshCode();
    clock.advance(301_000);
    const result = await store(['auth', 'login', '--code', code, '--insecure-storage', ...appFlags()]);
    expect(result.code).toBe(4);
    expect(errorLines(result)).toEqual([
      'Error: The authorization code was refused (expired after 5 minutes, already used, or mistyped); run `store auth login` again.',
    ]);
  });

  it('refuses a reused code and a wrong code', async () => {
    const code = await freshCode();
    expect((await store(['auth', 'login', '--code', code, '--insecure-storage', ...appFlags()])).code).toBe(0);
    const reused = await store(['auth', 'login', '--code', code, '--insecure-storage', ...appFlags()]);
    expect(reused.code).toBe(4);
    expect(reused.stderr).toMatch(/authorization code was refused/);
    const wrong = await store(['auth', 'login', '--code', 'not-a-code', '--insecure-storage', ...appFlags()]);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toMatch(/authorization code was refused/);
  });

  it('refuses a wrong client secret with exit 4', async () => {
    const code = await freshCode();
    const result = await store(['auth', 'login', '--code', code, '--insecure-storage', ...appFlags({ '--client-secret': 'wrong' })]);
    expect(result.code).toBe(4);
    expect(errorLines(result)).toEqual(['Error: The client id or client secret was refused; check --client-id and --client-secret.']);
  });

  it('names the missing flag when there is no terminal to ask on, exit 2', async () => {
    const result = await store(['auth', 'login', '--code', 'x', '--api-url', sandbox.apiUrl, '--auth-url', sandbox.authUrl]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Missing --client-id/);
  });
});

/**
 * Runs the binary on a pseudo-terminal (util-linux `script`) and types each answer once its prompt shows.
 * Output is the terminal's, stdout and stderr mixed.
 */
function runInTerminal(args: string[], answers: [RegExp, string][]): Promise<CliResult> {
  const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let seen = 0;
  child.stdout.on('data', (d) => {
    output += d;
    const next = answers[0];
    if (next && next[0].test(output.slice(seen))) {
      answers.shift();
      seen = output.length;
      child.stdin.write(`${next[1]}\r`);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      outputs.push(output);
      resolve({ code, stdout: output, stderr: '' });
    }),
  );
}

const hasScript = spawnSync('script', ['--version']).status === 0;

describe.runIf(hasScript)('store auth login on a terminal', () => {
  it('asks for the missing values, masking the client secret', async () => {
    const result = await runInTerminal(
      ['auth', 'login', '--code', await freshCode(), '--insecure-storage'],
      [
        [/API URL/, sandbox.apiUrl],
        [/Authorization server URL/, sandbox.authUrl],
        [/App client id/, sandbox.clientId],
        [/App client secret/, sandbox.clientSecret],
      ],
    );
    expect(result.stdout).toContain(`Logged in to store ${sandbox.storeId} as profile "default"`);
    expect(result.stdout).toMatch(/App client secret.*\*{4}/);
    expect(result.code).toBe(0);
  });
});

describe('revoked token', () => {
  it('a second authorization revokes the first token: the store refuses it, exit 4', async () => {
    expect((await store(['auth', 'login', '--code', await freshCode(), '--insecure-storage', ...appFlags()])).code).toBe(0);
    const first = await currentToken();
    expect((await store(['auth', 'login', '--code', await freshCode(), '--insecure-storage', ...appFlags()])).code).toBe(0);
    const second = await currentToken();
    expect(second).not.toBe(first);

    const stale = await store(['auth', 'status', '--json'], {
      env: { STORE_TOKEN: first, STORE_ID: String(sandbox.storeId), STORE_API_URL: sandbox.apiUrl },
    });
    expect(stale.code).toBe(4);
    expect(JSON.parse(stale.stdout)).toMatchObject({ profile: 'env', tokenSource: 'env', accepted: false });
    expect(stale.stderr).toMatch(/The store rejected the token of profile env; run `store auth login`/);

    expect((await store(['auth', 'status'])).code).toBe(0);
  });
});

describe('store auth login --with-token, list, switch, logout', () => {
  it('manages several profiles', async () => {
    const token = sandbox.accessToken;
    const withToken = ['--with-token', '--store-id', String(sandbox.storeId), '--api-url', sandbox.apiUrl, '--insecure-storage'];
    expect((await store(['auth', 'login', '--profile', 'a', ...withToken], { input: `${token}\n` })).code).toBe(0);
    expect((await store(['auth', 'login', '--profile', 'b', ...withToken], { input: token })).code).toBe(0);

    const list = await store(['auth', 'list', '--json']);
    expect(JSON.parse(list.stdout).map((p: { name: string; default: boolean }) => [p.name, p.default])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect((await store(['auth', 'switch', 'a'])).code).toBe(0);
    expect((await store(['auth', 'list'])).stdout).toMatch(/^\*\ta\t/m);
    expect((await store(['auth', 'switch', 'zz'])).code).toBe(2);

    expect((await store(['auth', 'logout'])).code).toBe(0);
    expect(JSON.parse((await store(['auth', 'list', '--json'])).stdout).map((p: { name: string }) => p.name)).toEqual(['b']);
  });

  // Only where .ci/run started a Secret Service: elsewhere the keychain's absence is covered by unit tests.
  it.runIf(process.env.STORE_TEST_KEYCHAIN === '1')('keeps secrets in the OS keychain when one answers', async () => {
    const profile = `it-${process.pid}`;
    const login = await store(
      ['auth', 'login', '--profile', profile, '--with-token', '--store-id', String(sandbox.storeId), '--api-url', sandbox.apiUrl],
      { input: sandbox.accessToken },
    );
    expect(login.code).toBe(0);
    expect(login.stderr).not.toMatch(/plain text/);
    await expect(stat(join(env.XDG_CONFIG_HOME!, 'store', 'credentials.json'))).rejects.toThrow();
    const list = await store(['auth', 'list', '--json']);
    expect(JSON.parse(list.stdout)[0]).toMatchObject({ name: profile, secretsStore: 'keychain' });
    expect((await store(['auth', 'token'])).stdout.trim()).toBe(sandbox.accessToken);
    expect((await store(['auth', 'logout'])).code).toBe(0);
  });

  it('without credentials, commands exit 4 naming `store auth login`', async () => {
    const result = await store(['auth', 'status']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/store auth login/);
  });
});

describe('secrets', () => {
  it('no token or client secret ever reached stdout, stderr or --debug output', () => {
    expect(outputs.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      for (const output of outputs) expect(output.includes(secret)).toBe(false);
    }
  });
});
