import type { StoreContext } from '../auth/context.js';
import type { BulkRunSummary } from '../services/bulk/summary.js';

/**
 * A bulk file given as a URL (`products import URL`, `variants sync URL`; docs/csv.md "Feeds at a URL"): checked,
 * downloaded with a conditional GET into a private directory removed on every exit (a signal during the download
 * too), then run through the same file pipeline as a local file. A feed that has not changed since its last
 * clean run is said on stderr and ends there, exit 0: no store client is made, no lock taken, nothing sent.
 * The validators are kept only after a run that wrote and finished with nothing failed, so a failed run, an
 * interrupted one or a dry run downloads the feed again next time.
 */

/** `--header` and `--refetch` (flags/bulk-file.ts `feedFlags`), as parsed. */
export interface BulkFeedFlags {
  header?: string[];
  refetch?: boolean;
}

/** What a run of a feed at a URL that has not changed since its last clean run answers: nothing was sent. */
export interface UnchangedFeed {
  feed: string;
  unchanged: true;
  /** When the last clean run of it finished. */
  since: string;
  requests: 0;
}

/** A command's feed: its flags, which reader it is ("import", "sync": each keeps its own validators), and the flags that change what a run writes. */
export interface FeedSpec {
  flags: BulkFeedFlags;
  reader: string;
  settings: Record<string, unknown>;
}

/** What of the bulk command's spec the feed needs. */
interface FeedRun<S extends BulkRunSummary> {
  file: string;
  quiet: boolean;
  dryRun?: boolean;
  failed(summary: S): boolean;
}

export interface FeedHost {
  context(): Promise<StoreContext>;
  stderr: NodeJS.WritableStream;
  warn(message: string): void;
}

export async function runFeed<S extends BulkRunSummary>(
  host: FeedHost,
  spec: FeedRun<S>,
  feed: FeedSpec,
  runFile: (path: string) => Promise<S>,
): Promise<S | UnchangedFeed> {
  const { checkFeedUrl, parseHeaders } = await import('../client/download.js');
  const { addSecret } = await import('../output/secrets.js');
  // Everything about the URL and the headers is checked before anything is downloaded.
  checkFeedUrl(spec.file);
  const headers = parseHeaders(feed.flags.header ?? []);
  for (const value of Object.values(headers)) addSecret(value);
  const ctx = await host.context();
  // Removed on every exit: an error, process.exit (a second Ctrl-C), a stop signal during the download.
  const { privateTempDir } = await import('../services/common/input-file.js');
  const { dir, dispose } = await privateTempDir('store-feed-');
  try {
    const fetched = await downloadFeed(spec, feed, headers, ctx, dir);
    if (fetched.status === 'unchanged') {
      if (!spec.quiet) {
        host.stderr.write(`${fetched.url} has not changed since the last clean run (${fetched.since}); nothing was sent to the store. --refetch runs it anyway.\n`);
      }
      return { feed: fetched.url, unchanged: true, since: fetched.since, requests: 0 };
    }
    if (!spec.quiet) {
      const { formatBytes } = await import('../client/errors.js');
      host.stderr.write(`Downloaded ${fetched.url} (${formatBytes(fetched.bytes)}).\n`);
    }
    const summary = await runFile(fetched.path);
    const clean = !summary.interrupted && !summary.dryRun && !spec.dryRun && !spec.failed(summary) && !summary.reportProblem;
    if (clean) {
      await fetched.remember().catch((error: unknown) => {
        host.warn(`The feed's validators could not be kept (${(error as Error).message}); the next run downloads and runs it whole.`);
      });
    }
    return summary;
  } finally {
    await dispose();
  }
}

/** The download: Ctrl-C and SIGTERM end the command at once (exit 130 or 143), as before any write. */
async function downloadFeed<S extends BulkRunSummary>(
  spec: FeedRun<S>,
  feed: FeedSpec,
  headers: Record<string, string>,
  ctx: StoreContext,
  dir: string,
) {
  const { fetchFeed } = await import('../services/bulk/feed-source.js');
  const { trapInterrupt } = await import('./signals.js');
  const interrupt = trapInterrupt(() => false);
  try {
    return await fetchFeed({
      url: spec.file,
      headers,
      command: feed.reader,
      settings: JSON.stringify(feed.settings),
      profile: ctx.profile,
      apiUrl: ctx.apiUrl,
      storeId: ctx.storeId,
      dir,
      refetch: feed.flags.refetch,
    });
  } finally {
    interrupt.dispose();
  }
}
