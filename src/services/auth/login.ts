import { randomBytes } from 'node:crypto';
import { ApiError, AuthError } from '../../client/errors.js';
import { StoreError, UsageError, stripPeriod } from '../../errors.js';
import { refuseInsecureHttp } from '../../client/transport.js';
import {
  checkProfileName,
  readConfig,
  removeProfile,
  saveProfile,
  SANDBOX_PROFILE,
  selectProfileName,
  type Profile,
  type SecretsStore,
} from '../../auth/config.js';
import { sandboxProfile, type StoreContext } from '../../auth/context.js';
import {
  deleteSecrets,
  KEYCHAIN_SERVICE,
  loadSecrets,
  maskToken,
  saveSecrets,
  type KeychainOptions,
  type Secrets,
} from '../../auth/credentials.js';
import type { Env } from '../../util/files.js';
import type { StoreClient } from '../../client/index.js';
import { DEFAULT_CALLBACK_PORT, listenForCallback } from '../../auth/loopback.js';
import { authorizeUrl, exchangeCode, parseScopes, type TokenResponse } from '../../auth/oauth.js';
import { apiHostRoot, withoutTrailingSlash } from '../../util/url.js';
import { PLATFORM_HOSTS, platformHost } from '../../platform/hosts.js';

/** A value the login needs and no flag gave: the command asks for it on a TTY, else fails naming the flag. */
export interface MissingValue {
  flag: string;
  message: string;
  secret?: boolean;
  /** What is wrong with an answer, or undefined when it is fine: a prompt asks again instead of failing. */
  validate?: (value: string) => string | undefined;
  /** Answers to pick from first (`message` is the menu's); "another" leads to the text prompt of `message` above. */
  choices?: { message: string; options: { name: string; value: string }[] };
}

/** The API-URL answer that means "log in to the local sandbox" (as `--sandbox` does). */
export const SANDBOX_CHOICE = 'sandbox';
export type Ask = (missing: MissingValue) => Promise<string>;

export interface LoginOptions {
  profile?: string;
  clientId?: string;
  clientSecret?: string;
  appName?: string;
  apiUrl?: string;
  authUrl?: string;
  storeId?: string;
  insecureStorage?: boolean;
  port?: number;
  /** `--code`: an authorization code pasted by the user. */
  code?: string;
  /**
   * `--with-token`: the token, or how to read it (from stdin), called once the other values are settled so
   * that a person pasting it at a terminal is asked those first.
   */
  token?: string | (() => Promise<string>);
  sandbox?: boolean;
  ask: Ask;
  /** Browser flow: called with the authorize URL once the listener is up (the command opens or prints it). */
  onAuthorizeUrl?: (url: string) => void | Promise<void>;
  debug?: (line: string) => void;
  env?: Env;
  keychain?: KeychainOptions;
  /** How long the browser flow waits for the redirect. */
  waitMs?: number;
  /** --allow-insecure-http: http:// to a host other than loopback is accepted. */
  allowInsecureHttp?: boolean;
}

export interface LoginResult {
  profile: string;
  storeId: string;
  appName: string;
  appId: string;
  apiUrl: string;
  scopes: string[];
  /** Where the secrets went; the sandbox profile reads them from the shared sandbox instead. */
  secretsStore: SecretsStore | 'sandbox';
  sandbox: boolean;
  /** For the command to show on stderr (e.g. secrets stored in plain text). */
  warnings: string[];
}

const DEFAULT_PROFILE = 'default';
const DEFAULT_APP_NAME = 'store-cli';

/**
 * Logs a profile in by one of the flows of docs/decisions.md "Profiles and credentials" — sandbox, token from stdin, pasted code, or the
 * browser with a loopback redirect — stores its secrets and makes it the default profile.
 */
export async function login(options: LoginOptions): Promise<LoginResult> {
  const result = await loginProfile(options);
  if ((options.env ?? process.env).STORE_TOKEN) {
    result.warnings.push(`STORE_TOKEN is set, so commands use it rather than profile "${result.profile}" until it is unset.`);
  }
  return result;
}

