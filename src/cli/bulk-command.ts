import type { Command } from '@oclif/core';
import { BaseCommand } from './base-command.js';
import { terminalSafe } from '../output/format.js';
import type { StoreClient } from '../client/index.js';
import type { Recorder } from '../ledger/recorder.js';
import type { BulkTarget } from '../services/bulk/lock.js';
import type { BulkProgress } from '../services/bulk/progress.js';
import type { BulkRunSummary } from '../services/bulk/summary.js';
import type { ColumnMapping } from '../services/bulk/column-map.js';
import type { EncodingChoice } from '../services/bulk/encoding.js';
import type { FeedHost, FeedSpec, UnchangedFeed } from './bulk-feed.js';

export type { UnchangedFeed } from './bulk-feed.js';

/** What a bulk command's service call gets from the scaffolding around it. */
export interface BulkRun extends BulkTarget {
  /** The file to read: the one given, or a private copy of standard input or a pipe. */
  file: string;
  client: StoreClient;
  /** The run ledger's recorder: the job's writes are intended on it, request by request (docs/ledger.md). */
  recorder: Recorder;
  /** Aborted by the first Ctrl-C or SIGTERM while writing: stop after the requests in flight. */
  signal: AbortSignal;
  onProgress(event: BulkProgress): void;
  /** Says one line on stderr during the run, clear of the progress bar. */
  log(line: string): void;
  /** How the file is read (`--encoding`, `--map`, `--map-file`), for the service's reader. */
  encoding?: EncodingChoice;
  map?: ColumnMapping[];
  /** Hears what the reader says once (the encoding, rows and columns skipped): said on stderr unless --quiet. */
  onNotice(notice: string): void;
}

/** The flags of `bulkFileFlags` (flags/bulk-file.ts), as parsed. */
export interface BulkFileFlags {
  encoding?: string;
  map?: string;
  'map-file'?: string;
}

export interface BulkSpec<S extends BulkRunSummary> {
  /** The file as the user gave it ("-" for standard input), and the flag that named it, if any. */
  file: string;
  flag?: string;
  /** The progress view's label ("import") and what its bar counts ("products"). */
  label: string;
  unit?: string;
  quiet: boolean;
  /** `--report FILE`, named when the invalid rows are too many to list. */
  report?: string;
  /** What an interrupted run prints on stderr (how to finish the work). */
  interruptedHint: string;
  /** `--encoding`, `--map` and `--map-file`, when the command takes them. */
  fileFlags?: BulkFileFlags;
  /**
   * When the command reads a feed at a URL: its flags, which reader it is ("import", "sync": each keeps its own
   * validators) and the flags that change what a run writes (another --only is another feed's state).
   */
  feed?: FeedSpec;
  /** A dry run (`--dry-run`, `--plan-out`): a feed's validators are kept only after a run that wrote. */
  dryRun?: boolean;
  run(run: BulkRun): Promise<S>;
  /**
   * Prints the summary (the command knows its flags: --quiet, --json). It may throw the error the run ends
   * with, except when the run was interrupted (the exit code then names the signal).
   */
  show(summary: S): void | Promise<void>;
  /** Whether some rows failed: exit 3. */
  failed(summary: S): boolean;
}

/** Rows of an invalid file listed on stderr; the rest are counted (and all in --report). */
const ROW_ERRORS_SHOWN = 200;

/**
 * The scaffolding every bulk command (products import, variants sync, invoices attach --file) shares, so each
 * is flags and a short run(): the file made readable more than once (standard input copied), the heap setting,
 * the client with the bulk retries, the progress view, Ctrl-C and SIGTERM (stop after the requests in flight;
 * exit 130 or 143), the invalid rows listed, and exit 3 when some rows failed.
 */
export abstract class BulkCommand<T extends typeof Command> extends BaseCommand<T> {
  /** The running batch's progress view, while there is one: notes go through it, clear of its bar. */
  private progressLog?: (line: string) => void;

