import { describe, expect, it } from 'vitest';
import { type ListPage, type ListSource, listPages } from '../../../../src/services/common/paging.js';

/** A listing of `count` records (ids 1…count) served in pages; `shift` inserts records before the second page. */
function source(count: number, opts: { shift?: number } = {}): ListSource<{ id: number }> & { requests: string[] } {
  let records = Array.from({ length: count }, (_, i) => ({ id: i + 1 }));
  const requests: string[] = [];
  const slice = (page: number, perPage: number): ListPage<{ id: number }> => ({
    items: records.slice((page - 1) * perPage, page * perPage),
    total: records.length,
  });
  return {
    requests,
    page: async (page, perPage) => {
      requests.push(`page=${page} per_page=${perPage}`);
      return slice(page, perPage);
    },
    pages: async function* (perPage) {
      for (let page = 1; ; page++) {
        requests.push(`page=${page} per_page=${perPage}`);
        const result = slice(page, perPage);
        if (result.items.length === 0) return;
        yield result;
        if (page === 1 && opts.shift) records = [...Array.from({ length: opts.shift }, (_, i) => ({ id: 1000 + i })), ...records];
        if (result.items.length < perPage) return;
      }
    },
    id: (record) => record.id,
  };
}

async function ids(pages: AsyncIterable<ListPage<{ id: number }>>): Promise<number[]> {
  const out: number[] = [];
  for await (const page of pages) out.push(...page.items.map((r) => r.id));
  return out;
}

describe('listPages', () => {
  it('without paging options reads the first 30 in one request', async () => {
    const s = source(45);
    expect(await ids(listPages(s, {}))).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(s.requests).toEqual(['page=1 per_page=30']);
  });

  it('--page is that one page, of --per-page records', async () => {
    const s = source(45);
    expect(await ids(listPages(s, { page: 2, perPage: 10 }))).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(s.requests).toEqual(['page=2 per_page=10']);
  });

  it('--limit reads pages of at most 200 from the first and cuts the last one short', async () => {
    const s = source(500);
    const listed = await ids(listPages(s, { limit: 250 }));
    expect(listed).toHaveLength(250);
    expect(listed.at(-1)).toBe(250);
    expect(s.requests).toEqual(['page=1 per_page=200', 'page=2 per_page=200']);
  });

  it('--all reads every page, 200 at a time, each record once when the list shifts between pages', async () => {
    const s = source(450, { shift: 3 });
    const listed = await ids(listPages(s, { all: true }));
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toHaveLength(450);
    expect(s.requests[0]).toBe('page=1 per_page=200');
  });
});
