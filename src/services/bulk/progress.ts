import type { StoreClient } from '../../client/index.js';

/** What a bulk service reports as it goes; the command decides how to show it. */
export interface BulkProgress {
  /** 'reading' (the file), 'fetching' (the store), 'writing'. */
  phase: string;
  /** Items (fetching: products loaded; writing: products, variants or rows finished). */
  done: number;
  total?: number;
  writesDone: number;
  writesTotal: number;
  requests: number;
  rateLimited: number;
}

export type ProgressStep<P extends BulkProgress = BulkProgress> = Omit<P, 'requests' | 'rateLimited'>;

/** Sends `onProgress` each step with the client's request counts so far. */
export function progressEmitter<P extends BulkProgress>(client: StoreClient, onProgress: ((event: P) => void) | undefined): (step: ProgressStep<P>) => void {
  return (step) => {
    if (!onProgress) return;
    const stats = client.stats();
    onProgress({ ...step, requests: stats.requests, rateLimited: stats.rateLimited } as P);
  };
}
