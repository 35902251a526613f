import type { AuthStatus, ProfileSummary } from '../services/auth/login.js';
import type { Column } from '../output/format.js';

/** `auth list`: one row per profile, the default one marked with *. */
export const profileColumns: Column<ProfileSummary>[] = [
  { header: 'default', get: (p) => (p.default ? '*' : ''), kind: 'id' },
  { header: 'profile', get: (p) => p.name, kind: 'id' },
  { header: 'store', get: (p) => p.storeId, kind: 'id' },
  { header: 'app', get: (p) => `${p.appName} (${p.appId})`, kind: 'text', priority: 2 },
  { header: 'api', get: (p) => p.apiUrl, kind: 'text', priority: 1 },
  { header: 'secrets', get: (p) => p.secretsStore, kind: 'id', priority: 3 },
];

const SOURCES: Record<AuthStatus['tokenSource'], string> = {
  keychain: 'OS keychain',
  file: 'credentials file (plain text, mode 0600)',
  env: 'environment (STORE_TOKEN)',
  sandbox: 'the local sandbox',
};

/** The "key value" lines of `auth status`; the token is the masked one the service returns. */
export function authStatusFields(status: Omit<AuthStatus, 'error'>): [string, unknown][] {
  return [
    ['Profile', status.profile],
    ['Store', status.storeName ? `${status.storeId} (${status.storeName})` : status.storeId],
    ['Plan', status.plan ?? ''],
    ['Languages', status.languages?.join(', ') ?? ''],
    ['Currency', status.currency ?? ''],
    ['API', status.apiUrl],
    ['App', `${status.appName} (${status.appId})`],
    ['Token kept in', SOURCES[status.tokenSource]],
    ['Token', status.token],
    ['Accepted', status.accepted === null ? 'unknown (the store could not be asked)' : status.accepted ? 'yes' : 'no'],
  ];
}
