import type { FastifyReply, FastifyRequest } from 'fastify';
import { LeakyBucket } from './bucket.js';
import type { SandboxContext } from './context.js';
import { HttpError } from './http.js';
import { planRate, type RateConfig } from '../platform/rate-limit.js';

/**
 * The weighted bucket of variant writes (docs/platform.md §12): `PATCH /products/{id}/variants`, `PUT` of the same
 * path, `PATCH /products/stock-price` and `POST /products/{id}/variants/stock` draw, besides the request bucket,
 * from a leaky bucket where a request costs more the more variants, translations and inventory levels it carries.
 * The platform does not publish its weights; these are ours (docs/sandbox.md "The weighted bucket"):
 *   a variant = 1, + 1 per inventory level it sends, + 1 per translation (language key) of its option values;
 *   a relative stock change = 1 per variant it moves (every variant of the product without `id`).
 * Over the bucket, the answer is a 429 that says to send fewer variants, with Retry-After and headers of its own
 * (WEIGHTED_HEADERS), so that a client can tell it from the request bucket's.
 */

/** The default weighted bucket (units; ×10 on the high-rate plans, like the request bucket). */
export const WEIGHTED_RATE: RateConfig = { capacity: 5000, leakPerSecond: 500 };

/** Ours: the platform documents no header for this bucket. */
export const WEIGHTED_HEADERS = {
  limit: 'x-rate-limit-weighted-limit',
  remaining: 'x-rate-limit-weighted-remaining',
  reset: 'x-rate-limit-weighted-reset',
} as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One variant of a batch body as the bucket weighs it (anything that is not an object weighs 1: validation refuses it). */
export function variantWeight(variant: unknown): number {
  if (!isRecord(variant)) return 1;
  const levels = Array.isArray(variant.inventory_levels) ? variant.inventory_levels.length : 0;
  const values = Array.isArray(variant.values) ? variant.values : [];
  const translations = values.reduce<number>((n, v) => n + (isRecord(v) ? Object.keys(v).length : 0), 0);
  return 1 + levels + translations;
}

/** The variants of a batch body: an array of variants, or stock-price's products each holding `variants`. */
export function batchWeight(body: unknown, nested = false): number {
  if (!Array.isArray(body)) return 1;
  if (!nested) return body.reduce<number>((n, v) => n + variantWeight(v), 0) || 1;
  return body.reduce<number>((n, p) => n + (isRecord(p) && Array.isArray(p.variants) ? batchWeight(p.variants) : 1), 0) || 1;
}

class WeightedLimiter {
  private readonly buckets = new Map<string, LeakyBucket>();

  constructor(private readonly ctx: SandboxContext) {}

  private config(plan: string): RateConfig | undefined {
    const { weightedRate, rate } = this.ctx.options;
    if (weightedRate === 'off' || (weightedRate === undefined && rate === 'off')) return undefined;
    return planRate(plan, weightedRate ?? WEIGHTED_RATE);
  }

  /** Takes `weight` from the (store, app) bucket, setting its headers; a 429 when it does not fit. */
  charge(req: FastifyRequest, reply: FastifyReply, weight: number): void {
    const config = this.config(req.store.record.plan);
    if (!config) return;
    const key = `${req.store.id}:${req.auth.appId}`;
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = new LeakyBucket(config, this.ctx.clock)));
    const decision = bucket.take(weight);
    const headers: Record<string, string> = {
      [WEIGHTED_HEADERS.limit]: String(decision.limit),
      [WEIGHTED_HEADERS.remaining]: String(decision.remaining),
      [WEIGHTED_HEADERS.reset]: String(decision.resetMs),
    };
    if (decision.allowed) {
      reply.headers(headers);
      return;
    }
    headers['retry-after'] = String(decision.retryAfterSeconds);
    const over = weight > config.capacity ? `, more than the bucket holds (${config.capacity})` : '';
    throw new HttpError(
      429,
      `Weighted rate limit exceeded: this request weighs ${weight} (variants, translations and inventory levels)${over}; send fewer variants per request`,
      undefined,
      headers,
    );
  }
}

const limiters = new WeakMap<SandboxContext, WeightedLimiter>();

/** Charges a variant write to the weighted bucket of its store and app (one limiter per sandbox, across versions). */
export function chargeVariantWrite(ctx: SandboxContext, req: FastifyRequest, reply: FastifyReply, weight: number): void {
  let limiter = limiters.get(ctx);
  if (!limiter) limiters.set(ctx, (limiter = new WeightedLimiter(ctx)));
  limiter.charge(req, reply, weight);
}
