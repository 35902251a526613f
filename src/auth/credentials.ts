import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { SecretsStore } from './config.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { configDir, readJsonFile, type Env } from '../util/files.js';
import { withConfigLock } from './config-lock.js';

/** The two secrets a profile may hold. The sandbox's are not secret, but are kept the same way. */
export interface Secrets {
  token?: string;
  clientSecret?: string;
}

/** Where a profile's secrets are kept: the OS keychain, or the 0600 credentials file. */
export interface SecretBackend {
  readonly kind: SecretsStore;
  get(profile: string): Promise<Secrets>;
  /** Replaces the profile's secrets: a secret left undefined is removed. */
  set(profile: string, secrets: Secrets): Promise<void>;
  delete(profile: string): Promise<void>;
}

export const KEYCHAIN_SERVICE = 'store-cli';
const KEYCHAIN_TIMEOUT_MS = 3000;

/** A keychain that does not answer (no Secret Service, locked, denied, or too slow). */
/** Read by bin/run.js: set when something left behind would keep the process alive after the command. */
export const EXIT_WHEN_DONE = Symbol.for('store-cli.exit-when-done');

export class KeychainUnavailableError extends Error {
  constructor(reason: string) {
    super(`The OS keychain is not available (${reason}).`);
    this.name = 'KeychainUnavailableError';
  }
}

export function credentialsPath(env: Env = process.env): string {
  return join(configDir(env), 'credentials.json');
}

function plainTextWarning(env: Env = process.env): string {
  return `Secrets are stored in plain text in ${credentialsPath(env)} (mode 0600).`;
}

type FileContent = Record<string, { token?: string; client_secret?: string }>;

async function readCredentialsFile(env: Env): Promise<FileContent> {
  const path = credentialsPath(env);
  const raw = await readJsonFile(path).catch((error: unknown) => {
    if (error instanceof SyntaxError) return null;
    throw error;
  });
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new UsageError(`${path} is not a JSON object; fix or delete it, then run \`store auth login\` again.`);
  }
  return raw as FileContent;
}

export function fileBackend(env: Env = process.env): SecretBackend {
  return {
    kind: 'file',
    async get(profile) {
      const entry = (await readCredentialsFile(env))[profile];
      return { token: entry?.token, clientSecret: entry?.client_secret };
    },
    set: (profile, secrets) =>
      withConfigLock(env, async () => {
        const content = await readCredentialsFile(env);
        content[profile] = { token: secrets.token, client_secret: secrets.clientSecret };
        await writeFileAtomic(credentialsPath(env), `${JSON.stringify(content, null, 2)}\n`);
      }),
    delete: (profile) =>
      withConfigLock(env, async () => {
        const content = await readCredentialsFile(env);
        if (!(profile in content)) return;
        delete content[profile];
        await writeFileAtomic(credentialsPath(env), `${JSON.stringify(content, null, 2)}\n`);
      }),
  };
}

/** The subset of the keytar API the CLI uses (`@napi-rs/keyring/keytar`). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeychainOptions {
  timeoutMs?: number;
  /** Loads the keychain module; injectable so the timeout can be tested without a hanging keychain. */
  load?: () => Promise<KeytarLike>;
}

async function loadKeytar(): Promise<KeytarLike> {
  // The native module is loaded only when a keychain is actually used, keeping start-up fast.
  const keytar = await import('@napi-rs/keyring/keytar.js');
  return keytar;
}

export function keychainBackend(options: KeychainOptions = {}): SecretBackend {
  const timeoutMs = options.timeoutMs ?? KEYCHAIN_TIMEOUT_MS;
  const load = options.load ?? loadKeytar;

  // Each call races a timer: a Secret Service that is present but stuck must not hang the CLI.
  async function call<T>(operation: (keytar: KeytarLike) => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // The abandoned native call keeps the event loop alive; bin/run.js exits once the command is done.
        (globalThis as Record<symbol, unknown>)[EXIT_WHEN_DONE] = true;
        reject(new KeychainUnavailableError(`no answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([
        (async () => {
          let keytar: KeytarLike;
          try {
            keytar = await load();
          } catch (error) {
            throw new KeychainUnavailableError(`cannot load the keychain module: ${(error as Error).message}`);
          }
          try {
            return await operation(keytar);
          } catch (error) {
            throw new KeychainUnavailableError((error as Error).message);
          }
        })(),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  const tokenAccount = (profile: string) => `${profile}:token`;
  const secretAccount = (profile: string) => `${profile}:client_secret`;

  async function put(keytar: KeytarLike, account: string, value: string | undefined): Promise<void> {
    if (value === undefined) await keytar.deletePassword(KEYCHAIN_SERVICE, account);
    else await keytar.setPassword(KEYCHAIN_SERVICE, account, value);
  }

  return {
    kind: 'keychain',
    get: (profile) =>
      call(async (keytar) => ({
        token: (await keytar.getPassword(KEYCHAIN_SERVICE, tokenAccount(profile))) ?? undefined,
        clientSecret: (await keytar.getPassword(KEYCHAIN_SERVICE, secretAccount(profile))) ?? undefined,
      })),
    set: (profile, secrets) =>
      call(async (keytar) => {
        await put(keytar, tokenAccount(profile), secrets.token);
        await put(keytar, secretAccount(profile), secrets.clientSecret);
      }),
    delete: (profile) =>
      call(async (keytar) => {
        await keytar.deletePassword(KEYCHAIN_SERVICE, tokenAccount(profile));
        await keytar.deletePassword(KEYCHAIN_SERVICE, secretAccount(profile));
      }),
  };
}

export interface CredentialOptions {
  env?: Env;
  keychain?: KeychainOptions;
}

function backendFor(store: SecretsStore, options: CredentialOptions = {}): SecretBackend {
  return store === 'keychain' ? keychainBackend(options.keychain) : fileBackend(options.env);
}

/**
 * Stores a profile's secrets in the keychain, or in the file when `insecureStorage` is set or no keychain
 * answers. Returns where they went and, for the file, the warning the command must show.
 */
export async function saveSecrets(
  profile: string,
  secrets: Secrets,
  options: CredentialOptions & { insecureStorage?: boolean } = {},
): Promise<{ store: SecretsStore; warning?: string }> {
  const env = options.env ?? process.env;
  if (options.insecureStorage) {
    await fileBackend(env).set(profile, secrets);
    return { store: 'file', warning: plainTextWarning(env) };
  }
  try {
    await keychainBackend(options.keychain).set(profile, secrets);
    // Secrets an earlier login left in the file must not outlive the move to the keychain.
    await fileBackend(env).delete(profile);
    return { store: 'keychain' };
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
    await fileBackend(env).set(profile, secrets);
    return { store: 'file', warning: `${error.message} ${plainTextWarning(env)}` };
  }
}

/** Reads a profile's secrets from the store its profile records. */
export async function loadSecrets(profile: string, store: SecretsStore, options: CredentialOptions = {}): Promise<Secrets> {
  return backendFor(store, options).get(profile);
}

/** Removes a profile's secrets from the store its profile records (and from the file, which is cheap to check). */
export async function deleteSecrets(profile: string, store: SecretsStore, options: CredentialOptions = {}): Promise<void> {
  await fileBackend(options.env).delete(profile);
  if (store === 'keychain') await keychainBackend(options.keychain).delete(profile);
}

/** `abcd…wxyz` for long tokens; short ones show nothing, as 8 characters would give most of them away. */
export function maskToken(token: string): string {
  return token.length >= 20 ? `${token.slice(0, 4)}…${token.slice(-4)}` : '…';
}
