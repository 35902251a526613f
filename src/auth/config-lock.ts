import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { configDir, type Env } from '../util/files.js';
import { withPidFileLock } from '../util/pid-file.js';

/**
 * config.json and credentials.json are read, changed and written whole: two commands doing that at once (a
 * provisioning script running twelve `auth login --with-token`) would each write back what it read, and all but
 * one change would be lost. Every such update runs under one lock file in the config directory (issue 31).
 */
export async function withConfigLock<T>(env: Env, update: () => Promise<T>): Promise<T> {
  const dir = configDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return withPidFileLock(join(dir, 'config.lock'), update);
}
