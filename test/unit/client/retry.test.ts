import type { RequestError } from 'got';
import { describe, expect, it } from 'vitest';
import { countRetry, newRequestState, retryDelay, retryNotice, UNREACHABLE_RETRIES, type RetryPolicy } from '../../../src/client/retry.js';

/** The one retry policy (issue 31, "A dead store says so"): an unreachable store has its own short budget; a 5xx keeps its patience. */

/** What got hands the policy: the code or the response, and the request's method and URL. */
function failure(fields: { code?: string; status?: number; method?: string; name?: string }): RequestError {
  return {
    name: fields.name ?? 'RequestError',
    code: fields.code ?? 'ERR_NON_2XX_3XX_RESPONSE',
    message: 'failed',
    options: { method: fields.method ?? 'GET', url: new URL('http://127.0.0.1:9/v1/1/orders') },
    response: fields.status ? { statusCode: fields.status, headers: {} } : undefined,
  } as unknown as RequestError;
}

/** Every delay the policy gives one request that keeps failing the same way, until it says stop. */
function delaysUntilGivenUp(error: RequestError, policy: RetryPolicy): number[] {
  const state = newRequestState();
  const delays: number[] = [];
  for (;;) {
    const delay = retryDelay(state, error, undefined, policy);
    if (delay === 0) return delays;
    delays.push(delay);
    countRetry(state, error);
  }
}

describe('retryDelay', () => {
  const bulk: RetryPolicy = { maxRetries: 8, retryBaseMs: 500 };

  it('a refused or reset connection is retried 3 times, 1 s, 2 s, 4 s apart, whatever the command\'s patience for 5xx', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND']) {
      expect(delaysUntilGivenUp(failure({ code }), bulk)).toEqual([1000, 2000, 4000]);
      expect(delaysUntilGivenUp(failure({ code }), { maxRetries: 3, retryBaseMs: 500 })).toEqual([1000, 2000, 4000]);
    }
    expect(UNREACHABLE_RETRIES).toBe(3);
  });

  it('a 503 keeps the command\'s patience: 8 retries for a bulk command, with backoff capped at 30 s', () => {
    const delays = delaysUntilGivenUp(failure({ status: 503 }), bulk);
    expect(delays).toHaveLength(8);
    expect(Math.max(...delays)).toBeLessThanOrEqual(30_000);
  });

  it('a POST is retried when refused (it never left) but not when reset (it may have arrived)', () => {
    expect(delaysUntilGivenUp(failure({ code: 'ECONNREFUSED', method: 'POST' }), bulk)).toHaveLength(3);
    expect(delaysUntilGivenUp(failure({ code: 'ECONNRESET', method: 'POST' }), bulk)).toEqual([]);
  });
});

describe('retryNotice', () => {
  it('names the host, the cause, the wait and which retry of how many', () => {
    const state = newRequestState();
    state.unreachable = 1;
    expect(retryNotice(state, failure({ code: 'ECONNREFUSED' }), 2000, { maxRetries: 8, retryBaseMs: 500 })).toBe(
      'Could not reach 127.0.0.1:9 (connection refused); retrying in 2 s (2/3)',
    );
    expect(retryNotice(newRequestState(), failure({ status: 503 }), 8000, { maxRetries: 8, retryBaseMs: 500 })).toBe(
      'The store answered 503; retrying in 8 s (1/8) — Ctrl-C to stop',
    );
  });
});
