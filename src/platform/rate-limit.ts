import { hasHighRate } from './plans.js';

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

/** The bucket of a store on `plan`: the plans with the high rate (plans.ts: next, evolution) get `base` ×10. */
export function planRate(plan: string, base: RateConfig = STANDARD_RATE): RateConfig {
  return hasHighRate(plan) ? { capacity: base.capacity * 10, leakPerSecond: base.leakPerSecond * 10 } : base;
}

export const HIGH_PLAN_RATE: RateConfig = planRate('next');

/** The bucket's capacity, the requests left before it is full, and the ms until it is empty. */
export const RATE_LIMIT_HEADERS = {
  limit: 'x-rate-limit-limit',
  remaining: 'x-rate-limit-remaining',
  reset: 'x-rate-limit-reset',
} as const;
