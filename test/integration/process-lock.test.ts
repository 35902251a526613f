import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LockBusyError, holdProcessLock } from '../../src/util/process-lock.js';

/**
 * The lock behind `orders follow`'s one run per feed: held for the life of a process (SIGKILL included), refused
 * to another process with the holder's pid, kept by a child given its descriptor.
 */

/** The built module (run `npm run build`): another Node process loads it as it is shipped. */
const LOCK_MODULE = fileURLToPath(new URL('../../dist/util/process-lock.js', import.meta.url));

/** Runs the ES module `code` in another Node process; its stdout lines once it has exited, the first one as soon as it comes. */
function inAnotherProcess(code: string): { lines: Promise<string[]>; kill: (signal: NodeJS.Signals) => void; firstLine: Promise<string> } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let resolveFirst!: (line: string) => void;
  const firstLine = new Promise<string>((resolve) => (resolveFirst = resolve));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
    if (out.includes('\n')) resolveFirst(out.split('\n')[0]!);
  });
  const lines = new Promise<string[]>((resolve) => child.on('close', () => resolve(out.split('\n').filter((l) => l !== ''))));
  return { lines, firstLine, kill: (signal) => child.kill(signal) };
}

const tryLock = (key: string) => `
  const { holdProcessLock } = await import(${JSON.stringify(LOCK_MODULE)});
  try { const lock = await holdProcessLock(${JSON.stringify(key)}); console.log('held'); lock.release(); }
  catch (error) { console.log('busy ' + error.holderPid); }`;

describe('holdProcessLock', () => {
  it('a second process is refused, told the holder pid; it takes the lock once released', async () => {
    const key = `test-${randomUUID()}`;
    const lock = await holdProcessLock(key);
    expect(await inAnotherProcess(tryLock(key)).lines).toEqual([`busy ${process.pid}`]);
    await expect(holdProcessLock(key)).rejects.toBeInstanceOf(LockBusyError);
    lock.release();
    expect(await inAnotherProcess(tryLock(key)).lines).toEqual(['held']);
  });

  it('a holder killed with SIGKILL leaves nothing behind: the next process takes the lock', async () => {
    const key = `test-${randomUUID()}`;
    const holder = inAnotherProcess(`
      const { holdProcessLock } = await import(${JSON.stringify(LOCK_MODULE)});
      await holdProcessLock(${JSON.stringify(key)});
      console.log('held');
      setInterval(() => undefined, 1000);`);
    expect(await holder.firstLine).toBe('held');
    await expect(holdProcessLock(key)).rejects.toBeInstanceOf(LockBusyError);
    holder.kill('SIGKILL');
    await holder.lines;
    const lock = await holdProcessLock(key);
    lock.release();
  });

  it.runIf(process.platform !== 'win32')('a child given the descriptor keeps the lock after its parent is killed, until it exits', async () => {
    const key = `test-${randomUUID()}`;
    const flag = join(mkdtempSync(join(tmpdir(), 'store-lock-')), 'done');
    // The parent hands the lock to `sh`, which runs until the flag file exists.
    const parent = inAnotherProcess(`
      const { spawn } = await import('node:child_process');
      const { holdProcessLock } = await import(${JSON.stringify(LOCK_MODULE)});
      const lock = await holdProcessLock(${JSON.stringify(key)});
      const child = spawn('sh', ['-c', 'while [ ! -e "$0" ]; do sleep 0.02; done', ${JSON.stringify(flag)}], { stdio: ['ignore', 'ignore', 'ignore', lock.fd], detached: true });
      child.on('spawn', () => console.log('child'));
      child.unref();
      setInterval(() => undefined, 1000);`);
    expect(await parent.firstLine).toBe('child');
    parent.kill('SIGKILL');
    await parent.lines;
    // The parent is gone, its child still runs: the lock is held, by no one who can answer.
    const refused = await holdProcessLock(key).then(
      (lock) => (lock.release(), undefined),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(LockBusyError);
    expect((refused as LockBusyError).holderPid).toBeUndefined();
    writeFileSync(flag, '');
    // Once the child has exited the lock is free (it exits within a few of its 20 ms checks).
    for (;;) {
      const lock = await holdProcessLock(key).catch(() => undefined);
      if (lock) {
        lock.release();
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  });
});
