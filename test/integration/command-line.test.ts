import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { BIN, runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, cliEnv, type TestSandbox } from '../helpers/sandbox.js';
import { hasScript, plainText, runOnTerminal } from '../helpers/terminal.js';

/**
 * The command line as people type it (issue 14): errors only on stderr (one JSON line with --json), -h, tables
 * that fit the terminal, --json FIELDS and --jq, pipes and stdin, repeatable flags that leave the arguments
 * alone, mistyped commands, credential hints and `auth login --with-token`. Every case runs against the demo
 * sandbox and checks stdout, stderr and the exit code: in the test's process, except the exit codes of the real
 * binary (usage 2, runtime 1, unknown command 127), pipes into other programs and terminals.
 */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;
const store = (args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}) =>
  runInProcess(args, { env: { ...env, ...opts.env }, input: opts.input });
/** The real `store` process, for what its exit status must say. */
const binary = (args: string[]) => runCli(args, { env });

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  api = clientFor(sandbox);
  env = cliEnv(sandbox, 'command-line');
  dir = mkdtempSync(join(tmpdir(), 'store-command-line-'));
});
afterAll(() => sandbox?.close());

/** The one JSON line an error under --json leaves on stderr. */
function jsonError(stderr: string): { error: { message: string; exit_code: number; status?: number } } {
  const lines = stderr.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

describe('errors never go to stdout', () => {
  it('--json --bogus: stdout empty, one JSON line on stderr, exit 2', async () => {
    const r = await binary(['orders', 'list', '--json', '--bogus']);
    expect(r.stdout).toBe('');
    expect(jsonError(r.stderr)).toEqual({
      error: { message: 'Unknown flag --bogus (see `store orders list --help`).', exit_code: 2 },
    });
    expect(r.code).toBe(2);
  });

  it('a missing argument under --json is the same JSON line, exit 2', async () => {
    const r = await binary(['orders', 'get', '--json']);
    expect(r.stdout).toBe('');
    expect(jsonError(r.stderr).error).toEqual({ message: 'Missing argument ID (see `store orders get --help`).', exit_code: 2 });
    expect(r.code).toBe(2);
  });

  it('a runtime error under --json carries the HTTP status, stdout empty', async () => {
    const r = await binary(['orders', 'get', '1000009999', '--json']);
    expect(r.stdout).toBe('');
    expect(jsonError(r.stderr).error).toEqual({ message: 'Order 1000009999 not found.', exit_code: 1, status: 404 });
    expect(r.code).toBe(1);
  });

  it('without --json, a usage error is one sentence on stderr, exit 2', async () => {
    const r = await binary(['orders', 'list', '--status', 'shipped']);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toBe("Error: --status shipped: an order's status is open, closed or cancelled; shipped is a shipping status, so use --shipping-status shipped.\n");
    expect(r.code).toBe(2);
  });
});

describe('-h', () => {
  it('prints the same help as --help, on every level', async () => {
    for (const args of [['orders', 'list'], ['api'], []]) {
      const short = await store([...args, '-h']);
      const long = await store([...args, '--help']);
      expect(short.code).toBe(0);
      expect(short.stderr).toBe('');
      expect(short.stdout).toBe(long.stdout);
      expect(short.stdout).toContain('USAGE');
    }
  });
});

describe('tables fit the terminal', () => {
  it.runIf(hasScript)('an 80-column orders list: every line ≤ 80, text cut with …, ids and totals whole, headers aligned in colour', async () => {
    const r = await runOnTerminal(['orders', 'list'], { ...env, COLUMNS: '80', NO_COLOR: '' });
    expect(r.code).toBe(0);
    expect(r.output).toContain('\u001b[1m'); // the header is bold: colour is on
    const lines = plainText(r.output).split('\n').filter(Boolean);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    const header = lines.find((l) => l.startsWith('ID'))!;
    expect(header).toMatch(/^ID\s+NUMBER\s.*\sTOTAL$/);
    const rows = lines.filter((l) => /^\d{9,10} /.test(l));
    expect(rows).toHaveLength(30);
    expect(rows.some((l) => l.includes('…'))).toBe(true);
    const orders = (await api.get<{ id: number; total: string; currency: string }[]>('/orders', { query: { per_page: 30 } })).body;
    for (const [i, row] of rows.entries()) {
      // Ids and amounts are never cut; amounts end under the end of their header, with their currency.
      expect(row.startsWith(`${orders[i]!.id} `)).toBe(true);
      expect(row.endsWith(` ${orders[i]!.total} ${orders[i]!.currency}`)).toBe(true);
      expect([...row].length).toBe([...header].length);
    }
  });

  it('piped output is never cut, and its header is the JSON field names', async () => {
    const r = await store(['orders', 'list'], { env: { COLUMNS: '40' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id\tnumber\tstatus\tpayment_status\tshipping_status\tcreated_at\tcustomer\ttotal\tcurrency');
    expect(r.stdout).not.toContain('…');
    expect(lines.some((l) => l.length > 40)).toBe(true);
    const products = await store(['products', 'list']);
    expect(products.stdout.split('\n')[0]).toBe('id\tname\thandle\tsku\tprice\tstock\tvariants');
  });
});

describe('--json FIELDS and --jq', () => {
  it('--json id,status --jq .[0].id prints the newest order id', async () => {
    const newest = (await api.get<{ id: number }[]>('/orders', { query: { per_page: 1 } })).body[0]!;
    const r = await store(['orders', 'list', '--json', 'id,status', '--jq', '.[0].id']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe(`${newest.id}\n`);
  });

  it('--json id,status prints only those fields; plain --json every field', async () => {
    const picked = JSON.parse((await store(['orders', 'list', '--limit', '3', '--json', 'id,status'])).stdout);
    expect(picked).toHaveLength(3);
    for (const o of picked) expect(Object.keys(o)).toEqual(['id', 'status']);
    const all = JSON.parse((await store(['orders', 'list', '--limit', '3', '--json'])).stdout);
    expect(Object.keys(all[0])).toEqual(expect.arrayContaining(['id', 'number', 'status', 'customer', 'total', 'products']));
    const product = JSON.parse((await store(['products', 'get', '1', '--json=id,handle'])).stdout);
    expect(Object.keys(product)).toEqual(['id', 'handle']);
  });

  it('an unknown field lists the valid ones, exit 2, stdout empty', async () => {
    const r = await store(['orders', 'list', '--json', 'id,bogus']);
    expect(r.stdout).toBe('');
    const { error } = jsonError(r.stderr);
    expect(error.exit_code).toBe(2);
    expect(error.message).toMatch(/^Unknown JSON field bogus; the fields are: .*\bcreated_at\b.*\bstatus\b/);
    expect(r.code).toBe(2);
  });

  it('a jq syntax error is a usage error; strings print raw', async () => {
    const bad = await store(['orders', 'list', '--jq', '.[']);
    expect(bad.stdout).toBe('');
    expect(jsonError(bad.stderr).error).toMatchObject({ exit_code: 2, message: expect.stringMatching(/^--jq \.\[: syntax error/) });
    expect(bad.code).toBe(2);
    const names = await store(['locations', 'list', '--jq', '.[].id']);
    expect(names.code).toBe(0);
    expect(names.stdout).not.toContain('"');
  });
});

describe('pipes and stdin', () => {
  it('products export | head -1 exits 0 quietly', async () => {
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-c', `"${process.execPath}" "${BIN}" products export | head -1; exit "\${PIPESTATUS[0]}"`], {
        env: { ...process.env, ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.stdout).toMatch(/^handle,name:es,/);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('export - writes to stdout; import - reads a pipe (the file name reads "stdin")', async () => {
    const exported = await store(['products', 'export', '-']);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^handle,/);
    const r = await store(['products', 'import', '-', '--dry-run'], { input: exported.stdout });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Would import stdin \(canonical columns\): \d+ rows, 20 products\./);
    expect(r.stdout).toMatch(/writes: +0 would be sent/);
    expect(r.code).toBe(0);
  });

  it('/dev/stdin (not seekable) works for products import and variants sync -', async () => {
    const exported = (await store(['products', 'export'])).stdout;
    const viaDevice = await store(['products', 'import', '/dev/stdin', '--dry-run'], { input: exported });
    expect(viaDevice.code).toBe(0);
    expect(viaDevice.stdout).toMatch(/^Would import stdin/);
    const sku = exported.split('\n')[1]!.split(',')[13]!;
    const sync = await store(['variants', 'sync', '-', '--dry-run'], { input: `sku,price\n${sku},12345.00\n` });
    expect(sync.stdout).toMatch(/^Would sync stdin: 1 row\./);
    expect(sync.code).toBe(0);
  });

  it('a pipe given as a file, as <(command) gives it (/dev/fd/N), is read like stdin', async () => {
    const exported = (await store(['products', 'export'])).stdout;
    const dir = mkdtempSync(join(tmpdir(), 'store-fd-'));
    const file = join(dir, 'catalog.csv');
    writeFileSync(file, exported);
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-c', `"${process.execPath}" "${BIN}" products import <(cat "${file}") --dry-run`], {
        env: { ...process.env, ...env, NO_COLOR: '1' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Would import input \(canonical columns\): \d+ rows, 20 products\./);
    expect(r.code).toBe(0);
  });

  it('invoices attach --file - reads the pipe; api --input - sends the body read from stdin', async () => {
    const attach = await store(['invoices', 'attach', '--file', '-'], { input: 'order_id,key,link\n' });
    expect(attach.stdout).toMatch(/^Nothing to attach from stdin: 0 rows\.\n {2}invoices: 0 attached, 0 already attached, 0 failed\n/);
    expect(attach.stderr).toBe('');
    expect(attach.code).toBe(0);
    const body = await store(['api', 'POST', '/categories', '--input', '-'], { input: '{"name":{"es":"Desde stdin"}}' });
    expect(body.code).toBe(0);
    expect(JSON.parse(body.stdout).name.es).toBe('Desde stdin');
  });
});

describe('repeatable flags leave the arguments alone', () => {
  it('api -f status=open GET /orders', async () => {
    const r = await store(['api', '-f', 'status=open', 'GET', '/orders']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const orders = JSON.parse(r.stdout) as { status: string }[];
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.every((o) => o.status === 'open')).toBe(true);
  });

  it('webhooks add --header X=1 EVENT URL', async () => {
    const r = await store(['webhooks', 'add', '--header', 'X-Test=1', 'order/created', 'https://example.com/hook', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ event: 'order/created', url: 'https://example.com/hook' });
  });
});

describe('mistyped commands', () => {
  it('without a terminal: exit 127 with "did you mean …", nothing run', async () => {
    const r = await binary(['ordrs', 'list']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: ordrs list is not a store command; did you mean `store orders list`? (`store help` lists the commands).\n');
    expect(r.code).toBe(127);
  });

  it('words after a real command are an unexpected argument, exit 2', async () => {
    const r = await store(['orders', 'list', 'open']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: Unexpected argument open (see `store orders list --help`).\n');
    expect(r.code).toBe(2);
    const json = await store(['orders', 'list', 'open', '--json']);
    expect(jsonError(json.stderr).error.exit_code).toBe(2);
  });

  it.runIf(hasScript)('on a terminal: the same suggestion, no prompt, nothing run (exit 127)', async () => {
    // No answers are given: a prompt would wait for one until runOnTerminal's time limit kills it.
    const r = await runOnTerminal(['ordrs', 'list'], { ...env, TERM: 'dumb' });
    expect(plainText(r.output)).toBe('Error: ordrs list is not a store command; did you mean `store orders list`? (`store help` lists the commands).\n');
    expect(r.code).toBe(127);
  });
});

describe('credential hints', () => {
  it('a rejected STORE_TOKEN says the environment token was rejected, exit 4', async () => {
    const r = await store(['orders', 'list'], { env: { STORE_TOKEN: 'a-token-the-store-never-issued' } });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'Error: The store rejected the token from the environment (STORE_TOKEN); set a valid token, or unset STORE_TOKEN and STORE_ID to use a profile.\n',
    );
    expect(r.code).toBe(4);
  });
});

describe('auth login --with-token', () => {
  const login = (args: string[], input: string, home: string) =>
    runInProcess(['auth', 'login', '--with-token', '--api-url', sandbox.apiUrl, '--store-id', String(sandbox.storeId), '--insecure-storage', ...args], {
      env: { XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state'), XDG_DATA_HOME: join(home, 'data') },
      input,
    });
  const app = () => ['--client-id', sandbox.clientId, '--app-name', sandbox.appName];

  it('a token the store rejects exits 4 and saves nothing', async () => {
    const home = mkdtempSync(join(dir, 'login-'));
    const r = await login(app(), 'not-a-token-of-this-store', home);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: The store rejected the token (401 on GET /store); nothing was saved.\n');
    expect(r.code).toBe(4);
    expect(existsSync(join(home, 'config', 'store'))).toBe(false);
  });

  it('without --client-id and no terminal it refuses, naming the flag (exit 2)', async () => {
    const home = mkdtempSync(join(dir, 'login-'));
    const r = await login(['--app-name', sandbox.appName], sandbox.accessToken, home);
    expect(r.stderr).toBe(
      'Error: Missing --client-id (App client id (the app the token was issued to)); pass it as a flag, as standard input carries the token.\n',
    );
    expect(r.code).toBe(2);
    expect(existsSync(join(home, 'config', 'store'))).toBe(false);
  });

  it.runIf(hasScript)('a typo at a login prompt asks again instead of ending the login', async () => {
    const home = mkdtempSync(join(dir, 'login-'));
    const r = await runOnTerminal(
      ['auth', 'login', '--profile', 'typo', '--insecure-storage'],
      { XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state'), TERM: 'dumb' },
      [
        { when: 'Another URL (type it)', send: '\u001b[B\u001b[B\u001b[B\r' },
        { when: 'API URL', send: 'api.example.com\r' },
        { when: 'must be an http(s) URL', send: `${sandbox.apiUrl}\r` },
        { when: 'Authorization server URL', send: '\u0003' },
      ],
    );
    const output = plainText(r.output);
    expect(output).toContain('must be an http(s) URL');
    expect(output).toContain('Authorization server URL');
    expect(r.code).toBe(130);
    expect(existsSync(join(home, 'config', 'store', 'config.json'))).toBe(false);
  });

  it('a valid token is saved with the app it names', async () => {
    const home = mkdtempSync(join(dir, 'login-'));
    const r = await login(app(), sandbox.accessToken, home);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Logged in to store ${sandbox.storeId} as profile "default"`);
  });
});

describe('small ones', () => {
  it('--per-page without --page is refused on products list', async () => {
    const r = await store(['products', 'list', '--per-page', '5']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: --per-page works with --page (it sets the size of that page); use --limit N for the first N products.\n');
    expect(r.code).toBe(2);
    expect((await store(['products', 'list', '--page', '2', '--per-page', '5'])).code).toBe(0);
  });

  it('plural forms: "Exported 1 product (1 row)"', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const one = await startSandbox({ seed: 'empty', rate: 'off', host: '127.0.0.1', port: 0 });
    try {
      const oneApi = clientFor(one);
      const created = await oneApi.post<{ id: number }>('/products', { name: { es: 'Solo' } });
      expect(created.status).toBe(201);
      expect((await oneApi.post(`/products/${created.body.id}/variants`, { price: '10.00', sku: 'SOLO-1' })).status).toBe(201);
      const file = join(dir, 'one.csv');
      const r = await runInProcess(['products', 'export', file], { env: cliEnv(one, 'plural') });
      expect(r.stderr).toBe(`Exported 1 product (1 row) to ${file}.\n`);
      expect(r.code).toBe(0);
      const sync = await runInProcess(['variants', 'sync', '-', '--dry-run'], { env: cliEnv(one, 'plural'), input: 'sku,stock\nNOPE-1,3\n' });
      expect(sync.stderr).toContain('stdin, line 2 (NOPE-1): SKU NOPE-1 is not in the store');
      expect(sync.stdout).toContain('0 updated, 0 unchanged, 1 failed (1 not in the store)');
    } finally {
      await one.close();
    }
  });
});

