import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fsyncSync, mkdirSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StoreError } from '../../errors.js';
import { diskErrorReason } from '../../util/disk-error.js';
import { xdgDir } from '../../util/files.js';
import { withoutTrailingSlash } from '../../util/url.js';

/**
 * The journal of a bulk run: one append-only JSONL file per (command, store, file content) under
 * `$XDG_STATE_HOME/store/imports/`. Every write the store confirmed is appended and fsync'd before the
 * next one is counted, so a run that is interrupted (Ctrl-C, SIGKILL, power loss) leaves an exact record
 * of what it did; `--resume` reads it back. The last line may be torn by a crash: it is ignored.
 *
 * Every run writes `begin`, one `done` per item finished (a product, an invoice row) and `end`; a command
 * adds its own entries for the writes in between (`E`).
 */

export type RunEntry =
  | { t: 'begin'; at: string; file: string; mode?: string; pid: number }
  | { t: 'done'; key: string; outcome: string }
  | { t: 'end'; at: string; interrupted?: boolean };

type DoneEntry = RunEntry & { t: 'done' };

/** A line of the journal as read back: a run's entry or a command's own. */
type JournalLine = { t: string; [field: string]: unknown };

/** `$XDG_STATE_HOME/store/imports`: the journals and locks of the bulk commands. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(xdgDir('state', env), 'imports');
}

/** A short, file-name-safe key of one store on one API host. */
export function storeKey(apiUrl: string, storeId: string | number): string {
  const host = createHash('sha256').update(withoutTrailingSlash(apiUrl)).digest('hex').slice(0, 8);
  return `${String(storeId).replace(/[^A-Za-z0-9_-]/g, '_')}-${host}`;
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export function journalPath(dir: string, store: string, fileHash: string, kind: string): string {
  return join(dir, `${kind}-${store}-${fileHash.slice(0, 16)}.jsonl`);
}

export function readJournal(path: string): JournalLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: JournalLine[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      entries.push(JSON.parse(line) as JournalLine);
    } catch {
      // A line torn by a crash mid-write: everything before it is intact.
    }
  }
  return entries;
}

/** What an earlier run of the same file recorded. */
export interface JournalState {
  /** Items finished (products, rows), with their outcome. */
  done: Map<string, DoneEntry>;
  finished: boolean;
  entries: number;
}

export function summarizeJournal(entries: JournalLine[]): JournalState {
  const done = new Map<string, DoneEntry>();
  let finished = false;
  for (const entry of entries as unknown as RunEntry[]) {
    if (entry.t === 'begin') finished = false;
    if (entry.t === 'done') done.set(entry.key, entry);
    if (entry.t === 'end') finished = !entry.interrupted;
  }
  return { done, finished, entries: entries.length };
}

function endsWithNewline(path: string): boolean {
  const { size } = statSync(path);
  if (size === 0) return true;
  const fd = openSync(path, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

/**
 * The journal (or its directory) cannot be written: one sentence naming the file, the cause in words, and
 * whether `--resume` finishes the work (exit 1).
 */
export class JournalError extends StoreError {
  constructor(message: string) {
    super(message, 1);
  }
}

/**
 * Creates the directory of the journals and locks (mode 0700), or fails in one sentence: a directory that cannot
 * be created (a file in the way, a read-only disk) is said before anything is sent.
 */
export function makeJournalDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new JournalError(
      `Cannot create ${dir}, the directory of the bulk commands' journals (under XDG_STATE_HOME): ${diskErrorReason(error)}; nothing was sent.`,
    );
  }
}

/**
 * For tests: the file-system calls of the journal, replaceable to inject a full or read-only disk (root, who runs
 * the tests, is not stopped by permissions).
 */
export const journalFs = { openSync, writeSync, fsyncSync };

export class Journal<E extends { t: string } = RunEntry> {
  private fd: number | undefined;
  /** The first write that failed: every later append fails the same way (the journal has a hole). */
  private broken: JournalError | undefined;

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Opens for appending (resume) or starts afresh. */
  static open<E extends { t: string } = RunEntry>(path: string, opts: { append: boolean }): Journal<E> {
    makeJournalDir(dirname(path));
    let fd: number;
    try {
      fd = journalFs.openSync(path, opts.append ? 'a' : 'w', 0o600);
      // A line torn by a crash has no newline: the next entry must not be glued to it.
      if (opts.append && !endsWithNewline(path)) journalFs.writeSync(fd, '\n');
    } catch (error) {
      throw new JournalError(`Cannot write the journal ${path}: ${diskErrorReason(error)}; nothing was sent.`);
    }
    return new Journal<E>(path, fd);
  }

  append(entry: E | RunEntry): void {
    this.appendAll([entry]);
  }

  /** Several entries in one write and one fsync: the variants one batch request confirmed. */
  appendAll(entries: (E | RunEntry)[]): void {
    if (this.fd === undefined || entries.length === 0) return;
    if (this.broken) throw this.broken;
    try {
      journalFs.writeSync(this.fd, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      journalFs.fsyncSync(this.fd);
    } catch (error) {
      // What was journaled before is on disk (each write is fsync'd): --resume skips it and redoes the rest,
      // the write that was not recorded included (creates are looked up before being sent again).
      this.broken = new JournalError(
        `Cannot write the journal ${this.path}: ${diskErrorReason(error)}; the run stopped. The work recorded so far is kept: once that is fixed, run the same command with --resume to finish it.`,
      );
      throw this.broken;
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Where this run journals, and what an earlier run of the same file by the same command left there. */
export interface EarlierRun {
  path: string;
  /** An earlier run was interrupted (or crashed) before its end. */
  unfinished: boolean;
  /** That run's record, when `--resume` asks to continue it. */
  resumed?: JournalState;
}

export async function findEarlierRun(options: {
  kind: string;
  file: string;
  apiUrl: string;
  storeId: string | number;
  resume?: boolean;
  env?: NodeJS.ProcessEnv;
}): Promise<EarlierRun> {
  const path = journalPath(stateDir(options.env), storeKey(options.apiUrl, options.storeId), await hashFile(options.file), options.kind);
  // A journal that ended normally is a finished run, not one to resume: the store may have changed since.
  const earlier = summarizeJournal(readJournal(path));
  const unfinished = earlier.entries > 0 && !earlier.finished;
  return { path, unfinished, resumed: options.resume && unfinished ? earlier : undefined };
}
