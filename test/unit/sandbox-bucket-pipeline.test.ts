import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/sandbox/clock.js';
import { bootstrap } from '../../src/sandbox/seed.js';
import { buildServer, createContext } from '../../src/sandbox/server.js';
import { SandboxState } from '../../src/sandbox/state.js';

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
