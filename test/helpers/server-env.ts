import { join } from 'node:path';

/** What the independent test stores (bulk, shipping, large) have in common: where they are and their token. */
export interface TestServer {
  token: string;
  storeId: number | string;
  url: string;
}

/**
 * The environment that points the real `store` binary at a server written apart from the sandbox, as cron does
 * (credentials from the environment), its config, state and data under `home` (`state` names another state dir:
 * two ledgers in one home).
 */
export function serverEnv(server: TestServer, home: string, state = 'state'): NodeJS.ProcessEnv {
  return {
    STORE_TOKEN: server.token,
    STORE_ID: String(server.storeId),
    STORE_API_URL: server.url,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_STATE_HOME: join(home, state),
    XDG_DATA_HOME: join(home, 'data'),
  };
}
