import type { Clock } from './clock.js';

/**
 * The platform's leaky bucket (spec §8, DESIGN.md §5.5), as a pure module on an injectable clock.
 * Each accepted request adds 1 to the level; the level drains at `leakPerSecond`.
 * A request that would overflow is refused and does not fill the bucket.
 */
export interface BucketConfig {
  capacity: number;
  leakPerSecond: number;
}

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

export const STANDARD_RATE: BucketConfig = { capacity: 40, leakPerSecond: 2 };
/** Plans `next` and `evolution` get the rate multiplied by 10. */
export const HIGH_PLAN_RATE: BucketConfig = { capacity: 400, leakPerSecond: 20 };

export class LeakyBucket {
  private level = 0;
  private updatedAt: number;

  constructor(
    readonly config: BucketConfig,
    private readonly clock: Clock,
  ) {
    this.updatedAt = clock.now();
  }

  /** The level now, after draining since the last update. */
  currentLevel(): number {
    const now = this.clock.now();
    const drained = ((now - this.updatedAt) / 1000) * this.config.leakPerSecond;
    this.level = Math.max(0, this.level - drained);
    this.updatedAt = now;
    return this.level;
  }

  /** Tries to admit one request. */
  take(): BucketDecision {
    const level = this.currentLevel();
    const { capacity, leakPerSecond } = this.config;
    if (level + 1 > capacity + 1e-9) {
      const secondsUntilSlot = (level + 1 - capacity) / leakPerSecond;
      return {
        allowed: false,
        ...this.headersFor(level),
        retryAfterSeconds: Math.max(1, Math.ceil(secondsUntilSlot - 1e-9)),
      };
    }
    this.level = level + 1;
    return { allowed: true, ...this.headersFor(this.level) };
  }

  /** The headers' values for the current level, without taking a slot. */
  peek(): BucketDecision {
    return { allowed: true, ...this.headersFor(this.currentLevel()) };
  }

  private headersFor(level: number): Omit<BucketDecision, 'allowed'> {
    const { capacity, leakPerSecond } = this.config;
    return {
      limit: capacity,
      remaining: Math.max(0, Math.floor(capacity - level + 1e-9)),
      resetMs: Math.ceil((level / leakPerSecond) * 1000),
    };
  }
}

/** Writes a decision as the spec's response headers. */
export function rateLimitHeaders(decision: BucketDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'x-rate-limit-limit': String(decision.limit),
    'x-rate-limit-remaining': String(decision.remaining),
    'x-rate-limit-reset': String(decision.resetMs),
  };
  if (!decision.allowed && decision.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(decision.retryAfterSeconds);
  }
  return headers;
}
