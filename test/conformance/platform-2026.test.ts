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
