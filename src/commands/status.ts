import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import type { StoreStatus } from '../services/status/status.js';

export default class Status extends BaseCommand<typeof Status> {
  static summary = 'The morning check: orders to ship, payments pending, low stock, the last runs.';
  static description = `One screen, like gh status. Each section reads only its first page, side by side, so the whole check costs 4 requests:
- Orders to ship (2 requests): the open, paid orders not yet sent, as \`store orders list --to-ship\` lists them (the newest 5, and how many).
- Payments pending (1 request): the orders whose payment is pending (the newest 5, and how many).
- Low stock (1 request): the SKUs with at most --low-stock units, from the first 200 products holding one (GET /products?max_stock=N); a store with more shows its count with a "+".
- Last runs (no request): the last run of each command that wrote to this store in the last 30 days, with its exit code, from the run ledger on this machine.`;

  static examples = ['<%= config.bin %> status', '<%= config.bin %> status --low-stock 0', '<%= config.bin %> status --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    'low-stock': Flags.integer({ description: 'Show the SKUs with at most this many units.', default: 5, min: 0 }),
  };

  async run(): Promise<StoreStatus> {
    const context = await this.context();
    const { storeStatus } = await import('../services/status/status.js');
    const status = await storeStatus(await this.client(), { lowStock: this.flags['low-stock'], rows: 5, storeId: context.storeId });
    if (this.jsonEnabled()) return status;
    const { statusFields, statusSections } = await import('../views/status.js');
    await this.renderDetail(statusFields(status, context.profile), statusSections(status));
    return status;
  }
}
