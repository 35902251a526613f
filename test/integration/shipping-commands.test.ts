import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, cliEnv, requestRecorder, type TestSandbox } from '../helpers/sandbox.js';

/**
 * Issue 29, the order day: `orders pack|ship|deliver` and `fulfillment-orders update` against the sandbox, which
 * follows platform.md §10. Requests are counted at the server: one GET of the order with its shipments inside,
 * one write per shipment moved, and none at all for a move the platform forbids.
 */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
const requests = requestRecorder();
const store = (...args: string[]) => runInProcess(args, { env });

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'empty', rate: 'off', host: '127.0.0.1', port: 0, onRequest: requests.onRequest });
  api = clientFor(sandbox);
  env = cliEnv(sandbox, 'shipping');
  const address = { zipcode: '1000', street: 'Calle', number: '1', city: 'CABA', province: { code: 'C', name: 'CABA' }, country: { code: 'AR' } };
  for (const name of ['Depósito', 'Local']) expect((await api.post('/locations', { name, address })).status).toBe(201);
});
afterAll(() => sandbox?.close());

/** An order of two units from two locations (two shipments), or of one unit with these order fields. */
async function newOrder(extra: Record<string, unknown> = {}, split = true): Promise<{ id: number; number: number }> {
  const locations = (await api.get('/locations')).body as { id: string }[];
  const product = await api.post('/products', {
    name: `Camiseta ${Date.now()}${Math.random()}`,
    price: 10,
    inventory_levels: locations.map((l) => ({ location_id: l.id, stock: 1 })),
  });
  const order = await api.post('/orders', { customer: { name: 'Ana' }, products: [{ variant_id: product.body.variants[0].id, quantity: split ? 2 : 1 }], ...extra });
  expect(order.status, order.text).toBe(201);
  return order.body;
}

const shippingStatus = async (orderId: number) => {
  const shown = await store('orders', 'get', String(orderId), '--json');
  expect(shown.code, shown.stderr).toBe(0);
  return (JSON.parse(shown.stdout) as { order: { shipping_status: string } }).order.shipping_status;
};

describe('an order with two shipments is packed, shipped and delivered', () => {
  it('reads partially_packed → packed → partially_fulfilled → fulfilled, one GET and one write per shipment, orders get shows it', async () => {
    const order = await newOrder();
    const number = String(order.number);
    const seen: string[] = [];

    requests.take();
    const first = await store('orders', 'pack', number, '--fulfillment-order', `${number}-1`);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`Packed shipment ${number}-1 of order #${number} (UNPACKED → PACKED).`);
    expect(requests.take().map((r) => r.method)).toEqual(['GET', 'GET', 'PATCH']);
    seen.push(await shippingStatus(order.id));

    requests.take();
    const rest = await store('orders', 'pack', String(order.id));
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).toContain(`Skipped shipment ${number}-1 (PACKED): it is already PACKED.`);
    expect(requests.take().map((r) => r.method)).toEqual(['GET', 'PATCH']);
    seen.push(await shippingStatus(order.id));

    const shipOne = await store('orders', 'ship', String(order.id), '--fulfillment-order', '1', '--tracking', 'BR123456789AA', '--tracking-url', 'https://track.example/BR123456789AA', '--json');
    expect(shipOne.code, shipOne.stderr).toBe(0);
    expect(JSON.parse(shipOne.stdout)).toMatchObject({ order_id: order.id, moved: [{ from: 'PACKED', to: 'DISPATCHED', tracking_code: 'BR123456789AA' }] });
    seen.push(await shippingStatus(order.id));

    const shipAll = await store('orders', 'ship', String(order.id), '--tracking', 'BR999');
    expect(shipAll.code, shipAll.stderr).toBe(0);
    seen.push(await shippingStatus(order.id));
    expect(seen).toEqual(['partially_packed', 'packed', 'partially_fulfilled', 'fulfilled']);

    requests.take();
    const delivered = await store('orders', 'deliver', String(order.id), '--at', '2026-11-22T10:00:00-03:00');
    expect(delivered.code, delivered.stderr).toBe(0);
    expect(requests.take().map((r) => `${r.method} ${r.path.replace(/\/\d+\/fulfillment-orders\/\w+/, '/…')}`)).toEqual([
      `GET /orders/${order.id}`,
      'POST /orders/…/tracking-events',
      'POST /orders/…/tracking-events',
    ]);
    const shipments = (await api.get(`/orders/${order.id}/fulfillment-orders`)).body as { status: string; fulfilled_at: string }[];
    expect(shipments.map((s) => s.status)).toEqual(['DELIVERED', 'DELIVERED']);
    expect(shipments.map((s) => Date.parse(s.fulfilled_at))).toEqual([Date.parse('2026-11-22T13:00:00Z'), Date.parse('2026-11-22T13:00:00Z')]);

    const shown = await store('orders', 'get', String(order.id));
    expect(shown.stdout).toMatch(/shipping\s+fulfilled/);
    expect(shown.stdout).toContain('BR123456789AA');
    expect(shown.stdout.match(/DELIVERED/g)).toHaveLength(2);
  });
});

