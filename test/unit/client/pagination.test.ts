import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../src/client/errors.js';
import { type Page, type Query, dateOf, paginate, paginateById, parseLinkHeader } from '../../../src/client/pagination.js';

describe('parseLinkHeader', () => {
  it('reads absolute next/prev/first/last links', () => {
    const header =
      '<https://api.example.com/v1/1/orders?page=3&per_page=200>; rel="next", ' +
      '<https://api.example.com/v1/1/orders?page=1&per_page=200>; rel="prev", ' +
      '<https://api.example.com/v1/1/orders?page=1&per_page=200>; rel="first", ' +
      '<https://api.example.com/v1/1/orders?page=9&per_page=200>; rel="last"';
    expect(parseLinkHeader(header)).toEqual({
      next: 'https://api.example.com/v1/1/orders?page=3&per_page=200',
      prev: 'https://api.example.com/v1/1/orders?page=1&per_page=200',
      first: 'https://api.example.com/v1/1/orders?page=1&per_page=200',
      last: 'https://api.example.com/v1/1/orders?page=9&per_page=200',
    });
  });

  it('accepts unquoted and multiple rels, and nothing at all', () => {
    expect(parseLinkHeader('<https://h/x?page=2>; rel=next; title="n"')).toEqual({ next: 'https://h/x?page=2' });
    expect(parseLinkHeader('<https://h/x?page=9>; rel="last next"')).toEqual({ last: 'https://h/x?page=9', next: 'https://h/x?page=9' });
    expect(parseLinkHeader(undefined)).toEqual({});
    expect(parseLinkHeader('')).toEqual({});
  });
});

/** An in-memory list served as the platform serves one: `since_id`, page, per_page, x-total-count, the empty 404. */
function listOf(ids: number[], options: { order?: 'asc' | 'desc'; ignoresSinceId?: boolean } = {}) {
  const records = ids.map((id) => ({ id }));
  const queries: Query[] = [];
  const list = { records, queries, get, beforeAnswer: undefined as ((call: number) => void) | undefined };
  async function get<T>({ query = {} }: { method: 'GET'; path: string; query?: Query }): Promise<{ headers: Record<string, string>; body: T }> {
    queries.push(query);
    list.beforeAnswer?.(queries.length);
    const since = options.ignoresSinceId ? 0 : Number(query.since_id ?? 0);
    const matching = records.filter((r) => r.id > since).sort((a, b) => (options.order === 'desc' ? b.id - a.id : a.id - b.id));
    const perPage = Number(query.per_page);
    const page = Number(query.page ?? 1);
    const body = matching.slice((page - 1) * perPage, page * perPage);
    if (body.length === 0) {
      throw new NotFoundError('Not Found', { status: 404, method: 'GET', url: '/products', description: `Last page is ${Math.ceil(matching.length / perPage)}` });
    }
    return { headers: { 'x-total-count': String(matching.length) }, body: body as T };
  }
  return list;
}

async function readAll(walk: AsyncIterable<Page<{ id: number }>>): Promise<number[]> {
  const ids: number[] = [];
  for await (const page of walk) ids.push(...page.items.map((r) => r.id));
  return ids;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('paginateById', () => {
  it('reads each record once, one request a page, each the first page after the last id read', async () => {
    const list = listOf(range(1, 450));
    expect(await readAll(paginateById(list.get, '/products', {}, { perPage: 200 }))).toEqual(range(1, 450));
    expect(list.queries.map((q) => [q.since_id, q.page])).toEqual([[undefined, 1], [200, 1], [400, 1]]);
  });

  it('a record deleted during the walk hides no other (the page walk loses the first record of the next page)', async () => {
    const deletingTheFirstBeforePageTwo = () => {
      const list = listOf(range(1, 450));
      list.beforeAnswer = (call) => {
        if (call === 2) list.records.splice(0, 1);
      };
      return list;
    };
    expect(await readAll(paginateById(deletingTheFirstBeforePageTwo().get, '/products', {}, { perPage: 200 }))).toEqual(range(1, 450));
    expect(await readAll(paginate(deletingTheFirstBeforePageTwo().get, '/products', {}, { perPage: 200 }))).not.toContain(201);
  });

  it('starts after a since_id given in the query, and ends at a short page or an empty list', async () => {
    const list = listOf(range(1, 250));
    expect(await readAll(paginateById(list.get, '/products', { since_id: 100 }, { perPage: 200 }))).toEqual(range(101, 250));
    expect(await readAll(paginateById(listOf([]).get, '/products', {}, { perPage: 200 }))).toEqual([]);
  });

  it('a store that does not list by id, or ignores since_id, is read by page number instead, with a warning, nothing twice', async () => {
    for (const options of [{ order: 'desc' as const }, { ignoresSinceId: true }]) {
      const warnings: string[] = [];
      const list = listOf(range(1, 450), options);
      const ids = await readAll(paginateById(list.get, '/products', {}, { perPage: 200, warn: (m) => warnings.push(m) }));
      expect([...ids].sort((a, b) => a - b)).toEqual(range(1, 450));
      expect(warnings).toEqual([expect.stringContaining('does not list /products in id order after since_id')]);
    }
  });
});

describe('dateOf', () => {
  it("reads the Date header as the store's time, and nothing from a missing or unreadable one", () => {
    expect(dateOf({ date: 'Sat, 21 Nov 2026 14:05:00 GMT' })).toBe(Date.UTC(2026, 10, 21, 14, 5, 0));
    expect(dateOf({})).toBeUndefined();
    expect(dateOf({ date: 'yesterday' })).toBeUndefined();
  });
});
