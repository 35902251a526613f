import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/platform/clock.js';
import { errorShape, startTestSandbox, type ApiResponse } from '../helpers/sandbox.js';

/** Spec §8 (leaky bucket) and DESIGN.md §5.5, over HTTP. */

function rateHeaders(res: ApiResponse): { limit: number; remaining: number; reset: number } {
  return {
    limit: Number(res.headers.get('x-rate-limit-limit')),
    remaining: Number(res.headers.get('x-rate-limit-remaining')),
    reset: Number(res.headers.get('x-rate-limit-reset')),
  };
}

describe('spec §8 limits: leaky bucket', () => {
  it('§8: bucket capacity 40 — a burst on a fresh bucket gets about 40 successes, then 429 with Retry-After ≥ 1', async () => {
    const t = await startTestSandbox({ rate: undefined });
    try {
      const started = Date.now();
      const results = await Promise.all(Array.from({ length: 60 }, () => t.get('/store')));
      const elapsedSeconds = (Date.now() - started) / 1000;
      const ok = results.filter((r) => r.status === 200);
      const limited = results.filter((r) => r.status === 429);
      expect(ok.length + limited.length).toBe(60);
      // Real time passes during the burst, so slots leak back at 2/s while it lasts.
      expect(ok.length).toBeGreaterThanOrEqual(40);
      expect(ok.length).toBeLessThanOrEqual(40 + Math.ceil(elapsedSeconds * 2) + 1);
      expect(limited.length).toBeGreaterThan(0);
      for (const r of limited) {
        expect(r.body).toMatchObject(errorShape(429));
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(Number.isInteger(Number(r.headers.get('retry-after')))).toBe(true);
        const h = rateHeaders(r);
        expect(h.limit).toBe(40);
        expect(h.remaining).toBe(0);
        expect(h.reset).toBeGreaterThan(0);
      }
      for (const r of ok) {
        const h = rateHeaders(r);
        expect(h.limit).toBe(40);
        expect(h.remaining).toBeGreaterThanOrEqual(0);
        expect(h.remaining).toBeLessThan(40);
        // reset = ms until empty at 2/s: (40 − remaining) slots ≈ (40 − remaining) × 500 ms.
        expect(h.reset).toBeGreaterThanOrEqual((40 - h.remaining - 1) * 500);
        expect(h.reset).toBeLessThanOrEqual((40 - h.remaining + 1) * 500);
      }
    } finally {
      await t.close();
    }
  });

  it('§8: x-rate-limit-remaining counts down by one per request; x-rate-limit-reset grows by 500 ms (leak 2/s)', async () => {
    const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
    const t = await startTestSandbox({ rate: undefined, clock });
    try {
      const seen: { remaining: number; reset: number }[] = [];
      for (let i = 0; i < 5; i++) seen.push(rateHeaders(await t.get('/store')));
      expect(seen.map((s) => s.remaining)).toEqual([39, 38, 37, 36, 35]);
      expect(seen.map((s) => s.reset)).toEqual([500, 1000, 1500, 2000, 2500]);
    } finally {
      await t.close();
    }
  });

  it('§8: leak rate 2 requests per second — after 1 s two slots are free again', async () => {
    const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
    const t = await startTestSandbox({ rate: undefined, clock });
    try {
      for (let i = 0; i < 40; i++) expect((await t.get('/store')).status).toBe(200);
      const full = await t.get('/store');
      expect(full.status).toBe(429);
      expect(full.headers.get('retry-after')).toBe('1');
      clock.advance(1000);
      expect((await t.get('/store')).status).toBe(200);
      expect((await t.get('/store')).status).toBe(200);
      expect((await t.get('/store')).status).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('§5.5: a refused request does not fill the bucket', async () => {
    const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
    const t = await startTestSandbox({ rate: undefined, clock });
    try {
      for (let i = 0; i < 40; i++) await t.get('/store');
      for (let i = 0; i < 10; i++) expect((await t.get('/store')).status).toBe(429);
      clock.advance(500);
      const res = await t.get('/store');
      expect(res.status).toBe(200);
      expect(rateHeaders(res).remaining).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('§8 limit: Retry-After is the seconds until one slot frees, rounded up, at least 1 (custom rate 1:0.25)', async () => {
    const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
    const t = await startTestSandbox({ rate: { capacity: 1, leakPerSecond: 0.25 }, clock });
    try {
      expect((await t.get('/store')).status).toBe(200);
      const refused = await t.get('/store');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('4');
      expect(rateHeaders(refused).limit).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('§8: every API response carries the headers, errors included (404, 422)', async () => {
    const t = await startTestSandbox({ rate: undefined });
    try {
      for (const res of [await t.get('/orders/9999999999'), await t.post('/categories', {})]) {
        expect(res.headers.get('x-rate-limit-limit')).toBe('40');
        expect(res.headers.get('x-rate-limit-remaining')).not.toBeNull();
        expect(res.headers.get('x-rate-limit-reset')).not.toBeNull();
      }
    } finally {
      await t.close();
    }
  });

  it('§8: higher plans (next, evolution) multiply the rate limit by 10 (capacity 400)', async () => {
    for (const plan of ['next', 'evolution']) {
      const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
      const t = await startTestSandbox({ rate: undefined, plan, clock });
      try {
        const res = await t.get('/store');
        expect(rateHeaders(res)).toEqual({ limit: 400, remaining: 399, reset: 50 });
      } finally {
        await t.close();
      }
    }
  });

  it('§8: other plans keep capacity 40', async () => {
    for (const plan of ['freemium', 'a', 'b', 'c', 'enterprise']) {
      const t = await startTestSandbox({ rate: undefined, plan });
      try {
        expect(rateHeaders(await t.get('/store')).limit).toBe(40);
      } finally {
        await t.close();
      }
    }
  });

  it('§5.5: rate off removes the limit and its headers', async () => {
    const t = await startTestSandbox({ rate: 'off' });
    try {
      const results = await Promise.all(Array.from({ length: 80 }, () => t.get('/store')));
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(results[0]!.headers.get('x-rate-limit-limit')).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('§5.5: a 401 (no valid token) does not take from the store bucket', async () => {
    const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
    const t = await startTestSandbox({ rate: undefined, clock });
    try {
      for (let i = 0; i < 45; i++) expect((await t.get('/store', { token: 'wrong' })).status).toBe(401);
      const res = await t.get('/store');
      expect(res.status).toBe(200);
      expect(rateHeaders(res).remaining).toBe(39);
    } finally {
      await t.close();
    }
  });
});