describe('moves the platform forbids are refused before any write, naming the status and the command that gets there', () => {
  it('a tracking event on an unpacked shipment', async () => {
    const order = await newOrder({}, false);
    const fo = ((await api.get(`/orders/${order.id}/fulfillment-orders`)).body as { id: string }[])[0]!;
    requests.take();
    const r = await store('fulfillment-orders', 'tracking', 'add', String(order.id), fo.id, '--status', 'in_transit');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`is UNPACKED: tracking events start once it is DISPATCHED; \`store orders ship ${order.id} --fulfillment-order`);
    expect(requests.take().filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('delivering a pickup shipment by dispatch; delivering a shipment not yet sent', async () => {
    const pickup = await newOrder({ shipping_pickup_type: 'pickup', shipping_option: 'Retiro en local' }, false);
    requests.take();
    const ship = await store('orders', 'ship', String(pickup.id), '--tracking', 'BR1');
    expect(ship.code).toBe(2);
    expect(ship.stderr).toContain('(UNPACKED) cannot be dispatched: a pickup shipment is collected, never dispatched;');
    expect(ship.stderr).toContain(`store fulfillment-orders update ${pickup.id}`);
    const deliver = await store('orders', 'deliver', String(pickup.id));
    expect(deliver.code).toBe(2);
    expect(deliver.stderr).toContain('(UNPACKED) cannot be delivered: a pickup shipment is delivered once READY_FOR_PICKUP; `store fulfillment-orders update');
    expect(requests.take().filter((q) => q.method !== 'GET')).toEqual([]);

    // The way there: ready for pickup, then delivered (by status: a pickup shipment takes no tracking event).
    expect((await store('fulfillment-orders', 'update', String(pickup.id), `${pickup.number}-1`, '--status', 'ready-for-pickup')).code).toBe(0);
    const collected = await store('orders', 'deliver', String(pickup.id), '--json');
    expect(collected.code, collected.stderr).toBe(0);
    expect(JSON.parse(collected.stdout).moved).toEqual([expect.objectContaining({ from: 'READY_FOR_PICKUP', to: 'DELIVERED', by: 'status' })]);
  });

  it('checks its input before any request: --tracking needed to ship, a shipment the order does not have', async () => {
    const order = await newOrder({}, false);
    requests.take();
    const noCode = await store('orders', 'ship', String(order.id));
    expect(noCode.code).toBe(2);
    expect(noCode.stderr).toContain('--tracking is required');
    expect(requests.take()).toEqual([]);
    const unknown = await store('orders', 'pack', String(order.id), '--fulfillment-order', `${order.number}-7`);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`Order ${order.id} has no fulfillment order ${order.number}-7 (it has ${order.number}-1)`);
    expect(requests.take().filter((q) => q.method !== 'GET')).toEqual([]);
  });
});
