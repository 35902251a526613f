/**
 * When the HTTP core repeats an attempt, and after how long (docs/architecture.md "A request's path"): transient
 * statuses and network errors for idempotent methods, a POST only when it provably never left this machine,
 * exponential backoff with jitter, and 429s handed to the rate scheduler instead of counted as failures.
 */
import type { RequestError } from 'got';
import type { ResponseHeaders } from './scheduler.js';

/** Statuses worth repeating for idempotent methods. */
export const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** The request never left this machine: safe to repeat even a POST. */
const CONNECT_ERROR_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
export const NETWORK_ERROR_CODES = new Set([...CONNECT_ERROR_CODES, 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);
/** Timeout phases that end before any byte of the request is written. */
const CONNECT_TIMEOUT_EVENTS = new Set(['lookup', 'connect', 'secureConnect']);
/** 429s are normally absorbed by the scheduler; this only stops a server that refuses for ever. */
export const MAX_RATE_LIMITED_ATTEMPTS = 20;
const MAX_RETRY_DELAY_MS = 30_000;

/** The life of one logical request across its attempts (shared with got's hooks through `context`). */
export interface RequestState {
  ticket?: number;
  /** Retries for transient failures (429s not included). */
  retries: number;
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
}

export interface RetryPolicy {
  /** Retries of transient failures per request. */
  maxRetries: number;
  /** First retry delay, doubled at each retry. */
  retryBaseMs: number;
}

export function newRequestState(): RequestState {
  return { retries: 0, rateLimited: 0, awaitingOutcome: false, nextDelayMs: 0, attempts: 0, startedAt: Date.now(), lostReplies: 0 };
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

/** Milliseconds before the next attempt of the request that failed with `error`; 0 means do not retry. */
export function retryDelay(state: RequestState, error: RequestError, retryAfterMs: number | undefined, policy: RetryPolicy): number {
  const status = error.response?.statusCode;
  if (state.refusedWait !== undefined) return 0;
  if (status === 429) return state.rateLimited < MAX_RATE_LIMITED_ATTEMPTS ? 1 : 0; // the scheduler holds it
  if (state.retries >= policy.maxRetries) return 0;
  const method = error.options.method.toUpperCase();
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
