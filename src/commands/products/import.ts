import { dirname, resolve } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { BulkCommand, type UnchangedFeed } from '../../cli/bulk-command.js';
import { BRAKE_FLAGS, PLAN_OUT_FLAG, VERIFY_FLAG, brakesFrom } from '../../flags/brakes.js';
import { bulkFileFlags, feedFlags, skipInvalidFlag } from '../../flags/bulk-file.js';
import type { ImportSummary } from '../../services/catalog-files/import/run-import.js';

export default class ProductsImport extends BulkCommand<typeof ProductsImport> {
  static summary = 'Import a catalog CSV: create what is missing, update only what differs; delete only rows that say DELETE.';
  static description = `The whole file is read and checked first: every error is listed with its line and column, and nothing is sent while a row is invalid (unless --skip-invalid). The store's catalog is then fetched once, the changes are planned per product and per variant, and sent at the store's rate limit. Re-importing an unchanged file sends no write.

A file written by \`store products export\` never reverts what the store changed since: a field whose cell still holds its exported value (its "baseline" column says what that was) is left alone when the store's value has changed (sold stock, a sync, an admin edit); a field you edited is written. The summary counts the store changes kept; --overwrite-store-changes writes the file as it is. A file without the baseline column (an ERP feed) is written as it is.

A "command" column says what to do with each row (docs/csv.md, "What each row does"): NEW fails a row whose variant exists, UPDATE one whose product or variant does not, REPLACE clears the fields its blank cells name, DELETE deletes the product (a row without SKU) or the variant, IGNORE skips the row; blank is MERGE. Deletes are listed first by --dry-run, kept whole on the run ledger (store undo makes them again) and counted by --max-deletes.

Reads the canonical columns (docs/csv.md), the platform's admin export (Spanish or Portuguese) and a Shopify product export; the format is recognised from the header row. Files are read as they come: UTF-8, UTF-16 with a byte order mark, or else Windows-1252 (said on stderr; --encoding forces one), "," ";" or tab separated, blank rows and trailing nameless columns skipped; --map renames an ERP's columns to ours.

Every confirmed write is journaled under $XDG_STATE_HOME/store/imports/: after an interruption (Ctrl-C, a crash), run the same command with --resume to finish without creating anything twice. FILE may be the https:// URL of a feed (http:// only on this machine): it is downloaded with a conditional GET (at most 512 MiB, redirects only to https, credentials only with --header) and read as a file. A feed that has not changed since the last run of it that finished with nothing failed is said on stderr and exits 0 without asking the store anything (docs/csv.md, "Feeds at a URL"). A named pipe or other special file is refused (the file is read more than once); save it to a file first, or pipe it to "-" (standard input, copied once). Exit codes: 2 when the file is invalid, 3 when some products failed (see --report) or another writer left duplicates, 130 when interrupted by Ctrl-C, 143 by SIGTERM.`;