async function loginProfile(options: LoginOptions): Promise<LoginResult> {
  const env = options.env ?? process.env;
  const name = options.profile || (options.sandbox ? SANDBOX_PROFILE : DEFAULT_PROFILE);
  // Checked before anything else: a single-use code must not be spent on a login that cannot be saved.
  checkProfileName(name);
  const config = await readConfig(env);
  const existing = config.profiles[name];

  if (options.sandbox) return loginSandbox(name, existing, options, env);

  // A profile logged in before keeps its addresses and app, so logging in again needs no flags.
  const previous = existing && !existing.sandbox ? existing : undefined;
  const given = await required(options.apiUrl ?? previous?.api_url, options.ask, {
    flag: 'api-url',
    message: 'API URL (the host root, without /v1)',
    // "sandbox", picked from the menu (or typed), is the local sandbox's login.
    validate: (v) => (v === SANDBOX_CHOICE ? undefined : urlProblem(v)),
    choices: {
      message: 'Which store API?',
      options: [
        ...PLATFORM_HOSTS.map((h) => ({ name: `${h.name} (${h.apiUrl})`, value: h.apiUrl })),
        { name: 'The local sandbox (a test store with demo data)', value: SANDBOX_CHOICE },
      ],
    },
  });
  if (given === SANDBOX_CHOICE) {
    const sandboxName = options.profile || SANDBOX_PROFILE;
    checkProfileName(sandboxName);
    return loginSandbox(sandboxName, config.profiles[sandboxName], options, env);
  }
  // The documented base URL pasted whole (…/v1/123456) is the host root: the client adds the version and store.
  const root = apiHostRoot(given);
  const apiUrl = root.url;
  const pasted: string[] = root.removed ? [`The API URL is the host root: ${root.removed} was left out of ${given} (store adds it to every request).`] : [];
  refuseInsecureHttp(apiUrl, '--api-url', options.allowInsecureHttp);

  let secrets: Secrets;
  let storeId: string;
  let scopes: string[];
  let appId: string;
  // The platform's own API host comes with its authorization host.
  let authUrl = options.authUrl ?? previous?.auth_url ?? platformHost(apiUrl)?.authUrl;

  let appName = options.appName ?? previous?.app_name;
  if (options.token !== undefined) {
    storeId = await required(options.storeId ?? root.storeId ?? previous?.store_id, options.ask, {
      flag: 'store-id',
      message: 'Store id',
      validate: (v) => (/^\d+$/.test(v) ? undefined : 'must be the store\'s number'),
    });
    // The User-Agent must name the app the token was issued to (docs/decisions.md "Profiles and credentials"): no made-up default.
    appId = await required(options.clientId ?? previous?.app_id, options.ask, {
      flag: 'client-id',
      message: 'App client id (the app the token was issued to)',
    });
    appName = await required(appName, options.ask, { flag: 'app-name', message: "App name (as the store knows it; sent in the User-Agent)" });
    const token = (typeof options.token === 'string' ? options.token : await options.token()).trim();
    if (!token) {
      throw new UsageError('No token was read from stdin; pipe it in, e.g. `store auth login --with-token --store-id ID < token.txt`.');
    }
    await checkStore({ apiUrl, storeId, token, appName, appId, debug: options.debug });
    const clientSecret =
      options.clientSecret ??
      (previous?.app_id === appId ? (await previousSecrets(name, previous, env, options.keychain)).clientSecret : undefined);
    secrets = { token, clientSecret };
    scopes = previous?.store_id === storeId ? previous.scopes : [];
  } else {
    const oauthUrl = await required(authUrl, options.ask, { flag: 'auth-url', message: 'Authorization server URL', validate: urlProblem });
    refuseInsecureHttp(oauthUrl, '--auth-url', options.allowInsecureHttp);
    authUrl = oauthUrl;
    appId = await required(options.clientId ?? previous?.app_id, options.ask, { flag: 'client-id', message: 'App client id' });
    const stored =
      options.clientSecret === undefined && previous?.app_id === appId
        ? (await previousSecrets(name, previous, env, options.keychain)).clientSecret
        : undefined;
    const clientSecret = await required(options.clientSecret ?? stored, options.ask, {
      flag: 'client-secret',
      message: 'App client secret',
      secret: true,
    });
    const exchange = (code: string) =>
      exchangeCode({ authUrl: oauthUrl, clientId: appId, clientSecret, code, debug: options.debug });
    const granted =
      options.code !== undefined
        ? await exchange(options.code.trim())
        : await browserFlow({ ...options, authUrl: oauthUrl, appId, exchange });
    secrets = { token: granted.access_token, clientSecret };
    storeId = granted.user_id;
    scopes = parseScopes(granted.scope);
    // The grant names a store; "Logged in" only once the API URL answers for it with the new token.
    await checkStore({ apiUrl, storeId, token: granted.access_token, appName: appName ?? DEFAULT_APP_NAME, appId, debug: options.debug });
  }

  const fields = {
    store_id: storeId,
    api_url: withoutTrailingSlash(apiUrl),
    auth_url: authUrl && withoutTrailingSlash(authUrl),
    app_name: appName ?? DEFAULT_APP_NAME,
    app_id: appId,
    scopes,
  };
  const result = await finish(name, existing, secrets, fields, options, env);
  return { ...result, warnings: [...pasted, ...result.warnings] };
}

