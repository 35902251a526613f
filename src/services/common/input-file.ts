import { constants, createWriteStream, fstatSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UsageError, unreadableFile } from '../../errors.js';
import { io } from '../../output/io.js';
import { SIGNAL_EXIT_CODES, type StopSignal } from '../../util/process.js';

/**
 * The most standard input (or any pipe) is copied: 512 MiB, as much as a feed at a URL may be (feed-source.ts);
 * past it the copy is removed and the command ends in one sentence (docs/csv.md). An unbounded copy filled /tmp
 * with 6 GB, and an interrupted one stayed there.
 */
export const MAX_INPUT_COPY_BYTES = 512 * 1024 * 1024;

/** An input file the readers may open, stat, seek and read more than once. */
export interface InputFile {
  path: string;
  /** Removes the copy made of a pipe; nothing for a regular file. */
  dispose(): Promise<void>;
}

/**
 * The file a bulk command was given, readable as often as its readers need: `-` (or /dev/stdin) is standard
 * input, read once into a private temporary copy,
 * because the readers sniff the head, hash the file for the journal and parse it, each from the start. A
 * regular file is used where it is. An unreadable path fails with one sentence (exit 2) before any request.
 * The copy keeps the file's name ("stdin" for `-`), so messages still say "stdin, line 3: …".
 */
export async function seekableInput(path: string, flag?: string): Promise<InputFile> {
  // /dev/stdin cannot be opened when stdin is a socket (as a parent process's pipe often is): read the stream.
  if (path === '-' || STDIN_PATHS.has(path)) return spool(io().stdin, 'stdin');
  // A pipe this process already holds, as `<(command)` passes it (/dev/fd/63): read it through the event
  // loop like stdin. Opening it by path would block a worker thread, which an exit then waits for.
  const inherited = inheritedPipe(path);
  if (inherited !== undefined) return spool(new Socket({ fd: inherited, readable: true, writable: false }), 'input');
  // A named pipe is opened without waiting for a writer and read through the event loop, so the command
  // waits for the data like it waits for stdin and SIGTERM/Ctrl-C still end it (a blocking open would tie up a
  // worker thread that the exit then waits for).
  if (await isNamedPipe(path)) {
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
      throw unreadableFile(path, error, flag);
    }
    return spool(new Socket({ fd, readable: true, writable: false }), basename(path) || 'input');
  }
  // Any other special file (a device, a socket) is refused before it is opened, as checkReadableFile
  // explains: opening a pipe with no writer would wait forever (docs/decisions.md). Standard input is the way in.
  const { checkReadableFile } = await import('./validate.js');
  await checkReadableFile(path);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw unreadableFile(path, error, flag);
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw unreadableFile(path, Object.assign(new Error('is a directory'), { code: 'EISDIR' }), flag);
    if (stat.isFile()) {
      await handle.close();
      return { path, dispose: async () => {} };
    }
    return await spool(handle.createReadStream(), basename(path) || 'input');
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

const STDIN_PATHS = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

async function isNamedPipe(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFIFO(),
    () => false,
  );
}

/** The descriptor of `/dev/fd/N` (or `/proc/self/fd/N`) when it is an open pipe of this process. */
function inheritedPipe(path: string): number | undefined {
  const match = /^\/(?:dev|proc\/self)\/fd\/(\d+)$/.exec(path);
  if (!match) return undefined;
  const fd = Number(match[1]);
  try {
    return fstatSync(fd).isFIFO() ? fd : undefined;
  } catch {
    return undefined;
  }
}

/** `source` copied whole into a private temporary file named `name` (removed on every exit), refused past `maxBytes`. */
export async function spool(source: NodeJS.ReadableStream, name: string, maxBytes = MAX_INPUT_COPY_BYTES): Promise<InputFile> {
  const { dir, dispose } = await privateTempDir('store-input-');
  const path = join(dir, name);
  let bytes = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(tooLarge(name, maxBytes));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(source, bounded, createWriteStream(path, { mode: 0o600 }));
  } catch (error) {
    await dispose();
    throw error;
  }
  return { path, dispose };
}

function tooLarge(name: string, maxBytes: number): UsageError {
  const what = name === 'stdin' ? 'Standard input' : `The pipe ${name}`;
  return new UsageError(`${what} is larger than ${maxBytes / (1024 * 1024)} MiB, the most store copies from a pipe; save it to a file and give the file's path.`);
}

/**
 * A private temporary directory (mode 0700) that does not outlive the process: `dispose` removes it, and so does
 * any exit before that — an error, process.exit (a second Ctrl-C), and a SIGINT or SIGTERM that no one else
 * handles (then the process exits 130 or 143 as it would have). A command that handles the stop signals itself
 * (a bulk job stopping after its requests in flight) keeps doing so: its dispose, or its exit, removes the copy.
 */
export async function privateTempDir(prefix: string): Promise<{ dir: string; dispose(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  if (liveDirs.size === 0) {
    process.on('exit', removeLiveDirs);
    for (const [signal, handler] of stopHandlers) process.on(signal, handler);
  }
  liveDirs.add(dir);
  let disposed = false;
  return {
    dir,
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      await rm(dir, { recursive: true, force: true });
      liveDirs.delete(dir);
      if (liveDirs.size > 0) return;
      process.off('exit', removeLiveDirs);
      for (const [signal, handler] of stopHandlers) process.off(signal, handler);
    },
  };
}

const liveDirs = new Set<string>();

function removeLiveDirs(): void {
  for (const dir of liveDirs) {
    try {
      // Synchronous: the process ends right after.
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // nothing more can be done on the way out
    }
  }
}

/** Node's own reaction to a stop signal (exit at once), unless another handler is there to decide: then 'exit' cleans up. */
const stopHandlers = (Object.entries(SIGNAL_EXIT_CODES) as [StopSignal, number][]).map(([signal, code]) => {
  const handler = () => {
    if (process.listenerCount(signal) > 1) return;
    process.exit(code);
  };
  return [signal, handler] as const;
});
