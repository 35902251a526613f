/** `sandbox status`: what `--json` prints, and the same as aligned lines. */
export interface SandboxStatusResult {
  running: boolean;
  api_url: string | null;
  auth_url: string | null;
  store_id: number | null;
  app_name: string | null;
  client_id: string | null;
  pid: number | null;
  state_dir: string;
}

export function sandboxStatusText(status: SandboxStatusResult): string {
  if (!status.running) return `Running       no\nState         ${status.state_dir}\n`;
  return [
    `Running       yes (pid ${status.pid})`,
    `API URL       ${status.api_url}`,
    `Auth URL      ${status.auth_url}`,
    `Store id      ${status.store_id}`,
    `App           ${status.app_name} (client id ${status.client_id})`,
    `State         ${status.state_dir}`,
    '',
  ].join('\n');
}

/** `sandbox serve`, once the port is bound: where the API is and the demo app's credentials (they open only it). */
export function sandboxServeText(
  info: { api_url: string; auth_url: string; store_id: number; app_name: string; client_id: string; client_secret: string; access_token: string },
  stateDir: string,
): string {
  return [
    `API URL       ${info.api_url}  (requests go to ${info.api_url}/v1/${info.store_id}/…)`,
    `Auth URL      ${info.auth_url}`,
    `Store id      ${info.store_id}`,
    `App           ${info.app_name} (client id ${info.client_id})`,
    `Client secret ${info.client_secret}`,
    `Access token  ${info.access_token}`,
    `State         ${stateDir}`,
    '',
  ].join('\n');
}
