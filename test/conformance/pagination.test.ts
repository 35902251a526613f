import { beforeAll, describe, expect, it } from 'vitest';
import { errorShape, useSandbox } from '../helpers/sandbox.js';

/** Spec §4 "Pagination and list conventions", §8 (per_page, page numbering), DESIGN.md §5.4. */

function links(header: string | null): Record<string, URL> {
  const result: Record<string, URL> = {};
  for (const part of (header ?? '').split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?([a-z]+)"?/.exec(part);
    if (m) result[m[2]!] = new URL(m[1]!);
  }
  return result;
}

describe('spec §4 pagination and list conventions', () => {
  const t = useSandbox();
  const TOTAL = 65;

  beforeAll(async () => {
    for (let i = 0; i < TOTAL; i++) {
      const res = await t.post('/categories', { name: `Category ${String(i).padStart(2, '0')}` });
      expect([200, 201]).toContain(res.status);
    }
  });

  it('§4 x-total-count: response header with the total number of items', async () => {
    const res = await t.get('/categories');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe(String(TOTAL));
  });

  it('§5.4: without page parameters the first page (per_page default 30) is returned', async () => {
    const res = await t.get('/categories');
    expect(res.body).toHaveLength(30);
  });

  it('§4 page: integer starting at 1; page 1 is the default', async () => {
    const implicit = await t.get('/categories');
    const explicit = await t.get('/categories', { query: { page: 1 } });
    expect(explicit.body.map((c: any) => c.id)).toEqual(implicit.body.map((c: any) => c.id));
  });

  it('§4 per_page: pages partition the list without overlap', async () => {
    const ids: number[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await t.get('/categories', { query: { page, per_page: 20 } });
      expect(res.status).toBe(200);
      ids.push(...res.body.map((c: any) => c.id));
    }
    expect(ids).toHaveLength(TOTAL);
    expect(new Set(ids).size).toBe(TOTAL);
  });

  it('§4 Link: absolute URLs of next, prev, first and last pages', async () => {
    const res = await t.get('/categories', { query: { page: 2, per_page: 20 } });
    const l = links(res.headers.get('link'));
    expect(l.next?.searchParams.get('page')).toBe('3');
    expect(l.prev?.searchParams.get('page')).toBe('1');
    expect(l.first?.searchParams.get('page')).toBe('1');
    expect(l.last?.searchParams.get('page')).toBe('4');
    expect(l.next?.searchParams.get('per_page')).toBe('20');
    expect(l.next?.origin).toBe(t.sandbox.apiUrl);
    const followed = await t.get(l.next!.toString());
    expect(followed.status).toBe(200);
    expect(followed.body).toHaveLength(20);
  });

  it('§4 Link: the last page has no next; the first page has no prev', async () => {
    const last = links((await t.get('/categories', { query: { page: 4, per_page: 20 } })).headers.get('link'));
    expect(last.next).toBeUndefined();
    expect(last.prev).toBeDefined();
    const first = links((await t.get('/categories', { query: { page: 1, per_page: 20 } })).headers.get('link'));
    expect(first.prev).toBeUndefined();
    expect(first.next).toBeDefined();
  });

  it('§8 limit: per_page at most 200 (200 accepted, 201 → 422)', async () => {
    expect((await t.get('/categories', { query: { per_page: 200 } })).status).toBe(200);
    const res = await t.get('/categories', { query: { per_page: 201 } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
    expect(res.body.errors.per_page).toBeDefined();
  });

  it('§8 limit: page numbering starts at 1 (page=0 → 422)', async () => {
    const res = await t.get('/categories', { query: { page: 0 } });
    expect(res.status).toBe(422);
    expect(res.body.errors.page).toBeDefined();
  });

  it('§5.4: a page past the last → 404 "Last page is N"', async () => {
    const res = await t.get('/categories', { query: { page: 5, per_page: 20 } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject(errorShape(404));
    expect(res.body.description).toMatch(/Last page is 4/);
  });

  it('§5.4: non-integer page parameters → 422', async () => {
    expect((await t.get('/categories', { query: { page: 'two' } })).status).toBe(422);
    expect((await t.get('/categories', { query: { per_page: '-5' } })).status).toBe(422);
  });
});

describe('platform.md §1 empty lists', () => {
  const t = useSandbox();

  it('platform.md §1: an empty list answers 404 "Last page is 0" in the error body', async () => {
    const res = await t.get('/webhooks');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, message: 'Not Found', description: 'Last page is 0' });
  });

  it('platform.md §1: a filter that matches nothing is the same 404', async () => {
    const res = await t.get('/orders', { query: { status: 'closed' } });
    expect(res.status).toBe(404);
    expect((res.body as { description: string }).description).toBe('Last page is 0');
  });

  it('§5.4: every non-empty list endpoint has x-total-count and Link; empty ones are the 404', async () => {
    await t.post('/products', { name: 'Pagination' });
    for (const path of ['/locations', '/categories', '/products', '/orders', '/webhooks', '/products/variants/custom-fields']) {
      const res = await t.get(path);
      if (res.status === 404) {
        expect((res.body as { description: string }).description, path).toBe('Last page is 0');
        continue;
      }
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-total-count'), path).not.toBeNull();
      expect(links(res.headers.get('link')).first, path).toBeDefined();
    }
  });
});
