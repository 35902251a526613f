/**
 * When the HTTP core repeats an attempt, and after how long (docs/architecture.md "A request's path"): the one retry
 * policy of every command. Two budgets:
 * - a store that could not be reached (connection refused or reset, unknown host): UNREACHABLE_RETRIES retries,
 *   1 s, 2 s, 4 s apart, each announced with its cause, the same for every command: a dead store says so within
 *   seconds instead of looking like a busy one;
 * - a store that answered a transient status (408, 5xx) or did not answer in time: `maxRetries` (3, or
 *   BULK_RETRIES for the bulk commands, which should outlast a flaky hour), exponential backoff with jitter.
 * A POST is repeated only when it provably never left this machine; 429s are handed to the rate scheduler
 * instead of counted as failures.
 */
import type { RequestError } from 'got';
import { networkReason } from './errors.js';
import type { ResponseHeaders } from './scheduler.js';

/** Statuses worth repeating for idempotent methods. */
export const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** The request never left this machine: safe to repeat even a POST. */
const CONNECT_ERROR_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
export const NETWORK_ERROR_CODES = new Set([...CONNECT_ERROR_CODES, 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);
/** Timeout phases that end before any byte of the request is written. */
const CONNECT_TIMEOUT_EVENTS = new Set(['lookup', 'connect', 'secureConnect']);
/** Retries of a request that could not reach the store, for every command; the first waits UNREACHABLE_BASE_MS, then doubling. */
export const UNREACHABLE_RETRIES = 3;
const UNREACHABLE_BASE_MS = 1000;
/** Failures that say the store was not reached at all, or the connection to it broke: nothing answered. */
const UNREACHABLE_CODES = new Set([...CONNECT_ERROR_CODES, 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);
/** Retries of transient failures (408, 5xx, no answer in time) for the bulk commands; the others have 3. */
export const BULK_RETRIES = 8;
/** 429s are normally absorbed by the scheduler; this only stops a server that refuses for ever. */
export const MAX_RATE_LIMITED_ATTEMPTS = 20;
const MAX_RETRY_DELAY_MS = 30_000;

/** The life of one logical request across its attempts (shared with got's hooks through `context`). */
export interface RequestState {
  ticket?: number;
  /** Retries for transient failures (429s and unreachable stores not included). */
  retries: number;
  /** Retries because the store could not be reached. */
  unreachable: number;
  rateLimited: number;
  /** An attempt was sent and the scheduler has not yet heard how it ended. */
  awaitingOutcome: boolean;
  nextDelayMs: number;
  /** Attempts sent, and when the first one was queued: what a timeout message reports. */
  attempts: number;
  startedAt: number;
  /** A Retry-After longer than the CLI waits (seconds): the request ends with it instead of waiting. */
  refusedWait?: number;
  /**
   * Attempts that may have reached the store and whose reply was lost (a timeout or reset after connecting):
   * a write that then fails is not known to have failed (the ledger's "unknown").
   */
  lostReplies: number;
  /**
   * A 429 ends the request instead of waiting its turn: the caller sends a smaller batch (a variant write's weighted
   * limit, docs/platform.md §12: the remedy is fewer variants per request, not only a longer wait).
   */
  halveOn429?: boolean;
}

/** What one request may ask of the retry policy (RequestOptions of client/index.ts). */
export interface RetryOptions {
  /** A 429 is not waited out but thrown (RateLimitError): the caller halves its batch (RequestState.halveOn429). */
  halveOn429?: boolean;
}

export interface RetryPolicy {
  /** Retries of transient failures per request. */
  maxRetries: number;
  /** First retry delay, doubled at each retry. */
  retryBaseMs: number;
  /** First retry delay of an unreachable store (UNREACHABLE_BASE_MS; tests shorten it). */
  unreachableBaseMs?: number;
}

export function newRequestState(): RequestState {
  return { retries: 0, unreachable: 0, rateLimited: 0, awaitingOutcome: false, nextDelayMs: 0, attempts: 0, startedAt: Date.now(), lostReplies: 0 };
}

/**
 * Retry-After as seconds (a number or an HTTP date), never negative (a negative value or a past date is 0);
 * undefined when absent or unreadable (a word, an empty value), so that it is ignored.
 */
export function retryAfterSeconds(headers: ResponseHeaders): number | undefined {
  const raw = headers['retry-after'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (value === undefined || value === '') return undefined;
  const seconds = Number(value);
  if (!Number.isNaN(seconds)) return Number.isFinite(seconds) ? Math.max(0, seconds) : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

/** An attempt that failed with no reply after it may have reached the store (not a connect error). */
export function replyLost(error: RequestError): boolean {
  return error.response === undefined && !isConnectError(error);
}

function isConnectError(error: RequestError): boolean {
  if (error.name === 'TimeoutError') return CONNECT_TIMEOUT_EVENTS.has((error as RequestError & { event?: string }).event ?? '');
  return CONNECT_ERROR_CODES.has(error.code);
}

/** The store was not reached, or the connection broke before it answered (no status: not a slow or busy store). */
export function isUnreachable(error: RequestError): boolean {
  if (error.response) return false;
  return error.name === 'TimeoutError' ? isConnectError(error) : UNREACHABLE_CODES.has(error.code);
}

/** Milliseconds before the next attempt of the request that failed with `error`; 0 means do not retry. */
export function retryDelay(state: RequestState, error: RequestError, retryAfterMs: number | undefined, policy: RetryPolicy): number {
  const status = error.response?.statusCode;
  if (state.refusedWait !== undefined) return 0;
  if (status === 429) return !state.halveOn429 && state.rateLimited < MAX_RATE_LIMITED_ATTEMPTS ? 1 : 0; // the scheduler holds it
  const method = error.options.method.toUpperCase();
  if (isUnreachable(error)) {
    if (state.unreachable >= UNREACHABLE_RETRIES || (method === 'POST' && !isConnectError(error))) return 0;
    return (policy.unreachableBaseMs ?? UNREACHABLE_BASE_MS) * 2 ** state.unreachable;
  }
  if (state.retries >= policy.maxRetries) return 0;
  if (status !== undefined) {
    if (method === 'POST' || !RETRY_STATUSES.has(status)) return 0;
  } else if (method === 'POST' ? !isConnectError(error) : !NETWORK_ERROR_CODES.has(error.code)) {
    return 0;
  }
  // Exponential backoff with jitter, so clients that failed together do not retry together.
  const backoff = policy.retryBaseMs * 2 ** state.retries * (0.5 + Math.random() / 2);
  // got reads Retry-After itself: a negative or unreadable one (NaN) counts for nothing.
  const asked = retryAfterMs !== undefined && Number.isFinite(retryAfterMs) ? retryAfterMs : 0;
  return Math.round(Math.min(MAX_RETRY_DELAY_MS, Math.max(backoff, asked, 1)));
}

/** Counts a retry that is about to happen in the budget it draws from. */
export function countRetry(state: RequestState, error: RequestError): void {
  if (error.response?.statusCode === 429) return; // counted as it arrived: the scheduler's budget, not a failure
  if (isUnreachable(error)) state.unreachable += 1;
  else state.retries += 1;
}

/**
 * The line a retry's wait is announced with (the command prints it on stderr): the cause, the wait, and which
 * retry of how many. "Could not reach 127.0.0.1:9 (connection refused); retrying in 2 s (2/3)".
 */
export function retryNotice(state: RequestState, error: RequestError, delayMs: number, policy: RetryPolicy): string {
  const seconds = Math.max(1, Math.round(delayMs / 1000));
  if (isUnreachable(error)) {
    const host = hostOf(String(error.options.url));
    return `Could not reach ${host} (${networkReason(error.code, error.message)}); retrying in ${seconds} s (${state.unreachable + 1}/${UNREACHABLE_RETRIES})`;
  }
  const status = error.response?.statusCode;
  const cause = status ? `The store answered ${status}` : `No answer from ${hostOf(String(error.options.url))} in time`;
  return `${cause}; retrying in ${seconds} s (${state.retries + 1}/${policy.maxRetries}) — Ctrl-C to stop`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
