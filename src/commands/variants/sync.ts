import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { BulkCommand, type UnchangedFeed } from '../../cli/bulk-command.js';
import { BRAKE_FLAGS, PLAN_OUT_FLAG, VERIFY_FLAG, brakesFrom } from '../../flags/brakes.js';
import { bulkFileFlags, feedFlags, skipInvalidFlag } from '../../flags/bulk-file.js';
import type { SyncSummary } from '../../services/catalog-files/sync/run-sync.js';

export default class VariantsSync extends BulkCommand<typeof VariantsSync> {
  static summary = 'Sync stock and prices by SKU from a CSV feed; only the variants that differ are written.';
  static description = `Columns: sku (required), stock (default location), stock:<location> (name or id), price, promotional_price, cost, or the admin export's names of them (SKU, Stock/Estoque, Precio/Preço, Precio promocional, Costo/Custo); --map renames an ERP's own (--map 'Código=sku,Existencia=stock'). The file is read as it comes (UTF-8, UTF-16 with a byte order mark, else Windows-1252; blank rows and trailing nameless columns skipped) and checked whole: nothing is sent while a row is invalid, unless --skip-invalid. Only the columns present are compared and changed; an empty cell leaves the value as it is. SKUs the store does not have are failed rows (listed, in --report, exit 3), never created.

Price and stock changes go 50 variants per request (PATCH /products/stock-price, across products); promotional price and cost go in one request per product. Every confirmed variant is journaled under $XDG_STATE_HOME/store/imports/: after an interruption, run the same command with --resume to finish (it compares the journal with the store and writes only what still differs).

FILE may be the https:// URL of the feed (http:// only on this machine): downloaded with a conditional GET (at most 512 MiB, redirects only to https, credentials only with --header) and read as a file; one that has not changed since the last run of it that finished with nothing failed is said on stderr and exits 0 without asking the store anything (docs/csv.md, "Feeds at a URL").

--zero-missing sets stock 0 on every stock-tracked variant whose SKU the file leaves out. It refuses to run when the file names fewer than half of the store's SKUs (a truncated feed must not empty a store) unless --force. Exit codes: 2 when the file is invalid, 3 when some variants failed (see --report), 130 when interrupted by Ctrl-C, 143 by SIGTERM.`;

  static examples = [
    '<%= config.bin %> variants sync stock.csv',
    '<%= config.bin %> variants sync erp-feed.csv --zero-missing --report sync-failures.csv --quiet',
    '<%= config.bin %> variants sync prices.csv --dry-run',
    '<%= config.bin %> variants sync stock.csv --resume',
    '<%= config.bin %> variants sync erp-feed.csv --plan-out 0100.plan   # look at it, then: store apply 0100.plan',
    '<%= config.bin %> variants sync erp-feed.csv --quiet --max-price-change 50% --max-zero-stock 2% --verify',
    "<%= config.bin %> variants sync existencias.csv --map 'Código=sku,Existencia=stock,Descripción='",
    "<%= config.bin %> variants sync https://erp.example.com/stock.csv --header 'Authorization: Bearer …' --quiet",
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static secretFlags = ['header'];

  static args = {
    file: Args.string({ description: 'CSV feed: sku plus the columns to sync ("-" for standard input), or its https:// URL.', required: true }),
  };

  static flags = {
    'zero-missing': Flags.boolean({ description: 'Set stock 0 on store variants whose SKU is not in the file.' }),
    force: Flags.boolean({ description: 'With --zero-missing: run even when the file names fewer than half of the SKUs.', dependsOn: ['zero-missing'] }),
    only: Flags.string({
      description: 'Apply only these columns (comma-separated header names, e.g. price,promotional_price); the others are read only to match rows.',
    }),
    'dry-run': Flags.boolean({ description: 'Show what would change; send no write.' }),
    resume: Flags.boolean({ description: 'Continue an interrupted sync of the same file from its journal (what differs is read from the store again).' }),
    report: Flags.string({ description: 'Write the rows not done to this CSV file: their own columns, then line, error and stage (fixed, it is the next input).' }),
    'skip-invalid': skipInvalidFlag('rows'),
    ...bulkFileFlags,
    ...feedFlags,
    quiet: Flags.boolean({ char: 'q', description: 'No progress and no summary (for cron); errors still go to stderr.' }),
    ...PLAN_OUT_FLAG,
    ...VERIFY_FLAG,
    ...BRAKE_FLAGS,
  };

  async run(): Promise<SyncSummary | UnchangedFeed> {
    const { runSync } = await import('../../services/catalog-files/sync/run-sync.js');
    const { printBulkSummary, syncSummaryView } = await import('../../views/bulk.js');
    const { quiet, report } = this.flags;
    const zeroMissing = this.flags['zero-missing'];
    return this.runBulk({
      file: this.args.file,
      label: 'sync',
      unit: 'variants',
      quiet,
      report,
      fileFlags: this.flags,
      feed: {
        flags: this.flags,
        reader: 'sync',
        // What changes the writes of a run: another of these is another run of the feed, not an unchanged one.
        settings: {
          only: this.flags.only,
          zeroMissing,
          force: this.flags.force,
          skipInvalid: this.flags['skip-invalid'],
          encoding: this.flags.encoding,
          map: this.flags.map,
          mapFile: this.flags['map-file'],
        },
      },
      dryRun: this.flags['dry-run'] || this.flags['plan-out'] !== undefined,
      interruptedHint: 'Interrupted; the work done is journaled. Run the same command with --resume to finish (it only writes what still differs).',
      run: async ({ client, ...run }) =>
        runSync(client, {
          ...run,
          skipInvalid: this.flags['skip-invalid'],
          only: this.flags.only,
          zeroMissing,
          force: this.flags.force,
          dryRun: this.flags['dry-run'] || this.flags['plan-out'] !== undefined,
          planOut: this.flags['plan-out'],
          verify: this.flags.verify,
          brakes: brakesFrom(this.flags, await this.profileBrakes()),
          resume: this.flags.resume,
          report,
        }),
      show: (summary) => {
        printBulkSummary(syncSummaryView(summary, zeroMissing, report), { quiet, json: this.jsonEnabled() }, this.io.stdout, this.io.stderr);
        this.notePlanOut(quiet);
      },
      failed: (summary) => summary.failed > 0,
    });
  }
}
