import type { AuthStatus, ProfileSummary } from '../services/login.js';
import type { Column } from '../output/format.js';

/** `auth list`: one row per profile, the default one marked with *. */
export const profileColumns: Column<ProfileSummary>[] = [
  { header: 'default', get: (p) => (p.default ? '*' : '') },
  { header: 'profile', get: (p) => p.name },
  { header: 'store', get: (p) => p.storeId },
  { header: 'app', get: (p) => `${p.appName} (${p.appId})` },
  { header: 'api', get: (p) => p.apiUrl },
  { header: 'secrets', get: (p) => p.secretsStore },
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
