import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Entry } from '@napi-rs/keyring';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../src/platform/clock.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { registerSecret, runCli, type CliResult } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { hasScript, runOnTerminal } from '../helpers/terminal.js';

// `store` (run in-process) against an in-process sandbox whose clock the test drives (code expiry).
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
  addSecret(sandbox.clientSecret);
  addSecret(sandbox.accessToken);
});

/** Checked here at the end of the file, and by the suite-wide check (test/global-setup.ts) in every CLI run. */
function addSecret(value: string): void {
  secrets.add(value);
  registerSecret(value);
}

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

async function store(args: string[], extra: { env?: NodeJS.ProcessEnv; input?: string; ownProcess?: boolean } = {}): Promise<CliResult> {
  const run = extra.ownProcess ? runCli : runInProcess;
  const result = await run(args, { env: { ...env, ...extra.env }, input: extra.input });
  if (args[0] !== 'auth' || args[1] !== 'token') outputs.push(result.stdout, result.stderr);
  return result;
}

/** The one-sentence errors a run printed (other stderr lines are notes and warnings). */
function errorLines(result: CliResult): string[] {
  return result.stderr.split('\n').filter((line) => line.startsWith('Error:'));
}

/** The run exited 4 and its stderr is one sentence, nothing else (no notes, no stack); returns the sentence. */
function refusedInOneSentence(result: CliResult): string {
  expect(result.code).toBe(4);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  const sentence = lines[0]!.replace(/^Error: /, '');
  expect(sentence).toMatch(/^[A-Z].*\.$/);
  expect(sentence).not.toMatch(/\.\s+[A-Z]/);
  return sentence;
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
function startBrowserLogin(args: string[], extraEnv: NodeJS.ProcessEnv = {}): { url: Promise<string>; done: Promise<CliResult> } {
  let found: (url: string) => void;
  const url = new Promise<string>((resolve) => (found = resolve));
  const done = runInProcess(['auth', 'login', ...args], {
    env: { ...env, ...extraEnv },
    onStderr: (stderr) => {
      const match = /^\s+(http\S+\/authorize\S*)$/m.exec(stderr);
      if (match) found(match[1]!);
    },
  }).then((result) => {
    outputs.push(result.stdout, result.stderr);
    return result;
  });
  return { url, done };
}

async function currentToken(): Promise<string> {
  const result = await store(['auth', 'token']);
  expect(result.code).toBe(0);
  const token = result.stdout.trim();
  addSecret(token);
  return token;
}

describe('store auth login (browser flow)', () => {
  it('logs in through the loopback redirect, stores 0600 files, and the token works', async () => {
    const port = await freePort();
    const login = startBrowserLogin(['--no-browser', '--profile', 'shop', '--insecure-storage', '--port', String(port), ...appFlags()]);
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
    const login = startBrowserLogin(['--no-browser', '--insecure-storage', '--port', String(port), ...appFlags()]);
    const authorize = new URL(await login.url);
    const forged = await fetch(`http://127.0.0.1:${port}/callback?code=whatever&state=not-${authorize.searchParams.get('state')}`);
    expect(forged.status).toBe(400);
    const result = await login.done;
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/state that does not match this login, so it was refused/);
  });

  it('opens the browser where one exists, and keeps --app-name in the profile', async () => {
    // A stand-in for the desktop's opener: it records the URL it was asked to open.
    const bin = join(dir, 'bin');
    const opened = join(dir, 'opened-url');
    await mkdir(bin);
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    await chmod(join(bin, 'xdg-open'), 0o755);
    const port = await freePort();
    const login = startBrowserLogin(
      ['--profile', 'desk', '--insecure-storage', '--debug', '--port', String(port), '--app-name', 'Desk App', ...appFlags()],
      { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':99', WAYLAND_DISPLAY: '' },
    );
    const printed = await login.url;
    const url = await vi.waitFor(() => readFile(opened, 'utf8'), { timeout: 10_000 });
    expect(url).toBe(printed);

    expect((await fetch(await approveInBrowser(url))).status).toBe(200);
    const result = await login.done;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Opened the authorization page in your browser');
    expect(result.stderr).toContain(`200 POST ${sandbox.authUrl}/apps/authorize/token`);
    const [profile] = JSON.parse((await store(['auth', 'list', '--json'])).stdout);
    expect(profile).toMatchObject({ name: 'desk', appName: 'Desk App', appId: sandbox.clientId, storeId: String(sandbox.storeId) });
  });

  it('listens on 127.0.0.1:8976 unless --port is given; a denied authorization exits 4', async () => {
    const login = startBrowserLogin(['--no-browser', '--insecure-storage', ...appFlags()]);
    const first = await Promise.race([login.url, login.done]);
    if (typeof first !== 'string') {
      // Something else on this machine holds the port: the login says so and names --port.
      expect(first.code).toBe(2);
      expect(first.stderr).toMatch(/Port 8976 on 127\.0\.0\.1 is in use; .*--port/);
      return;
    }
    const authorize = new URL(first);
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:8976/callback');
    const denied = new URL(authorize.searchParams.get('redirect_uri')!);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('state', authorize.searchParams.get('state')!);
    expect((await fetch(denied)).status).toBe(400);
    const result = await login.done;
    expect(result.code).toBe(4);
    expect(errorLines(result)).toEqual(['Error: The authorization was not granted in the browser (access_denied).']);
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

  const refusedCode =
    'The authorization code was refused (expired after 5 minutes, already used, or mistyped); run `store auth login` again.';

  it('refuses an expired code with exit 4 and one sentence', async () => {
    const code = await freshCode();
    clock.advance(301_000);
    const result = await store(['auth', 'login', '--code', code, '--insecure-storage', ...appFlags()]);
    expect(refusedInOneSentence(result)).toBe(refusedCode);
    await expect(stat(join(env.XDG_CONFIG_HOME!, 'store', 'config.json'))).rejects.toThrow();
  });

  it('refuses a reused code and a wrong code, each in one sentence with exit 4', async () => {
    const code = await freshCode();
    expect((await store(['auth', 'login', '--code', code, '--insecure-storage', ...appFlags()])).code).toBe(0);
    const reused = await store(['auth', 'login', '--code', code, '--insecure-storage', ...appFlags()]);
    expect(refusedInOneSentence(reused)).toBe(refusedCode);
    const wrong = await store(['auth', 'login', '--code', 'not-a-code', '--insecure-storage', ...appFlags()]);
    expect(refusedInOneSentence(wrong)).toBe(refusedCode);
  });

  it('refuses a wrong client secret with exit 4 and one sentence', async () => {
    const code = await freshCode();
    const result = await store(['auth', 'login', '--code', code, '--insecure-storage', ...appFlags({ '--client-secret': 'wrong' })]);
    expect(refusedInOneSentence(result)).toBe('The client id or client secret was refused; check --client-id and --client-secret.');
  });

  it('names the missing flag when there is no terminal to ask on, exit 2', async () => {
    const result = await store(['auth', 'login', '--code', 'x', '--api-url', sandbox.apiUrl, '--auth-url', sandbox.authUrl]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Missing --client-id/);
  });
});

describe.runIf(hasScript)('store auth login on a terminal', () => {
  it('asks for the missing values, masking the client secret', async () => {
    const result = await runOnTerminal(['auth', 'login', '--code', await freshCode(), '--insecure-storage'], env, [
      // The menu of API hosts: the fourth choice, "Another URL", leads to the typed one.
      { when: 'Another URL (type it)', send: '\u001b[B\u001b[B\u001b[B\r' },
      { when: 'API URL', send: `${sandbox.apiUrl}\r` },
      { when: 'Authorization server URL', send: `${sandbox.authUrl}\r` },
      { when: 'App client id', send: `${sandbox.clientId}\r` },
      { when: 'App client secret', send: `${sandbox.clientSecret}\r` },
    ]);
    outputs.push(result.output);
    expect(result.output).toContain(`Logged in to store ${sandbox.storeId} as profile "default"`);
    expect(result.output).toMatch(/App client secret.*\*{4}/);
    expect(result.code).toBe(0);
  });
});

/** --with-token names the app the token was issued to (the User-Agent must be the real app's). */
function tokenApp(): string[] {
  return ['--client-id', String(sandbox.clientId), '--app-name', sandbox.appName];
}

describe('revoked token', () => {
  it('a second authorization revokes the first token: the store refuses it, exit 4', async () => {
    expect((await store(['auth', 'login', '--code', await freshCode(), '--insecure-storage', ...appFlags()])).code).toBe(0);
    const first = await currentToken();
    // A second profile keeps the first token, as a script would after `store auth token`.
    const keep = ['--profile', 'old', '--with-token', '--store-id', String(sandbox.storeId), '--api-url', sandbox.apiUrl, ...tokenApp()];
    expect((await store(['auth', 'login', ...keep, '--insecure-storage'], { input: first })).code).toBe(0);
    expect((await store(['auth', 'login', '--profile', 'default', '--code', await freshCode(), '--insecure-storage', ...appFlags()])).code).toBe(0);
    const second = await currentToken();
    expect(second).not.toBe(first);

    const stale = await store(['auth', 'status', '--json'], {
      env: { STORE_TOKEN: first, STORE_ID: String(sandbox.storeId), STORE_API_URL: sandbox.apiUrl },
    });
    // With --json the error is one JSON line on stderr; the status itself is on stdout.
    expect(stale.code).toBe(4);
    expect(stale.stderr.trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      {
        error: {
          message:
            'The store rejected the token from the environment (STORE_TOKEN); set a valid token, or unset STORE_TOKEN and STORE_ID to use a profile.',
          exit_code: 4,
          status: 401,
        },
      },
    ]);
    expect(JSON.parse(stale.stdout)).toMatchObject({ profile: 'env', tokenSource: 'env', accepted: false });

    const oldStatus = await store(['auth', 'status', '--profile', 'old']);
    expect(refusedInOneSentence(oldStatus)).toBe('The store rejected the token of profile old; run `store auth login --profile old` to log in again.');
    expect(oldStatus.stdout).toMatch(/Accepted\s+no/);
    const oldCommand = await store(['orders', 'list', '--profile', 'old']);
    expect(refusedInOneSentence(oldCommand)).toBe('The store rejected the token of profile old; run `store auth login --profile old` to log in again.');
    expect(oldCommand.stdout).toBe('');

    expect((await store(['auth', 'status'])).code).toBe(0);
  });
});

describe('store auth login --with-token, list, switch, logout', () => {
  it('manages several profiles', async () => {
    const token = sandbox.accessToken;
    const withToken = ['--with-token', '--store-id', String(sandbox.storeId), '--api-url', sandbox.apiUrl, ...tokenApp(), '--insecure-storage'];
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
      ['auth', 'login', '--profile', profile, '--with-token', '--store-id', String(sandbox.storeId), '--api-url', sandbox.apiUrl, ...tokenApp()],
      { input: sandbox.accessToken },
    );
    expect(login.code).toBe(0);
    expect(login.stderr).not.toMatch(/plain text/);
    await expect(stat(join(env.XDG_CONFIG_HOME!, 'store', 'credentials.json'))).rejects.toThrow();
    const list = await store(['auth', 'list', '--json']);
    expect(JSON.parse(list.stdout)[0]).toMatchObject({ name: profile, secretsStore: 'keychain' });
    expect((await store(['auth', 'token'])).stdout.trim()).toBe(sandbox.accessToken);
    const status = await store(['auth', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Token kept in\s+OS keychain/);
    expect(new Entry('store-cli', `${profile}:token`).getPassword()).toBe(sandbox.accessToken);

    expect((await store(['auth', 'logout'])).code).toBe(0);
    expect(new Entry('store-cli', `${profile}:token`).getPassword()).toBeNull();
    expect(JSON.parse((await store(['auth', 'list', '--json'])).stdout)).toEqual([]);
  });

  it('without a keychain, falls back to the 0600 file with a warning saying so', async () => {
    // A session bus address that leads nowhere: the keychain cannot answer, whatever this machine has. The
    // keychain client keeps the bus it first connected to for the life of the process, so these runs are
    // processes of their own (in the test process, a Secret Service found earlier would still answer).
    const noKeychain = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
    const login = await store(
      ['auth', 'login', '--profile', 'plain', '--with-token', '--store-id', String(sandbox.storeId), '--api-url', sandbox.apiUrl, ...tokenApp()],
      { input: sandbox.accessToken, env: noKeychain, ownProcess: true },
    );
    expect(login.code).toBe(0);
    const credentials = join(env.XDG_CONFIG_HOME!, 'store', 'credentials.json');
    expect(login.stderr).toMatch(
      new RegExp(`^Warning: The OS keychain is not available \\(.+\\)\\. Secrets are stored in plain text in ${credentials} \\(mode 0600\\)\\.$`, 'm'),
    );
    expect((await stat(credentials)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(credentials, 'utf8'))).toEqual({ plain: { token: sandbox.accessToken } });
    const status = await store(['auth', 'status'], { env: noKeychain, ownProcess: true });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Token kept in\s+credentials file/);

    expect((await store(['auth', 'logout'], { env: noKeychain, ownProcess: true })).code).toBe(0);
    expect(JSON.parse(await readFile(credentials, 'utf8'))).toEqual({});
  });

  it('--with-token without --store-id names the flag, exit 2, and saves nothing', async () => {
    const result = await store(['auth', 'login', '--with-token', '--api-url', sandbox.apiUrl, ...tokenApp(), '--insecure-storage'], {
      input: sandbox.accessToken,
    });
    expect(result.code).toBe(2);
    expect(errorLines(result)).toEqual([
      'Error: Missing --store-id (Store id); pass it as a flag, as standard input carries the token.',
    ]);
    await expect(stat(join(env.XDG_CONFIG_HOME!, 'store'))).rejects.toThrow();
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
