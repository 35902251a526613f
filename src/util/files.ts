import { chmod, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type Env = Record<string, string | undefined>;

/**
 * Where `store` keeps its files, per the XDG base directories: `config` ($XDG_CONFIG_HOME, ~/.config) holds
 * profiles and the credential file, `state` ($XDG_STATE_HOME, ~/.local/state) import journals and the shared
 * sandbox's record, `data` ($XDG_DATA_HOME, ~/.local/share) the sandbox's store. An empty variable counts as unset.
 */
export function xdgDir(kind: 'config' | 'state' | 'data', env: Env = process.env): string {
  const [variable, fallback] = XDG[kind];
  const base = env[variable] || join(env.HOME || homedir(), ...fallback);
  return join(base, 'store');
}

const XDG = {
  config: ['XDG_CONFIG_HOME', ['.config']],
  state: ['XDG_STATE_HOME', ['.local', 'state']],
  data: ['XDG_DATA_HOME', ['.local', 'share']],
} as const;

/** `$XDG_CONFIG_HOME/store` (or `~/.config/store`): where profiles and the credential file live. */
export function configDir(env: Env = process.env): string {
  return xdgDir('config', env);
}

/** Reads a JSON file, or returns undefined when it does not exist. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // A file copied in by hand may be readable by others; it holds secrets or their whereabouts.
  await chmod(path, 0o600).catch(() => undefined);
  return JSON.parse(text) as unknown;
}
