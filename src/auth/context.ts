import { AuthError } from '../client/errors.js';
import { UsageError } from '../errors.js';
import { readConfig, saveProfile, SANDBOX_PROFILE, selectProfileName, type Profile } from './config.js';
import { KeychainUnavailableError, loadSecrets, type KeychainOptions } from './credentials.js';
import type { Env } from '../util/files.js';
import { withoutTrailingSlash } from '../util/url.js';

/** Everything a command needs to talk to one store. */
export interface StoreContext {
  profile: string;
  storeId: string;
  apiUrl: string;
  authUrl?: string;
  appName: string;
  appId: string;
  token: string;
  clientSecret?: string;
  tokenSource: 'keychain' | 'file' | 'env';
  /** The variable the token came from, when it is a profile's own (`STORE_TOKEN_<PROFILE>`). */
  tokenVariable?: string;
  sandbox: boolean;
}

/**
 * The variable that gives one profile its token without a keychain or credentials file (a fleet on a CI runner or
 * a Kubernetes pod: one Secret entry per store): `STORE_TOKEN_` and the profile's name in capitals, every character
 * other than a letter or digit as `_` ("shop-ar" → STORE_TOKEN_SHOP_AR).
 */
export function profileTokenVariable(profile: string): string {
  return `STORE_TOKEN_${profile.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

export interface ResolveOptions {
  profile?: string;
  env?: Env;
  keychain?: KeychainOptions;
}

/** The profile name reported when the credentials come from `STORE_TOKEN` / `STORE_ID`. */
const ENV_PROFILE = 'env';

const DEFAULT_APP_NAME = 'store-cli';

const LOGIN_HINT = 'run `store auth login` (or `store auth login --sandbox` to try the local sandbox)';

/**
 * Resolves the store, app and token a command uses. `STORE_TOKEN` + `STORE_ID` win over any profile;
 * otherwise `--profile`, `STORE_PROFILE` or the default profile; the `sandbox` profile always points at the
 * shared local sandbox (started on demand) and is created on first use.
 */
export async function resolveContext(options: ResolveOptions = {}): Promise<StoreContext> {
  const env = options.env ?? process.env;
  if (env.STORE_TOKEN || env.STORE_ID) {
    // The environment only borrows defaults from a profile; a broken config file must not stop a cron job.
    const config = await readConfig(env).catch(() => undefined);
    const name = config && selectProfileName(config, { profile: options.profile, env });
    return fromEnv(env, name ? config.profiles[name] : undefined);
  }

  const config = await readConfig(env);
  const name = selectProfileName(config, { profile: options.profile, env });

  if (!name) {
    if (Object.keys(config.profiles).length > 1) {
      throw new AuthError(
        'Several profiles exist and none is the default; choose one with --profile NAME or `store auth switch NAME`.',
      );
    }
    throw new AuthError(`No credentials found; ${LOGIN_HINT}.`);
  }

  const profile = config.profiles[name];
  if (name === SANDBOX_PROFILE && !profile) return sandboxContext(name, undefined, env);
  if (!profile) {
    throw new AuthError(`Profile "${name}" does not exist; run \`store auth login --profile ${name}\` to create it.`);
  }
  if (profile.sandbox) return sandboxContext(name, profile, env);
  return fromProfile(name, profile, env, options.keychain);
}

function fromEnv(env: Env, profile: Profile | undefined): StoreContext {
  if (!env.STORE_TOKEN || !env.STORE_ID) {
    const missing = env.STORE_TOKEN ? 'STORE_ID' : 'STORE_TOKEN';
    const present = env.STORE_TOKEN ? 'STORE_TOKEN' : 'STORE_ID';
    throw new AuthError(`${present} is set but ${missing} is not; set both, or unset ${present} to use a profile.`);
  }
  // Values the environment leaves out come from the selected profile, so a CI job may set only the secrets.
  const apiUrl = env.STORE_API_URL || profile?.api_url;
  if (!apiUrl) {
    throw new UsageError('STORE_TOKEN and STORE_ID are set but STORE_API_URL is not; set it to the API host root.');
  }
  return {
    profile: ENV_PROFILE,
    storeId: env.STORE_ID,
    apiUrl: withoutTrailingSlash(apiUrl),
    authUrl: optionalUrl(env.STORE_AUTH_URL || profile?.auth_url),
    appName: env.STORE_APP_NAME || profile?.app_name || DEFAULT_APP_NAME,
    appId: env.STORE_APP_ID || profile?.app_id || DEFAULT_APP_NAME,
    token: env.STORE_TOKEN,
    clientSecret: env.STORE_CLIENT_SECRET || undefined,
    tokenSource: 'env',
    sandbox: false,
  };
}

