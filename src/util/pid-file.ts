import fs from 'node:fs';
import { pidAlive } from './process.js';

/** A pid file claimed by this process (release it when done), or held by another one (`holder` 0: unknown). */
export type PidFileClaim = { release(): void } | { holder: number };

/** A pid file that stays empty this long lost its writer between creating and writing it. */
const EMPTY_FILE_STALE_MS = 5_000;

/**
 * Claims `file` for this process: created exclusively, holding our pid. A file whose pid is gone is stale,
 * and so is one naming our own pid (a process does not hold a pid file twice: that pid belonged to an earlier
 * process, as pid 1 does in every run of a container). A stale file is removed only if it still names the same
 * owner, since another claimant may have replaced it meanwhile, and the claim is tried again. Release removes
 * the file only while it still names this process.
 */
export function claimPidFile(file: string): PidFileClaim {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return { release: () => removeIfOwnedBy(file, process.pid) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readPid(file);
    const stale = owner === process.pid || (owner ? !pidAlive(owner) : ageMs(file) > EMPTY_FILE_STALE_MS);
    if (!stale) return { holder: owner };
    removeIfOwnedBy(file, owner);
  }
  return { holder: readPid(file) };
}

function readPid(file: string): number {
  try {
    return Number(fs.readFileSync(file, 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

function removeIfOwnedBy(file: string, owner: number): void {
  if (readPid(file) === owner) fs.rmSync(file, { force: true });
}

function ageMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Runs `update` while this process holds `file` (a pid file beside what it guards), waiting up to `timeoutMs` for
 * another process to release it: a read-modify-write of a shared file (config.json, credentials.json) that two
 * processes run at once must not lose one of the writes (twelve concurrent logins all land).
 */
export async function withPidFileLock<T>(file: string, update: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const claim = claimPidFile(file);
    if ('release' in claim) {
      try {
        return await update();
      } finally {
        claim.release();
      }
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for the lock ${file} (held by process ${claim.holder || 'unknown'}); delete it if no store command is running.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
  }
}
