import { describe, expect, it } from 'vitest';
import { startTestSandbox, useSandbox } from '../helpers/sandbox.js';

/** GET /store in the platform's documented shape (platform.md §2, which replaces DESIGN.md §5.19). */

describe('platform.md §2 GET /store', () => {
  const t = useSandbox({ plan: 'c' });

  it('platform.md §2: GET /store → main_language, main_currency, languages keyed by code with active, plan_name', async () => {
    const res = await t.get('/store');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: t.sandbox.storeId,
      name: expect.any(Object),
      plan_name: 'Plan C',
      main_language: expect.any(String),
      main_currency: expect.any(String),
      country: expect.any(String),
    });
    // There is no `plan`, `currency` or language array (platform.md §2).
    expect(res.body).not.toHaveProperty('plan');
    expect(res.body).not.toHaveProperty('currency');
    expect(Array.isArray(res.body.languages)).toBe(false);
    expect(res.body.languages[res.body.main_language]).toMatchObject({ active: true, currency: expect.any(String) });
    expect(res.body.name[res.body.main_language]).toEqual(expect.any(String));
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
      // An empty list is the platform's 404 "Last page is 0" (platform.md §1).
      for (const path of ['/products', '/orders']) {
        const res = await t.get(path);
        expect(res.status, path).toBe(404);
        expect(res.body.description, path).toBe('Last page is 0');
      }
    } finally {
      await t.close();
    }
  });
});
