import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { BIN } from '../helpers/run-cli.js';
import { clientFor, cliEnv } from '../helpers/sandbox.js';

/**
 * Issue 31, "Output is never lost to a slow reader": the real binary's stdout is a pipe whose reader takes its
 * time (`store orders list --all --json | (sleep 15; wc -c)`, a `less` left open) or stops early (`| head`).
 * oclif's own entry gave up flushing after 10 s and exited 1 with 64 KB of the output; the run now waits for
 * the reader, and a reader that closes the pipe ends it with 0 and nothing on stderr.
 */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  env = { ...process.env, NO_COLOR: '1', ...cliEnv(sandbox, 'slow-reader') };
});
afterAll(() => sandbox?.close());

/**
 * `store ARGS | (sleep N; cat)`: the binary's stdout is a real pipe (64 KB; a socket pair, as spawn gives, holds
 * several times more) whose reader starts after `readAfterMs`. The binary's exit status comes on stderr.
 */
function runWithSlowReader(args: string[], readAfterMs: number): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const script = `{ "$0" "$@"; echo "exit status $?" >&2; } | (sleep ${readAfterMs / 1000}; cat)`;
    const child = spawn('sh', ['-c', script, process.execPath, BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', () => {
      const status = /exit status (\d+)\n$/.exec(stderr);
      resolve({ code: status ? Number(status[1]) : null, stdout: Buffer.concat(chunks), stderr: stderr.replace(/exit status \d+\n$/, '') });
    });
  });
}

describe('a slow reader', () => {
  it('gets every byte of a long --json list when it starts reading 15 s later (oclif gave up flushing after 10 s)', async () => {
    const r = await runWithSlowReader(['orders', 'list', '--all', '--json'], 15_000);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // More than a pipe holds (64 KB), and whole: it parses and has every order of the demo store.
    expect(r.stdout.length).toBeGreaterThan(200_000);
    const orders = JSON.parse(r.stdout.toString('utf8')) as { id: number }[];
    const total = Number((await clientFor(sandbox).get('/orders', { query: { per_page: 1 } })).headers.get('x-total-count'));
    expect(orders.map((o) => o.id)).toHaveLength(total);
  }, 60_000);
});

describe('a reader that stops early', () => {
  it('closing the pipe after the first chunk ends the run with 0 and nothing on stderr (as `| head -c 100`)', async () => {
    const result = await new Promise<{ code: number | null; stderr: string; read: number }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'orders', 'list', '--all', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      let read = 0;
      child.stderr.on('data', (d) => (stderr += d));
      child.stdout.once('data', (d: Buffer) => {
        read = d.length;
        child.stdout.destroy();
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr, read }));
    });
    expect(result.read).toBeGreaterThan(0);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);
});
