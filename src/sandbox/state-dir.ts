import fs from 'node:fs';
import path from 'node:path';
import { systemClock } from '../platform/clock.js';
import { pidAlive } from '../util/process.js';
import { Persistence } from './persistence.js';
import { resetStore } from './seed.js';
import { SandboxState } from './state.js';

/**
 * The state directory of `store sandbox serve` (journal and snapshot): its lock, since two servers must never
 * journal into the same directory, and the offline reset of its store that `store sandbox reset` runs between
 * stopping the shared sandbox and starting it again.
 */

export class StateDirInUseError extends Error {
  override name = 'StateDirInUseError';
}

const SERVER_LOCK = 'server.pid';

/** Claims `dir` for this process; throws naming the pid that holds it. Returns the release function. */
export function lockStateDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, SERVER_LOCK);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file, { force: true });
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readText(file).trim());
      if (holder !== process.pid && pidAlive(holder)) {
        throw new StateDirInUseError(`The sandbox state in ${dir} is in use by process ${holder}; stop it first (store sandbox stop).`);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new StateDirInUseError(`Could not lock the sandbox state in ${dir}.`);
}

/** Resets the first store of a state dir to the demo seed, offline: refused while a server uses the dir. */
export async function resetStateDir(dir: string): Promise<void> {
  if (!fs.existsSync(dir)) return;
  const unlock = lockStateDir(dir);
  try {
    const state = new SandboxState(systemClock);
    const { persistence } = Persistence.open(dir, state);
    try {
      const store = state.defaultStore();
      if (store) await resetStore(state, store.id, 'demo');
    } finally {
      persistence.close();
    }
  } finally {
    unlock();
  }
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
