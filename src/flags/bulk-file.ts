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
