import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv } from '../helpers/sandbox.js';

/**
 * Most command tests run `store` in the test's process (test/helpers/run-in-process.ts): here it must answer
 * exactly as the real binary does (stdout, stderr, exit code) on the paths that differ most between the two:
 * oclif's own help, usage errors before and after a command is found, --json errors, a mistyped command, an
 * HTTP error, data on stdout. And the terminal it is given (TTY, width, colour) reaches the output.
 */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  env = cliEnv(sandbox, 'in-process');
});
afterAll(() => sandbox?.close());

const CASES: string[][] = [
  ['--help'],
  ['orders', '--help'],
  ['help', 'orders', 'list'],
  ['orders', 'list', '--limit', '3'],
  ['products', 'get', '1', '--json', 'id,handle'],
  ['orders', 'get', '1000009999'],
  ['orders', 'get', '1000009999', '--json'],
  ['orders', 'list', '--bogus'],
  ['orders', 'list', '--bogus', '--json'],
  ['orders', 'list', 'open'],
  ['ordrs', 'list'],
  ['products', 'import', '/nonexistent/catalog.csv'],
  ['orders', 'list', '--jq', '.['],
];

describe('runInProcess answers as the binary does', () => {
  it.each(CASES.map((args) => [args.join(' '), args]))('store %s', async (_name, args) => {
    const binary = await runCli(args as string[], { env });
    const inProcess = await runInProcess(args as string[], { env });
    expect(inProcess).toEqual(binary);
  });

  it('stdin reaches the command', async () => {
    const args = ['api', 'POST', '/categories', '--input', '-'];
    const input = '{"name":{"es":"Por stdin"}}';
    const r = await runInProcess(args, { env, input });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).name.es).toBe('Por stdin');
  });
});

describe('the terminal runInProcess is given', () => {
  it('a TTY 80 columns wide gets a table that fits, in colour when NO_COLOR is unset', async () => {
    const r = await runInProcess(['orders', 'list'], { env: { ...env, NO_COLOR: '' }, isTTY: { stdout: true, stderr: true }, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\u001b[1m');
    const lines = r.stdout.replace(/\u001b\[\d+m/g, '').split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^ID\s+NUMB/);
    expect(r.stdout).toContain('…');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('colour can be forced on a pipe, as FORCE_COLOR does', async () => {
    const r = await runInProcess(['orders', 'get', '1000009999'], { env, color: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^\u001b\[31mError:\u001b\[39m Order 1000009999 not found\.\n$/);
    // NO_COLOR left out, not emptied: Node 22 warns on stderr when it is set at all next to FORCE_COLOR.
    const forced = await runCli(['orders', 'get', '1000009999'], { env: { ...env, NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(forced.stderr).toBe(r.stderr);
  });

  it('without one, the same list is TSV, never cut, without colour', async () => {
    const r = await runInProcess(['orders', 'list'], { env, columns: 60 });
    expect(r.stdout.split('\n')[0]).toBe('id\tnumber\tstatus\tpayment_status\tshipping_status\tcreated_at\tcustomer\ttotal\tcurrency');
    expect(r.stdout).not.toContain('\u001b[');
  });
});