  protected override noteWait(line: string): void {
    if (this.progressLog) this.progressLog(line);
    else super.noteWait(line);
  }

  /** A command that takes a feed URL (`feed`) may end with an unchanged feed; any other ends with its summary. */
  protected async runBulk<S extends BulkRunSummary>(spec: BulkSpec<S> & { feed: NonNullable<BulkSpec<S>['feed']> }): Promise<S | UnchangedFeed>;
  protected async runBulk<S extends BulkRunSummary>(spec: BulkSpec<S>): Promise<S>;
  protected async runBulk<S extends BulkRunSummary>(spec: BulkSpec<S>): Promise<S | UnchangedFeed> {
    // A --report that cannot be written is said before any work, not after it (when the summary would be lost).
    if (spec.report) {
      const { CannotWriteError, checkWritable } = await import('../util/atomic-file.js');
      const { UsageError } = await import('../errors.js');
      await checkWritable(spec.report).catch((error: unknown) => {
        throw error instanceof CannotWriteError ? new UsageError(`--report: ${error.message}`) : error;
      });
    }
    const reading = await this.fileReading(spec.fileFlags);
    if (spec.feed) {
      const { isFeedUrl } = await import('../client/download.js');
      if (isFeedUrl(spec.file)) {
        const { runFeed } = await import('./bulk-feed.js');
        return runFeed(this.feedHost(), spec, spec.feed, (path) => this.runOn(path, spec, reading));
      }
      const given = spec.feed.flags.header?.length ? '--header' : spec.feed.flags.refetch ? '--refetch' : undefined;
      if (given) throw new (await import('../errors.js')).UsageError(`${given} is for a feed at a URL (https://…); ${spec.file} is a file.`);
    }
    const { seekableInput } = await import('../services/common/input-file.js');
    const input = await seekableInput(spec.file, spec.flag);
    try {
      return await this.runOn(input.path, spec, reading);
    } finally {
      await input.dispose();
    }
  }

  /** What `runFeed` needs of the command: its profile and streams, never a store client. */
  private feedHost(): FeedHost {
    return { context: () => this.context(), stderr: this.io.stderr, warn: (message) => this.warnUser(message) };
  }

  /** `--encoding`, `--map` and `--map-file`, checked before any work (a map file that cannot be read is exit 2). */
  private async fileReading(flags: BulkFileFlags | undefined): Promise<{ encoding?: EncodingChoice; map?: ColumnMapping[] }> {
    if (!flags) return {};
    const { parseMapFlag, readMapFile } = await import('../services/bulk/column-map.js');
    const map = [...(flags['map-file'] ? await readMapFile(flags['map-file']) : []), ...(flags.map !== undefined ? parseMapFlag(flags.map) : [])];
    return { encoding: flags.encoding as EncodingChoice | undefined, map: map.length > 0 ? map : undefined };
  }

