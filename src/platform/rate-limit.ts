/**
 * The platform's request rate (docs/api-rules.md "Limits"): one leaky bucket per (store, app) that leaks at a steady rate, and the
 * headers that report it on every answer. The sandbox enforces it (sandbox/bucket.ts); the client paces itself
 * by the headers (client/scheduler.ts), assuming the standard rate until they say otherwise.
 */

export interface RateConfig {
  capacity: number;
  leakPerSecond: number;
}

export const STANDARD_RATE: RateConfig = { capacity: 40, leakPerSecond: 2 };
/** Plans `next` and `evolution` get the rate multiplied by 10 (see plans.ts). */
export const HIGH_PLAN_RATE: RateConfig = { capacity: STANDARD_RATE.capacity * 10, leakPerSecond: STANDARD_RATE.leakPerSecond * 10 };

/** The bucket's capacity, the requests left before it is full, and the ms until it is empty. */
export const RATE_LIMIT_HEADERS = {
  limit: 'x-rate-limit-limit',
  remaining: 'x-rate-limit-remaining',
  reset: 'x-rate-limit-reset',
} as const;
