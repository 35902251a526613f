import { closeSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StoreError } from '../../errors.js';
import { diskErrorReason } from '../../util/disk-error.js';
import { pidAlive } from '../../util/process.js';
import { makeJournalDir, stateDir } from './journal.js';

/**
 * One bulk write per store at a time (import and sync share a lock: both write the catalog; invoices attach has
 * its own): a lock file created exclusively, holding the owner's
 * host, pid and process start time. It is keyed by the store and the app (lockKey), not by the API URL:
 * http://127.0.0.1:8080 and http://localhost:8080 are the same store. A lock whose process is gone (killed,
 * crashed), or whose pid now belongs to another process (started at another time), is stale and taken over.
 */

export class LockedError extends StoreError {
  constructor(message: string) {
    super(message, 1);
  }
}

interface LockOwner {
  pid: number;
  host: string;
  /** When the owner process started, as the OS counts it (Linux: /proc/PID/stat); absent where unknown. */
  started?: string;
  since: string;
  command: string;
}

/**
 * The lock file's name: the store and the app that write, whatever URL reached them, and what they write
 * (`scope`; none for the catalog).
 */
export function lockKey(storeId: string | number, appId: string | undefined, scope?: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');
  return `store-${safe(String(storeId))}-app-${safe(appId ?? '')}${scope ? `-${safe(scope)}` : ''}`;
}

/** The store a bulk run writes to, as its lock and journal know it. */
export interface BulkTarget {
  apiUrl: string;
  storeId: string | number;
  /** The app writing: with the store id, the key of the lock (one run per store and app, whatever its URL). */
  appId?: string;
  env?: NodeJS.ProcessEnv;
}

/** Takes the store's lock for `command` (e.g. "products import"), under the state directory. */
export function lockStore(target: BulkTarget, command: string, scope?: string): StoreLock {
  return acquireLock(stateDir(target.env), lockKey(target.storeId, target.appId, scope), command);
}

/**
 * The start time of process `pid` in clock ticks since boot (field 22 of /proc/PID/stat), which tells a
 * process from a later one that reuses its pid. Undefined where there is no /proc (macOS) or no such process.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing ")".
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The owner still runs: its pid is alive and, where start times are known, is the same process. */
function running(owner: LockOwner): boolean {
  if (!pidAlive(owner.pid)) return false;
  if (owner.started === undefined) return true;
  const now = processStart(owner.pid);
  return now === undefined || now === owner.started;
}

function readOwner(path: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

export interface StoreLock {
  path: string;
  release(): void;
}

export function acquireLock(dir: string, store: string, command: string): StoreLock {
  makeJournalDir(dir);
  const path = join(dir, `${store}.lock`);
  const me: LockOwner = { pid: process.pid, host: hostname(), started: processStart(process.pid), since: new Date().toISOString(), command };
  for (let attempt = 0; attempt < 3; attempt++) {
    let created = false;
    try {
      const fd = openSync(path, 'wx', 0o600);
      created = true;
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      const release = () => {
        process.off('exit', release);
        if (readOwner(path)?.pid === process.pid) {
          try {
            unlinkSync(path);
          } catch {
            // already gone
          }
        }
      };
      // A process that exits on a signal (SIGTERM before any write) leaves no lock behind.
      process.once('exit', release);
      return { path, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        // A read-only or full disk under an existing directory: said like the journal's, before anything is sent;
        // an empty lock left by a failed write would hold off the next run.
        if (created) rmSync(path, { force: true });
        throw new LockedError(`Cannot write the lock ${path}: ${diskErrorReason(error)}; nothing was sent.`);
      }
    }
    const owner = readOwner(path);
    // A lock being written right now has no content yet: give its writer a moment.
    if (!owner && attempt === 0) continue;
    if (owner && owner.host === me.host && !running(owner)) {
      try {
        unlinkSync(path);
      } catch {
        // another process took it over first; the next attempt sees its lock
      }
      continue;
    }
    if (owner && owner.host !== me.host) {
      throw new LockedError(
        `Another \`store ${owner.command}\` for this store holds the lock since ${owner.since} on host ${owner.host}; if it is not running, delete ${path}.`,
      );
    }
    if (owner) {
      throw new LockedError(
        `Another \`store ${owner.command}\` for this store is running (pid ${owner.pid}, since ${owner.since}); wait for it to finish.`,
      );
    }
  }
  throw new LockedError(`Could not take the lock ${path}; delete it if no import is running.`);
}
