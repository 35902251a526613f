import fs from 'node:fs';
import path from 'node:path';
import { systemClock } from '../platform/clock.js';
import { claimPidFile } from '../util/pid-file.js';
import { Persistence } from './persistence.js';
import { resetStore } from './seed.js';
import { seedManyOrders } from './seed-many-orders.js';
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
  const claim = claimPidFile(path.join(dir, SERVER_LOCK));
  if ('release' in claim) return claim.release;
  const by = claim.holder ? `process ${claim.holder}` : 'another process';
  throw new StateDirInUseError(`The sandbox state in ${dir} is in use by ${by}; stop it first (store sandbox stop).`);
}

/**
 * Resets the first store of a state dir to the demo seed, offline: refused while a server uses the dir.
 * `orders` adds that many generated orders after the demo ones (a large store: seed-many-orders.ts).
 */
export async function resetStateDir(dir: string, options: { orders?: number } = {}): Promise<void> {
  if (!fs.existsSync(dir)) return;
  const unlock = lockStateDir(dir);
  try {
    const state = new SandboxState(systemClock);
    const { persistence } = Persistence.open(dir, state);
    try {
      const store = state.defaultStore();
      if (store) {
        await resetStore(state, store.id, 'demo');
        if (options.orders) seedManyOrders(state, store.id, options.orders);
      }
    } finally {
      persistence.close();
    }
  } finally {
    unlock();
  }
}
