import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/sandbox/server.js';
import { accessKey, errorShape, useSandbox } from '../helpers/sandbox.js';
import { createLocation, createOrder, createSimpleProduct, expectCreated, expectErrorBody } from './support.js';

/**
 * Issue 3 "Bad input": malformed JSON, wrong types, unknown fields, huge bodies, bad ids and bad dates, each with
 * its status and the error body of DESIGN.md §5.3 (spec §7: 404 for what does not exist, 422 for invalid data).
 */

describe('bad input', () => {
  const t = useSandbox();
  let location: any;
  let product: any;
  let variant: any;
  let order: any;
  let fo: any;
  let customField: any;

  beforeAll(async () => {
    location = await createLocation(t, 'Main');
    ({ product, variant } = await createSimpleProduct(t, { stock: 100 }));
    order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    fo = (await t.get(`/orders/${order.id}/fulfillment-orders`)).body[0];
    customField = (await t.post('/products/variants/custom-fields', { name: 'Harvest', value_type: 'date' })).body;
  });

  const writes = (): [string, string][] => [
    ['POST', '/products'],
    ['PUT', `/products/${product.id}`],
    ['POST', `/products/${product.id}/variants`],
    ['PUT', `/orders/${order.id}`],
    ['POST', `/orders/${order.id}/cancel`],
    ['POST', '/locations'],
    ['PATCH', '/locations/priorities'],
    ['POST', '/categories'],
    ['POST', '/metafields'],
    ['POST', '/webhooks'],
    ['POST', `/orders/${order.id}/fulfillment-orders/${fo.id}/tracking-events`],
  ];

  it('malformed JSON → 400 with the error body on every kind of write, and nothing changes', async () => {
    for (const [method, path] of writes()) {
      for (const text of ['{"name": ', '{name: "x"}', "{'a': 1}", '[1,]', 'undefined', '{"a":1}{"b":2}']) {
        const res = await t.request(method, path, { body: text });
        expectErrorBody(res, 400, `${method} ${path} ${text}: ${res.text}`);
      }
    }
    expect((await t.get(`/orders/${order.id}`)).body.status).toBe('open');
  });

  it('a JSON value of the wrong kind as the whole body (string, number, null, array for an object) → 422', async () => {
    for (const text of ['"a product"', '42', 'true', '[]', '[{"name":"x"}]']) {
      for (const path of ['/products', '/webhooks']) {
        const res = await t.request('POST', path, { body: text });
        expectErrorBody(res, 422, `POST ${path} ${text}`);
        expect(res.body.errors, `POST ${path} ${text}`).toHaveProperty('body');
      }
    }
    // The priorities operation takes an array: an object is the wrong kind there.
    expectErrorBody(await t.patch('/locations/priorities', { id: location.id, priority: 0 }), 422);
  });

  const wrongTypes: [string, string, () => string, () => Record<string, unknown>][] = [
    ['POST', 'name', () => '/products', () => ({ name: 123 })],
    ['POST', 'price', () => '/products', () => ({ name: 'Mug', price: 'cheap', sku: 'MUG-1' })],
    ['POST', 'stock', () => '/products', () => ({ name: 'Mug', stock: 'ten', sku: 'MUG-2' })],
    ['POST', 'categories', () => '/products', () => ({ name: 'Mug', categories: 'shoes' })],
    ['PUT', 'stock', () => `/products/${product.id}/variants/${variant.id}`, () => ({ stock: 1.5 })],
    ['POST', 'parent', () => '/categories', () => ({ name: 'Shoes', parent: 'root' })],
    ['POST', 'name', () => '/locations', () => ({ name: ['Depot'] })],
    ['POST', 'customer', () => '/orders', () => ({ customer: 'Ana', products: [{ variant_id: variant.id, quantity: 1 }] })],
    ['POST', 'products.0.variant_id', () => '/orders', () => ({ customer: { name: 'Ana' }, products: [{ variant_id: String(variant.id), quantity: 1 }] })],
    ['POST', 'products.0.quantity', () => '/orders', () => ({ customer: { name: 'Ana' }, products: [{ variant_id: variant.id, quantity: 0 }] })],
    ['PUT', 'owner_note', () => `/orders/${order.id}`, () => ({ owner_note: 7 })],
    ['POST', 'restock', () => `/orders/${order.id}/cancel`, () => ({ restock: 'yes' })],
    ['POST', 'headers', () => '/webhooks', () => ({ event: 'order/created', url: 'https://example.com/h', headers: ['x'] })],
    ['POST', 'read_only', () => '/products/variants/custom-fields', () => ({ name: 'Size', value_type: 'text', read_only: 'no' })],
    ['POST', 'owner_id', () => '/metafields', () => ({ namespace: 'nfe', key: 'list', value: '[]', owner_resource: 'Order', owner_id: 'one' })],
    ['POST', 'geolocation', () => `/orders/${order.id}/fulfillment-orders/${fo.id}/tracking-events`, () => ({ status: 'dispatched', happened_at: '2026-11-21T14:05:00+00:00', geolocation: 'here' })],
  ];

  for (const [method, field, path, body] of wrongTypes) {
    it(`wrong type: ${method} with a wrong ${field} → 422 naming ${field}`, async () => {
      const res = await t.request(method, path(), { body: body() });
      expectErrorBody(res, 422);
      expect(Object.keys(res.body.errors), res.text).toContain(field);
    });
  }

  it('unknown fields are ignored: the request succeeds and the field is neither stored nor echoed', async () => {
    const created = await t.post('/categories', { name: 'Mugs', colour: 'blue', __proto__: { admin: true } });
    expectCreated(created);
    expect(created.body).not.toHaveProperty('colour');
    expect(created.body).not.toHaveProperty('admin');
    const updated = await t.put(`/products/${product.id}`, { name: 'Renamed', invented: 1, created_at: '2000-01-01T00:00:00+00:00' });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).not.toHaveProperty('invented');
    expect(updated.body.created_at).toBe(product.created_at);
    expect((await t.get(`/products/${product.id}`)).body).not.toHaveProperty('invented');
    const order2 = await t.put(`/orders/${order.id}`, { owner_note: 'gift', number: 5, id: 1 });
    expect(order2.status).toBe(200);
    expect(order2.body).toMatchObject({ id: order.id, number: order.number, owner_note: 'gift' });
  });

  it('huge numbers: money of 10^13 or more, and an order totalling that much → 422 naming the field; nothing written as 1e+21', async () => {
    for (const price of ['10000000000000', '99999999999999999999999', 1e21]) {
      const res = await t.post('/products', { name: 'Gold', sku: `AU-${String(price).length}`, price, stock: 1 });
      expectErrorBody(res, 422, `price ${price}: ${res.text}`);
      expect(res.body.errors).toHaveProperty('price');
    }
    const shipping = await t.post('/orders', { customer: { name: 'Ana' }, products: [{ variant_id: variant.id, quantity: 1 }], shipping: { cost: '1e+30' } });
    expectErrorBody(shipping, 422);
    const { variant: dear } = await createSimpleProduct(t, { price: '9999999999999.99', stock: 5 });
    const total = await createOrder(t, [{ variant_id: dear.id, quantity: 2 }]);
    expectErrorBody(total, 422, total.text);
    expect(total.body.errors).toHaveProperty('products');
    const one = await createOrder(t, [{ variant_id: dear.id, quantity: 1 }]);
    expect(one.status, one.text).toBe(201);
    expect(one.body.total).toBe('9999999999999.99');
  });

  it(`huge bodies: over the documented limit (${BODY_LIMIT_BYTES / 1024 / 1024} MiB) → 413 with the error body; the server keeps serving`, async () => {
    const huge = JSON.stringify({ name: 'x', description: 'y'.repeat(BODY_LIMIT_BYTES) });
    const res = await t.request('POST', '/categories', { body: huge });
    expectErrorBody(res, 413);
    const before = Number((await t.get('/categories')).headers.get('x-total-count'));
    // Just under the limit the body is read and reaches validation like any other.
    const big = await t.post('/orders', { customer: { name: 'Ana' }, products: [], owner_note: 'z'.repeat(BODY_LIMIT_BYTES - 200) });
    expectErrorBody(big, 422);
    expect((await t.get('/store')).status).toBe(200);
    expect(Number((await t.get('/categories')).headers.get('x-total-count'))).toBe(before);
  });

  it('a request the HTTP parser refuses (bad framing, oversized headers) still gets the error body, then the connection closes', async () => {
    const { port } = new URL(t.sandbox.apiUrl);
    const badLength = await rawHttp(Number(port), `POST ${new URL(t.base).pathname}/categories HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n`);
    expect(badLength.status).toBe(400);
    expect(JSON.parse(badLength.body)).toMatchObject(errorShape(400));
    const bigHeaders = await rawHttp(Number(port), `GET /sandbox/status HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
    expect(bigHeaders.status).toBe(431);
    expect(JSON.parse(bigHeaders.body)).toMatchObject(errorShape(431));
    expect((await t.get('/store')).status).toBe(200);
  });

  const badIds = (): string[] => [
    `/orders/abc`,
    `/orders/1.5`,
    `/orders/-1`,
    `/orders/99999999999999999999`,
    `/orders/${order.id}0`,
    `/products/0x10`,
    `/products/${product.id}/variants/%20`,
    `/products/${product.id}/variants/99999999`,
    `/categories/null`,
    `/locations/not-a-ulid`,
    `/locations/${location.id.toLowerCase()}x`,
    `/orders/${order.id}/fulfillment-orders/01ARZ3NDEKTSV4RRFFQ69G5FAV`,
    `/orders/${order.id}/fulfillment-orders/..%2F..`,
    `/products/variants/custom-fields/00000000-0000-0000-0000-000000000000`,
    `/metafields/abc`,
    `/webhooks/1e3`,
  ];

  it('bad ids (not a number, not a ULID/UUID, too long, unknown) → 404 with the error body naming the resource', async () => {
    for (const path of badIds()) {
      const res = await t.get(path);
      expectErrorBody(res, 404, `GET ${path}: ${res.text}`);
    }
    expect((await t.get('/orders/')).body.description).toBe('Order (no id) not found');
    for (const path of [`/orders/abc`, `/products/-2`, `/categories/1.0`, `/webhooks/x`, `/metafields/%00`]) {
      expectErrorBody(await t.put(path, {}), 404, `PUT ${path}`);
      expectErrorBody(await t.del(path), 404, `DELETE ${path}`);
    }
  });

  it('bad ids inside a body (a variant, location, category, fulfillment order or order that does not exist) → 422 naming the field', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/orders', { customer: { name: 'Ana' }, products: [{ variant_id: 999999, quantity: 1 }] }, 'products.0.variant_id'],
      ['POST', '/products', { name: 'Mug', inventory_levels: [{ location_id: 'nope', stock: 1 }] }, 'inventory_levels'],
      ['POST', '/categories', { name: 'Sub', parent: 999999 }, 'parent'],
      ['PATCH', '/locations/priorities', [{ id: 'nope', priority: 0 }], 'id'],
      [
        'POST',
        '/metafields',
        {
          namespace: 'nfe',
          key: 'list',
          owner_resource: 'Order',
          owner_id: order.id,
          value: JSON.stringify([{ key: accessKey(), link: 'https://example.com/nfe', fulfillment_order_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }]),
        },
        'value',
      ],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await t.request(method, path, { body });
      expectErrorBody(res, 422, `${method} ${path}: ${res.text}`);
      expect(Object.keys(res.body.errors).some((k) => k === field || k.startsWith(`${field}.`)), `${field} in ${res.text}`).toBe(true);
    }
  });

  const badDates = ['yesterday', '2026-02-30T10:00:00+00:00', '2026-13-01T00:00:00Z', '2026-11-21T25:00:00Z', '2026-11-21T14:61:00Z', '2026-11-21T14:05:00+24:00', '21/11/2026', ''];

  it('bad dates in list filters (created_at_min / created_at_max) → 422 naming the parameter', async () => {
    for (const date of badDates.filter((d) => d !== '')) {
      for (const name of ['created_at_min', 'created_at_max']) {
        const res = await t.get('/orders', { query: { [name]: date } });
        expectErrorBody(res, 422, `${name}=${date}: ${res.text}`);
        expect(res.body.errors).toHaveProperty(name);
      }
    }
  });

  it('bad dates in bodies (happened_at, estimated_delivery_at, a date custom field) → 422 naming the field; a time without offset too', async () => {
    const path = `/orders/${order.id}/fulfillment-orders/${fo.id}/tracking-events`;
    for (const date of [...badDates, '2026-11-21T14:05:00', '2026-11-21', 1732197900]) {
      for (const field of ['happened_at', 'estimated_delivery_at']) {
        const res = await t.post(path, { status: 'dispatched', happened_at: '2026-11-21T14:05:00+00:00', [field]: date });
        expectErrorBody(res, 422, `${field}=${date}: ${res.text}`);
        expect(res.body.errors).toHaveProperty(field);
      }
    }
    for (const date of ['2026-02-30', '2026-11-21T14:05:00+00:00', 'soon', '2026-1-5']) {
      const res = await t.put(`/products/${product.id}/variants/${variant.id}/custom-fields`, [{ id: customField.id, value: date }]);
      expectErrorBody(res, 422, `custom field date ${date}: ${res.text}`);
    }
    expect((await t.get(`${path.replace('/tracking-events', '')}`)).body.tracking_events).toEqual([]);
  });
});

/** Writes bytes that are not a well-formed HTTP request and reads the answer until the server closes. */
function rawHttp(port: number, request: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => (text += d));
    // The server may close while the rest of the request is still being written: a reset after its answer is fine.
    socket.on('error', (error) => (text ? undefined : reject(error)));
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      resolve({ status: Number(head.split(' ')[1]), body });
    });
  });
}
