/**
 * The worker pool of the bulk commands: several requests in flight, so the client's rate scheduler, not
 * latency, sets the pace. Items stop being started when the run is interrupted (Ctrl-C: the signal is
 * aborted) or when one fails with an error that fails every item alike (a rejected token).
 */

/** Import, sync: requests in flight at once. */
const DEFAULT_CONCURRENCY = 12;

/** Thrown by `checkAbort` inside a worker: the run stops after the requests in flight. */
export class Interrupted extends Error {}

export function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Interrupted();
}

/**
 * Runs `work` over the items with at most `limit` at once. The first error stops new items from starting;
 * the ones already running finish, then it is thrown.
 */
export async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}

/**
 * `pool` for work that calls `checkAbort` where it may stop (before each request, say). Resolves to whether
 * the run was interrupted; any other error is thrown once the items in flight are done.
 */
export async function runPool<T>(
  items: T[],
  options: { concurrency?: number },
  work: (item: T) => Promise<void>,
): Promise<{ interrupted: boolean }> {
  try {
    await pool(items, options.concurrency ?? DEFAULT_CONCURRENCY, work);
    return { interrupted: false };
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
    return { interrupted: true };
  }
}
