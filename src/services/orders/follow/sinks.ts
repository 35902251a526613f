import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { StoreError } from '../../../errors.js';
import type { OrderVersion } from './feed.js';

/** Where `orders follow` delivers versions besides stdout: appended to --output FILE, or given to --exec CMD. */

/** One NDJSON line per version. */
export function versionLines(versions: OrderVersion[]): string {
  return versions.map((v) => `${v.json}\n`).join('');
}

/** Appends lines to the --output file and flushes them to disk; returns the file's size after them. */
export async function appendToOutput(path: string, text: string): Promise<number> {
  const handle = await open(path, 'a');
  try {
    await handle.write(text);
    await handle.sync();
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

/** The exit code of a failed --exec, and what it was given. */
export class ExecFailedError extends StoreError {
  constructor(
    message: string,
    readonly version: OrderVersion,
  ) {
    super(message, 1);
  }
}

/** Where an --exec command's output goes, and the lock it holds while it runs. */
export interface ExecContext {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** The feed lock's descriptor: the command holds it too, so a run killed meanwhile leaves its feed held until the command ends. */
  lockFd?: number;
}

const onWindows = process.platform === 'win32';

/**
 * Runs `--exec CMD` through the shell (`/bin/sh -c` on Unix, `cmd.exe /d /s /c` on Windows) with the order's
 * JSON on its standard input and STORE_ORDER_ID, STORE_ORDER_NUMBER, STORE_ORDER_UPDATED_AT in its environment.
 * Resolves when it exits 0; a non-zero exit or a signal is an ExecFailedError.
 *
 * - Its stdout and stderr are piped to ours **with backpressure**: while our reader does not take what it
 *   writes, the command waits, instead of this process holding everything it wrote (a command writing 1 GB took
 *   this process to 1 GB).
 * - It runs in a process group of its own (Unix), so a Ctrl-C at the terminal reaches the follower only: the
 *   follower lets the delivery in progress finish (docs/orders-follow.md). If this process exits first (a
 *   second Ctrl-C), the whole group is sent SIGTERM on the way out: the command is never left running, orphaned.
 * - It holds the feed's lock (ExecContext.lockFd): a run killed with SIGKILL cannot stop it, but its feed stays
 *   held until it ends, so no other run delivers beside it.
 */
export function execForVersion(command: string, version: OrderVersion, context: ExecContext): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, {
      shell: true,
      detached: !onWindows,
      stdio: ['pipe', 'pipe', 'pipe', ...(context.lockFd === undefined || onWindows ? [] : [context.lockFd])],
      env: {
        ...process.env,
        STORE_ORDER_ID: String(version.id),
        STORE_ORDER_NUMBER: version.number === undefined ? '' : String(version.number),
        STORE_ORDER_UPDATED_AT: version.updatedAt ?? '',
      },
    });
    const killGroup = () => {
      try {
        if (onWindows || child.pid === undefined) child.kill();
        else process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    };
    process.on('exit', killGroup);
    const pairs: [Readable, NodeJS.WritableStream][] = [
      [child.stdout!, context.stdout],
      [child.stderr!, context.stderr],
    ];
    const pipes = pairs.map(([from, to]) => {
      from.pipe(to, { end: false });
      // A reader that went away (EPIPE): what the command still writes is dropped, so it can finish.
      const drop = () => from.resume();
      to.once('error', drop);
      return () => {
        from.unpipe(to);
        to.off('error', drop);
      };
    });
    const settled = () => {
      process.off('exit', killGroup);
      for (const unpipe of pipes) unpipe();
    };
    // A command that does not read its input closes the pipe early: not a failure of ours.
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(`${version.json}\n`);
    child.on('error', (error) => {
      settled();
      fail(new ExecFailedError(`--exec could not be started: ${error.message}.`, version));
    });
    child.on('close', (code, signal) => {
      settled();
      if (code === 0) return done();
      const how = signal ? `was killed by ${signal}` : `exited with ${code}`;
      fail(
        new ExecFailedError(
          `--exec ${how} on order ${version.id} (updated_at ${version.updatedAt ?? '?'}); the feed stopped there and offers that order again on the next run.`,
          version,
        ),
      );
    });
  });
}
