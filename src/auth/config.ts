import { join } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { configDir, readJsonFile, type Env } from '../util/files.js';
import { withConfigLock } from './config-lock.js';

export type SecretsStore = 'keychain' | 'file';

/** The profile made by `store auth login --sandbox` (or on first use of `--profile sandbox`). */
export const SANDBOX_PROFILE = 'sandbox';

const profileSchema = z.object({
  store_id: z.union([z.string().min(1), z.number().int()]).transform(String),
  api_url: z.string().min(1),
  auth_url: z.string().min(1).optional(),
  app_name: z.string().min(1),
  app_id: z.string().min(1),
  scopes: z.array(z.string()).default([]),
  secrets_store: z.enum(['keychain', 'file']),
  sandbox: z.literal(true).optional(),
});

const configSchema = z.object({
  default: z.string().optional(),
  profiles: z.record(z.string(), profileSchema).default({}),
  /** `store config`: per-profile defaults by name (docs/ledger.md "Profile settings"), as text. */
  settings: z.record(z.string(), z.record(z.string(), z.string())).optional(),
});

export type Profile = z.output<typeof profileSchema>;
export type ProfileInput = z.input<typeof profileSchema>;
export type Config = z.output<typeof configSchema>;

export function configPath(env: Env = process.env): string {
  return join(configDir(env), 'config.json');
}

export function checkProfileName(name: string): void {
  // The name becomes part of keychain account names (`<profile>:token`), so ':' is excluded.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw new UsageError(`Invalid profile name "${name}": use letters, digits, '.', '_' or '-' (at most 64).`);
  }
}

export async function readConfig(env: Env = process.env): Promise<Config> {
  const path = configPath(env);
  let raw: unknown;
  try {
    raw = await readJsonFile(path);
  } catch (error) {
    if (error instanceof SyntaxError) throw new UsageError(`${path} is not valid JSON; fix or delete it.`);
    throw error;
  }
  if (raw === undefined) return { profiles: {} };
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${path} is invalid at ${issue?.path.join('.') || 'top level'}: ${issue?.message}; fix or delete it.`);
  }
  return parsed.data;
}

export async function writeConfig(config: Config, env: Env = process.env): Promise<void> {
  await writeFileAtomic(configPath(env), `${JSON.stringify(config, null, 2)}\n`);
}

/**
 * Which profile a command uses: `--profile`, else `STORE_PROFILE`, else the default, else the only profile.
 * Undefined when nothing names one.
 */
export function selectProfileName(config: Config, options: { profile?: string; env?: Env } = {}): string | undefined {
  const env = options.env ?? process.env;
  if (options.profile) return options.profile;
  if (env.STORE_PROFILE) return env.STORE_PROFILE;
  if (config.default) return config.default;
  const names = Object.keys(config.profiles);
  return names.length === 1 ? names[0] : undefined;
}

/** Adds or replaces a profile; the first profile saved (or `makeDefault`) becomes the default. */
export async function saveProfile(
  name: string,
  profile: ProfileInput,
  options: { makeDefault?: boolean; env?: Env } = {},
): Promise<Config> {
  checkProfileName(name);
  const env = options.env ?? process.env;
  const parsed = profileSchema.parse(profile);
  return withConfigLock(env, async () => {
    const config = await readConfig(env);
    config.profiles[name] = parsed;
    if (options.makeDefault || !config.default || !config.profiles[config.default]) config.default = name;
    await writeConfig(config, env);
    return config;
  });
}

/** Removes a profile; when it was the default, the default moves to the remaining profile if only one is left. */
export async function removeProfile(name: string, env: Env = process.env): Promise<boolean> {
  return withConfigLock(env, () => removeProfileLocked(name, env));
}

async function removeProfileLocked(name: string, env: Env): Promise<boolean> {
  const config = await readConfig(env);
  if (!config.profiles[name]) return false;
  delete config.profiles[name];
  if (config.default === name) {
    const remaining = Object.keys(config.profiles);
    config.default = remaining.length === 1 ? remaining[0] : undefined;
  }
  await writeConfig(config, env);
  return true;
}

export async function setDefaultProfile(name: string, env: Env = process.env): Promise<void> {
  return withConfigLock(env, () => setDefaultLocked(name, env));
}

async function setDefaultLocked(name: string, env: Env): Promise<void> {
  const config = await readConfig(env);
  if (!config.profiles[name]) {
    const known = Object.keys(config.profiles);
    throw new UsageError(
      known.length > 0
        ? `No profile named "${name}"; the profiles are: ${known.join(', ')}.`
        : `No profile named "${name}"; run \`store auth login --profile ${name}\` to create it.`,
    );
  }
  config.default = name;
  await writeConfig(config, env);
}

/** A profile's settings (`store config`), by name; none set is an empty object. */
export async function profileSettings(profile: string, env: Env = process.env): Promise<Record<string, string>> {
  return { ...(await readConfig(env)).settings?.[profile] };
}

/** Sets (or, with undefined, removes) one setting of a profile. */
export async function setProfileSetting(profile: string, name: string, value: string | undefined, env: Env = process.env): Promise<void> {
  const config = await readConfig(env);
  const all = { ...config.settings };
  const settings = { ...all[profile] };
  if (value === undefined) delete settings[name];
  else settings[name] = value;
  if (Object.keys(settings).length > 0) all[profile] = settings;
  else delete all[profile];
  await writeConfig({ ...config, settings: Object.keys(all).length > 0 ? all : undefined }, env);
}
