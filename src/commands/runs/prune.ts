import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { DATE_FORMS } from '../../services/common/validate.js';

export default class RunsPrune extends BaseCommand<typeof RunsPrune> {
  static summary = 'Remove old runs from the ledger, with their changes.';
  static description = `Runs that started before --older-than and have ended go; a run still without an end (running, or killed) stays until it is older and ended. The file gives the space back to the disk. Undo needs the runs it reverts: keep what you may want to undo.`;

  static examples = ['<%= config.bin %> runs prune --older-than 90d', '<%= config.bin %> runs prune --older-than 2026-01-01'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    'older-than': Flags.string({ description: `Remove runs started before this: an age (90d, 12w) or ${DATE_FORMS}.`, required: true }),
  };

  async run(): Promise<{ before: string; runs: number; changes: number; bytes: number }> {
    const { pruneRuns } = await import('../../services/runs/runs.js');
    const { formatBytes } = await import('../../client/errors.js');
    const { plural } = await import('../../output/format.js');
    const result = pruneRuns(this.flags['older-than']);
    if (!this.jsonEnabled()) {
      this.note(`Removed ${plural(result.runs, 'run')} started before ${result.before} (${plural(result.changes, 'change')}); the ledger is now ${formatBytes(result.bytes)}.`);
    }
    return result;
  }
}
