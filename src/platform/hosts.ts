/**
 * The platform's production hosts (TiendaNube/api-docs README, "Making a request" and "Authentication"): one
 * API host and one authorization host per brand, the same API behind both. `auth login` offers them as choices;
 * the sandbox is the third. Dependency-free, like the rest of platform/.
 */
export interface PlatformHost {
  /** The brand, as the login menu names it. */
  name: string;
  /** The API host root, without /v1. */
  apiUrl: string;
  /** Where `/apps/{app_id}/authorize` and `/apps/authorize/token` live. */
  authUrl: string;
}

export const PLATFORM_HOSTS: readonly PlatformHost[] = [
  { name: 'Tiendanube', apiUrl: 'https://api.tiendanube.com', authUrl: 'https://www.tiendanube.com' },
  { name: 'Nuvemshop', apiUrl: 'https://api.nuvemshop.com.br', authUrl: 'https://www.nuvemshop.com.br' },
];

/** The brand whose API host `apiUrl` is (trailing slash ignored), if it is one. */
export function platformHost(apiUrl: string): PlatformHost | undefined {
  return PLATFORM_HOSTS.find((h) => h.apiUrl === apiUrl.replace(/\/+$/, ''));
}
