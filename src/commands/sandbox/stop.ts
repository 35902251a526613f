import { BaseCommand } from '../../cli/base-command.js';

export default class SandboxStop extends BaseCommand<typeof SandboxStop> {
  static summary = 'Stop the shared local sandbox.';
  static description = 'Its data stays in the state directory; the next command of the sandbox profile starts it again.';
  static examples = ['<%= config.bin %> sandbox stop'];

  async run(): Promise<void> {
    const { stopSharedSandbox } = await import('../../services/local-sandbox/shared-sandbox.js');
    const { stopped, info } = await stopSharedSandbox({ env: process.env });
    this.note(stopped && info ? `Stopped the sandbox (pid ${info.pid}).` : 'The sandbox is not running.');
  }
}