async function fromProfile(
  name: string,
  profile: Profile,
  env: Env,
  keychain: KeychainOptions | undefined,
): Promise<StoreContext> {
  const variable = profileTokenVariable(name);
  const fromVariable = env[variable];
  if (fromVariable) {
    // The profile's own variable wins over the stored login, and spares the keychain (which a pod does not have).
    return { ...profileFields(name, profile), token: fromVariable, clientSecret: undefined, tokenSource: 'env', tokenVariable: variable };
  }
  let secrets;
  try {
    secrets = await loadSecrets(name, profile.secrets_store, { env, keychain });
  } catch (error) {
    if (error instanceof KeychainUnavailableError) {
      throw new AuthError(
        `Profile "${name}" keeps its token in the OS keychain, which did not answer; unlock it, or run \`store auth login --profile ${name} --insecure-storage\`.`,
      );
    }
    throw error;
  }
  if (!secrets.token) {
    const where = profile.secrets_store === 'keychain' ? 'the OS keychain' : 'the credentials file';
    throw new AuthError(`Profile "${name}" has no token in ${where}; run \`store auth login --profile ${name}\`.`);
  }
  return { ...profileFields(name, profile), token: secrets.token, clientSecret: secrets.clientSecret, tokenSource: profile.secrets_store };
}

function profileFields(name: string, profile: Profile): Omit<StoreContext, 'token' | 'clientSecret' | 'tokenSource'> {
  return {
    profile: name,
    storeId: profile.store_id,
    apiUrl: withoutTrailingSlash(profile.api_url),
    authUrl: optionalUrl(profile.auth_url),
    appName: profile.app_name,
    appId: profile.app_id,
    sandbox: false,
  };
}

/**
 * The sandbox profile's addresses and credentials come from the shared sandbox each time: its port changes
 * when it restarts, and its credentials are not secret (they only open the local sandbox).
 */
async function sandboxContext(name: string, profile: Profile | undefined, env: Env): Promise<StoreContext> {
  const { ensureSharedSandbox } = await import('../services/local-sandbox/shared-sandbox.js');
  const info = await ensureSharedSandbox({ env });
  const current = sandboxProfile(info);
  if (!profile || profile.api_url !== current.api_url || profile.auth_url !== current.auth_url || profile.store_id !== current.store_id) {
    await saveProfile(name, current, { env, makeDefault: false });
  }
  return {
    profile: name,
    storeId: String(info.store_id),
    apiUrl: withoutTrailingSlash(info.api_url),
    authUrl: withoutTrailingSlash(info.auth_url),
    appName: info.app_name,
    appId: info.client_id,
    token: info.access_token,
    clientSecret: info.client_secret,
    tokenSource: 'file',
    sandbox: true,
  };
}

/** The profile record of the shared sandbox (its secrets are read from the sandbox, never stored twice). */
export function sandboxProfile(info: {
  api_url: string;
  auth_url: string;
  store_id: number | string;
  app_name: string;
  client_id: string;
}): Profile {
  return {
    store_id: String(info.store_id),
    api_url: withoutTrailingSlash(info.api_url),
    auth_url: withoutTrailingSlash(info.auth_url),
    app_name: info.app_name,
    app_id: info.client_id,
    scopes: [],
    secrets_store: 'file',
    sandbox: true,
  };
}

function optionalUrl(url: string | undefined): string | undefined {
  return url ? withoutTrailingSlash(url) : undefined;
}
