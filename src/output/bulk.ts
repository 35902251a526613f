import type { StoreContext } from '../auth/context.js';
import type { Clock } from '../platform/clock.js';
import { schedulerFor } from '../client/index.js';
import { io, type OutputStream } from './io.js';
import { ProgressView } from './progress.js';

/**
 * The progress view of a batch (products import, variants sync, invoices attach --file, orders export), wired to
 * stderr and to the store's rate scheduler. It lives with the output code, not in src/services, because it prints:
 * the services only emit events and return data. The summaries are views (src/views/bulk.ts); the heap setting
 * and Ctrl-C handling are the command kit's (src/cli/heap.ts, src/cli/signals.ts).
 */

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
