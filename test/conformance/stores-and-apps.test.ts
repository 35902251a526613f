import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/platform/clock.js';
import { clientFor, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { createLocation, createOrder, createSimpleProduct, expectErrorBody, installApp } from './support.js';

/**
 * Spec §8 "applied separately per store and per application", and spec §2 "store_id equals the user_id of the
 * token exchange", with several stores and apps made through the sandbox's own /sandbox/stores and /sandbox/apps.
 */

async function post(t: TestSandbox, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${t.sandbox.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('sandbox: several stores and apps', () => {
  it('POST /sandbox/apps and /sandbox/stores create apps and stores; bad input → 422 naming the field', async () => {
    const t = await startTestSandbox();
    try {
      const app = await post(t, '/sandbox/apps', { name: 'ERP', scopes: ['read_orders'] });
      expect(app.status).toBe(201);
      expect(app.body).toMatchObject({ name: 'ERP', scopes: ['read_orders'] });
      expect(app.body.client_id).not.toBe(t.sandbox.clientId);
      const store = await post(t, '/sandbox/stores', { name: 'Loja', plan: 'b', languages: ['pt'] });
      expect(store.status).toBe(201);
      expect(store.body).toMatchObject({ name: 'Loja', plan: 'b', languages: ['pt'], main_language: 'pt' });
      expect(store.body.id).not.toBe(t.sandbox.storeId);
      const bad = await post(t, '/sandbox/stores', { name: 'X', plan: 'platinum' });
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.errors)).toEqual(['plan']);
    } finally {
      await t.close();
    }
  });

  it('§2: the token exchange user_id is the store that approved; a token opens only its own store (401 elsewhere)', async () => {
    const t = await startTestSandbox();
    try {
      const store = (await post(t, '/sandbox/stores', { name: 'Second' })).body;
      const app = (await post(t, '/sandbox/apps', { name: 'ERP' })).body;
      const { token, userId } = await installApp(t, app, store.id);
      expect(userId).toBe(store.id);
      const own = await t.get(`${t.sandbox.apiUrl}/v1/${store.id}/store`, { token, headers: { 'user-agent': `ERP (${app.client_id})` } });
      expect(own.status).toBe(200);
      expect(Object.values(own.body.name)).toContain('Second');
      const other = await t.get('/store', { token });
      expect(other.status).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('§5.14: order numbers count from 100 in each store; one store\'s records are 404 through another store', async () => {
    const t = await startTestSandbox();
    try {
      const store = (await post(t, '/sandbox/stores', { name: 'Second' })).body;
      const app = (await post(t, '/sandbox/apps', { name: 'ERP' })).body;
      const { token } = await installApp(t, app, store.id);
      const second = clientFor({ ...t.sandbox, storeId: store.id, accessToken: token, appName: 'ERP', clientId: app.client_id });
      const orders: any[] = [];
      for (const client of [t, second, t, second]) {
        await createLocation(client, 'Main');
        const { variant } = await createSimpleProduct(client, { stock: 5 });
        const res = await createOrder(client, [{ variant_id: variant.id, quantity: 1 }]);
        expect(res.status, res.text).toBe(201);
        orders.push(res.body);
      }
      expect(orders.map((o) => o.number)).toEqual([100, 100, 101, 101]);
      expect(new Set(orders.map((o) => o.id)).size).toBe(4);
      expectErrorBody(await second.get(`/orders/${orders[0].id}`), 404);
      expectErrorBody(await t.get(`/orders/${orders[1].id}`), 404);
      expectErrorBody(await t.post(`/orders/${orders[1].id}/cancel`), 404);
      expect((await second.get(`/orders/${orders[1].id}`)).body.status).toBe('open');
    } finally {
      await t.close();
    }
  });

  it('§8: the bucket is per store and per application — one app exhausting it leaves the other app and store untouched', async () => {
    const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
    const t = await startTestSandbox({ rate: undefined, clock });
    try {
      const app = (await post(t, '/sandbox/apps', { name: 'ERP' })).body;
      const second = await installApp(t, app);
      const store = (await post(t, '/sandbox/stores', { name: 'Second' })).body;
      const onOtherStore = await installApp(t, app, store.id);

      for (let i = 0; i < 40; i++) expect((await t.get('/store')).status).toBe(200);
      const refused = await t.get('/store');
      expect(refused.status).toBe(429);

      const sameStoreOtherApp = await t.get('/store', { token: second.token });
      expect(sameStoreOtherApp.status).toBe(200);
      expect(sameStoreOtherApp.headers.get('x-rate-limit-remaining')).toBe('39');

      const otherStoreSameApp = await t.get(`${t.sandbox.apiUrl}/v1/${store.id}/store`, { token: onOtherStore.token });
      expect(otherStoreSameApp.status).toBe(200);
      expect(otherStoreSameApp.headers.get('x-rate-limit-remaining')).toBe('39');

      // The demo app on the first store is still full.
      expect((await t.get('/store')).status).toBe(429);
    } finally {
      await t.close();
    }
  });
});
