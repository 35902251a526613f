import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { BRAKE_FLAGS, VERIFY_FLAG, brakesFrom } from '../flags/brakes.js';
import type { UndoSummary } from '../services/undo/run-undo.js';

export default class Undo extends BaseCommand<typeof Undo> {
  static summary = "Put back what a run of the ledger changed, as far as the store still holds what it wrote.";
  static description = `RUN is a run of the ledger (\`store runs list\`; a unique start of its id is enough). Each field the run wrote goes back to its value before, if the store still holds what the run wrote; a field someone changed since is left and listed (--force writes it back anyway). Stock goes back by difference, so sales since are kept: before 10, the run wrote 30, now 25 → 5. Products and variants the run created are deleted only if unchanged since; those it deleted are made again from the record it kept (with new ids). Actions no write takes back (an order cancelled) are listed.

The store is read a page of products at a time from the run's start (fields=) and each page's changes are sent in the batch requests the jobs use before the next page is read, so undo sends no more write requests than the run did. Undo is itself a run: \`store undo\` of it redoes. A job killed and finished with --resume is several runs: undoing any of them undoes them together. After an interruption (Ctrl-C, a crash), \`--resume\` finishes it without taking a stock difference off twice. Asks on a terminal; --yes otherwise. Exit codes: 2 for a run that is unknown or undone already, 3 when some fields failed, 5 when a brake stopped it, 130/143 when interrupted.`;

  static examples = [
    '<%= config.bin %> undo 01JDQ8Z --dry-run',
    '<%= config.bin %> undo 01JDQ8Z --yes --only price',
    '<%= config.bin %> undo 01JDQ8Z --resume --yes',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    run: Args.string({ description: 'The run to undo: its id, or a unique start of it (store runs list).', required: true }),
  };

  static flags = {
    'dry-run': Flags.boolean({ description: 'Read the store and show what would go back, what would be left and why; send no write.' }),
    yes: Flags.boolean({ char: 'y', description: 'Do not ask (needed when not on a terminal).' }),
    only: Flags.string({ description: 'Undo only these fields (comma-separated: price,stock,promotional_price,cost,…).' }),
    force: Flags.boolean({ description: 'Write back also the fields changed since the run (not stock: it always goes back by difference).' }),
    resume: Flags.boolean({ description: 'Finish an interrupted undo of the same run.' }),
    quiet: Flags.boolean({ char: 'q', description: 'No summary; what is left and failures still go to stderr.' }),
    ...VERIFY_FLAG,
    ...BRAKE_FLAGS,
  };

  async run(): Promise<UndoSummary> {
    const [{ runUndo }, { openLedger }, { confirmOrYes }, { undoLines, undoNotices, undoQuestion }, { trapInterrupt }, { BULK_RETRIES }, { profileSettings }] = await Promise.all([
      import('../services/undo/run-undo.js'),
      import('../ledger/store.js'),
      import('../output/prompt.js'),
      import('../views/undo.js'),
      import('./../cli/signals.js'),
      import('../client/retry.js'),
      import('../auth/config.js'),
    ]);
    const { flags } = this;
    const only = flags.only ? new Set(flags.only.split(',').map((f) => f.trim()).filter(Boolean)) : undefined;
    const ctx = await this.context();
    const brakes = brakesFrom(flags, await profileSettings(ctx.profile));
    const ledger = openLedger();
    const interrupt = trapInterrupt();
    try {
      const run = ledger.run(this.args.run);
      const recorder = await this.recorder({ undoes: run?.id });
      const client = await this.client({ retries: BULK_RETRIES });
      const summary = await runUndo(client, ledger, recorder, {
        runId: this.args.run,
        dryRun: flags['dry-run'],
        resume: flags.resume,
        only,
        force: flags.force,
        verify: flags.verify,
        brakes,
        signal: interrupt.signal,
        confirm: (preview) => confirmOrYes({ yes: flags.yes, message: undoQuestion(preview), action: 'Undoing a run' }),
      });
      if (summary.cancelled) this.io.stderr.write('Nothing was undone.\n');
      if (!flags.quiet && !this.jsonEnabled()) {
        const lines = undoLines(summary);
        if (lines.length) this.io.stdout.write(`${lines.join('\n')}\n`);
      }
      for (const line of undoNotices(summary)) this.io.stderr.write(`${line}\n`);
      if (summary.interrupted) {
        this.io.stderr.write(`Interrupted; run \`store undo ${summary.run.id} --resume\` to finish.\n`);
        process.exitCode = interrupt.exitCode();
      } else if (summary.failures.length > 0 || (summary.verify?.failed.length ?? 0) > 0) process.exitCode = 3;
      if (this.jsonEnabled()) await this.printJson(summary);
      return summary;
    } catch (error) {
      const { StoppedBeforeWriting } = await import('../errors.js');
      const { brakeLines } = await import('../output/stopped-run.js');
      const tripped = error instanceof StoppedBeforeWriting ? (error.detail as { tripped?: Parameters<typeof brakeLines>[0] }).tripped : undefined;
      if (tripped) for (const line of brakeLines(tripped)) this.io.stderr.write(`${line}\n`);
      throw error;
    } finally {
      interrupt.dispose();
      ledger.close();
    }
  }
}
