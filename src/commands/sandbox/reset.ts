import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { yesFlag } from '../../flags/common.js';

export default class SandboxReset extends BaseCommand<typeof SandboxReset> {
  static summary = 'Restore the demo data of the shared local sandbox.';
  static description = `Deletes every location, category, product, order and webhook of the sandbox store and seeds the demo data again, with the same ids as before, on the same port. The app, its credentials and its access token are kept, so the sandbox profile keeps working. Asks for confirmation on a terminal; needs --yes otherwise.`;

  static examples = ['<%= config.bin %> sandbox reset', '<%= config.bin %> sandbox reset --yes', '<%= config.bin %> sandbox reset --yes --orders 12000'];

  static flags = {
    yes: yesFlag,
    orders: Flags.integer({
      description: 'Also add this many generated orders, spread over the last year (a store past the 10,000-result cap of GET /orders).',
      min: 1,
      max: 1_000_000,
    }),
  };

  async run(): Promise<void> {
    const { confirmThenAct } = await import('../../cli/confirm.js');
    await confirmThenAct({
      message: 'Delete all sandbox data and restore the demo store?',
      yes: this.flags.yes,
      action: 'Resetting the sandbox (it deletes its data)',
      nothingDone: 'Nothing was changed.',
      declined: () => undefined,
      act: async () => {
        const { resetSharedSandbox } = await import('../../services/local-sandbox/shared-sandbox.js');
        const { resetStateDir } = await import('../../sandbox/state-dir.js');
        const orders = this.flags.orders;
        const info = await resetSharedSandbox({ env: process.env, resetState: (dir) => resetStateDir(dir, { orders }) });
        this.note(`Restored the demo data of sandbox store ${info.store_id}${orders ? `, with ${orders} more orders,` : ''} (${info.api_url}).`);
      },
    });
  }
}
