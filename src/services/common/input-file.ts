import { constants, createWriteStream, fstatSync, openSync } from 'node:fs';
import { Socket } from 'node:net';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { unreadableFile } from '../../errors.js';
import { io } from '../../output/io.js';

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

async function spool(source: NodeJS.ReadableStream, name: string): Promise<InputFile> {
  const dir = await mkdtemp(join(tmpdir(), 'store-input-'));
  const path = join(dir, name);
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    await pipeline(source, createWriteStream(path, { mode: 0o600 }));
  } catch (error) {
    await dispose();
    throw error;
  }
  return { path, dispose };
}
