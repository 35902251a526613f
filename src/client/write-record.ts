/**
 * The ledger's side of a write request (docs/ledger.md): what the HTTP core needs of the record of the changes a
 * request makes, and how a request that did not end in a 2xx settles it.
 */
import { HTTPError, RequestError } from 'got';
import { replyLost, type RequestState } from './retry.js';

/** How the ledger records a write's end (src/ledger/types.ts Outcome, less `intended`). */
export type WriteOutcome = 'confirmed' | 'failed' | 'unknown';

/**
 * The run ledger's record of the changes one write makes (src/ledger/recorder.ts PendingWrite, docs/ledger.md):
 * intended before the request is sent, settled here when it ends: `confirmed` on a 2xx (unless its caller reads
 * the reply and settles each change), `failed` when the store refused it or it never left this machine,
 * `unknown` when the reply was lost (a timeout or reset after sending, a 5xx).
 */
export interface WriteRecord {
  /** Resolved once the changes are on the ledger (written by another thread); the request waits for it. */
  readonly ready?: PromiseLike<void>;
  /** The caller reads the reply and settles each change (a batch answered per record); the core settles only a failure. */
  readonly settledByCaller?: boolean;
  settle(outcome: WriteOutcome, reason?: string): void;
}

/**
 * How a write that did not end in a 2xx ended, for the ledger: refused by the store (a 4xx), or never sent
 * (a connect error), is `failed`; a 5xx, or any attempt whose reply was lost, leaves it `unknown` (the store may
 * have applied it).
 */
export function writeOutcome(error: unknown, state: RequestState): WriteOutcome {
  if (state.lostReplies > 0) return 'unknown';
  if (error instanceof HTTPError) return error.response.statusCode >= 500 ? 'unknown' : 'failed';
  if (error instanceof RequestError) return replyLost(error) ? 'unknown' : 'failed';
  return 'unknown';
}

