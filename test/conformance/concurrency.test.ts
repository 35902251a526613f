import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { createLocation, createOrder, createSimpleProduct, variantStock } from './support.js';

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
