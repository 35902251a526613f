import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { csvFlag } from '../flags/common.js';
import type { ShownChange } from '../services/runs/runs.js';

export default class History extends BaseCommand<typeof History> {
  static summary = 'Every recorded change to one record, across runs, newest first.';
  static description = `KEY is a SKU, a product's handle, a product or variant id, or an order's id or number: whatever the run ledger recorded the change under (a product id also finds its variants' changes). Only what store wrote is in the ledger (docs/ledger.md): changes made in the store's admin or by other apps are not.`;

  static examples = ['<%= config.bin %> history REM-S-BL', '<%= config.bin %> history 1001 --json', '<%= config.bin %> history remera-basica --limit 20'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    key: Args.string({ description: 'A SKU, handle, product or variant id, or order id or number.', required: true }),
  };

  static flags = {
    limit: Flags.integer({ description: 'At most this many changes (default 1,000).', min: 1 }),
    csv: csvFlag,
  };

  async run(): Promise<ShownChange[]> {
    const { recordHistory } = await import('../services/runs/runs.js');
    const { changeColumns, historyColumns } = await import('../views/runs.js');
    const changes = recordHistory(this.args.key, this.flags.limit ?? 1000);
    await this.renderList(changes, this.flags.csv ? changeColumns : historyColumns, { csv: this.flags.csv });
    if (changes.length === 0 && !this.jsonEnabled()) this.note(`No recorded change to ${this.args.key}.`);
    return changes;
  }
}