  static examples = [
    '<%= config.bin %> products import catalog.csv --dry-run',
    '<%= config.bin %> products import catalog.csv --report failed.csv --quiet',
    '<%= config.bin %> products import admin-export.csv --ignore-unknown-columns',
    '<%= config.bin %> products import catalog.csv --resume',
    '<%= config.bin %> products import catalog.csv --only price,promotional_price',
    '<%= config.bin %> products import catalog.csv --plan-out tonight.plan   # then: store apply tonight.plan',
    '<%= config.bin %> products import erp.csv --quiet --max-changes 5% --max-price-change 50% --verify',
    "<%= config.bin %> products import erp.csv --map 'Código=sku,Descripción=name,Existencia=stock'",
    "<%= config.bin %> products import https://erp.example.com/export/catalog.csv --header 'Authorization: Bearer …' --quiet",
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static secretFlags = ['header'];

  static args = {
    file: Args.string({ description: 'CSV file to import ("-" for standard input), or the https:// URL of a feed.', required: true }),
  };

  static flags = {
    'dry-run': Flags.boolean({ description: 'Check the file and show what would change; send no write.' }),
    mode: Flags.string({
      description: 'upsert: create and update; create: only create missing products; update: only update existing ones.',
      options: ['upsert', 'create', 'update'],
      default: 'upsert',
    }),
    'skip-invalid': skipInvalidFlag('products (a product with an invalid row is left out whole)'),
    ...bulkFileFlags,
    ...feedFlags,
    'images-dir': Flags.string({ description: 'Directory of the image files the file names by a relative path (default: the file\'s own directory).' }),
    'ignore-unknown-columns': Flags.boolean({ description: 'Report unknown columns once and ignore them instead of failing.' }),
    report: Flags.string({ description: "Write the rows not done to this CSV file: their own columns, then line, error and stage (fixed, it is the next input)." }),
    resume: Flags.boolean({ description: 'Continue an interrupted import of the same file from its journal.' }),
    only: Flags.string({
      description: 'Apply only these columns (comma-separated header names, e.g. price,promotional_price); the others are read only to match rows.',
    }),
    'overwrite-store-changes': Flags.boolean({
      description: 'Write the file as it is: also the fields it holds as exported that the store changed since the export (by default those are kept).',
    }),
    quiet: Flags.boolean({ char: 'q', description: 'No progress and no summary (for cron); errors still go to stderr.' }),
    ...PLAN_OUT_FLAG,
    ...VERIFY_FLAG,
    ...BRAKE_FLAGS,
  };

  async run(): Promise<ImportSummary | UnchangedFeed> {
    const { runImport } = await import('../../services/catalog-files/import/run-import.js');
    const { importSummaryView, printBulkSummary } = await import('../../views/bulk.js');
    const { quiet, report } = this.flags;
    return this.runBulk({
      file: this.args.file,
      label: 'import',
      quiet,
      report,
      fileFlags: this.flags,
      feed: {
        flags: this.flags,
        reader: 'import',
        // What changes the writes of a run: another of these is another run of the feed, not an unchanged one.
        settings: {
          mode: this.flags.mode,
          only: this.flags.only,
          overwrite: this.flags['overwrite-store-changes'],
          ignoreUnknown: this.flags['ignore-unknown-columns'],
          skipInvalid: this.flags['skip-invalid'],
          encoding: this.flags.encoding,
          map: this.flags.map,
          mapFile: this.flags['map-file'],
        },
      },
      dryRun: this.flags['dry-run'] || this.flags['plan-out'] !== undefined,
      interruptedHint: 'Interrupted; the work done is journaled. Run the same command with --resume to finish.',
      run: async ({ client, ...run }) =>
        runImport(client, {
          ...run,
          mode: this.flags.mode as 'upsert' | 'create' | 'update',
          skipInvalid: this.flags['skip-invalid'],
          ignoreUnknownColumns: this.flags['ignore-unknown-columns'],
          // Relative image paths start at the file as the user named it: the run may read a private copy of it
          // (standard input, a pipe, a feed at a URL), whose directory means nothing to them.
          imagesDir: this.flags['images-dir'] ?? (this.args.file === '-' || /^https?:\/\//i.test(this.args.file) ? process.cwd() : dirname(resolve(this.args.file))),
          resume: this.flags.resume,
          overwriteStoreChanges: this.flags['overwrite-store-changes'],
          only: this.flags.only,
          report,
          dryRun: this.flags['dry-run'] || this.flags['plan-out'] !== undefined,
          planOut: this.flags['plan-out'],
          verify: this.flags.verify,
          brakes: brakesFrom(this.flags, await this.profileBrakes()),
        }),
      show: (summary) => {
        if ((!quiet || summary.failed > 0 || summary.interrupted) && !this.jsonEnabled()) {
          printBulkSummary(importSummaryView(summary, report), { quiet, json: false }, this.io.stdout, this.io.stderr);
        }
        this.notePlanOut(quiet);
      },
      failed: (summary) => summary.failed > 0,
    });
  }
}
