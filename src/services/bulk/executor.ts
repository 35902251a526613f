import { runPool } from './pool.js';

/**
 * The shared executor of the bulk commands: the items of a plan (a product's steps, a variant's write, an
 * order's invoices) through the worker pool, each item's result kept in plan order. An item that was not
 * started, because the run was interrupted first, has no result.
 */
export async function executeItems<T, R>(
  items: T[],
  options: { concurrency?: number },
  work: (item: T) => Promise<R>,
): Promise<{ results: R[]; interrupted: boolean }> {
  const results: { done: boolean; result?: R }[] = items.map(() => ({ done: false }));
  const { interrupted } = await runPool(
    items.map((item, i) => ({ item, i })),
    options,
    async ({ item, i }) => {
      results[i] = { done: true, result: await work(item) };
    },
  );
  return { results: results.filter((r) => r.done).map((r) => r.result as R), interrupted };
}
