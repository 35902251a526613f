import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseRecords } from '../../../src/api/read.js';
import { errorFromResponse, parseErrorBody } from '../../../src/client/errors.js';
import { MAX_LIST_RECORDS, maxPagesFor, paginate, type Query } from '../../../src/client/pagination.js';
import { retryAfterSeconds } from '../../../src/client/retry.js';
import { MAX_WAIT_MS, RateScheduler, boundedWaitMs } from '../../../src/client/scheduler.js';
import { FakeClock, MAX_TIMER_MS, timerDelay } from '../../../src/platform/clock.js';

/** Issue 24: every wait, walk and text taken from a server is bounded (docs/decisions.md "Bounded waits"…). */

describe('timerDelay and boundedWaitMs: no timer outside Node’s range', () => {
  it('clamps to [0, 2³¹−1] and reads NaN and negatives as 0', () => {
    expect(timerDelay(5)).toBe(5);
    expect(timerDelay(-5)).toBe(0);
    expect(timerDelay(Number.NaN)).toBe(0);
    expect(timerDelay(Number.NEGATIVE_INFINITY)).toBe(0);
    expect(timerDelay(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
    expect(timerDelay(999_999_999_000)).toBe(MAX_TIMER_MS);
    expect(MAX_TIMER_MS).toBe(2_147_483_647);
  });

  it('a wait is at most 10 minutes', () => {
    expect(MAX_WAIT_MS).toBe(600_000);
    expect(boundedWaitMs(99_999_999_999)).toBe(MAX_WAIT_MS);
    expect(boundedWaitMs(-1)).toBe(0);
    expect(boundedWaitMs(Number.NaN)).toBe(0);
    expect(boundedWaitMs(1500)).toBe(1500);
  });
});

describe('Retry-After', () => {
  it('is never negative, and a word or an empty value is ignored', () => {
    expect(retryAfterSeconds({ 'retry-after': '-5' })).toBe(0);
    expect(retryAfterSeconds({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterSeconds({ 'retry-after': '' })).toBeUndefined();
    expect(retryAfterSeconds({ 'retry-after': 'Infinity' })).toBeUndefined();
    expect(retryAfterSeconds({ 'retry-after': '999999999' })).toBe(999_999_999);
    expect(retryAfterSeconds({ 'retry-after': new Date(Date.now() - 60_000).toUTCString() })).toBe(0);
  });

  it('a 429 message never says "try again in -5 s"', () => {
    const negative = errorFromResponse('GET', 'http://h/v1/1/orders', 429, '', { retryAfterSeconds: -5 });
    expect(negative.message).toBe("The store's rate limit refused GET /v1/1/orders after every retry.");
    const fractional = errorFromResponse('GET', 'http://h/v1/1/orders', 429, '', { retryAfterSeconds: 1.2 });
    expect(fractional.message).toMatch(/try again in 2 s\.$/);
  });
});

describe('the rate scheduler on hostile headers', () => {
  it('holds a 429 with a huge Retry-After at most 10 minutes, and never sets a timer past it', async () => {
    const clock = new FakeClock(0);
    const scheduler = new RateScheduler({ clock });
    scheduler.observe({});
    scheduler.on429(999_999_999);
    expect(scheduler.snapshot().holdUntil).toBe(MAX_WAIT_MS);
    const waits: number[] = [];
    let released = false;
    void scheduler.acquire(undefined, (ms) => waits.push(ms)).then(() => (released = true));
    await Promise.resolve();
    expect(waits).toEqual([MAX_WAIT_MS]);
    clock.advance(MAX_WAIT_MS);
    await Promise.resolve();
    expect(released).toBe(true);
  });

  it('ignores an x-rate-limit-reset beyond 10 minutes instead of pacing to a crawl', () => {
    const clock = new FakeClock(0);
    const scheduler = new RateScheduler({ clock });
    scheduler.observe({ 'x-rate-limit-limit': '40', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '99999999999' });
    expect(scheduler.snapshot().leakPerSecond).toBe(2);
  });

  it('reads a rate limit of 0 or below as unknown, pacing at the assumed rate, not as no limit', () => {
    for (const limit of ['0', '-3', 'lots']) {
      const scheduler = new RateScheduler({ clock: new FakeClock(0) });
      scheduler.observe({ 'x-rate-limit-limit': limit, 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '0' });
      expect(scheduler.snapshot().mode).toBe('paced');
    }
    const none = new RateScheduler({ clock: new FakeClock(0) });
    none.observe({});
    expect(none.snapshot().mode).toBe('unpaced');
  });

  it('announces a long wait once to each waiter', async () => {
    const clock = new FakeClock(0);
    const scheduler = new RateScheduler({ clock });
    scheduler.observe({});
    scheduler.on429(30);
    const told: number[] = [];
    void scheduler.acquire(undefined, (ms) => told.push(ms));
    scheduler.sendFailed(); // drains again: same wait, not told again
    clock.advance(1000);
    expect(told).toEqual([30_000]);
  });
});

/** A list server in memory: `pages(page)` answers each page. */
function lister(answer: (page: number) => { items: unknown[]; total?: number; next?: boolean }) {
  let requests = 0;
  const get = async <T>(options: { path: string; query?: Query }) => {
    requests += 1;
    const page = options.query?.page !== undefined ? Number(options.query.page) : Number(new URL(options.path).searchParams.get('page'));
    const { items, total, next } = answer(page);
    const headers: Record<string, string> = {};
    if (total !== undefined) headers['x-total-count'] = String(total);
    if (next) headers.link = `<http://h/v1/1/orders?page=${page + 1}&per_page=2>; rel="next"`;
    return { headers, body: items as T };
  };
  return { get, requests: () => requests };
}

async function walk(list: ReturnType<typeof lister>, perPage = 2) {
  const warnings: string[] = [];
  const items: unknown[] = [];
  for await (const page of paginate(list.get, '/orders', {}, { perPage, warn: (m) => warnings.push(m) })) items.push(...page.items);
  return { items, warnings, requests: list.requests() };
}

describe('pagination always ends', () => {
  it('stops once the records read reach x-total-count, and says the store kept offering more', async () => {
    const r = await walk(lister((page) => ({ items: [{ id: page }], total: 3, next: true })));
    expect(r.items).toHaveLength(3);
    expect(r.requests).toBe(3);
    expect(r.warnings).toEqual([
      'The store kept offering pages of GET /orders after the 3 records its x-total-count announced; stopped after 3 pages (3 records read).',
    ]);
  });

  it('reads a list that grows while it is read to its end, without a warning', async () => {
    // 5 records when the walk starts, 7 by its second page (new orders arrive).
    const r = await walk(lister((page) => {
      const total = page === 1 ? 5 : 7;
      const items = Array.from({ length: total }, (_, i) => ({ id: i })).slice((page - 1) * 2, page * 2);
      return { items, total, next: page * 2 < total };
    }));
    expect(r.items).toHaveLength(7);
    expect(r.warnings).toEqual([]);
  });

  it('stops at the page cap when the total keeps growing', async () => {
    const r = await walk(lister((page) => ({ items: [{ id: page }, { id: -page }], total: page * 2 + 10, next: true })));
    expect(r.requests).toBe(maxPagesFor(12, 2));
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^The store kept offering pages of GET \/orders; stopped after 9 pages/);
  });

  it('stops after MAX_LIST_RECORDS worth of pages when the store never says the size, or says an absurd one', async () => {
    const silent = await walk(lister((page) => ({ items: [{ id: page }], next: true })), 200);
    expect(silent.requests).toBe(MAX_LIST_RECORDS / 200);
    expect(silent.warnings[0]).toMatch(/a list that does not say its size\.$/);
    const absurd = await walk(lister((page) => ({ items: [{ id: page }], total: 1e15, next: true })), 200);
    expect(absurd.requests).toBe(MAX_LIST_RECORDS / 200);
  });

  it('stops at an empty page', async () => {
    const r = await walk(lister((page) => ({ items: page < 3 ? [{ id: page }] : [], total: 100, next: true })));
    expect(r.requests).toBe(3);
    expect(r.warnings).toEqual([]);
  });
});

describe('what a server says is cut to what an error can show', () => {
  it('caps descriptions and field errors', () => {
    const parsed = parseErrorBody(JSON.stringify({ description: 'x'.repeat(10_000), errors: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, ['y'.repeat(5000)]])) }));
    expect(parsed.description!.length).toBeLessThanOrEqual(1001);
    expect(Object.keys(parsed.fieldErrors!)).toHaveLength(20);
    const error = errorFromResponse('POST', 'http://h/v1/1/products', 422, { errors: parsed.fieldErrors });
    expect(error.message.length).toBeLessThan(11_000);
    expect(error.message).toMatch(/; and 10 more\.$/);
  });
});

