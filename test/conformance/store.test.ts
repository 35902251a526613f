import { describe, expect, it } from 'vitest';
import { startTestSandbox, useSandbox } from '../helpers/sandbox.js';

/** DESIGN.md §5.19 (added): GET /store. */

describe('DESIGN.md §5.19 GET /store (added)', () => {
  const t = useSandbox({ plan: 'c' });

  it('§5.19: GET /store → {id, name, plan, languages, main_language, currency, country}', async () => {
    const res = await t.get('/store');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: t.sandbox.storeId,
      name: expect.any(String),
      plan: 'c',
      languages: expect.any(Array),
      main_language: expect.any(String),
      currency: expect.any(String),
      country: expect.any(String),
    });
    expect(res.body.languages).toContain(res.body.main_language);
  });

  it('§2: store_id is an integer', async () => {
    expect(Number.isInteger(t.sandbox.storeId)).toBe(true);
  });
});

describe('sandbox seeds (DESIGN.md §6)', () => {
  it('§6 --seed demo: locations, a category tree, products with variants and about a hundred orders in every status', async () => {
    const t = await startTestSandbox({ seed: 'demo' });
    try {
      const locations = await t.get('/locations');
      expect(locations.body.length).toBeGreaterThan(0);
      const categories = await t.get('/categories', { query: { per_page: 200 } });
      expect(categories.body.some((c: any) => c.parent !== null)).toBe(true);
      const products = await t.get('/products', { query: { per_page: 200 } });
      expect(products.body.some((p: any) => p.variants.length > 1)).toBe(true);
      const total = Number((await t.get('/orders')).headers.get('x-total-count'));
      expect(total).toBeGreaterThanOrEqual(50);
      for (const status of ['open', 'paid', 'closed', 'cancelled']) {
        const res = await t.get('/orders', { query: { status } });
        expect(Number(res.headers.get('x-total-count')), status).toBeGreaterThan(0);
      }
    } finally {
      await t.close();
    }
  });

  it('§6 --seed empty: no catalog and no orders', async () => {
    const t = await startTestSandbox({ seed: 'empty' });
    try {
      expect((await t.get('/products')).body).toEqual([]);
      expect((await t.get('/orders')).body).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
