import { terminalSafe } from '../output/format.js';
import type { StoreClient } from '../client/index.js';
import type { BulkRunSummary } from '../services/bulk/summary.js';
import type { BulkFileFlags, BulkRun, BulkSpec } from './bulk-command.js';

/**
 * The --file branch of a command that takes one order or a row file of them (`invoices attach --file`,
 * `orders ship --file`): the flags of `rowFileFlags` (flags/bulk-file.ts) handed to the service, the notices its
 * events carry said on stderr during the run, and exit 3 when some rows failed. The command says which service
 * runs the file and how its summary is shown.
 */

/** The flags of `rowFileFlags`, as parsed. */
export interface RowFileFlags extends BulkFileFlags {
  report?: string;
  'dry-run'?: boolean;
  resume?: boolean;
  'skip-invalid'?: boolean;
}

/** What a row file's service gets (its options extend bulk/row-job.ts's RowFileJobOptions). */
export type RowFileRunOptions<Event> = Omit<BulkRun, 'client' | 'file' | 'log'> & {
  dryRun?: boolean;
  resume?: boolean;
  report?: string;
  skipInvalid?: boolean;
  onEvent(event: Event): void;
};

export interface RowFileCommand<S extends BulkRunSummary & { failed: unknown[] }, Event> {
  /** The progress view's label ("attach"). */
  label: string;
  run(client: StoreClient, path: string, options: RowFileRunOptions<Event>): Promise<S>;
  /** The sentence an event says on stderr during the run (which orders were given by number), if any. */
  notice(event: Event): string | undefined;
  show(summary: S): Promise<void>;
}

/** The BulkSpec of the --file branch, for BulkCommand's runBulk. */
export function rowFileSpec<S extends BulkRunSummary & { failed: unknown[] }, Event>(file: string, flags: RowFileFlags, command: RowFileCommand<S, Event>): BulkSpec<S> {
  const { report } = flags;
  return {
    file,
    flag: '--file',
    label: command.label,
    unit: 'rows',
    quiet: false,
    report,
    fileFlags: flags,
    interruptedHint: 'Interrupted; the rows done are journaled. Run the same command with --resume to finish.',
    run: ({ client, file: path, log, ...run }) =>
      command.run(client, path, {
        ...run,
        dryRun: flags['dry-run'],
        resume: flags.resume,
        report,
        skipInvalid: flags['skip-invalid'],
        onEvent: (event) => {
          const notice = command.notice(event);
          if (notice !== undefined) log(terminalSafe(notice));
        },
      }),
    show: (summary) => command.show(summary),
    // Some rows failed: exit 3, not an error.
    failed: (summary) => summary.failed.length > 0,
  };
}
