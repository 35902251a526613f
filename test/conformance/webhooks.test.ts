import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, useSandbox } from '../helpers/sandbox.js';
import { createLocation, createOrder, createSimpleProduct, expectCreated, expectOk, installApp } from './support.js';

/** Spec §2 Webhook, §4 Webhooks, §6 Events; DESIGN.md §5.17 and the documented events of platform.md §7. */

interface Delivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
}

/** A loopback receiver; `status` decides each answer (by attempt number per delivery id). */
class Receiver {
  readonly deliveries: Delivery[] = [];
  private server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const delivery = { path: req.url ?? '/', headers: req.headers, raw, body: safeJson(raw) };
      this.deliveries.push(delivery);
      res.statusCode = this.answer(delivery, this.deliveries);
      res.end('ok');
    });
  });
  answer: (d: Delivery, all: Delivery[]) => number = () => 200;
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Waits until `predicate` holds for the deliveries seen so far (polling; a bound only against hangs). */
  async waitFor(predicate: (all: Delivery[]) => boolean, timeoutMs = 10_000): Promise<Delivery[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.deliveries)) {
      if (Date.now() > deadline) throw new Error(`no matching delivery; got ${JSON.stringify(this.deliveries.map((d) => [d.path, d.body]))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.deliveries;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

describe('spec §4 Webhooks', () => {
  const t = useSandbox({ webhookRetryBaseMs: 20 });
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
    await createLocation(t, 'Main');
  });
  afterAll(async () => {
    await receiver.stop();
  });

  it('§4 POST /webhooks {event, url, headers} → the created webhook (integer id)', async () => {
    const res = await t.post('/webhooks', { event: 'order/created', url: `${receiver.url}/created`, headers: { 'x-team': 'erp' } });
    expectCreated(res);
    expect(Number.isInteger(res.body.id)).toBe(true);
    expect(res.body).toMatchObject({ event: 'order/created', url: `${receiver.url}/created`, headers: { 'x-team': 'erp' } });
  });

  it('§4 GET /webhooks → the webhooks of the store', async () => {
    const res = await t.get('/webhooks');
    expect(res.status).toBe(200);
    expect(res.body.some((w: any) => w.url === `${receiver.url}/created`)).toBe(true);
  });

  it('§4 PUT /webhooks/{id} url and/or headers → the updated webhook', async () => {
    const hook = (await t.post('/webhooks', { event: 'product/created', url: `${receiver.url}/p1` })).body;
    const res = await t.put(`/webhooks/${hook.id}`, { url: `${receiver.url}/p2`, headers: { 'x-a': 'b' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: hook.id, event: 'product/created', url: `${receiver.url}/p2`, headers: { 'x-a': 'b' } });
    const only = await t.put(`/webhooks/${hook.id}`, { headers: { 'x-c': 'd' } });
    expect(only.body.url).toBe(`${receiver.url}/p2`);
  });

  it('§4 DELETE /webhooks/{id} → removed; unknown → 404', async () => {
    const hook = (await t.post('/webhooks', { event: 'category/created', url: `${receiver.url}/c` })).body;
    expectOk(await t.del(`/webhooks/${hook.id}`));
    expect((await t.get('/webhooks')).body.some((w: any) => w.id === hook.id)).toBe(false);
    const again = await t.del(`/webhooks/${hook.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject(errorShape(404));
    expect((await t.put('/webhooks/987654321', { url: `${receiver.url}/x` })).status).toBe(404);
  });

  it('platform.md §7: an unknown event → 422 errors.event naming the events it allows', async () => {
    const res = await t.post('/webhooks', { event: 'order/exploded', url: `${receiver.url}/x` });
    expect(res.status).toBe(422);
    expect(res.body.errors.event[0]).toMatch(/^must be one of app\/uninstalled, .*order\/packed, .*theme\/updated/);
  });

  it('§5.17: url must be https, or http on loopback → 422 otherwise', async () => {
    expect((await t.post('/webhooks', { event: 'order/created', url: 'http://example.com/hook' })).status).toBe(422);
    expect((await t.post('/webhooks', { event: 'order/created', url: 'not a url' })).status).toBe(422);
    const https = await t.post('/webhooks', { event: 'order/paid', url: 'https://example.com/hook' });
    expectCreated(https);
    await t.del(`/webhooks/${https.body.id}`);
  });

  it('platform.md §7: every documented event is accepted', async () => {
    const events = [
      'app/uninstalled', 'app/suspended', 'app/resumed',
      'category/created', 'category/updated', 'category/deleted',
      'order/created', 'order/updated', 'order/paid', 'order/packed', 'order/fulfilled', 'order/cancelled',
      'order/edited', 'order/pending', 'order/voided', 'order/unpacked',
      'product/created', 'product/updated', 'product/deleted',
      'domain/updated', 'theme/updated', 'cart/created', 'cart/updated',
      'location/created', 'location/updated', 'location/deleted',
      'fulfillment_order/status_updated',
      'fulfillment_order/tracking_event_created', 'fulfillment_order/tracking_event_updated', 'fulfillment_order/tracking_event_deleted',
    ];
    for (const event of events) {
      const res = await t.post('/webhooks', { event, url: `https://hooks.example.com/${event}` });
      expect([200, 201], `${event}: ${res.text}`).toContain(res.status);
      await t.del(`/webhooks/${res.body.id}`);
    }
  });

  it('§6 order/created: POST {store_id, event, id} to the url with the registered headers', async () => {
    const { variant } = await createSimpleProduct(t, { stock: 10 });
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    const all = await receiver.waitFor((ds) => ds.some((d) => d.path === '/created' && d.body?.id === order.id));
    const d = all.find((x) => x.path === '/created' && x.body?.id === order.id)!;
    expect(d.body).toEqual({ store_id: t.sandbox.storeId, event: 'order/created', id: order.id });
    expect(d.headers['x-team']).toBe('erp');
    expect(d.headers['content-type']).toMatch(/application\/json/);
  });

  it('§5.17: x-linkedstore-hmac-sha256 = hex HMAC-SHA256 of the raw body with the client secret; x-store-delivery-id set', async () => {
    const d = receiver.deliveries.find((x) => x.path === '/created')!;
    expect(d).toBeDefined();
    const expected = createHmac('sha256', t.sandbox.clientSecret).update(d.raw).digest('hex');
    expect(d.headers['x-linkedstore-hmac-sha256']).toBe(expected);
    expect(d.headers['x-store-delivery-id']).toBeTruthy();
  });

  it('§5.17 app/uninstalled: the owner uninstalls an app → signed {store_id, event, id: app id}, its token 401, its webhooks gone', async () => {
    const admin = (path: string, body: unknown) =>
      fetch(`${t.sandbox.apiUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const app = (await (await admin('/sandbox/apps', { name: 'ERP' })).json()) as { client_id: string; client_secret: string };
    const { token } = await installApp(t, app);
    expectCreated(await t.post('/webhooks', { event: 'app/uninstalled', url: `${receiver.url}/uninstalled` }, { token }));
    expectCreated(await t.post('/webhooks', { event: 'order/created', url: `${receiver.url}/erp-orders` }, { token }));

    const uninstall = await admin(`/sandbox/apps/${app.client_id}/uninstall`, {});
    expect(uninstall.status).toBe(200);
    expect(await uninstall.json()).toEqual({ store_id: t.sandbox.storeId, app_id: app.client_id, tokens_revoked: 1, webhooks_removed: 2 });
    const all = await receiver.waitFor((ds) => ds.some((d) => d.path === '/uninstalled'));
    const d = all.find((x) => x.path === '/uninstalled')!;
    expect(d.body).toEqual({ store_id: t.sandbox.storeId, event: 'app/uninstalled', id: Number(app.client_id) });
    expect(d.headers['x-linkedstore-hmac-sha256']).toBe(createHmac('sha256', app.client_secret).update(d.raw).digest('hex'));

    expect((await t.get('/store', { token })).status).toBe(401);
    expect((await t.get('/store')).status).toBe(200); // the other app keeps its token
    const { token: again } = await installApp(t, app);
    // None left: the platform's empty list (platform.md §1).
    const none = await t.get('/webhooks', { token: again });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ description: 'Last page is 0' });

    // Not installed any more, unknown, or the demo app the CLI works through: refused.
    await admin(`/sandbox/apps/${app.client_id}/uninstall`, {});
    const twice = await admin(`/sandbox/apps/${app.client_id}/uninstall`, {});
    expect(twice.status).toBe(422);
    expect((await twice.json()).errors).toEqual({ client_id: ['is not installed on this store'] });
    expect((await admin('/sandbox/apps/999999/uninstall', {})).status).toBe(404);
    expect((await admin(`/sandbox/apps/${t.sandbox.clientId}/uninstall`, {})).status).toBe(422);
  });

  it('§5.17: a non-2xx answer is retried with the same x-store-delivery-id', async () => {
    await t.post('/webhooks', { event: 'order/updated', url: `${receiver.url}/flaky` });
    receiver.answer = (d, all) =>
      d.path === '/flaky' && all.filter((x) => x.path === '/flaky').length < 3 ? 500 : 200;
    const { variant } = await createSimpleProduct(t, { stock: 10 });
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    expect((await t.put(`/orders/${order.id}`, { owner_note: 'retry me' })).status).toBe(200);
    const all = await receiver.waitFor((ds) => ds.filter((x) => x.path === '/flaky').length >= 3);
    const flaky = all.filter((x) => x.path === '/flaky');
    expect(new Set(flaky.map((x) => x.headers['x-store-delivery-id'])).size).toBe(1);
    expect(flaky.every((x) => x.body.id === order.id && x.body.event === 'order/updated')).toBe(true);
    receiver.answer = () => 200;
  });

  it('§5.17: order/cancelled and order/paid are announced', async () => {
    await t.post('/webhooks', { event: 'order/cancelled', url: `${receiver.url}/cancelled` });
    await t.post('/webhooks', { event: 'order/paid', url: `${receiver.url}/paid` });
    const { variant } = await createSimpleProduct(t, { stock: 10 });
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    await t.put(`/orders/${order.id}`, { status: 'paid' });
    await t.post(`/orders/${order.id}/cancel`);
    await receiver.waitFor((ds) => ds.some((d) => d.path === '/paid' && d.body.id === order.id));
    await receiver.waitFor((ds) => ds.some((d) => d.path === '/cancelled' && d.body.id === order.id));
  });

  it('§5.17: product, category and location events carry the resource id (ULID string for locations)', async () => {
    await t.post('/webhooks', { event: 'product/created', url: `${receiver.url}/product` });
    await t.post('/webhooks', { event: 'category/created', url: `${receiver.url}/category` });
    await t.post('/webhooks', { event: 'location/created', url: `${receiver.url}/location` });
    const { product } = await createSimpleProduct(t);
    const category = (await t.post('/categories', { name: 'Hooked' })).body;
    const location = await createLocation(t, 'Hooked');
    await receiver.waitFor((ds) => ds.some((d) => d.path === '/product' && d.body.id === product.id));
    await receiver.waitFor((ds) => ds.some((d) => d.path === '/category' && d.body.id === category.id));
    await receiver.waitFor((ds) => ds.some((d) => d.path === '/location' && d.body.id === location.id));
  });

  it('§5.17: every updated/deleted event of products, categories, locations and tracking events is delivered with its id', async () => {
    const events = [
      'product/updated', 'product/deleted', 'category/updated', 'category/deleted', 'location/updated', 'location/deleted',
      'fulfillment_order/tracking_event_updated', 'fulfillment_order/tracking_event_deleted',
    ];
    for (const event of events) expectCreated(await t.post('/webhooks', { event, url: `${receiver.url}/all/${event}` }));
    const { product } = await createSimpleProduct(t, { stock: 5 });
    expectOk(await t.put(`/products/${product.id}`, { name: 'Renamed' }));
    expectOk(await t.del(`/products/${product.id}`));
    const category = (await t.post('/categories', { name: 'Short lived' })).body;
    expectOk(await t.put(`/categories/${category.id}`, { name: 'Renamed' }));
    expectOk(await t.del(`/categories/${category.id}`));
    const location = await createLocation(t, 'Short lived');
    expectOk(await t.put(`/locations/${location.id}`, { name: 'Renamed' }));
    expectOk(await t.del(`/locations/${location.id}`));
    const { variant: other } = await createSimpleProduct(t, { stock: 5 });
    const order = (await createOrder(t, [{ variant_id: other.id, quantity: 1 }])).body;
    const fo = (await t.get(`/orders/${order.id}/fulfillment-orders`)).body[0];
    expectOk(await t.patch(`/orders/${order.id}/fulfillment-orders/${fo.id}`, { status: 'DISPATCHED' }));
    const path = `/orders/${order.id}/fulfillment-orders/${fo.id}/tracking-events`;
    const tracking = (await t.post(path, { status: 'dispatched', happened_at: '2026-11-21T14:05:00+00:00' })).body;
    expectOk(await t.put(`${path}/${tracking.id}`, { status: 'in_transit', happened_at: '2026-11-22T09:00:00+00:00' }));
    expectOk(await t.del(`${path}/${tracking.id}`));
    const expected: Record<string, number | string> = {
      'product/updated': product.id,
      'product/deleted': product.id,
      'category/updated': category.id,
      'category/deleted': category.id,
      'location/updated': location.id,
      'location/deleted': location.id,
    };
    for (const [event, id] of Object.entries(expected)) {
      await receiver.waitFor((ds) => ds.some((d) => d.path === `/all/${event}` && d.body.event === event && d.body.id === id));
    }
    // platform.md §10: the fulfillment_order/* bodies name the order, the shipment and the event, not an `id`.
    for (const event of ['fulfillment_order/tracking_event_updated', 'fulfillment_order/tracking_event_deleted']) {
      const all = await receiver.waitFor((ds) => ds.some((d) => d.path === `/all/${event}`));
      expect(all.find((d) => d.path === `/all/${event}`)!.body).toEqual({
        store_id: t.sandbox.storeId,
        event,
        order_id: order.id,
        fulfillment_id: fo.id,
        status: 'DISPATCHED',
        tracking_event_id: tracking.id,
      });
    }
  });

  it('platform.md §7: a webhook record without custom headers is sent without `headers`', async () => {
    const res = await t.post('/webhooks', { event: 'cart/created', url: `${receiver.url}/cart` });
    expectCreated(res);
    expect(res.body).not.toHaveProperty('headers');
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'event', 'id', 'updated_at', 'url']);
  });

  it('platform.md §10: each move of a shipment (a PATCH, a delivered event) announces fulfillment_order/status_updated {store_id, event, order_id, fulfillment_id, status}', async () => {
    await t.post('/webhooks', { event: 'fulfillment_order/status_updated', url: `${receiver.url}/fo-status` });
    const { variant } = await createSimpleProduct(t, { stock: 10 });
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    const fo = (await t.get(`/orders/${order.id}/fulfillment-orders`)).body[0];
    const path = `/orders/${order.id}/fulfillment-orders/${fo.id}`;
    expectOk(await t.patch(path, { status: 'PACKED' }));
    expectOk(await t.patch(path, { status: 'DISPATCHED', tracking_info: { code: 'BR1', url: 'https://track.example/BR1' } }));
    // in_transit keeps it DISPATCHED, and a tracking_info change alone moves nothing: no notification for them.
    expectOk(await t.post(`${path}/tracking-events`, { status: 'in_transit', happened_at: '2026-11-21T15:05:00+00:00' }));
    expectOk(await t.patch(path, { tracking_info: { code: 'BR2' } }));
    expectOk(await t.post(`${path}/tracking-events`, { status: 'delivered', happened_at: '2026-11-22T15:05:00+00:00' }));
    const mine = (all: { path: string; body: any }[]) => all.filter((d) => d.path === '/fo-status' && d.body.fulfillment_id === fo.id);
    await receiver.waitFor((ds) => mine(ds).length >= 3);
    await new Promise((r) => setTimeout(r, 100));
    const body = (status: string) => ({ store_id: t.sandbox.storeId, event: 'fulfillment_order/status_updated', order_id: order.id, fulfillment_id: fo.id, status });
    expect(mine(receiver.deliveries).map((d) => d.body)).toEqual([body('PACKED'), body('DISPATCHED'), body('DELIVERED')]);
  });

  it('platform.md §7: POST /sandbox/events emits what no API request causes: theme/updated {store_id, event, old_theme, new_theme}, domain/updated without id, order/packed with the order id', async () => {
    for (const event of ['theme/updated', 'domain/updated', 'order/packed']) {
      expectCreated(await t.post('/webhooks', { event, url: `${receiver.url}/admin/${event}` }));
    }
    const emit = (body: unknown) =>
      fetch(`${t.sandbox.apiUrl}/sandbox/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const { variant } = await createSimpleProduct(t, { stock: 10 });
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    expect((await emit({ event: 'theme/updated' })).status).toBe(200);
    expect((await emit({ event: 'domain/updated' })).status).toBe(200);
    expect(await (await emit({ event: 'order/packed', id: order.id })).json()).toEqual({ store_id: t.sandbox.storeId, event: 'order/packed', id: order.id });
    const refused = await emit({ event: 'order/created' });
    expect(refused.status).toBe(422);
    const all = await receiver.waitFor((ds) => ['theme/updated', 'domain/updated', 'order/packed'].every((e) => ds.some((d) => d.path === `/admin/${e}`)));
    const body = (event: string) => all.find((d) => d.path === `/admin/${event}`)!.body;
    expect(body('theme/updated')).toEqual({ store_id: t.sandbox.storeId, event: 'theme/updated', old_theme: expect.any(String), new_theme: expect.any(String) });
    expect(body('theme/updated').old_theme).not.toBe(body('theme/updated').new_theme);
    expect(body('domain/updated')).toEqual({ store_id: t.sandbox.storeId, event: 'domain/updated' });
    expect(body('order/packed')).toEqual({ store_id: t.sandbox.storeId, event: 'order/packed', id: order.id });
  });

  it('§5.17, platform.md §10: tracking events are announced with the order, the fulfillment order and the event ids', async () => {
    await t.post('/webhooks', { event: 'fulfillment_order/tracking_event_created', url: `${receiver.url}/tracking` });
    const { variant } = await createSimpleProduct(t, { stock: 10 });
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    const fo = (await t.get(`/orders/${order.id}/fulfillment-orders`)).body[0];
    expectOk(await t.patch(`/orders/${order.id}/fulfillment-orders/${fo.id}`, { status: 'DISPATCHED' }));
    const event = await t.post(`/orders/${order.id}/fulfillment-orders/${fo.id}/tracking-events`, {
      status: 'dispatched',
      happened_at: '2026-11-21T14:05:00+00:00',
    });
    expectCreated(event);
    const all = await receiver.waitFor((ds) => ds.some((d) => d.path === '/tracking' && d.body.fulfillment_id === fo.id));
    expect(all.find((d) => d.path === '/tracking' && d.body.fulfillment_id === fo.id)!.body).toMatchObject({
      order_id: order.id,
      tracking_event_id: event.body.id,
    });
  });
});
