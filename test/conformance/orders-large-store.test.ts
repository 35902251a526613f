import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/replay-server.js';
import { errorShape, startTestSandbox, useSandbox } from '../helpers/sandbox.js';

/**
 * platform.md §9 (the cap of 10,000 results per GET /orders query), §4 (every filter, `fields=` with `number` as
 * a string), and the sandbox's large store (`--orders N`, docs/sandbox.md "A large store").
 */

const ORDERS = 10_250;

describe('a sandbox seeded with 10,250 orders', () => {
  const t = useSandbox({ orders: ORDERS });

  it('has them all, newest first, spread over the last year, in whole seconds', async () => {
    const first = await t.get('/orders', { query: { per_page: 200 } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total-count')).toBe(String(ORDERS));
    const times = first.body.map((o: any) => Date.parse(o.created_at));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]);
    const oldest = await t.get('/orders', { query: { per_page: 1, created_at_max: new Date(Date.now() - 300 * 86_400_000).toISOString() } });
    expect(Number(oldest.headers.get('x-total-count'))).toBeGreaterThan(0);
    expect(first.body[0].products.length).toBeGreaterThan(0);
    expect(first.body[0].customer.email).toMatch(/@example\.com$/);
  });

  it('serves the pages up to the 10,000th result and refuses the page that reaches past it (422)', async () => {
    const last = await t.get('/orders', { query: { per_page: 200, page: 50 } });
    expect(last.status).toBe(200);
    expect(last.body).toHaveLength(200);
    for (const query of [{ per_page: 200, page: 51 }, { per_page: 30, page: 334 }, { per_page: 1, page: 10_001 }]) {
      const past = await t.get('/orders', { query });
      expect(past.status).toBe(422);
      expect(past.body).toEqual({ ...errorShape(422), description: 'Query results are limited to 10000 items' });
      expect(past.body).toEqual(fixture('error-422-order-query-limit.json'));
    }
    // Below the cap with a filter: every page is served.
    const open = await t.get('/orders', { query: { per_page: 200, status: 'open' } });
    const openTotal = Number(open.headers.get('x-total-count'));
    expect(openTotal).toBeLessThan(10_000);
    const lastOpen = await t.get('/orders', { query: { per_page: 200, status: 'open', page: Math.ceil(openTotal / 200) } });
    expect(lastOpen.status).toBe(200);
  });

  it('fields= answers only those fields, number as a numeric string', async () => {
    const res = await t.get('/orders', { query: { per_page: 3, fields: 'id,number,total,no_such_field' } });
    expect(res.status).toBe(200);
    for (const order of res.body) {
      expect(Object.keys(order)).toEqual(['id', 'number', 'total']);
      expect(order.number).toMatch(/^\d+$/);
      expect(typeof order.id).toBe('number');
    }
    expect(res.headers.get('x-total-count')).toBe(String(ORDERS));
  });

  it('honours channels, payment_methods and payment_provider, and refuses values it cannot read', async () => {
    const all = await t.get('/orders', { query: { per_page: 200, fields: 'id,storefront,gateway,payment_details' } });
    const pos = await t.get('/orders', { query: { per_page: 200, channels: 'pos,meli', fields: 'id,storefront' } });
    expect(pos.status).toBe(200);
    expect(pos.body.length).toBeGreaterThan(0);
    expect(pos.body.every((o: any) => o.storefront === 'pos' || o.storefront === 'meli')).toBe(true);
    const cards = await t.get('/orders', { query: { per_page: 200, payment_methods: 'credit_card', payment_provider: 'pagonube', fields: 'id,gateway,payment_details' } });
    expect(cards.body.length).toBeGreaterThan(0);
    expect(cards.body.every((o: any) => o.gateway === 'pagonube' && o.payment_details.method === 'credit_card')).toBe(true);
    expect(all.body.some((o: any) => o.gateway !== 'pagonube')).toBe(true);
    const bad = await t.get('/orders', { query: { channels: 'store;drop' } });
    expect(bad.status).toBe(422);
    expect(bad.body.description).toMatch(/^channels: /);
  });

  it('compares created_at and updated_at filters to the second the time falls in', async () => {
    const [order] = (await t.get('/orders', { query: { per_page: 1 } })).body;
    const exact = await t.get('/orders', { query: { created_at_min: order.created_at, created_at_max: order.created_at, fields: 'id' } });
    expect(exact.body.map((o: any) => o.id)).toContain(order.id);
  });
});

describe('sandbox --orders N on a state directory', () => {
  it('journals the orders in batches: a restart has every one of them', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'sandbox-orders-'));
    const first = await startTestSandbox({ stateDir, orders: 2500 });
    const before = await first.get('/orders', { query: { per_page: 1 } });
    await first.close();
    const again = await startTestSandbox({ stateDir });
    try {
      const after = await again.get('/orders', { query: { per_page: 1 } });
      expect(after.headers.get('x-total-count')).toBe('2500');
      expect(after.body[0].id).toBe(before.body[0].id);
    } finally {
      await again.close();
    }
  });

  it('store sandbox reset --orders N (the offline reset of the shared sandbox) restores the demo data plus N orders', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'sandbox-reset-orders-'));
    const first = await startTestSandbox({ stateDir, seed: 'demo' });
    const demo = Number((await first.get('/orders', { query: { per_page: 1 } })).headers.get('x-total-count'));
    await first.close();
    const { resetStateDir } = await import('../../src/sandbox/state-dir.js');
    await resetStateDir(stateDir, { orders: 1200 });
    const again = await startTestSandbox({ stateDir });
    try {
      const after = await again.get('/orders', { query: { per_page: 1 } });
      expect(Number(after.headers.get('x-total-count'))).toBe(demo + 1200);
    } finally {
      await again.close();
    }
  });
});
