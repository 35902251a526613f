import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/platform/clock.js';
import { isValidAccessKey } from '../../../src/platform/invoice-key.js';
import { useSandbox } from '../../helpers/sandbox.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const sb = useSandbox({ seed: 'demo', clock: new FakeClock(NOW) });

describe('demo orders', () => {
  it('holds about a hundred orders of the last six weeks in every status, payment status and shipping status', async () => {
    const res = await sb.get('/orders', { query: { per_page: 200 } });
    expect(res.status).toBe(200);
    const orders = res.body as any[];
    expect(orders.length).toBeGreaterThanOrEqual(90);
    expect(new Set(orders.map((o) => o.status))).toEqual(new Set(['open', 'closed', 'cancelled']));
    expect(new Set(orders.map((o) => o.payment_status))).toEqual(new Set(['pending', 'authorized', 'paid', 'abandoned', 'refunded', 'voided']));
    // platform.md §10: the status that follows the shipments, in the current, the v1 and the 2025-03 names.
    expect(new Set(orders.map((o) => o.shipping_status))).toEqual(
      new Set(['unpacked', 'partially_packed', 'packed', 'unshipped', 'unfulfilled', 'partially_fulfilled', 'fulfilled', 'shipped', 'delivered']),
    );
    // Closed orders were paid; shipped ones carry tracking when a carrier took them.
    for (const o of orders.filter((x) => x.status === 'closed')) expect(o.payment_status).toBe('paid');
    expect(orders.some((o) => o.shipping_tracking_number && o.shipping_tracking_url)).toBe(true);
    const times = orders.map((o) => Date.parse(o.created_at.replace(/\+0000$/, '+00:00')));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW - 43 * 86_400_000);
    expect(Math.max(...times)).toBeLessThanOrEqual(NOW);
    expect(new Set(orders.map((o) => o.number)).size).toBe(orders.length);

    const store = sb.sandbox.state.store(sb.sandbox.storeId)!;
    for (const order of orders) {
      expect(order.customer.name).not.toBe('');
      expect(order).not.toHaveProperty('payments');
      expect(order.gateway).toEqual(expect.any(String));
      expect(typeof order.shipping).toBe('string');
      // Some orders send their line numbers as numeric strings, as one documented response does.
      for (const line of order.products) expect(store.findVariant(Number(line.variant_id))).toBeDefined();
    }
    for (const product of store.products.values()) {
      for (const variant of product.variants) for (const level of variant.inventory_levels) expect(level.stock).toBeGreaterThanOrEqual(0);
    }
  });

  it('tracks shipments and carries a couple of valid invoices', async () => {
    const closed = (await sb.get('/orders', { query: { status: 'closed', per_page: 200, aggregates: 'fulfillment_orders' } })).body as any[];
    // A closed order sent by carrier: packed, dispatched with its code, tracked until the delivered event delivered it.
    const sent = closed.flatMap((o) => o.fulfillment_orders).find((fo: any) => fo.shipping.type === 'ship')!;
    expect(sent.status).toBe('DELIVERED');
    expect(sent.status_history.map((h: any) => h.to_status)).toEqual(['UNPACKED', 'PACKED', 'DISPATCHED', 'DELIVERED']);
    expect(sent.tracking_info.code).toMatch(/^TR\d{9}AR$/);
    expect(sent.tracking_events.map((e: any) => e.status)).toEqual(['dispatched', 'in_transit', 'out_for_delivery', 'delivered']);
    expect(sent.fulfilled_at).toBe(sent.tracking_events[3].happened_at);
    // A closed pickup order: made ready at the store and collected, no tracking events.
    const collected = closed.flatMap((o) => o.fulfillment_orders).find((fo: any) => fo.shipping.type === 'pickup')!;
    expect(collected.status_history.map((h: any) => h.to_status)).toEqual(['UNPACKED', 'PACKED', 'READY_FOR_PICKUP', 'DELIVERED']);
    expect(collected.tracking_events).toEqual([]);

    const invoices = (await sb.get('/metafields/orders', { query: { namespace: 'nfe', key: 'list' } })).body as any[];
    expect(invoices.length).toBeGreaterThanOrEqual(2);
    for (const invoice of invoices) {
      const entries = JSON.parse(invoice.value);
      const owned = ((await sb.get(`/orders/${invoice.owner_id}/fulfillment-orders`)).body as any[]).map((f) => f.id);
      for (const entry of entries) {
        expect(isValidAccessKey(entry.key)).toBe(true);
        expect(owned).toContain(entry.fulfillment_order_id);
      }
    }
    // One order holds its invoice the older documented way: nfe/key + nfe/link (platform.md §6).
    const keys = (await sb.get('/metafields/orders', { query: { namespace: 'nfe', key: 'key' } })).body as any[];
    expect(keys).toHaveLength(1);
    expect(isValidAccessKey(keys[0].value)).toBe(true);
    const links = (await sb.get('/metafields/orders', { query: { namespace: 'nfe', key: 'link', owner_id: keys[0].owner_id } })).body as any[];
    expect(links.map((m) => m.value)).toEqual([`https://nfe.example.com/danfe/${keys[0].value}.pdf`]);
    expect(invoices.map((m) => m.owner_id)).not.toContain(keys[0].owner_id);
  });
});
