import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { BulkCommand } from '../cli/bulk-command.js';
import { BRAKE_FLAGS, VERIFY_FLAG, brakesFrom } from '../flags/brakes.js';
import type { ApplyResult } from '../services/catalog-files/apply/run-apply.js';

export default class Apply extends BulkCommand<typeof Apply> {
  static summary = 'Write a saved plan (from --plan-out) exactly, or refuse if the store changed since.';
  static description = `FILE is a plan written by \`store products import FILE --plan-out PLAN\` or \`store variants sync FILE --plan-out PLAN\`: the dry run's changes and the store values they were computed against. For cron: plan at 01:00, look at it, apply at 02:00.

Before anything is sent, every record the plan touches is read again (the fewest requests, fields=): if a field it writes no longer holds the value the plan was made from (a sale, an admin's edit), or a product or SKU it creates exists now, nothing is sent, each record is listed and the exit code is 5: make the plan again. A plan file edited by hand (its seal does not match), cut short, or made for another store is refused with exit 2.

The plan is written as the command that made it would: the same batch requests, journal and --resume, --report, --verify and brakes. Like every write, it is recorded in the run ledger (\`store runs list\`, \`store undo RUN\`). Exit codes: 2 for a file that is not a sealed plan of this store, 3 when some rows failed, 5 when the store changed since or a brake stopped it, 130/143 when interrupted.`;

  static examples = [
    '<%= config.bin %> variants sync erp-feed.csv --plan-out tonight.plan',
    '<%= config.bin %> apply tonight.plan',
    '<%= config.bin %> apply tonight.plan --verify --max-changes 5% --quiet',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    file: Args.string({ description: 'The plan file (written by --plan-out).', required: true }),
  };

  static flags = {
    resume: Flags.boolean({ description: 'Continue an interrupted apply of the same plan file from its journal.' }),
    report: Flags.string({ description: 'Write the rows that failed (line, key, stage, reason) to this CSV file.' }),
    quiet: Flags.boolean({ char: 'q', description: 'No progress and no summary (for cron); errors still go to stderr.' }),
    ...VERIFY_FLAG,
    ...BRAKE_FLAGS,
  };

  async run(): Promise<ApplyResult['summary']> {
    const { runApply } = await import('../services/catalog-files/apply/run-apply.js');
    const { importSummaryView, printBulkSummary, syncSummaryView } = await import('../views/bulk.js');
    const { quiet, report } = this.flags;
    let command: ApplyResult['command'] | undefined;
    return this.runBulk({
      file: this.args.file,
      label: 'apply',
      quiet,
      report,
      interruptedHint: 'Interrupted; the work done is journaled. Run the same command with --resume to finish.',
      run: async ({ client, ...run }) => {
        const result = await runApply(client, {
          ...run,
          resume: this.flags.resume,
          report,
          verify: this.flags.verify,
          brakes: brakesFrom(this.flags, await this.profileBrakes()),
        });
        command = result.command;
        return result.summary;
      },
      show: (summary) => {
        const view =
          command === 'products import' || 'dialect' in summary
            ? importSummaryView(summary as Extract<ApplyResult, { command: 'products import' }>['summary'], report)
            : syncSummaryView(summary as Extract<ApplyResult, { command: 'variants sync' }>['summary'], false, report);
        printBulkSummary(view, { quiet, json: this.jsonEnabled() }, this.io.stdout, this.io.stderr);
      },
      failed: (summary) => summary.failed > 0,
    });
  }
}
