import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

/**
 * Issue 24 / docs/sandbox.md "Lists": every list reads its timestamp windows (`created_at_min/max`,
 * `updated_at_min/max`) with one parser, like GET /orders: a value that is not a real date (garbage,
 * `2026-02-30`) or a min after its max is a 422 naming the parameter, on every list alike; a valid window filters.
 */

describe('timestamp query parameters of every list', () => {
  const t = useSandbox({ seed: 'demo' });
  const lists: string[] = ['/products', '/orders', '/categories', '/webhooks', '/locations'];

  beforeAll(async () => {
    const product = (await t.get('/products?per_page=1')).body[0];
    const order = (await t.get('/orders?per_page=1')).body[0];
    const hook = await t.post('/webhooks', { event: 'order/created', url: 'https://example.com/hook' });
    expect(hook.status).toBe(201);
    lists.push(`/products/${product.id}/variants`, `/products/${product.id}/images`, `/orders/${order.id}/fulfillment-orders`);
  });

  const bad = ['garbage', '2026-02-30', '2026-13-01', '2026-01-01T25:00:00Z', '2026-01-01T10:00:00+25:00'];
  const fields = ['created_at_min', 'created_at_max', 'updated_at_min', 'updated_at_max'];

  it('answers 422 naming the parameter for a value that is not a real date, on every list', async () => {
    for (const path of lists) {
      for (const field of fields) {
        for (const value of bad) {
          const res = await t.get(`${path}?${field}=${encodeURIComponent(value)}`);
          expect({ path, field, value, status: res.status }).toEqual({ path, field, value, status: 422 });
          expect(res.body.errors).toHaveProperty(field);
        }
      }
    }
  });

  it('answers 422 for a min after its max, on every list', async () => {
    for (const path of lists) {
      const res = await t.get(`${path}?updated_at_min=2026-05-02&updated_at_max=2026-05-01`);
      expect({ path, status: res.status }).toEqual({ path, status: 422 });
      expect(res.body.errors).toHaveProperty('updated_at_min');
    }
  });

  it('a window ending at a record\'s own shown timestamp holds it (times are kept and compared to the second)', async () => {
    // The demo orders are created at times with milliseconds; each shows its second, and the window bound given
    // that second must keep it, on GET /orders as on every list (one comparison, not one per route).
    const orders = (await t.get('/orders?per_page=50')).body as { id: number; created_at: string; updated_at: string }[];
    for (const order of orders) {
      const created = encodeURIComponent(order.created_at);
      const updated = encodeURIComponent(order.updated_at);
      const res = await t.get(`/orders?created_at_min=${created}&created_at_max=${created}&updated_at_min=${updated}&updated_at_max=${updated}&per_page=200`);
      expect({ id: order.id, status: res.status }).toEqual({ id: order.id, status: 200 });
      expect((res.body as { id: number }[]).map((o) => o.id)).toContain(order.id);
    }
  });

  it('filters by a valid window on every list: all of it from the past, nothing from the far future', async () => {
    for (const path of lists) {
      const all = await t.get(path);
      const past = await t.get(`${path}?created_at_min=2000-01-01&updated_at_min=2000-01-01T00:00:00%2B0000`);
      expect({ path, total: past.headers.get('x-total-count') }).toEqual({ path, total: all.headers.get('x-total-count') });
      const future = await t.get(`${path}?created_at_min=2999-01-01T00:00:00Z`);
      expect({ path, status: future.status }).toEqual({ path, status: 404 });
      expect(future.body.description).toBe('Last page is 0');
    }
  });
});
