import { Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';

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

export default class SandboxStatus extends BaseCommand<typeof SandboxStatus> {
  static summary = 'Show whether the shared local sandbox is running, and where.';
  static description = `The shared sandbox is the server behind the "sandbox" profile (store auth login --sandbox): started on demand, stopped after 30 minutes without requests. Its state survives restarts. --start starts it when it is not running. The access token is printed by \`store auth token --profile sandbox\`, not here.`;

  static examples = ['<%= config.bin %> sandbox status', '<%= config.bin %> sandbox status --start --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    start: Flags.boolean({ description: 'Start the shared sandbox when it is not running.' }),
  };

  async run(): Promise<SandboxStatusResult> {
    const shared = await import('../../services/shared-sandbox.js');
    if (this.flags.start) await shared.ensureSharedSandbox({ env: process.env });
    const status = await shared.sharedSandboxStatus({ env: process.env });
    const info = status.running ? status.info : undefined;
    const result: SandboxStatusResult = {
      running: status.running,
      api_url: info?.api_url ?? null,
      auth_url: info?.auth_url ?? null,
      store_id: info?.store_id ?? null,
      app_name: info?.app_name ?? null,
      client_id: info?.client_id ?? null,
      pid: info?.pid ?? null,
      state_dir: status.paths.dataDir,
    };
    if (!this.jsonEnabled()) {
      if (info) {
        this.io.stdout.write(
          [
            `Running       yes (pid ${info.pid})`,
            `API URL       ${info.api_url}`,
            `Auth URL      ${info.auth_url}`,
            `Store id      ${info.store_id}`,
            `App           ${info.app_name} (client id ${info.client_id})`,
            `State         ${status.paths.dataDir}`,
            '',
          ].join('\n'),
        );
      } else {
        this.io.stdout.write(`Running       no\nState         ${status.paths.dataDir}\n`);
        this.note('It starts on the next command of the sandbox profile, or with `store sandbox status --start`.');
      }
    }
    return result;
  }
}
