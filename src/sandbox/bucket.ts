import type { Clock } from '../platform/clock.js';
import { RATE_LIMIT_HEADERS, type RateConfig } from '../platform/rate-limit.js';

/**
 * The platform's leaky bucket (docs/api-rules.md "Limits" and §5.5), as a pure module on an injectable clock.
 * Each accepted request adds 1 to the level; the level drains at `leakPerSecond`.
 * A request that would overflow is refused and does not fill the bucket.
 */
export type BucketConfig = RateConfig;

export interface BucketDecision {
  allowed: boolean;
  /** x-rate-limit-limit */
  limit: number;
  /** x-rate-limit-remaining: floor(capacity − level) after this request */
  remaining: number;
  /** x-rate-limit-reset: ms until the bucket is empty */
  resetMs: number;
  /** Retry-After in seconds (only when refused): until one slot frees, rounded up, at least 1 */
  retryAfterSeconds?: number;
}

/**
 * The level is kept in integer units so the headers are exact for any capacity and rate: one request is
 * `perRequest` units and one millisecond drains `perMs` units, where `leakPerSecond = perMs × 1000 / perRequest`.
 * (In floating-point requests, 483 requests at 15/s would read as 32200.000000000004 ms to empty: one ms off.)
 */
export class LeakyBucket {
  private units = 0;
  private updatedAt: number;
  private readonly perRequest: number;
  private readonly perMs: number;

  constructor(
    readonly config: BucketConfig,
    private readonly clock: Clock,
  ) {
    this.updatedAt = clock.now();
    const scale = decimalScale(config.leakPerSecond);
    this.perRequest = 1000 * scale;
    const perMs = config.leakPerSecond * scale;
    // A rate with more than six decimals is not made whole by the scale: it keeps its fractional units.
    this.perMs = Math.abs(perMs - Math.round(perMs)) <= 1e-9 * scale ? Math.round(perMs) : perMs;
  }

  /** The level now (in requests), after draining since the last update. */
  currentLevel(): number {
    return this.drain() / this.perRequest;
  }

  /**
   * Tries to admit one request, or one of `cost` units (the weighted bucket of variant writes, weighted.ts). One that
   * costs more than the whole capacity is never admitted; its Retry-After is the time to empty the bucket.
   */
  take(cost = 1): BucketDecision {
    const units = this.drain();
    const full = this.config.capacity * this.perRequest;
    const needed = this.perRequest * cost;
    if (units + needed > full) {
      const msUntilSlot = Math.min(units + needed - full, units) / this.perMs;
      return { allowed: false, ...this.headersFor(units), retryAfterSeconds: Math.max(1, Math.ceil(msUntilSlot / 1000)) };
    }
    this.units = units + needed;
    return { allowed: true, ...this.headersFor(this.units) };
  }

  /** The headers' values for the current level, without taking a slot. */
  peek(): BucketDecision {
    return { allowed: true, ...this.headersFor(this.drain()) };
  }

  private drain(): number {
    const now = this.clock.now();
    this.units = Math.max(0, this.units - (now - this.updatedAt) * this.perMs);
    this.updatedAt = now;
    return this.units;
  }

  private headersFor(units: number): Omit<BucketDecision, 'allowed'> {
    const { capacity } = this.config;
    return {
      limit: capacity,
      remaining: Math.max(0, Math.floor((capacity * this.perRequest - units) / this.perRequest)),
      resetMs: Math.ceil(units / this.perMs),
    };
  }
}

/** The smallest power of ten (at most 10⁶) that makes `rate × scale` a whole number, so rates like 0.25 stay exact. */
function decimalScale(rate: number): number {
  let scale = 1;
  while (scale < 1e6 && Math.abs(rate * scale - Math.round(rate * scale)) > 1e-9 * scale) scale *= 10;
  return scale;
}

/** Writes a decision as the spec's response headers. */
export function rateLimitHeaders(decision: BucketDecision): Record<string, string> {
  const headers: Record<string, string> = {
    [RATE_LIMIT_HEADERS.limit]: String(decision.limit),
    [RATE_LIMIT_HEADERS.remaining]: String(decision.remaining),
    [RATE_LIMIT_HEADERS.reset]: String(decision.resetMs),
  };
  if (!decision.allowed && decision.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(decision.retryAfterSeconds);
  }
  return headers;
}
