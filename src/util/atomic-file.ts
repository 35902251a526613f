import { type WriteStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import { type FileHandle, mkdir, open, readlink, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { diskErrorReason } from './disk-error.js';
import { SIGNAL_EXIT_CODES, type StopSignal } from './process.js';

/**
 * A file written whole or not at all, the one way `store` replaces a file (an export, the config and
 * credential files, the shared sandbox's record): the data goes to a temporary file in the same directory (so
 * the final rename is atomic, on the same file system), is flushed to disk, and replaces the target only once
 * everything was written. Whatever stops the writer first (a 401, the network, Ctrl-C, SIGKILL) leaves the
 * previous file as it was and nothing partial under its name; a temporary file left by SIGKILL starts with "."
 * and ends in ".tmp".
 */

/** The target cannot be written (no such directory, permission denied…): one sentence naming it. */
export class CannotWriteError extends Error {}

export interface AtomicFile {
  /** Where the data goes until commit(). */
  out: WriteStream;
  /** Flushes to disk and renames over the target. */
  commit(): Promise<void>;
  /**
   * Flushes to disk and leaves only the rename to do: `publish()` (one synchronous rename) puts the data in place
   * at the instant the caller chooses, e.g. right after what the file records has happened.
   */
  stage(): Promise<StagedFile>;
  /** Closes and removes the temporary file; the target is untouched. */
  abort(): Promise<void>;
}

export interface StagedFile {
  /** Renames the staged file over the target. */
  publish(): void;
  /** Removes the staged file; the target is untouched. */
  discard(): Promise<void>;
}

export interface AtomicOptions {
  /**
   * The file's mode, exactly (the umask aside), from the moment the temporary file exists: 0600 keeps a
   * secret unreadable by others even for an instant. Default: the replaced file's mode, or 0666 less the umask.
   */
  mode?: number;
  /** Creates a missing directory (mode 0700) instead of refusing. */
  createDir?: boolean;
  /**
   * The caller handles SIGINT and SIGTERM itself (a stop that lets a delivery finish): the temporary file is
   * removed when the process exits, instead of by a signal handler that removes it and exits at once.
   */
  signalsHandledByCaller?: boolean;
}

/** Temporary files still open, removed on SIGINT/SIGTERM before the process exits. */
const pending = new Set<string>();
const onSignal = (Object.entries(SIGNAL_EXIT_CODES) as [StopSignal, number][]).map(
  ([signal, code]) => [signal, () => removePendingAndExit(code)] as const,
);

function removePendingAndExit(code: number): void {
  for (const path of pending) {
    try {
      // Synchronous: the process ends right after.
      rmSync(path, { force: true });
    } catch {
      // nothing more can be done on the way out
    }
  }
  process.exit(code);
}

/** Only while a temporary file exists: a command's own Ctrl-C handling (clean-ups, a second Ctrl-C) stays its own. */
function track(path: string, signalsHandledByCaller = false): void {
  if (signalsHandledByCaller) {
    if (pendingAtExit.size === 0) process.on('exit', removePendingAtExit);
    pendingAtExit.add(path);
    return;
  }
  if (pending.size === 0) for (const [signal, handler] of onSignal) process.on(signal, handler);
  pending.add(path);
}

function untrack(path: string): void {
  if (pendingAtExit.delete(path)) {
    if (pendingAtExit.size === 0) process.off('exit', removePendingAtExit);
    return;
  }
  if (!pending.delete(path) || pending.size > 0) return;
  for (const [signal, handler] of onSignal) process.off(signal, handler);
}

/** Temporary files of writers whose caller handles the stop signals: removed when the process exits. */
const pendingAtExit = new Set<string>();

function removePendingAtExit(): void {
  for (const path of pendingAtExit) {
    try {
      rmSync(path, { force: true });
    } catch {
      // nothing more can be done on the way out
    }
  }
}

/** Fails with one sentence when `target` cannot be written: its directory is missing or is not one, or it is a directory. */
export async function checkWritable(target: string): Promise<void> {
  const path = await writtenPath(target);
  const dir = dirname(path);
  const dirStat = await stat(dir).catch(() => undefined);
  if (!dirStat) throw new CannotWriteError(`Cannot write ${target}: the directory ${dir} does not exist.`);
  if (!dirStat.isDirectory()) throw new CannotWriteError(`Cannot write ${target}: ${dir} is not a directory.`);
  if ((await stat(path).catch(() => undefined))?.isDirectory()) throw new CannotWriteError(`Cannot write ${target}: it is a directory.`);
}

/**
 * The file writing `target` replaces: the file its symbolic link points to (through every link of a chain, a
 * dangling one too), so that the rename lands on the target and the link stays a link (issue 31: `--report`
 * and exports replaced a link with a new file). A path that is no link is itself.
 */
export async function writtenPath(target: string): Promise<string> {
  let path = resolve(target);
  for (let hops = 0; hops < 40; hops++) {
    const link = await readlink(path).catch(() => undefined);
    if (link === undefined) return path;
    path = resolve(dirname(path), link);
  }
  throw new CannotWriteError(`Cannot write ${target}: too many levels of symbolic links.`);
}

/**
 * Opens `target` for an all-or-nothing write. A symbolic link is written through (writtenPath): the temporary
 * file goes next to the file it points to, and replaces that file. A target that exists and is not a regular file (/dev/stdout,
 * a pipe) is written directly: there is nothing to keep and it cannot be renamed over.
 */
export async function openAtomic(target: string, options: AtomicOptions = {}): Promise<AtomicFile> {
  const path = await writtenPath(target);
  const dir = dirname(path);
  if (options.createDir) {
    await mkdir(dir, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
      throw cannotWrite(target, error);
    });
  }
  await checkWritable(target);
  const existing = await stat(path).catch(() => undefined);

  if (existing && !existing.isFile()) {
    const out = createWriteStream(path, { flags: 'a' });
    await opened(out, target);
    const commit = async () =>
      closed(out).catch((error: unknown) => {
        throw cannotWrite(target, error);
      });
    return {
      out,
      commit,
      stage: async () => {
        await commit();
        return { publish: () => undefined, discard: async () => undefined };
      },
      abort: async () => void out.destroy(),
    };
  }

  const temp = join(dir, `.${basename(path)}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.tmp`);
  const mode = options.mode ?? (existing ? existing.mode & 0o777 : 0o666);
  track(temp, options.signalsHandledByCaller);
  let handle: FileHandle;
  try {
    handle = await open(temp, 'wx', mode);
  } catch (error) {
    untrack(temp);
    throw cannotWrite(target, error);
  }
  // The handle outlives the stream: it is flushed to disk and closed at commit.
  const out = handle.createWriteStream({ autoClose: false });
  // A later write error (a full disk) rejects commit's `finished(out)`; without a listener it would crash the process.
  out.on('error', () => undefined);
  const discard = async () => {
    out.destroy();
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    untrack(temp);
  };
  const stage = async (): Promise<StagedFile> => {
    try {
      if (!out.writableEnded) out.end();
      await finished(out);
      // The umask may have cleared bits of the mode asked for (or kept by the replaced file): set it exactly.
      if (options.mode !== undefined || existing) await handle.chmod(mode);
      await handle.sync();
      // The stream holds the handle until it is destroyed (autoClose is off): closing would wait forever.
      out.destroy();
      await handle.close();
    } catch (error) {
      await discard();
      throw cannotWrite(target, error);
    }
    return {
      publish: () => {
        try {
          renameSync(temp, path);
        } catch (error) {
          throw cannotWrite(target, error);
        }
        untrack(temp);
      },
      discard,
    };
  };
  return {
    out: out as unknown as WriteStream,
    commit: async () => {
      const staged = await stage();
      try {
        staged.publish();
      } catch (error) {
        await discard();
        throw error;
      }
    },
    stage,
    abort: discard,
  };
}

/** Writes `data` to a staged file for `path` (see AtomicFile.stage): in place once published. */
export async function stageFileAtomic(path: string, data: string, mode = 0o600, options: Pick<AtomicOptions, 'signalsHandledByCaller'> = {}): Promise<StagedFile> {
  const file = await openAtomic(path, { mode, createDir: true, ...options });
  file.out.end(data, 'utf8');
  return file.stage();
}

/** Writes `data` to `path` all or nothing (see openAtomic); the directory is created if missing. */
export async function writeFileAtomic(path: string, data: string, mode = 0o600): Promise<void> {
  const file = await openAtomic(path, { mode, createDir: true });
  file.out.end(data, 'utf8');
  await file.commit();
}

/**
 * Every failure of a write (the directory, the data — a full disk —, the flush, the rename) as one sentence naming
 * the file and the cause in words: a bare `ENOSPC: no space left on device, write` names neither.
 */
function cannotWrite(target: string, error: unknown): CannotWriteError {
  if (error instanceof CannotWriteError) return error;
  return new CannotWriteError(`Cannot write ${target}: ${diskErrorReason(error)}.`);
}

function opened(out: WriteStream, target: string): Promise<void> {
  // A later write error (a full disk) rejects the writer's `finished(out)`; without a listener it would crash the process.
  out.on('error', () => undefined);
  return new Promise((resolveOpen, reject) => {
    out.once('open', () => resolveOpen());
    out.once('error', (error: NodeJS.ErrnoException) => reject(cannotWrite(target, error)));
  });
}

async function closed(out: WriteStream): Promise<void> {
  if (!out.writableEnded) out.end();
  await finished(out);
}
