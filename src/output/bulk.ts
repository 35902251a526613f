import { setFlagsFromString } from 'node:v8';
import type { StoreContext } from '../auth/context.js';
import type { Clock } from '../platform/clock.js';
import { schedulerFor } from '../client/index.js';
import { SIGNAL_EXIT_CODES, type StopSignal } from '../util/process.js';
import { io, type OutputStream } from './io.js';
import { ProgressView } from './progress.js';

/**
 * What the bulk commands (products import, variants sync, invoices attach --file) share on the terminal side:
 * the progress view wired to stderr and to the store's rate scheduler, Ctrl-C handling and the heap setting.
 * It lives with the output code, not in src/services, because it prints: the services only emit events and
 * return data. The summaries are views (src/views/bulk.ts); the commands use both through BulkCommand.
 */

/**
 * Lets V8 grow the heap by half of what survives a collection instead of its default of up to 4×. A bulk
 * command holds the whole file and the store's catalog at once while it makes much short-lived garbage
 * (every list page parsed, checked and copied), so by default its resident memory climbs to about 2.5× what
 * it uses: 100,000 variants peaked near 400 MB and plan in about 290 MB with this, for a few more collections
 * (docs/benchmarks.md). Process-wide; harmless for a process that runs one command and exits.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=50');
}

/** Retries of idempotent requests for the bulk commands (the interactive default is 3). */
export const BULK_RETRIES = 8;

export async function bulkProgress(
  ctx: Pick<StoreContext, 'apiUrl' | 'storeId' | 'appId'>,
  label: string,
  quiet: boolean,
  stream: OutputStream = io().stderr,
  unit = 'products',
  /** The clock the command's client was made with (BaseCommand's factory), so that this is its bucket. */
  clock?: Clock,
): Promise<ProgressView> {
  const scheduler = schedulerFor(ctx.apiUrl, ctx.storeId, ctx.appId, clock);
  const tty = Boolean(stream.isTTY);
  const SingleBar = tty && !quiet ? (await import('cli-progress')).default.SingleBar : undefined;
  return new ProgressView({ stream, tty, quiet, label, unit, bucket: () => scheduler.snapshot(), SingleBar });
}


/**
 * While writing, the first Ctrl-C or SIGTERM asks the running work to stop after its current requests (the
 * journal is fsync'd after every write); a second one exits at once. Before anything is written (reading
 * the file, fetching the store: `writing()` is false) there is nothing to finish, so the process exits at
 * once. Either way the exit code says which signal: 130 for SIGINT, 143 for SIGTERM (`received`).
 */
export function trapInterrupt(writing: () => boolean = () => true): {
  signal: AbortSignal;
  received(): StopSignal | undefined;
  exitCode(): number;
  dispose(): void;
} {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  const onSignal = (name: StopSignal) => {
    const first = received === undefined;
    received ??= name;
    if (!first || !writing()) process.exit(SIGNAL_EXIT_CODES[received]);
    io().stderr.write(`\nStopping after the requests in flight (${name === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit at once)…\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    received: () => received,
    exitCode: () => SIGNAL_EXIT_CODES[received ?? 'SIGINT'],
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
