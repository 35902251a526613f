import { beforeAll, describe, expect, it } from 'vitest';
import { accessKey, errorShape, useSandbox } from '../helpers/sandbox.js';
import { createLocation, createOrder, createSimpleProduct, expectOk } from './support.js';

/** Spec §2 Metafield, §4 Invoices, §7 422 (access key, URL); DESIGN.md §5.16. */

describe('spec §4 Invoices: POST /metafields', () => {
  const t = useSandbox();
  let variant: any;

  beforeAll(async () => {
    await createLocation(t, 'Main');
    ({ variant } = await createSimpleProduct(t, { stock: 100 }));
  });

  async function newOrder(): Promise<{ order: any; fo: any }> {
    const order = (await createOrder(t, [{ variant_id: variant.id, quantity: 1 }])).body;
    const fo = (await t.get(`/orders/${order.id}/fulfillment-orders`)).body[0];
    return { order, fo };
  }

  function invoice(orderId: number, entries: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      namespace: 'nfe',
      key: 'list',
      value: JSON.stringify(entries),
      description: 'Invoices',
      owner_resource: 'Order',
      owner_id: orderId,
      ...extra,
    };
  }

  it('§4 POST /metafields (nfe/list on an Order) → 201 {id, …}', async () => {
    const { order, fo } = await newOrder();
    const entries = [{ key: accessKey(), link: 'https://nfe.example.com/1.pdf', fulfillment_order_id: fo.id }];
    const res = await t.post('/metafields', invoice(order.id, entries));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ namespace: 'nfe', key: 'list', owner_resource: 'Order', owner_id: order.id });
    expect(res.body.id).toBeDefined();
    expect(JSON.parse(res.body.value)).toEqual(entries);
  });

  it('§5.16: fulfillment_order_id is optional', async () => {
    const { order } = await newOrder();
    const res = await t.post('/metafields', invoice(order.id, [{ key: accessKey('35'), link: 'http://nfe.example.com/2' }]));
    expect(res.status).toBe(201);
  });

  it('§7 422: an access key that is not 44 digits → 422', async () => {
    const { order } = await newOrder();
    const res = await t.post('/metafields', invoice(order.id, [{ key: '1234', link: 'https://nfe.example.com/x' }]));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
  });

  it('§7 422/§5.16: an access key with a wrong mod-11 check digit → 422', async () => {
    const { order } = await newOrder();
    const good = accessKey();
    const bad = good.slice(0, 43) + String((Number(good[43]) + 1) % 10);
    const res = await t.post('/metafields', invoice(order.id, [{ key: bad, link: 'https://nfe.example.com/x' }]));
    expect(res.status).toBe(422);
  });

  it('§7 422: an invoice link that is not an http(s) URL → 422', async () => {
    const { order } = await newOrder();
    const res = await t.post('/metafields', invoice(order.id, [{ key: accessKey(), link: 'not a url' }]));
    expect(res.status).toBe(422);
    const ftp = await t.post('/metafields', invoice(order.id, [{ key: accessKey(), link: 'ftp://nfe.example.com/x' }]));
    expect(ftp.status).toBe(422);
  });

  it('§5.16: a value that is not a JSON array of entries → 422', async () => {
    const { order } = await newOrder();
    expect((await t.post('/metafields', invoice(order.id, [], { value: '{not json' }))).status).toBe(422);
    expect((await t.post('/metafields', invoice(order.id, [], { value: '{"key":"x"}' }))).status).toBe(422);
  });

  it('§5.16: fulfillment_order_id of another order → 422', async () => {
    const a = await newOrder();
    const b = await newOrder();
    const res = await t.post('/metafields', invoice(a.order.id, [{ key: accessKey(), link: 'https://nfe.example.com/x', fulfillment_order_id: b.fo.id }]));
    expect(res.status).toBe(422);
  });

  it('§7 404: owner_id of an order that does not exist → 404 (or 422)', async () => {
    const res = await t.post('/metafields', invoice(1000000000, [{ key: accessKey(), link: 'https://nfe.example.com/x' }]));
    expect([404, 422]).toContain(res.status);
  });

  it('§5.16: a second POST for the same owner, namespace and key → 422 (use PUT)', async () => {
    const { order } = await newOrder();
    const entry = { key: accessKey(), link: 'https://nfe.example.com/a' };
    expect((await t.post('/metafields', invoice(order.id, [entry]))).status).toBe(201);
    const again = await t.post('/metafields', invoice(order.id, [entry]));
    expect(again.status).toBe(422);
  });

  it('§5.16: GET /metafields/orders?owner_id=&namespace=&key= (added) → the order\'s metafields', async () => {
    const { order } = await newOrder();
    const created = (await t.post('/metafields', invoice(order.id, [{ key: accessKey(), link: 'https://nfe.example.com/g' }]))).body;
    const res = await t.get('/metafields/orders', { query: { owner_id: order.id, namespace: 'nfe', key: 'list' } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0].id).toBe(created.id);
    // An empty result is the platform's empty list (platform.md §1, §6).
    const none = await t.get('/metafields/orders', { query: { owner_id: order.id, namespace: 'other' } });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: 404, description: 'Last page is 0' });
  });

  it('§5.16: PUT /metafields/{id} (added) replaces the value (appending an invoice keeps the earlier one)', async () => {
    const { order } = await newOrder();
    const first = { key: accessKey('1'), link: 'https://nfe.example.com/1' };
    const second = { key: accessKey('2'), link: 'https://nfe.example.com/2' };
    const created = (await t.post('/metafields', invoice(order.id, [first]))).body;
    const res = await t.put(`/metafields/${created.id}`, { value: JSON.stringify([first, second]) });
    expect(res.status).toBe(200);
    const listed = (await t.get('/metafields/orders', { query: { owner_id: order.id, namespace: 'nfe', key: 'list' } })).body;
    expect(JSON.parse(listed[0].value)).toEqual([first, second]);
  });

  it('§5.16: PUT /metafields/{id} validates the nfe value → 422', async () => {
    const { order } = await newOrder();
    const created = (await t.post('/metafields', invoice(order.id, [{ key: accessKey(), link: 'https://nfe.example.com/v' }]))).body;
    const res = await t.put(`/metafields/${created.id}`, { value: JSON.stringify([{ key: '1', link: 'https://x.example' }]) });
    expect(res.status).toBe(422);
  });

  it('§5.16: DELETE /metafields/{id} (added) → gone; unknown id → 404', async () => {
    const { order } = await newOrder();
    const created = (await t.post('/metafields', invoice(order.id, [{ key: accessKey(), link: 'https://nfe.example.com/d' }]))).body;
    expectOk(await t.del(`/metafields/${created.id}`));
    const listed = await t.get('/metafields/orders', { query: { owner_id: order.id } });
    expect(listed.status).toBe(404);
    expect(listed.body).toMatchObject({ code: 404, description: 'Last page is 0' });
    expect((await t.del(`/metafields/${created.id}`)).status).toBe(404);
    expect((await t.put('/metafields/987654321', { value: '[]' })).status).toBe(404);
  });

  it('§2 Metafield: other namespaces store any string value', async () => {
    const { order } = await newOrder();
    const res = await t.post('/metafields', {
      namespace: 'erp',
      key: 'external_id',
      value: 'ERP-42',
      description: 'id in the ERP',
      owner_resource: 'Order',
      owner_id: order.id,
    });
    expect(res.status).toBe(201);
    expect(res.body.value).toBe('ERP-42');
  });

  it('§7 422: missing namespace/key/owner_id → 422 with field errors', async () => {
    const res = await t.post('/metafields', { value: '[]' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).length).toBeGreaterThan(0);
  });
});
