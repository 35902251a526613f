import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import type { SandboxStatusResult } from '../../views/sandbox.js';

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
    const shared = await import('../../services/local-sandbox/shared-sandbox.js');
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
      const { sandboxStatusText } = await import('../../views/sandbox.js');
      this.io.stdout.write(sandboxStatusText(result));
      if (!info) this.note('It starts on the next command of the sandbox profile, or with `store sandbox status --start`.');
    }
    return result;
  }
}