async function browserFlow(options: LoginOptions & {
  authUrl: string;
  appId: string;
  exchange: (code: string) => Promise<TokenResponse>;
}): Promise<TokenResponse> {
  const state = randomBytes(24).toString('base64url');
  const listener = await listenForCallback({
    port: options.port ?? DEFAULT_CALLBACK_PORT,
    state,
    exchange: options.exchange,
    waitMs: options.waitMs,
  });
  try {
    await options.onAuthorizeUrl?.(
      authorizeUrl({ authUrl: options.authUrl, appId: options.appId, state, redirectUri: listener.redirectUri }),
    );
    return await listener.result;
  } finally {
    await listener.close();
  }
}

async function finish(
  name: string,
  existing: Profile | undefined,
  secrets: Secrets,
  fields: Omit<Profile, 'secrets_store' | 'sandbox'>,
  options: LoginOptions,
  env: Env,
): Promise<LoginResult> {
  const saved = await saveSecrets(name, secrets, { env, insecureStorage: options.insecureStorage, keychain: options.keychain });
  const warnings = saved.warning ? [saved.warning] : [];
  // A secret left behind in the keychain by an earlier login of this profile must not outlive it.
  if (existing?.secrets_store === 'keychain' && saved.store === 'file' && !existing.sandbox) {
    await deleteSecrets(name, 'keychain', { env, keychain: options.keychain }).catch(() => {
      warnings.push(`The earlier secrets of profile "${name}" could not be removed from the OS keychain.`);
    });
  }
  await saveProfile(name, { ...fields, secrets_store: saved.store }, { env, makeDefault: true });
  return {
    profile: name,
    storeId: fields.store_id,
    appName: fields.app_name,
    appId: fields.app_id,
    apiUrl: fields.api_url,
    scopes: fields.scopes,
    secretsStore: saved.store,
    sandbox: false,
    warnings,
  };
}

/**
 * The sandbox profile uses the shared sandbox's demo app and token rather than a fresh OAuth grant: a new
 * grant would revoke the token every other command of the shared sandbox relies on.
 */
async function loginSandbox(name: string, existing: Profile | undefined, options: LoginOptions, env: Env): Promise<LoginResult> {
  const { ensureSharedSandbox } = await import('../local-sandbox/shared-sandbox.js');
  const info = await ensureSharedSandbox({ env });
  const warnings: string[] = [];
  if (existing && !existing.sandbox) {
    await deleteSecrets(name, existing.secrets_store, { env, keychain: options.keychain }).catch(() => {
      warnings.push(`The earlier secrets of profile "${name}" could not be removed from the OS keychain.`);
    });
  }
  const profile = sandboxProfile(info);
  await checkStore({ apiUrl: profile.api_url, storeId: profile.store_id, token: info.access_token, appName: profile.app_name, appId: profile.app_id, debug: options.debug });
  await saveProfile(name, profile, { env, makeDefault: true });
  return {
    profile: name,
    storeId: profile.store_id,
    appName: profile.app_name,
    appId: profile.app_id,
    apiUrl: profile.api_url,
    scopes: profile.scopes,
    secretsStore: 'sandbox',
    sandbox: true,
    warnings,
  };
}

async function previousSecrets(name: string, profile: Profile, env: Env, keychain?: KeychainOptions): Promise<Secrets> {
  // Only a convenience: when the keychain does not answer, the value is asked for instead.
  return loadSecrets(name, profile.secrets_store, { env, keychain }).catch(() => ({}));
}

/** A flag's value, else the answer to a prompt; a bad flag value fails, a bad answer is asked again by the prompt. */
async function required(value: string | undefined, ask: Ask, missing: MissingValue): Promise<string> {
  const given = value !== undefined && value.trim() !== '' ? value.trim() : (await ask(missing)).trim();
  if (!given) throw new UsageError(`--${missing.flag} is required.`);
  const problem = missing.validate?.(given);
  if (problem) throw new UsageError(`--${missing.flag} ${problem}, not "${given}".`);
  return given;
}

function urlProblem(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'must be an http(s) URL';
  } catch {
    return 'must be an http(s) URL';
  }
}

/**
 * Every login flow (a token, an OAuth grant, the sandbox) opens the store before anything is saved (GET /store),
 * so a mistyped or revoked token, a wrong API URL or store id fails the login in one sentence instead of the
 * next command (which blamed the token for a `/v1/v1/…` URL).
 */