describe('a list none of whose records can be read', () => {
  it('is an error naming the first problem, not an empty list', () => {
    const schema = z.looseObject({ id: z.number() });
    expect(() => parseRecords(schema, [{ id: 'a' }, { id: 'b' }], 'order')).toThrow(/^None of the 2 order records the store sent could be read \(record a: .* at id\)\.$/);
    expect(parseRecords(schema, [], 'order')).toEqual([]);
  });
});

describe('the OAuth token exchange reads a bounded reply too', () => {
  it('a gzip bomb from the authorization server is refused as too large while it streams', async () => {
    const { createServer } = await import('node:http');
    const { createGzip } = await import('node:zlib');
    const { Readable } = await import('node:stream');
    const { exchangeCode } = await import('../../../src/auth/oauth.js');
    const { MAX_REPLY_BYTES } = await import('../../../src/client/errors.js');
    const chunk = Buffer.alloc(1024 * 1024);
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      let left = MAX_REPLY_BYTES / chunk.length + 8;
      const zeros = new Readable({ read() { this.push(left-- > 0 ? chunk : null); } });
      zeros.pipe(createGzip()).pipe(res);
      res.on('close', () => zeros.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      await expect(exchangeCode({ authUrl: `http://127.0.0.1:${port}`, clientId: '1', clientSecret: 's', code: 'c' })).rejects.toThrow(
        "The authorization server's reply to POST /apps/authorize/token was too large: more than 32 MB (the most this CLI reads in one reply).",
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
