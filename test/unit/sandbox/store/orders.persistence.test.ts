import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../src/platform/clock.js';
import { makeAccessKey } from '../../../../src/platform/invoice-key.js';
import { createStore } from '../../../../src/sandbox/store/stores.js';
import { SandboxState } from '../../../../src/sandbox/state.js';
import { startTestSandbox } from '../../../helpers/sandbox.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('orders survive a restart', () => {
  it('replays orders, fulfillment orders with tracking, metafields and webhooks from the journal', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-orders-'));
    dirs.push(stateDir);
    const first = await startTestSandbox({ seed: 'demo', stateDir });
    const store = first.sandbox.state.store(first.sandbox.storeId)!;
    const variant = store.products.list().flatMap((p) => p.variants).find((v) => v.stock_management && v.inventory_levels.some((l) => l.stock > 2))!;
    const order = (await first.post('/orders', { customer: { name: 'Eva' }, products: [{ variant_id: variant.id, quantity: 2 }] })).body;
    const fo = (await first.get(`/orders/${order.id}/fulfillment-orders`)).body[0];
    // Tracking events start once the shipment is dispatched (platform.md §10).
    await first.patch(`/orders/${order.id}/fulfillment-orders/${fo.id}`, { status: 'DISPATCHED', tracking_info: { code: 'TR1' } });
    const event = (await first.post(`/orders/${order.id}/fulfillment-orders/${fo.id}/tracking-events`, {
      status: 'dispatched',
      happened_at: '2026-11-20T10:00:00+00:00',
    })).body;
    const invoice = JSON.stringify([{ key: makeAccessKey(), link: 'https://nfe.example.com/1', fulfillment_order_id: fo.id }]);
    const mf = (await first.post('/metafields', { namespace: 'nfe', key: 'list', value: invoice, owner_resource: 'Order', owner_id: order.id })).body;
    const hook = (await first.post('/webhooks', { event: 'order/paid', url: 'https://erp.example.com/hooks' })).body;
    await first.put(`/orders/${order.id}`, { status: 'paid', owner_note: 'kept' });
    const stockBefore = JSON.stringify(store.findVariant(variant.id)!.variant.inventory_levels);
    await first.close();

    const second = await startTestSandbox({ stateDir });
    try {
      expect((await second.get(`/orders/${order.id}`)).body).toMatchObject({ status: 'open', payment_status: 'paid', owner_note: 'kept', number: order.number });
      const fos = (await second.get(`/orders/${order.id}/fulfillment-orders`)).body;
      expect(fos[0]).toMatchObject({ id: fo.id, status: 'DISPATCHED', tracking_info: { code: 'TR1' }, tracking_events: [{ id: event.id }] });
      expect(fos[0].status_history.map((h: any) => h.to_status)).toEqual(['UNPACKED', 'DISPATCHED']);
      expect((await second.get(`/orders/${order.id}`)).body.shipping_status).toBe('fulfilled');
      expect((await second.get(`/metafields/${mf.id}`)).body.value).toBe(invoice);
      expect((await second.get('/webhooks')).body.map((w: any) => w.id)).toContain(hook.id);
      const restored = second.sandbox.state.store(second.sandbox.storeId)!.findVariant(variant.id)!.variant;
      expect(JSON.stringify(restored.inventory_levels)).toBe(stockBefore);
      // Counters continue: the next order gets the next number.
      const next = (await second.post('/orders', { customer: { name: 'Eva' }, products: [{ variant_id: variant.id, quantity: 1 }] })).body;
      expect(next.number).toBeGreaterThan(order.number);
      // Cancel after the restart still knows where the units came from: the 2 return, the later order keeps 1.
      await second.post(`/orders/${order.id}/cancel`);
      const afterCancel = second.sandbox.state.store(second.sandbox.storeId)!.findVariant(variant.id)!.variant;
      expect(afterCancel.inventory_levels.reduce((n, l) => n + l.stock, 0)).toBe(
        JSON.parse(stockBefore).reduce((n: number, l: any) => n + l.stock, 0) - 1 + 2,
      );
    } finally {
      await second.close();
    }
  });
});

describe('order ids are unique across stores', () => {
  it('a state whose stores counted order ids each on their own continues past the highest, then counts once for all', () => {
    const state = new SandboxState(new FakeClock(0));
    const store = { plan: 'enterprise', languages: ['es'], main_language: 'es' };
    const [a, b] = state
      .mutate('stores', (tx) => [createStore(tx, state, { ...store, name: 'A' }), createStore(tx, state, { ...store, name: 'B' })])
      .map((id) => state.store(id)!);
    // As a journal written before order ids were shared would have left them.
    a!.counters.order = 1_000_000_007;
    b!.counters.order = 1_000_000_042;
    const ids = state.mutate('orders', (tx) => [tx.nextSharedId('order', 1_000_000_001), tx.nextSharedId('order', 1_000_000_001)]);
    expect(ids).toEqual([1_000_000_043, 1_000_000_044]);
    expect(state.meta.order).toBe(1_000_000_044);
  });
});
