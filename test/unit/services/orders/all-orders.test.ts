import { describe, expect, it } from 'vitest';
import type { StoreClient } from '../../../../src/client/index.js';
import { allOrders } from '../../../../src/services/orders/all-orders.js';

/**
 * `allOrders` (src/services/orders/all-orders.ts) against a store in memory that answers GET /orders as platform.md §4
 * and §9 say: newest first, created_at_min/max inclusive, a page past the 10,000th result refused. The shapes a
 * real store may take beside the independent server of the integration tests: no x-total-count, a page size
 * that does not divide 10,000, a record it cannot read, and orders created as it reads.
 */

interface Row {
  id: number;
  created_at: string;
  status: string;
}

const BASE = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, '+00:00');

function store(rows: Row[], opts: { total?: boolean; odd?: number } = {}) {
  const requests: Record<string, unknown>[] = [];
  const sorted = rows
    .map((r) => ({ row: r, at: Date.parse(r.created_at) }))
    .sort((a, b) => b.at - a.at || b.row.id - a.row.id);
  const refused: Record<string, unknown>[] = [];
  const client = {
    warn: () => undefined,
    stats: () => ({ requests: requests.length, rateLimited: 0 }),
    page: async (_path: string, query: Record<string, unknown> = {}) => {
      requests.push(query);
      const min = query.created_at_min === undefined ? -Infinity : Date.parse(String(query.created_at_min));
      const max = query.created_at_max === undefined ? Infinity : Date.parse(String(query.created_at_max));
      const matches = sorted
        .filter(({ row, at }) => at >= min && at <= max && (query.status === undefined || row.status === query.status))
        .map(({ row }) => row);
      const page = Number(query.page);
      const perPage = Number(query.per_page);
      const first = (page - 1) * perPage;
      if (first < matches.length && Math.min(first + perPage, matches.length) > 10_000) {
        refused.push(query);
        throw new Error('Query results are limited to 10000 items');
      }
      const items: unknown[] = matches.slice(first, first + perPage);
      if (opts.odd !== undefined) {
        const at = items.findIndex((o) => (o as Row).id === opts.odd);
        if (at >= 0) items[at] = { id: 'not an id' };
      }
      return { items, page, total: opts.total === false ? undefined : matches.length };
    },
  } as unknown as StoreClient;
  return { client, requests, refused };
}

/** `count` orders, one every `step` seconds going back from BASE; statuses in turn. */
function orders(count: number, step = 7, from = 0): Row[] {
  return Array.from({ length: count }, (_, i) => ({
    id: from + i + 1,
    created_at: iso(BASE - Math.floor(i / 2) * step * 1000),
    status: ['open', 'closed', 'cancelled'][i % 3]!,
  }));
}

async function read(client: StoreClient, perPage?: number) {
  const ids: number[] = [];
  for await (const page of allOrders(client, {}, { perPage })) ids.push(...page.orders.map((o) => o.id));
  return ids;
}

describe('allOrders', () => {
  it('reads 25,000 orders without x-total-count, each once, none refused', async () => {
    const rows = orders(25_000);
    const s = store(rows, { total: false });
    const ids = await read(s.client);
    expect(s.refused).toEqual([]);
    expect(ids).toHaveLength(25_000);
    expect(new Set(ids).size).toBe(25_000);
    // Without the header the end of each window is a full 50th page: 125 pages and one re-read per window.
    expect(s.requests.length).toBeLessThanOrEqual(125 + 3 + 1);
  });

  it('with a page size that does not divide 10,000 (150: 66 pages, 9,900 orders a window)', async () => {
    const s = store(orders(21_000));
    const ids = await read(s.client, 150);
    expect(s.requests.every((q) => q.per_page === 150 && Number(q.page) <= 66)).toBe(true);
    expect(s.refused).toEqual([]);
    expect(new Set(ids).size).toBe(21_000);
    expect(ids).toHaveLength(21_000);
  });

  it('leaves out a record it cannot read, and does not end the window early because of it', async () => {
    const rows = orders(12_000);
    const s = store(rows, { odd: rows[9_999 - 50]!.id });
    const ids = await read(s.client);
    expect(s.refused).toEqual([]);
    expect(ids).toHaveLength(11_999);
  });

  it('splits a second holding more than 10,000 orders by status', async () => {
    const burst = Array.from({ length: 10_200 }, (_, i) => ({ id: 50_000 + i, created_at: iso(BASE - 3600_000), status: ['open', 'closed', 'cancelled'][i % 3]! }));
    const s = store([...orders(500), ...burst, ...orders(300, 7, 100_000).map((r) => ({ ...r, created_at: iso(Date.parse(r.created_at) - 7200_000) }))]);
    const ids = await read(s.client);
    expect(s.refused).toEqual([]);
    expect(new Set(ids).size).toBe(11_000);
    expect(ids).toHaveLength(11_000);
  });

  it('refuses, in one sentence, more than 10,000 orders of one status within one second', async () => {
    const burst = Array.from({ length: 10_100 }, (_, i) => ({ id: i + 1, created_at: iso(BASE), status: 'open' }));
    const s = store(burst);
    await expect(read(s.client)).rejects.toThrow(/^More than 10,000 orders match within the second 2026-01-01T00:00:00\+00:00/);
    expect(s.refused).toEqual([]);
  });

  describe('ends whatever the store answers (every page full, filters ignored)', () => {
    /** A store that answers every GET /orders with a full page made by `make(k)` for the k-th order of the page asked. */
    function endless(make: (k: number) => Record<string, unknown>, total?: number) {
      const warnings: string[] = [];
      let requests = 0;
      const client = {
        warn: (message: string) => warnings.push(message),
        page: async (_path: string, query: Record<string, unknown> = {}) => {
          requests += 1;
          const page = Number(query.page);
          const perPage = Number(query.per_page);
          const items = Array.from({ length: perPage }, (_, i) => make((page - 1) * perPage + i));
          return { items, page, total };
        },
      } as unknown as StoreClient;
      return { client, warnings, requests: () => requests };
    }

    it('orders ever older, without x-total-count: stops at the walk cap (1,000 pages of 200) with one warning', async () => {
      let window = 0;
      // Each window's orders are older than the last one read (the store ignores created_at_max but never repeats).
      const s = endless((k) => {
        if (k === 0) window += 1;
        const n = window * 10_000 + k;
        return { id: n + 1, created_at: iso(BASE - n * 1000) };
      });
      const ids = await read(s.client);
      expect(s.requests()).toBe(1000);
      expect(new Set(ids).size).toBe(ids.length);
      expect(s.warnings).toEqual([
        'The store kept offering pages of GET /orders; stopped after 1000 pages (200000 records read), the most read from a list that does not say its size.',
      ]);
    });

    it('the same creation time forever: one sentence once the second is split by status, not a loop', async () => {
      const s = endless((k) => ({ id: k + 1, created_at: iso(BASE) }), 20_000);
      await expect(read(s.client)).rejects.toThrow(/^More than 10,000 orders match within the second 2026-01-01T00:00:00\+00:00/);
      expect(s.requests()).toBeLessThanOrEqual(2 * 50);
    });

    it('orders without a creation time: one sentence after the first 10,000, not a loop', async () => {
      const s = endless((k) => ({ id: k + 1 }));
      await expect(read(s.client)).rejects.toThrow(/^The store listed orders without a creation time/);
      expect(s.requests()).toBe(50);
    });
  });
});
