import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/replay-server.js';
import { clientFor, type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';

/**
 * docs/platform.md §12, the platform of 2026, against the sandbox: both API versions serve the same routes and
 * shapes; `POST /orders` takes its addresses as objects (the platform's own Postman body,
 * test/fixtures/platform/order-create-address-objects-request.json → order-create-address-objects.json).
 */

let t: TestSandbox;
let dated: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox({ seed: 'demo' });
  dated = clientFor(t.sandbox, '2025-03');
});
afterAll(() => t?.close());

/** A demo variant with stock to spare. */
async function variantInStock(): Promise<number> {
  const res = await t.get('/products', { query: { per_page: 200 } });
  const variant = (res.body as any[]).flatMap((p) => p.variants).find((v: any) => v.stock === null || Number(v.stock) >= 5);
  expect(variant, 'a demo variant in stock').toBeDefined();
  return variant.id as number;
}

describe('versions (§12): /v1 and /2025-03 serve the same routes and shapes', () => {
  it('the same reads answer the same records under both prefixes', async () => {
    for (const path of ['/store', '/products?per_page=5', '/orders?per_page=5', '/locations', '/categories', '/webhooks', '/customers?per_page=5']) {
      const [v1, v2025] = await Promise.all([t.get(path), dated.get(path)]);
      expect(v2025.status, `${path}: ${v2025.text.slice(0, 200)}`).toBe(v1.status);
      expect(v2025.body, path).toEqual(v1.body);
    }
  });

  it('a write under /2025-03 is seen under /v1 (one store), and a Link names the version it was asked under', async () => {
    const order = (await t.get('/orders', { query: { per_page: 1 } })).body[0];
    const res = await dated.put(`/orders/${order.id}`, { owner_note: 'written under 2025-03' });
    expect(res.status, res.text).toBe(200);
    expect((await t.get(`/orders/${order.id}`)).body.owner_note).toBe('written under 2025-03');
    const page = await dated.get('/orders', { query: { per_page: 1 } });
    expect(page.headers.get('link')).toContain(`/2025-03/${t.sandbox.storeId}/orders?`);
  });

  it('the deprecated POST /orders/{id}/pack and /fulfill (§10) act on the first shipment under v1 only; 2025-03 dropped them', async () => {
    const orders = (await t.get('/orders', { query: { per_page: 200, aggregates: 'fulfillment_orders' } })).body as any[];
    const order = orders.find((o) => o.status === 'open' && o.fulfillment_orders?.[0]?.status === 'UNPACKED');
    expect(order, 'an open demo order with an unpacked first shipment').toBeDefined();
    const dropped = await dated.post(`/orders/${order.id}/pack`, {});
    expect(dropped.status).toBe(404);
    expect(dropped.body.description).toMatch(/^No route POST .*2025-03 dropped the deprecated \/pack/);
    const packed = await t.post(`/orders/${order.id}/pack`, {});
    expect(packed.status, packed.text).toBe(200);
    expect(packed.body.id).toBe(order.id);
    expect((await t.get(`/orders/${order.id}/fulfillment-orders`)).body[0].status).toBe('PACKED');
    const fulfilled = await t.post(`/orders/${order.id}/fulfill`, { shipping_tracking_number: 'BR1', shipping_tracking_url: 'https://track.example/BR1', notify_customer: false });
    expect(fulfilled.status, fulfilled.text).toBe(200);
    const fo = (await t.get(`/orders/${order.id}/fulfillment-orders`)).body[0];
    expect([fo.status, fo.tracking_info?.code]).toEqual(['DISPATCHED', 'BR1']);
    // Packing again is refused in a sentence naming the shipment's status.
    const again = await t.post(`/orders/${order.id}/pack`, {});
    expect(again.status).toBe(422);
    expect(again.body.description).toMatch(/its first shipment is DISPATCHED/);
  });

  it('a version the platform does not have is a 404 with the error body, not a route of the API', async () => {
    const res = await clientFor(t.sandbox, 'v2').get('/store');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, message: 'Not Found' });
  });
});

describe('POST /orders with address objects (§12: the platform\'s own Postman body)', () => {
  it('takes billing_address and shipping_address as objects (first_name + last_name) → 201 holding each field', async () => {
    const request = fixture('order-create-address-objects-request.json');
    request.products = [{ variant_id: await variantInStock(), quantity: 1 }];
    const res = await t.post('/orders', request);
    expect(res.status, res.text).toBe(201);
    const expected = fixture('order-create-address-objects.json');
    expect(res.body).toMatchObject(expected);
    // Read back, the record is the same: the addresses were stored, not only echoed.
    expect((await t.get(`/orders/${res.body.id}`)).body).toMatchObject(expected);
  });

  it('the flat billing_* fields still work, and beside an object they override its fields', async () => {
    const request = fixture('order-create-address-objects-request.json');
    request.products = [{ variant_id: await variantInStock(), quantity: 1 }];
    request.billing_city = 'Niterói';
    const res = await t.post('/orders', request);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ billing_city: 'Niterói', billing_address: 'Rua do Ouvidor', billing_name: 'Paulo Reis' });
  });

  it('an address that is neither a street nor an object is a 422 naming the field', async () => {
    const request = fixture('order-create-address-objects-request.json');
    request.products = [{ variant_id: await variantInStock(), quantity: 1 }];
    request.billing_address = 42;
    const res = await t.post('/orders', request);
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('billing_address');
  });
});

