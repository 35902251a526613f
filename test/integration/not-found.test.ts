import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/run-cli.js';

// A mistyped command is answered by @oclif/plugin-not-found: a warning naming the typo, then exit 127.
// The plugin offers the closest command ("Did you mean orders list?") only when stdin is a terminal; in a
// pipe or a cron job it prints no suggestion, only where to look (`store help`, or `store help <topic>`).
const home = mkdtempSync(join(tmpdir(), 'store-not-found-'));
const env = {
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_STATE_HOME: join(home, 'state'),
  XDG_DATA_HOME: join(home, 'data'),
  XDG_CACHE_HOME: join(home, 'cache'),
  NO_COLOR: '1',
};
afterAll(() => rmSync(home, { recursive: true, force: true }));

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** util-linux `script` gives the child a pseudo-terminal; other `script`s (BSD, busybox) take other flags. */
function hasUtilLinuxScript(): boolean {
  try {
    return execFileSync('script', ['--version'], { encoding: 'utf8' }).includes('util-linux');
  } catch {
    return false;
  }
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Runs `store ARGS` on a pseudo-terminal and answers `answer` once `prompt` appears. `script -e` exits with
 * the child's code.
 */
function runOnTerminal(args: string[], prompt: string, answer: string): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      env: { ...process.env, ...env, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let answered = false;
    const onData = (d: Buffer) => {
      output += d;
      if (!answered && output.replace(ANSI, '').includes(prompt)) {
        answered = true;
        child.stdin.write(answer);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output.replace(ANSI, '').replaceAll('\r', '') });
    });
  });
}

describe('an unknown command', () => {
  it('is named on stderr with where to look, and exits 127 without a terminal', async () => {
    const r = await runCli(['ordrs', 'list'], { env });
    expect(r.code).toBe(127);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('ordrs list is not a store command.');
    expect(r.stderr).toContain('Run store help for a list of available commands.');
  });

  it('inside a known topic points at that topic’s help', async () => {
    const r = await runCli(['orders', 'lst'], { env });
    expect(r.code).toBe(127);
    expect(r.stderr).toContain('orders lst is not a store command.');
    expect(r.stderr).toContain('Run store help orders for a list of available commands.');
  });

  it.skipIf(!hasUtilLinuxScript())('on a terminal suggests the closest command, and exits 127 when declined', async () => {
    const r = await runOnTerminal(['ordrs', 'list'], 'Did you mean orders list?', 'n\r');
    expect(r.output).toContain('ordrs list is not a store command.');
    expect(r.output).toContain('Did you mean orders list?');
    expect(r.output).toContain('Run store help for a list of available commands.');
    expect(r.code).toBe(127);
  });
});
