import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LeakyBucket } from '../../../src/sandbox/bucket.js';
import { FakeClock } from '../../../src/platform/clock.js';
import { bootstrap } from '../../../src/sandbox/seed.js';
import { createContext } from '../../../src/sandbox/context.js';
import { buildServer } from '../../../src/sandbox/server.js';
import { SandboxState } from '../../../src/sandbox/state.js';

async function sandboxOn(clock: FakeClock, rate: { capacity: number; leakPerSecond: number }, plan = 'enterprise') {
  const state = new SandboxState(clock);
  const store = bootstrap(state, 'empty', plan);
  const token = state.tokens.list()[0]!.token;
  const app = await buildServer(createContext(state, clock, { rate }));
  const get = () =>
    app.inject({
      method: 'GET',
      url: `/v1/${store.id}/store`,
      headers: { 'user-agent': 'Test (1)', authentication: `bearer ${token}` },
    });
  return { app, get };
}

describe('rate limit through the pipeline', () => {
  it('admits a burst of exactly the capacity and refuses the next without filling the bucket', async () => {
    const clock = new FakeClock(1_000_000);
    const { app, get } = await sandboxOn(clock, { capacity: 40, leakPerSecond: 2 });
    for (let i = 0; i < 40; i++) expect((await get()).statusCode).toBe(200);
    const refused = await get();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['x-rate-limit-remaining']).toBe('0');
    expect(refused.json()).toMatchObject({ code: 429 });
    clock.advance(500); // one slot frees at 2/s
    expect((await get()).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(429);
    await app.close();
  });

  it('multiplies the rate by 10 on plan next', async () => {
    const clock = new FakeClock(0);
    const { app, get } = await sandboxOn(clock, { capacity: 40, leakPerSecond: 2 }, 'next');
    const first = await get();
    expect(first.headers['x-rate-limit-limit']).toBe('400');
    expect(first.headers['x-rate-limit-remaining']).toBe('399');
    await app.close();
  });

  it('answers every request with headers that agree with a model of the bucket', async () => {
    // Leak rates that are powers of two and waits of whole half-slots keep the model's arithmetic exact.
    const step = fc.oneof(
      { weight: 3, arbitrary: fc.constant<{ kind: 'request' } | { kind: 'wait'; halfSlots: number }>({ kind: 'request' }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 12 }).map((halfSlots) => ({ kind: 'wait' as const, halfSlots })) },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom(1, 2, 4, 8),
        fc.array(step, { minLength: 1, maxLength: 40 }),
        async (capacity, leak, steps) => {
          const clock = new FakeClock(10_000);
          const { app, get } = await sandboxOn(clock, { capacity, leakPerSecond: leak });
          let level = 0;
          try {
            for (const s of steps) {
              if (s.kind === 'wait') {
                clock.advance((s.halfSlots * 500) / leak);
                level = Math.max(0, level - s.halfSlots / 2);
                continue;
              }
              const res = await get();
              const allowed = level + 1 <= capacity;
              if (allowed) level += 1;
              expect(res.statusCode).toBe(allowed ? 200 : 429);
              expect(res.headers['x-rate-limit-limit']).toBe(String(capacity));
              expect(res.headers['x-rate-limit-remaining']).toBe(String(Math.floor(capacity - level)));
              expect(res.headers['x-rate-limit-reset']).toBe(String(Math.ceil((level / leak) * 1000)));
              if (!allowed) {
                expect(res.headers['retry-after']).toBe(String(Math.max(1, Math.ceil((level + 1 - capacity) / leak))));
              }
            }
          } finally {
            await app.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('LeakyBucket on the injected clock', () => {
  const config = fc.record({ capacity: fc.integer({ min: 1, max: 1000 }), leakPerSecond: fc.integer({ min: 1, max: 50 }) });

  it('a rate with decimals (1:0.25) is exact too: one slot frees after exactly 4 s', () => {
    const clock = new FakeClock(0);
    const bucket = new LeakyBucket({ capacity: 1, leakPerSecond: 0.25 }, clock);
    expect(bucket.take()).toMatchObject({ allowed: true, remaining: 0, resetMs: 4000 });
    expect(bucket.take()).toMatchObject({ allowed: false, retryAfterSeconds: 4 });
    clock.advance(3999);
    expect(bucket.take()).toMatchObject({ allowed: false, resetMs: 1, retryAfterSeconds: 1 });
    clock.advance(1);
    expect(bucket.take()).toMatchObject({ allowed: true, remaining: 0, resetMs: 4000 });
  });

  it('a burst of C on a fresh bucket succeeds with remaining C−1…0, request C+1 gets 429 and does not fill it', () => {
    fc.assert(
      fc.property(config, fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 1, max: 5 }), ({ capacity, leakPerSecond }, start, extra) => {
        const bucket = new LeakyBucket({ capacity, leakPerSecond }, new FakeClock(start));
        for (let i = 1; i <= capacity; i++) {
          const d = bucket.take();
          expect(d).toEqual({ allowed: true, limit: capacity, remaining: capacity - i, resetMs: Math.ceil((i * 1000) / leakPerSecond) });
        }
        for (let i = 0; i < extra; i++) {
          const refused = bucket.take();
          expect(refused).toEqual({
            allowed: false,
            limit: capacity,
            remaining: 0,
            resetMs: Math.ceil((capacity * 1000) / leakPerSecond),
            retryAfterSeconds: Math.max(1, Math.ceil(1 / leakPerSecond)),
          });
        }
        expect(bucket.peek().resetMs).toBe(Math.ceil((capacity * 1000) / leakPerSecond));
      }),
      { numRuns: 60 },
    );
  });

  it('at every step of requests and waits of any length, the decision and headers agree with an exact model', () => {
    // The model counts in milli-requests with integer arithmetic: with an integer leak rate and whole
    // milliseconds, level × 1000 is always an integer, so the model is exact.
    const step = fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 5000 }));
    fc.assert(
      fc.property(config, fc.array(step, { minLength: 1, maxLength: 200 }), ({ capacity, leakPerSecond }, steps) => {
        const clock = new FakeClock(1_000_000);
        const bucket = new LeakyBucket({ capacity, leakPerSecond }, clock);
        let milli = 0;
        for (const s of steps) {
          if (s >= 0) {
            clock.advance(s);
            milli = Math.max(0, milli - s * leakPerSecond);
            continue;
          }
          const allowed = milli + 1000 <= capacity * 1000;
          if (allowed) milli += 1000;
          const d = bucket.take();
          expect(d.allowed).toBe(allowed);
          expect(d.limit).toBe(capacity);
          expect(d.remaining).toBe(Math.floor((capacity * 1000 - milli) / 1000));
          expect(d.resetMs).toBe(Math.ceil(milli / leakPerSecond));
          expect(d.retryAfterSeconds).toBe(allowed ? undefined : Math.max(1, Math.ceil((milli + 1000 - capacity * 1000) / (leakPerSecond * 1000))));
        }
      }),
      { numRuns: 500 },
    );
  });
});
