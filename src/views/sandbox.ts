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
