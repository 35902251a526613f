import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { csvFlag } from '../../flags/common.js';
import type { RunRecord } from '../../ledger/types.js';
import { DATE_FORMS } from '../../services/common/validate.js';

export default class RunsList extends BaseCommand<typeof RunsList> {
  static summary = 'List the runs in the ledger: every command that wrote to a store, newest first.';
  static description = `Every write store makes is recorded in the run ledger before it is sent (docs/ledger.md): one run per command that wrote, with its changes. The ledger is a local file; nothing is asked of the store. Its size is said under the list.`;

  static examples = [
    '<%= config.bin %> runs list',
    '<%= config.bin %> runs list --command "variants sync" --since 7d',
    '<%= config.bin %> runs list --failed --json id,command,exit_code,changes',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    command: Flags.string({ description: 'Only runs of this command ("variants sync"), or of a topic ("orders").' }),
    since: Flags.string({ description: `Only runs started since: ${DATE_FORMS}.` }),
    failed: Flags.boolean({ description: 'Only runs that ended non-zero, never ended, or have a change that failed or is unknown.' }),
    limit: Flags.integer({ description: 'At most this many runs (default 30; --all for every one).', min: 1 }),
    all: Flags.boolean({ description: 'Every run.', exclusive: ['limit'] }),
    csv: csvFlag,
  };

  async run(): Promise<RunRecord[]> {
    const { listRuns } = await import('../../services/runs/runs.js');
    const { ledgerSizeLine, runColumns } = await import('../../views/runs.js');
    const { runs, path, bytes } = listRuns({
      command: this.flags.command,
      since: this.flags.since,
      failed: this.flags.failed,
      limit: this.flags.all ? undefined : (this.flags.limit ?? 30),
    });
    await this.renderList(runs, runColumns, { csv: this.flags.csv });
    if (!this.jsonEnabled()) {
      if (runs.length === 0) this.note('No runs match.');
      this.note(ledgerSizeLine(path, bytes, runs.length));
    }
    return runs;
  }
}
