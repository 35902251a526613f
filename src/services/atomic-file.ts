import { type WriteStream, createWriteStream, rmSync } from 'node:fs';
import { chmod, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { UsageError } from '../client/errors.js';

/**
 * A file written whole or not at all: the data goes to a temporary file in the same directory (so the final
 * rename is atomic, on the same file system) and replaces the target only once everything was written.
 * Whatever stops the writer first (a 401, the network, Ctrl-C, SIGKILL) leaves the previous file as it was
 * and nothing partial under its name; a temporary file left by SIGKILL starts with "." and ends in ".tmp".
 */

export interface AtomicFile {
  /** Where the data goes until commit(). */
  out: WriteStream;
  /** Flushes and renames over the target. */
  commit(): Promise<void>;
  /** Closes and removes the temporary file; the target is untouched. */
  abort(): Promise<void>;
}

/** Temporary files still open, removed on SIGINT/SIGTERM before the process exits. */
const pending = new Set<string>();
let signalsHooked = false;

function hookSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.on(signal, () => {
      for (const path of pending) {
        try {
          // Synchronous: the process ends right after.
          rmSync(path, { force: true });
        } catch {
          // nothing more can be done on the way out
        }
      }
      process.exit(code);
    });
  }
}

/**
 * Opens `target` for an all-or-nothing write. A target that exists and is not a regular file (/dev/stdout,
 * a pipe) is written directly: there is nothing to keep and it cannot be renamed over.
 */
export async function openAtomic(target: string): Promise<AtomicFile> {
  const path = resolve(target);
  const dir = dirname(path);
  const dirStat = await stat(dir).catch(() => undefined);
  if (!dirStat) throw new UsageError(`Cannot write ${target}: the directory ${dir} does not exist.`);
  if (!dirStat.isDirectory()) throw new UsageError(`Cannot write ${target}: ${dir} is not a directory.`);
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`Cannot write ${target}: it is a directory.`);

  if (existing && !existing.isFile()) {
    const out = createWriteStream(path, { flags: 'a' });
    await opened(out, target);
    return { out, commit: async () => closed(out), abort: async () => void out.destroy() };
  }

  const temp = join(dir, `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  hookSignals();
  pending.add(temp);
  const out = createWriteStream(temp, { flags: 'wx', mode: existing ? existing.mode & 0o777 : 0o666 });
  try {
    await opened(out, target);
  } catch (error) {
    pending.delete(temp);
    throw error;
  }
  return {
    out,
    commit: async () => {
      await closed(out);
      if (existing) await chmod(temp, existing.mode & 0o777).catch(() => undefined);
      await rename(temp, path);
      pending.delete(temp);
    },
    abort: async () => {
      out.destroy();
      await rm(temp, { force: true });
      pending.delete(temp);
    },
  };
}

function opened(out: WriteStream, target: string): Promise<void> {
  // A later write error (a full disk) rejects the writer's `finished(out)`; without a listener it would crash the process.
  out.on('error', () => undefined);
  return new Promise((resolveOpen, reject) => {
    out.once('open', () => resolveOpen());
    out.once('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'EACCES' || error.code === 'EPERM' ? 'permission denied' : error.message;
      reject(new UsageError(`Cannot write ${target}: ${reason}.`));
    });
  });
}

async function closed(out: WriteStream): Promise<void> {
  if (!out.writableEnded) out.end();
  await finished(out);
}