  private async runOn<S extends BulkRunSummary>(file: string, spec: BulkSpec<S>, reading: { encoding?: EncodingChoice; map?: ColumnMapping[] }): Promise<S> {
    const ctx = await this.context();
    const { bulkProgress } = await import('../output/bulk.js');
    const { BULK_RETRIES } = await import('../client/retry.js');
    const { limitHeapGrowth } = await import('./heap.js');
    const { stoppingAfterRequests, trapInterrupt } = await import('./signals.js');
    limitHeapGrowth();
    const client = await this.client({ retries: BULK_RETRIES });
    const progress = await bulkProgress(ctx, spec.label, spec.quiet, this.io.stderr, spec.unit, this.factory.clock);
    this.progressLog = (line) => progress.log(line);
    let writing = false;
    // The notice of a stop goes below the bar, which is then drawn no more (no fragments in the summary).
    const interrupt = trapInterrupt(
      () => writing,
      (signal) => {
        progress.stop();
        progress.log(stoppingAfterRequests(signal).trim());
        return undefined;
      },
    );
    let summary: S;
    try {
      summary = await spec.run({
        file,
        client,
        recorder: await this.recorder(),
        apiUrl: ctx.apiUrl,
        storeId: ctx.storeId,
        appId: ctx.appId,
        signal: interrupt.signal,
        onProgress: (event) => {
          writing ||= event.phase === 'writing';
          progress.update(event);
        },
        log: (line) => progress.log(line),
        ...reading,
        onNotice: (notice) => {
          if (!spec.quiet) progress.log(terminalSafe(notice));
        },
      });
    } catch (error) {
      progress.stop();
      await this.listRowErrors(error, spec.report);
      await this.listStopped(error, spec);
      throw error;
    } finally {
      interrupt.dispose();
      this.progressLog = undefined;
    }
    progress.stop();
    await spec.show(summary);
    if (summary.reportProblem) {
      // Written last, once the run is done (its journal says so): only the report is missing, nothing is left to resume.
      this.io.stderr.write(`Error: ${summary.reportProblem.replace(/\.$/, '')}; the run itself finished, only the report is missing.\n`);
    }
    if (summary.interrupted) {
      this.io.stderr.write(`${spec.interruptedHint}\n`);
      process.exitCode = interrupt.exitCode();
    } else if (spec.failed(summary)) {
      process.exitCode = 3;
    } else if (summary.reportProblem) {
      process.exitCode = 1;
    }
    return summary;
  }

  /** After a dry run with `--plan-out FILE`: where the plan is and how to write it. */
  protected notePlanOut(quiet: boolean): void {
    const file = (this.flags as { 'plan-out'?: string })['plan-out'];
    if (file && !quiet) this.io.stderr.write(`Plan written to ${file}; nothing was sent. \`store apply ${file}\` writes exactly it.\n`);
  }

  /**
   * The brakes' defaults of the profile (`store config set max-changes 5%`, docs/ledger.md); a flag given wins.
   */
  protected async profileBrakes(): Promise<Partial<Record<string, string>>> {
    const { profileSettings } = await import('../auth/config.js');
    const ctx = await this.context();
    return profileSettings(ctx.profile);
  }

  /**
   * A run stopped before its first write (exit 5): a brake's summary is the plan's (printed as the run's would
   * be) and the records that tripped each brake; a stale plan, each record the store changed since.
   */
  private async listStopped<S extends BulkRunSummary>(error: unknown, spec: BulkSpec<S>): Promise<void> {
    const { StoppedBeforeWriting } = await import('../errors.js');
    if (!(error instanceof StoppedBeforeWriting)) return;
    const { brakeLines, staleLines } = await import('../output/stopped-run.js');
    const detail = error.detail as { summary?: S; tripped?: Parameters<typeof brakeLines>[0]; stale?: Parameters<typeof staleLines>[0] } | undefined;
    if (detail?.summary) await spec.show(detail.summary);
    const lines = detail?.tripped ? brakeLines(detail.tripped) : detail?.stale ? staleLines(detail.stale) : [];
    for (const line of lines) this.io.stderr.write(`${line}\n`);
  }

  private async listRowErrors(error: unknown, report: string | undefined): Promise<void> {
    const { FileInvalidError, formatRowError } = await import('../services/bulk/row-error.js');
    if (!(error instanceof FileInvalidError)) return;
    const shown = error.errors.slice(0, ROW_ERRORS_SHOWN);
    for (const e of shown) this.io.stderr.write(`${formatRowError(e)}\n`);
    const reported = report && !error.reportProblem;
    if (error.errors.length > shown.length) {
      this.io.stderr.write(`… and ${error.errors.length - shown.length} more${reported ? ` (all in ${report})` : report ? '' : '; --report FILE lists them all'}.\n`);
    }
    // The rows above and the exit code (2) stand; the report that could not be written is one more line.
    if (error.reportProblem) this.io.stderr.write(`${error.reportProblem}\n`);
  }
}
