import { mkdirSync, openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StoreError } from '../../client/errors.js';

/**
 * One bulk write (import or sync) per store at a time: a lock file created exclusively, holding the owner's
 * pid. A lock whose process is gone (killed, crashed) is stale and taken over.
 */

export class LockedError extends StoreError {
  constructor(message: string) {
    super(message, 1);
  }
}

interface LockOwner {
  pid: number;
  host: string;
  since: string;
  command: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${store}.lock`);
  const me: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      return {
        path,
        release: () => {
          if (readOwner(path)?.pid === process.pid) {
            try {
              unlinkSync(path);
            } catch {
              // already gone
            }
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(path);
    // A lock being written right now has no content yet: give its writer a moment.
    if (!owner && attempt === 0) continue;
    if (owner && owner.host === me.host && !alive(owner.pid)) {
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
