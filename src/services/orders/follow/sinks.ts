import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
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

/**
 * Runs `--exec CMD` through the shell (`/bin/sh -c` on Unix, `cmd.exe /d /s /c` on Windows) with the order's
 * JSON on its standard input and STORE_ORDER_ID, STORE_ORDER_NUMBER, STORE_ORDER_UPDATED_AT in its environment;
 * its stdout and stderr go to ours. Resolves when it exits 0; a non-zero exit or a signal is an ExecFailedError.
 */
export function execForVersion(command: string, version: OrderVersion, streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, {
      shell: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        ...process.env,
        STORE_ORDER_ID: String(version.id),
        STORE_ORDER_NUMBER: version.number === undefined ? '' : String(version.number),
        STORE_ORDER_UPDATED_AT: version.updatedAt ?? '',
      },
    });
    child.stdout.on('data', (chunk: Buffer) => streams.stdout.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => streams.stderr.write(chunk));
    // A command that does not read its input closes the pipe early: not a failure of ours.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${version.json}\n`);
    child.on('error', (error) => fail(new ExecFailedError(`--exec could not be started: ${error.message}.`, version)));
    child.on('close', (code, signal) => {
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
