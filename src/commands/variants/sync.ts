import { Args, Flags } from '@oclif/core';
import { plural } from '../../output/format.js';
import { BaseCommand } from '../../base-command.js';
import type { SyncSummary } from '../../services/sync.js';

export default class VariantsSync extends BaseCommand<typeof VariantsSync> {
  static summary = 'Sync stock and prices by SKU from a CSV feed; only the variants that differ are written.';
  static description = `Columns: sku (required), stock (default location), stock:<location> (name or id), price, promotional_price, cost. Only the columns present are compared and changed; an empty cell leaves the value as it is. SKUs the store does not have are reported, never created.

--zero-missing sets stock 0 on every stock-tracked variant whose SKU the file leaves out. It refuses to run when the file names fewer than half of the store's SKUs (a truncated feed must not empty a store) unless --force. Exit codes: 2 when the file is invalid, 3 when some variants failed (see --report), 130 when interrupted by Ctrl-C, 143 by SIGTERM.`;

  static examples = [
    '<%= config.bin %> variants sync stock.csv',
    '<%= config.bin %> variants sync erp-feed.csv --zero-missing --report sync-failures.csv --quiet',
    '<%= config.bin %> variants sync prices.csv --dry-run',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    file: Args.string({ description: 'CSV feed: sku plus the columns to sync ("-" for standard input).', required: true }),
  };

  static flags = {
    'zero-missing': Flags.boolean({ description: 'Set stock 0 on store variants whose SKU is not in the file.' }),
    force: Flags.boolean({ description: 'With --zero-missing: run even when the file names fewer than half of the SKUs.', dependsOn: ['zero-missing'] }),
    'dry-run': Flags.boolean({ description: 'Show what would change; send no write.' }),
    report: Flags.string({ description: 'Write the rows that failed (line, key, stage, reason) to this CSV file.' }),
    quiet: Flags.boolean({ char: 'q', description: 'No progress and no summary (for cron); errors still go to stderr.' }),
  };

  async run(): Promise<SyncSummary> {
    const { seekableInput } = await import('../../services/input-file.js');
    const input = await seekableInput(this.args.file);
    try {
      return await this.runOn(input.path);
    } finally {
      await input.dispose();
    }
  }

  private async runOn(file: string): Promise<SyncSummary> {
    const ctx = await this.context();
    const { runSync, SyncInvalidError } = await import('../../services/sync.js');
    const { formatRowError } = await import('../../services/import/catalog.js');
    const { BULK_RETRIES, bulkProgress, trapInterrupt, limitHeapGrowth } = await import('../../output/bulk.js');
    limitHeapGrowth();
    const { formatDuration } = await import('../../output/progress.js');
    const client = await this.client({ retries: BULK_RETRIES });
    const quiet = this.flags.quiet;
    const progress = await bulkProgress(ctx, 'sync', quiet, this.io.stderr, 'variants', this.factory.clock);
    let writing = false;
    const interrupt = trapInterrupt(() => writing);
    let summary: SyncSummary;
    try {
      summary = await runSync(client, {
        file,
        zeroMissing: this.flags['zero-missing'],
        force: this.flags.force,
        dryRun: this.flags['dry-run'],
        report: this.flags.report,
        apiUrl: ctx.apiUrl,
        storeId: ctx.storeId,
        appId: ctx.appId,
        signal: interrupt.signal,
        onProgress: (event) => {
          writing ||= event.phase === 'writing';
          progress.update(event);
        },
      });
    } catch (error) {
      progress.stop();
      if (error instanceof SyncInvalidError) for (const e of error.errors) this.io.stderr.write(`${formatRowError(e)}\n`);
      throw error;
    } finally {
      interrupt.dispose();
    }
    progress.stop();
    if (!quiet && !this.jsonEnabled()) {
      const s = summary;
      const verb = s.dryRun ? 'Would sync' : 'Synced';
      const lines = [
        `${verb} ${s.file}: ${plural(s.rows, 'row')}.`,
        `  variants: ${s.updated} updated, ${s.unchanged} unchanged, ${s.notFound} not in the store, ${s.failed} failed${s.zeroed || this.flags['zero-missing'] ? `, ${s.zeroed} zeroed (not in the file)` : ''}`,
        ...(s.dryRun ? [`  writes:   ${s.plannedWrites} would be sent`] : []),
        `  requests: ${s.requests} sent (${s.retries} retried), ${s.rateLimited} × 429, ${formatDuration(s.seconds)}`,
      ];
      this.io.stdout.write(`${lines.join('\n')}\n`);
    }
    if (summary.notFound > 0 && !quiet) {
      const list = summary.notFoundSkus.slice(0, 20).join(', ');
      this.warnUser(`${summary.notFound === 1 ? '1 SKU is' : `${summary.notFound} SKUs are`} not in the store (not created): ${list}${summary.notFound > 20 ? ', …' : ''}.`);
    }
    const { terminalSafe } = await import('../../output/format.js');
    for (const f of summary.failures.slice(0, 50)) this.io.stderr.write(`${terminalSafe(`${summary.file}, line ${f.line} (${f.key}): ${f.reason}`)}\n`);
    if (summary.interrupted) {
      this.io.stderr.write('Interrupted; run the same command again to finish (it only writes what still differs).\n');
      process.exitCode = interrupt.exitCode();
    } else if (summary.failed > 0) {
      process.exitCode = 3;
    }
    return summary;
  }
}
