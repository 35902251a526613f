import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { spool } from '../../src/services/common/input-file.js';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv } from '../helpers/sandbox.js';

/**
 * Issue 31, "Unbounded copies of stdin": `products import -` and `variants sync -` copy standard input to a
 * private temporary file (the readers read it more than once). The copy is bounded, and removed on every exit:
 * success, a refused file, Ctrl-C and SIGTERM during the copy or during the job. `api --input -` holds stdin in
 * memory, so it is bounded too. Each run gets a TMPDIR of its own, where nothing may be left.
 */

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let root: string;
/** While set, GET /products waits on it: the job is held reading the store, with the copy made. */
let holdProducts: Promise<void> | undefined;
let productsAsked: () => void = () => {};

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({
    seed: 'demo',
    rate: 'off',
    host: '127.0.0.1',
    port: 0,
    onRequest: async (req) => {
      if (holdProducts && req.method === 'GET' && /\/products(\?|$)/.test(req.url)) {
        productsAsked();
        await holdProducts;
      }
    },
  });
  env = cliEnv(sandbox, 'stdin-copies');
  root = mkdtempSync(join(tmpdir(), 'stdin-copies-'));
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(root, { recursive: true, force: true });
});

let runs = 0;
/** A TMPDIR of the run's own: whatever the CLI leaves in it is left by this run. */
function privateTmp(): string {
  const dir = join(root, `tmp-${++runs}`);
  mkdirSync(dir);
  return dir;
}

function leftIn(dir: string): string[] {
  return readdirSync(dir);
}

function start(args: string[], tmp: string): { child: ChildProcessWithoutNullStreams; done: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', ...env, TMPDIR: tmp }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.resume();
  // The CLI may stop reading (a limit, a signal) before the test stops writing.
  child.stdin.on('error', () => undefined);
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  return { child, done };
}

/** Resolves once the copy in `tmp` holds at least `bytes`. */
async function copyHolds(tmp: string, bytes: number): Promise<void> {
  for (;;) {
    const dir = leftIn(tmp).find((d) => d.startsWith('store-input-'));
    const file = dir ? join(tmp, dir, 'stdin') : undefined;
    if (file && existsSync(file) && statSync(file).size >= bytes) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const FEED = 'sku,stock\nCAM-LIN-S,4\n';

describe('the copy of standard input', () => {
  it('is removed after a run that succeeds, and after a file that is refused', async () => {
    const tmp = privateTmp();
    const ok = await runCli(['variants', 'sync', '-', '--dry-run'], { env: { ...env, TMPDIR: tmp }, input: FEED });
    expect(ok.code, ok.stderr).toBe(0);
    expect(leftIn(tmp)).toEqual([]);
    const refused = await runCli(['variants', 'sync', '-', '--dry-run'], { env: { ...env, TMPDIR: tmp }, input: 'sku,stock\nCAM-LIN-S,many\n' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('stdin, line 2');
    expect(leftIn(tmp)).toEqual([]);
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`is removed when ${signal} comes while stdin is still being copied (exit ${code})`, async () => {
      const tmp = privateTmp();
      const { child, done } = start(['products', 'import', '-', '--dry-run'], tmp);
      // A megabyte of rows, and the pipe left open: the copy waits for more.
      child.stdin.write(`handle,name,sku,price\n${'remera,Remera,REM-1,10\n'.repeat(48_000)}`);
      await copyHolds(tmp, 1024 * 1024);
      child.kill(signal);
      const r = await done;
      expect(r.code).toBe(code);
      expect(leftIn(tmp)).toEqual([]);
    });

    it(`is removed when ${signal} comes during the job, after the copy (exit ${code})`, async () => {
      const tmp = privateTmp();
      let release!: () => void;
      holdProducts = new Promise((resolve) => (release = resolve));
      const asked = new Promise<void>((resolve) => (productsAsked = resolve));
      try {
        const { child, done } = start(['variants', 'sync', '-'], tmp);
        child.stdin.end(FEED);
        await asked;
        expect(leftIn(tmp)).toHaveLength(1);
        child.kill(signal);
        const r = await done;
        expect(r.code).toBe(code);
        expect(leftIn(tmp)).toEqual([]);
      } finally {
        release();
        holdProducts = undefined;
      }
    });
  }

  it('stops at its limit: the copy is refused in one sentence and removed', async () => {
    const tmp = privateTmp();
    process.env.TMPDIR = tmp;
    try {
      const endless = Readable.from(
        (function* () {
          for (let i = 0; i < 64; i++) yield Buffer.alloc(64 * 1024, 'x');
        })(),
      );
      await expect(spool(endless, 'stdin', 1024 * 1024)).rejects.toThrow(
        "Standard input is larger than 1 MiB, the most store copies from a pipe; save it to a file and give the file's path.",
      );
      expect(leftIn(tmp)).toEqual([]);
    } finally {
      delete process.env.TMPDIR;
    }
  });
});

describe('api --input -', () => {
  it('reads at most 32 MiB of standard input, in one sentence (exit 2), without sending anything', async () => {
    const { child, done } = start(['api', '-X', 'POST', '/webhooks', '--input', '-'], privateTmp());
    child.stdin.end(`{"name":"${'x'.repeat(33 * 1024 * 1024)}"}`);
    const r = await done;
    expect(r.stderr).toBe('Error: --input - is larger than 32 MiB, the most store sends as one request body.\n');
    expect(r.code).toBe(2);
  });
});
