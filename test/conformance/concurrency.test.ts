import { describe, expect, it } from 'vitest';
import { startTestSandbox, useSandbox } from '../helpers/sandbox.js';
import { createLocation, createOrder, createSimpleProduct, reloadedStateMatches, tempStateDir, variantStock } from './support.js';

/** Spec §1 (stock per location) and DESIGN.md §5.14 under concurrent clients. */

describe('concurrent clients', () => {
  const t = useSandbox();

  it('§5.14: 50 concurrent clients ordering a variant with stock 30 → 30 orders, 20 × 422, no lost decrement, no duplicate ids or numbers', async () => {
    await createLocation(t, 'Main');
    const { product, variant } = await createSimpleProduct(t, { stock: 30 });
    const results = await Promise.all(Array.from({ length: 50 }, () => createOrder(t, [{ variant_id: variant.id, quantity: 1 }])));
    const created = results.filter((r) => r.status === 200 || r.status === 201);
    const refused = results.filter((r) => r.status === 422);
    expect(created).toHaveLength(30);
    expect(refused).toHaveLength(20);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(30);
    expect(new Set(created.map((r) => r.body.number)).size).toBe(30);
    expect((await variantStock(t, product.id, variant.id)).stock).toBe(0);
    const listed = await t.get('/orders', { query: { per_page: 200 } });
    expect(Number(listed.headers.get('x-total-count'))).toBe(30);
  });

  it('§5.14: concurrent cancels of one order → exactly one succeeds and the stock is returned once', async () => {
    const { product, variant } = await createSimpleProduct(t, { stock: 5 });
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 2 }])).body;
    const results = await Promise.all(Array.from({ length: 10 }, () => t.post(`/orders/${order.id}/cancel`)));
    expect(results.filter((r) => r.status < 300)).toHaveLength(1);
    expect(results.filter((r) => r.status === 422)).toHaveLength(9);
    expect((await variantStock(t, product.id, variant.id)).stock).toBe(5);
  });
});

describe('concurrent clients on a persisted sandbox', () => {
  it('50 clients mixing writes: no lost stock decrement, no duplicate id of any kind, and the state files replay to the same state', async () => {
    const stateDir = tempStateDir();
    const t = await startTestSandbox({ stateDir });
    try {
      const [north, south] = [await createLocation(t, 'North'), await createLocation(t, 'South')];
      const { product, variant } = await createSimpleProduct(t, {
        inventory_levels: [
          { location_id: north.id, stock: 40 },
          { location_id: south.id, stock: 40 },
        ],
      });
      const ids = { categories: [] as number[], products: [] as number[], orders: [] as number[], numbers: [] as number[] };
      let kept = 0;
      const client = async (c: number) => {
        for (let round = 0; round < 3; round++) {
          const category = await t.post('/categories', { name: `c${c}-${round}` });
          if (category.status === 201) ids.categories.push(category.body.id);
          const made = await createSimpleProduct(t, { stock: 1 });
          ids.products.push(made.product.id);
          const order = await createOrder(t, [{ variant_id: variant.id, quantity: 1 }]);
          if (order.status !== 201) continue;
          ids.orders.push(order.body.id);
          ids.numbers.push(order.body.number);
          // Every third order is cancelled again, which puts its unit back where it came from.
          if ((c + round) % 3 === 0) expect((await t.post(`/orders/${order.body.id}/cancel`)).status).toBe(200);
          else kept += 1;
        }
      };
      await Promise.all(Array.from({ length: 50 }, (_, c) => client(c)));

      expect(ids.categories).toHaveLength(150);
      for (const list of Object.values(ids)) expect(new Set(list).size).toBe(list.length);
      expect(ids.orders.length).toBeGreaterThanOrEqual(80);
      const after = await variantStock(t, product.id, variant.id);
      expect(after.stock).toBe(80 - kept);
      const levels = after.inventory_levels.reduce((sum: number, l: { stock: number }) => sum + l.stock, 0);
      expect(levels).toBe(after.stock);
      expect(reloadedStateMatches(t.sandbox, stateDir)).toBe(true);
    } finally {
      await t.close();
    }
    // After a clean stop the snapshot alone brings everything back.
    const again = await startTestSandbox({ stateDir });
    try {
      expect(Number((await again.get('/categories')).headers.get('x-total-count'))).toBe(150);
      expect(Number((await again.get('/products')).headers.get('x-total-count'))).toBe(151);
    } finally {
      await again.close();
    }
  });
});