async function checkStore(target: { apiUrl: string; storeId: string; token: string; appName: string; appId: string; debug?: (line: string) => void }): Promise<void> {
  const { createClient } = await import('../../client/index.js');
  const { getStore } = await import('../../api/store.js');
  const client = createClient({ ...target, apiUrl: withoutTrailingSlash(target.apiUrl), retries: 1 });
  try {
    await getStore(client);
  } catch (error) {
    if (error instanceof AuthError) {
      throw new AuthError(`The store rejected the token (${error.status === 403 ? 'it may not read the store' : `${error.status} on GET /store`}); nothing was saved.`);
    }
    if (error instanceof ApiError && error.status === 404) {
      throw new StoreError(`${target.apiUrl} has no store ${target.storeId} (404 on GET /store); check the API URL (the host root, e.g. https://api.tiendanube.com) and the store id; nothing was saved.`, 1);
    }
    if (error instanceof StoreError) throw new StoreError(`${stripPeriod(error.message)}; nothing was saved.`, error.exitCode);
    throw error;
  }
}

/** Removes a profile and its secrets; the default moves to the only profile left, if any. */
export async function logout(options: { profile?: string; env?: Env; keychain?: KeychainOptions }): Promise<{ profile: string; warnings: string[] }> {
  const env = options.env ?? process.env;
  const config = await readConfig(env);
  const name = selectProfileName(config, { profile: options.profile, env });
  if (!name) throw new UsageError('There is no profile to log out of; `store auth list` shows the profiles.');
  const profile = config.profiles[name];
  if (!profile) throw new UsageError(`No profile named "${name}"; \`store auth list\` shows the profiles.`);
  const warnings: string[] = [];
  if (!profile.sandbox) {
    await deleteSecrets(name, profile.secrets_store, { env, keychain: options.keychain }).catch((error: Error) => {
      warnings.push(
        `${error.message} Its entries ${KEYCHAIN_SERVICE} / ${name}:token and ${name}:client_secret may remain; remove them with your keychain manager.`,
      );
    });
  }
  await removeProfile(name, env);
  return { profile: name, warnings };
}

export interface AuthStatus {
  profile: string;
  storeId: string;
  storeName?: string;
  /** The store's `plan_name` (free text such as "Business"). */
  plan?: string;
  /** Active languages, the main one first. */
  languages?: string[];
  currency?: string;
  appName: string;
  appId: string;
  apiUrl: string;
  tokenSource: StoreContext['tokenSource'] | 'sandbox';
  /** The token masked, e.g. `abcd…wxyz`: enough to tell tokens apart, not enough to use one. */
  token: string;
  /** Whether the store accepts the token; null when the check itself failed (store unreachable, 5xx). */
  accepted: boolean | null;
  /** Why the check failed, as one sentence (when `accepted` is not true). */
  problem?: string;
  /** The error behind `problem`, for the command to end with (and its exit code). */
  error?: Error;
}

/** Describes the resolved credentials and checks them with one cheap request (GET /store). */
export async function authStatus(ctx: StoreContext, client: StoreClient): Promise<AuthStatus> {
  const base = {
    profile: ctx.profile,
    storeId: ctx.storeId,
    appName: ctx.appName,
    appId: ctx.appId,
    apiUrl: ctx.apiUrl,
    tokenSource: ctx.sandbox ? ('sandbox' as const) : ctx.tokenSource,
    token: maskToken(ctx.token),
  };
  const { getStore } = await import('../../api/store.js');
  const { AuthError } = await import('../../client/errors.js');
  try {
    const store = await getStore(client);
    return {
      ...base,
      storeName: store.name,
      plan: store.plan,
      languages: store.languages,
      currency: store.currency,
      accepted: true,
    };
  } catch (error) {
    // Only the store's refusal says the token is bad; an unreachable store says nothing about it.
    const accepted = error instanceof AuthError ? false : null;
    return { ...base, accepted, problem: (error as Error).message, error: error as Error };
  }
}

export interface ProfileSummary {
  name: string;
  default: boolean;
  storeId: string;
  appName: string;
  appId: string;
  apiUrl: string;
  secretsStore: SecretsStore | 'sandbox';
}

export async function listProfiles(env: Env = process.env): Promise<ProfileSummary[]> {
  const config = await readConfig(env);
  return Object.entries(config.profiles)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, p]) => ({
      name,
      default: name === config.default,
      storeId: p.store_id,
      appName: p.app_name,
      appId: p.app_id,
      apiUrl: p.api_url,
      secretsStore: p.sandbox ? 'sandbox' : p.secrets_store,
    }));
}
