import type { StoreClient } from '../../client/index.js';

/** What every bulk run reports, whatever it writes (the summary of import, sync and invoices attach). */
export interface BulkRunSummary {
  /** The file's name, as messages name it. */
  file: string;
  dryRun: boolean;
  /** Data rows read (the header not counted). */
  rows: number;
  /** Writes the plan holds (dry run) or held. */
  plannedWrites: number;
  requests: number;
  retries: number;
  rateLimited: number;
  seconds: number;
  /** Stopped by Ctrl-C or SIGTERM after the requests in flight. */
  interrupted: boolean;
  /** An interrupted run of the same file was found and not resumed (its work is in the store; this run plans around it). */
  earlierRunUnfinished: boolean;
  /** The run's journal, once it writes. */
  journal?: string;
  /** Why `--report` could not be written after the run (the run itself finished; its summary still stands). */
  reportProblem?: string;
}

/** Fills in the request counts and the time taken, from `started` (Date.now() when the run began). */
export function recordRequests(summary: BulkRunSummary, client: StoreClient, started: number): void {
  const stats = client.stats();
  summary.requests = stats.requests;
  summary.retries = stats.retries;
  summary.rateLimited = stats.rateLimited;
  summary.seconds = Math.round((Date.now() - started) / 100) / 10;
}