describe('the weighted bucket of variant writes (§12; weights ours: docs/sandbox.md)', () => {
  let w: TestSandbox;
  let product: { id: number; variants: { id: number }[] };

  beforeAll(async () => {
    // 24 units, draining one every 10 s: a test's few requests see it as it was left.
    w = await startTestSandbox({ seed: 'demo', weightedRate: { capacity: 24, leakPerSecond: 0.1 } });
    const products = (await w.get('/products', { query: { per_page: 200 } })).body as (typeof product)[];
    product = products.find((p) => p.variants.length >= 3)!;
  });
  afterAll(() => w?.close());

  /** A stock-price body of `n` variants (the product's, repeated: the weight is charged before validation), one level each. */
  const stockPrice = (n: number) => [{ id: product.id, variants: Array.from({ length: n }, (_, i) => ({ id: product.variants[i % product.variants.length]!.id, inventory_levels: [{ stock: 5 }] })) }];

  it('a request heavier than the bucket is the weighted 429 of the fixture, with Retry-After and the weighted headers; a light one passes', async () => {
    const heavy = await w.patch('/products/stock-price', stockPrice(15));
    expect(heavy.status).toBe(429);
    expect(heavy.body).toEqual(fixture('error-429-weighted.json'));
    expect(Number(heavy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(heavy.headers.get('x-rate-limit-weighted-limit')).toBe('24');

    const light = await w.patch('/products/stock-price', stockPrice(3));
    expect(light.status, light.text).toBe(200);
    expect(Number(light.headers.get('x-rate-limit-weighted-remaining'))).toBeLessThanOrEqual(18);
  });

  it('PATCH /products/{id}/variants draws from the same bucket; translations weigh too; once full, a 429 that asks for fewer variants', async () => {
    const body = [0, 1, 2, 0].map((i) => ({ id: product.variants[i]!.id, values: [{ es: 'X', pt: 'X', en: 'X', fr: 'X' }] }));
    // 4 variants × (1 + 4 translations) = 20: within the bucket, but over the 18 the light request above left.
    const res = await w.patch(`/products/${product.id}/variants`, body);
    expect(res.status).toBe(429);
    expect(res.body.description).toBe('Weighted rate limit exceeded: this request weighs 20 (variants, translations and inventory levels); send fewer variants per request');
    expect(res.headers.get('x-rate-limit-weighted-remaining')).not.toBeNull();
  });

  it('reads and other writes do not draw from it', async () => {
    expect((await w.get(`/products/${product.id}`)).headers.get('x-rate-limit-weighted-limit')).toBeNull();
  });
});

describe('location/* webhook events (§12)', () => {
  it('a location created, changed and deleted sends location/created|updated|deleted with the fields of the fixtures', async () => {
    const received: any[] = [];
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        received.push(JSON.parse(raw));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const events = ['location/created', 'location/updated', 'location/deleted'];
      for (const event of events) expect((await t.post('/webhooks', { event, url: `${url}/${event}` })).status).toBe(201);
      const created = await t.post('/locations', { name: 'Depósito Norte', address: { zipcode: '1425', street: 'Av. Santa Fe', number: '1234', city: 'Buenos Aires', province: { code: 'C', name: 'CABA' }, country: { code: 'AR', name: 'Argentina' } } });
      expect(created.status, created.text).toBe(201);
      expect((await t.put(`/locations/${created.body.id}`, { name: 'Depósito Norte 2' })).status).toBe(200);
      expect((await t.del(`/locations/${created.body.id}`)).status).toBe(200);
      const deadline = Date.now() + 10_000;
      while (events.some((e) => !received.some((b) => b.event === e && b.id === created.body.id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const event of events) {
        const body = received.find((b) => b.event === event && b.id === created.body.id);
        expect(body, event).toBeDefined();
        const expected = fixture(`webhook-${event.replace('/', '-')}.json`);
        expect(Object.keys(body).sort(), event).toEqual(Object.keys(expected).sort());
        expect([typeof body.store_id, body.event, typeof body.id], event).toEqual([typeof expected.store_id, expected.event, typeof expected.id]);
        expect(body.store_id).toBe(t.sandbox.storeId);
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
