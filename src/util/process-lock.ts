import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A lock held for as long as the process that took it lives (and any child given its descriptor), named by a key.
 *
 * On Linux it is a socket in the abstract namespace, on Windows a named pipe: binding one is atomic (a second
 * bind fails with EADDRINUSE), and it vanishes with the last process holding it, SIGKILL and power loss included,
 * so there is no stale lock to detect and no takeover to race. Elsewhere (macOS) it is a Unix socket file in the
 * temporary directory: one left by a killed process answers no connection and is taken over; two processes
 * starting at the same instant after such a kill could both take it (the one limit of that fallback).
 *
 * Whoever connects to a held lock is told the holder's pid, so a refusal can name it.
 */

export interface ProcessLock {
  /**
   * The lock's descriptor (Unix), to hand to a child process (spawn's stdio) that must keep the lock held for as
   * long as it runs, even if this process is killed first; undefined where there is none.
   */
  readonly fd: number | undefined;
  release(): void;
}

/** The lock is held by another process: its pid when it answered (a child holding a killed holder's lock does not). */
export class LockBusyError extends Error {
  constructor(readonly holderPid: number | undefined) {
    super(holderPid === undefined ? 'the lock is held by another process' : `the lock is held by process ${holderPid}`);
  }
}

const ANSWER_TIMEOUT_MS = 1000;

function addressOf(key: string): { address: string; file: boolean } {
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 40);
  if (process.platform === 'linux') return { address: `\0store-lock-${hash}`, file: false };
  if (process.platform === 'win32') return { address: `\\\\.\\pipe\\store-lock-${hash}`, file: false };
  return { address: join(tmpdir(), `store-lock-${hash}.sock`), file: true };
}

function listen(server: net.Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Connects to a held lock and reads its holder's pid; `refused` when nothing listens (a socket file left behind). */
function askHolder(address: string): Promise<{ pid?: number; refused?: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    const socket = net.connect(address);
    const done = (answer: { pid?: number; refused?: boolean }) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => done({}));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const pid = Number(text.split('\n')[0]);
      if (text.includes('\n')) done(Number.isSafeInteger(pid) && pid > 0 ? { pid } : {});
    });
    socket.on('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? { refused: true } : {}));
    socket.on('end', () => done({}));
  });
}

/** Takes the lock named `key`; a LockBusyError when another process holds it. */
export async function holdProcessLock(key: string): Promise<ProcessLock> {
  const { address, file } = addressOf(key);
  for (let attempt = 0; ; attempt++) {
    const server = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.end(`${process.pid}\n`);
    });
    try {
      await listen(server, address);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      const holder = await askHolder(address);
      if (file && holder.refused && attempt === 0) {
        // A socket file whose process is gone (only the file fallback leaves one).
        rmSync(address, { force: true });
        continue;
      }
      throw new LockBusyError(holder.pid);
    }
    // The lock must not keep the process running on its own.
    server.unref();
    const fd = (server as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
    let released = false;
    return {
      fd: typeof fd === 'number' && fd >= 0 ? fd : undefined,
      release: () => {
        if (released) return;
        released = true;
        server.close();
        if (file) rmSync(address, { force: true });
      },
    };
  }
}
