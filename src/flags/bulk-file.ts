import { Flags } from '@oclif/core';
import { ENCODING_CHOICES } from '../services/bulk/encoding.js';

/**
 * The flags of every bulk file (`products import`, `variants sync`, `invoices attach --file`): how it is read
 * (docs/csv.md, "Files as they come") and what happens to its invalid rows. BulkCommand turns them into the
 * services' BulkFileOptions.
 */
export const bulkFileFlags = {
  encoding: Flags.string({
    description: 'Read the file in this encoding instead of detecting it (a byte order mark, else UTF-8, else Windows-1252).',
    options: [...ENCODING_CHOICES],
  }),
  map: Flags.string({
    description: "Rename the file's columns before they are read: 'Código=sku,Existencia=stock' (NAME= leaves a column out).",
  }),
  'map-file': Flags.string({ description: 'Read --map pairs from a file: one FILE_COLUMN=COLUMN per line, # for comments.' }),
};

export function skipInvalidFlag(what: string) {
  return Flags.boolean({ description: `Send the valid ${what} and report the invalid ones (exit 3), instead of refusing the whole file (exit 2).` });
}

/**
 * The flags of a bulk file given as a URL (`products import URL`, `variants sync URL`; docs/csv.md "Feeds at a
 * URL"). A command that takes them lists `header` in its `secretFlags`: the run ledger never keeps its value.
 */
export const feedFlags = {
  header: Flags.string({
    description: "With a feed URL: send this header with the download, 'Name: value' (repeatable). The only way to give the feed's credentials; never shown, logged or recorded.",
    multiple: true,
    multipleNonGreedy: true,
  }),
  refetch: Flags.boolean({ description: 'With a feed URL: download it whole and run it even when it has not changed since the last clean run.' }),
};

/**
 * The flags of a row file given with --file beside a command's one-order form (`invoices attach --file`,
 * `orders ship --file`): the file, its report, --dry-run, --resume, --skip-invalid and how it is read, each of
 * them only with --file. `file` describes the file, `dryRun` what a dry run does, `verb` what --skip-invalid does
 * to the valid rows.
 */
export function rowFileFlags(what: { file: string; dryRun: string; verb: string }) {
  return {
    file: Flags.string({ description: what.file }),
    report: Flags.string({ description: 'With --file: write the rows that failed to this CSV file.', dependsOn: ['file'] }),
    'dry-run': Flags.boolean({ description: `With --file: ${what.dryRun}`, dependsOn: ['file'] }),
    resume: Flags.boolean({ description: 'With --file: continue an interrupted run of the same file from its journal.', dependsOn: ['file'] }),
    'skip-invalid': Flags.boolean({
      description: `With --file: ${what.verb} the valid rows and report the invalid ones (exit 3), instead of refusing the whole file (exit 2).`,
      dependsOn: ['file'],
    }),
    encoding: { ...bulkFileFlags.encoding, dependsOn: ['file'] },
    map: { ...bulkFileFlags.map, dependsOn: ['file'] },
    'map-file': { ...bulkFileFlags['map-file'], dependsOn: ['file'] },
  };
}
