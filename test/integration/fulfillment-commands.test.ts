import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, type TestSandbox, cliEnv } from '../helpers/sandbox.js';

/** `store fulfillment-orders …` and its tracking events, against the demo store. */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runInProcess(args, { env });

interface EventJson {
  id: string;
  status: string;
  description: string;
  address: string;
  geolocation: { latitude: number; longitude: number } | null;
  happened_at: string;
  estimated_delivery_at: string | null;
}
interface FoJson {
  id: string;
  number: string;
  status: string;
  total_quantity: number;
  assigned_location: { location_id: string; name: Record<string, string> };
  line_items: { id: string; quantity: number; variant: { variant_id: string; sku: string | null }; product: { product_id: string; name: string } }[];
  tracking_info: { code: string | null; url: string | null };
  tracking_events: EventJson[];
}

const TRACKING_STATUSES = [
  'dispatched',
  'received_by_post_office',
  'in_transit',
  'out_for_delivery',
  'delivery_attempt_failed',
  'delayed',
  'ready_for_pickup',
  'delivered',
  'returned_to_sender',
  'lost',
  'failure',
];

let orderId: number;
let fo: FoJson;

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  api = clientFor(sandbox);
  env = cliEnv(sandbox, 'fulfillment');
  // A paid order whose first shipment goes by carrier and is not delivered yet: dispatched here, since tracking
  // events start once a shipment is DISPATCHED (platform.md §10).
  const paid = (await api.get<{ id: number; fulfillment_orders: (FoJson & { shipping: { type: string } })[] }[]>('/orders', {
    query: { status: 'paid', aggregates: 'fulfillment_orders', per_page: 200 },
  })).body;
  const order = paid.find((o) => o.fulfillment_orders[0]?.shipping.type === 'ship' && o.fulfillment_orders[0].status !== 'DELIVERED')!;
  orderId = order.id;
  if (order.fulfillment_orders[0]!.status !== 'DISPATCHED') {
    expect((await api.patch(`/orders/${orderId}/fulfillment-orders/${order.fulfillment_orders[0]!.id}`, { status: 'DISPATCHED' })).status).toBe(200);
  }
  fo = (await api.get<FoJson[]>(`/orders/${orderId}/fulfillment-orders`)).body[0]!;
});
afterAll(() => sandbox?.close());

async function foNow(): Promise<FoJson> {
  return (await api.get<FoJson>(`/orders/${orderId}/fulfillment-orders/${fo.id}`)).body;
}

describe('store fulfillment-orders list / get', () => {
  it('lists the fulfillment orders the API has, and shows one with its events', async () => {
    const expected = (await api.get<FoJson[]>(`/orders/${orderId}/fulfillment-orders`)).body;
    const list = await store('fulfillment-orders', 'list', String(orderId), '--json');
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as FoJson[]).map((f) => f.id)).toEqual(expected.map((f) => f.id));

    const tsv = await store('fulfillment-orders', 'list', String(orderId));
    expect(tsv.stdout.split('\n')[0]).toBe('id\tnumber\tstatus\tlocation\titems\ttracking\tevents\tlast_event');

    const get = await store('fulfillment-orders', 'get', String(orderId), fo.id, '--json');
    expect(get.code).toBe(0);
    expect(JSON.parse(get.stdout)).toMatchObject({ id: fo.id, number: fo.number, line_items: fo.line_items });
  });

  it('shows the items, source location by name, upper-case status and tracking info of the documented record', async () => {
    const expected = (await api.get<FoJson[]>(`/orders/${orderId}/fulfillment-orders`)).body;
    const list = await store('fulfillment-orders', 'list', String(orderId));
    expect(list.code).toBe(0);
    const rows = list.stdout.trim().split('\n').slice(1).map((line) => line.split('\t'));
    expect(rows).toHaveLength(expected.length);
    for (const [i, record] of expected.entries()) {
      const [id, number, status, location, items, tracking] = rows[i]!;
      expect(id).toBe(record.id);
      expect(number).toBe(record.number);
      expect(status).toBe(record.status);
      expect(status).toMatch(/^[A-Z_]+$/);
      const locationName = Object.values(record.assigned_location.name)[0]!;
      expect(location).toBe(`${locationName} (${record.assigned_location.location_id})`);
      // Items come from line_items: never 0 for a shipment that holds units.
      expect(Number(items)).toBe(record.line_items.reduce((n, l) => n + l.quantity, 0));
      expect(Number(items)).toBeGreaterThan(0);
      if (record.tracking_info.code) expect(tracking).toBe(`${record.tracking_info.code} ${record.tracking_info.url}`);
    }

    const get = await store('fulfillment-orders', 'get', String(orderId), fo.id);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(new RegExp(`order\\s+${orderId}`));
    const itemsSection = get.stdout.split('\nItems\n')[1]!.split('\n\n')[0]!.trim().split('\n');
    expect(itemsSection[0]).toBe('variant\tproduct\tsku\tname\tquantity\tunit_price');
    expect(itemsSection).toHaveLength(fo.line_items.length + 1);
    for (const [i, line] of fo.line_items.entries()) {
      const cells = itemsSection[i + 1]!.split('\t');
      expect(cells[0]).toBe(line.variant.variant_id);
      expect(cells[1]).toBe(line.product.product_id);
      expect(cells[4]).toBe(String(line.quantity));
    }
  });

  it('names what is missing: an unknown order, a fulfillment order of another order', async () => {
    const missing = await store('fulfillment-orders', 'list', '1999999999');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Order 1999999999 not found.');
    const other = await store('fulfillment-orders', 'get', String(orderId), '01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`Fulfillment order 01ARZ3NDEKTSV4RRFFQ69G5FAV of order ${orderId} not found.`);
    const badId = await store('fulfillment-orders', 'get', String(orderId), 'fo-1');
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('FULFILLMENT_ORDER_ID "fo-1" is not a fulfillment order; give its id');
  });
});

describe('one order argument: the order by its number, the fulfillment order by its number as listed', () => {
  it('list, get and tracking add/update/delete take the order number and 191-1, and say which order on stderr', async () => {
    const order = (await api.get<{ id: number; number: number }>(`/orders/${orderId}`)).body;
    const byNumber = await store('fulfillment-orders', 'list', String(order.number), '--json');
    expect(byNumber.code).toBe(0);
    expect(byNumber.stderr).toContain(`Order number ${order.number} is order ${order.id}; listing its fulfillment orders.`);
    expect((JSON.parse(byNumber.stdout) as FoJson[]).map((f) => f.id)).toEqual(
      (await api.get<FoJson[]>(`/orders/${order.id}/fulfillment-orders`)).body.map((f) => f.id),
    );

    const get = await store('fulfillment-orders', 'get', String(order.number), fo.number, '--json');
    expect(get.code).toBe(0);
    expect(get.stderr).toContain(`Order number ${order.number} is order ${order.id}`);
    expect((JSON.parse(get.stdout) as FoJson).id).toBe(fo.id);

    const added = await store('fulfillment-orders', 'tracking', 'add', String(order.number), fo.number, '--status', 'dispatched', '--json');
    expect(added.code).toBe(0);
    const event = JSON.parse(added.stdout) as EventJson;
    const stored = (await api.get<FoJson>(`/orders/${order.id}/fulfillment-orders/${fo.id}`)).body;
    expect(stored.tracking_events.map((e) => e.id)).toContain(event.id);

    const updated = await store('fulfillment-orders', 'tracking', 'update', String(order.id), fo.number, event.id, '--description', 'By number');
    expect(updated.code).toBe(0);
    const deleted = await store('fulfillment-orders', 'tracking', 'delete', String(order.number), fo.number, event.id, '--yes');
    expect(deleted.code).toBe(0);
    expect((await api.get<FoJson>(`/orders/${order.id}/fulfillment-orders/${fo.id}`)).body.tracking_events.map((e) => e.id)).not.toContain(event.id);

    const unknown = await store('fulfillment-orders', 'get', String(order.id), `${order.number}-9`);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`Order ${order.id} has no fulfillment order ${order.number}-9`);
  });
});

describe('store fulfillment-orders tracking', () => {
  it('adds an event (happened-at defaults to now), updates some fields keeping the rest, deletes it', async () => {
    const before = Date.now();
    const add = await store(
      'fulfillment-orders', 'tracking', 'add', String(orderId), fo.id,
      '--status', 'in_transit', '--description', 'Left the hub', '--address', 'Campinas, SP',
      '--lat', '-22.9099', '--lon', '-47.0626', '--estimated-delivery-at', '2026-12-01', '--json',
    );
    expect(add.code).toBe(0);
    const added = JSON.parse(add.stdout) as EventJson;
    expect(added).toMatchObject({
      status: 'in_transit',
      description: 'Left the hub',
      address: 'Campinas, SP',
      geolocation: { latitude: -22.9099, longitude: -47.0626 },
      estimated_delivery_at: '2026-12-01T00:00:00+00:00',
    });
    // The API keeps whole seconds, so "now" is checked to the second.
    expect(Date.parse(added.happened_at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(added.happened_at)).toBeLessThanOrEqual(Date.now());
    expect((await foNow()).tracking_events.map((e) => e.id)).toContain(added.id);

    const update = await store('fulfillment-orders', 'tracking', 'update', String(orderId), fo.id, added.id, '--status', 'out_for_delivery');
    expect(update.code).toBe(0);
    const updated = (await foNow()).tracking_events.find((e) => e.id === added.id)!;
    expect(updated).toMatchObject({ status: 'out_for_delivery', description: 'Left the hub', address: 'Campinas, SP', happened_at: added.happened_at });
    expect(updated.geolocation).toEqual({ latitude: -22.9099, longitude: -47.0626 });

    const refused = await store('fulfillment-orders', 'tracking', 'delete', String(orderId), fo.id, added.id);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    const del = await store('fulfillment-orders', 'tracking', 'delete', String(orderId), fo.id, added.id, '--yes', '--json');
    expect(del.code).toBe(0);
    expect(JSON.parse(del.stdout)).toEqual({ id: added.id, deleted: true });
    expect((await foNow()).tracking_events.map((e) => e.id)).not.toContain(added.id);

    const [gone, goneDelete, unknownFo] = await Promise.all([
      store('fulfillment-orders', 'tracking', 'update', String(orderId), fo.id, added.id, '--status', 'returned_to_sender'),
      store('fulfillment-orders', 'tracking', 'delete', String(orderId), fo.id, added.id, '--yes'),
      store('fulfillment-orders', 'tracking', 'add', String(orderId), '01ARZ3NDEKTSV4RRFFQ69G5FAV', '--status', 'dispatched'),
    ]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`Tracking event ${added.id} not found`);
    expect(goneDelete.code).toBe(1);
    expect(goneDelete.stderr).toContain(`Tracking event ${added.id} of fulfillment order ${fo.id} not found.`);
    expect(unknownFo.code).toBe(1);
    expect(unknownFo.stderr).toMatch(/Fulfillment order 01ARZ3NDEKTSV4RRFFQ69G5FAV .*not found\./);
  });

  it('offers the eleven documented tracking statuses and custom_NAME, and sends them', async () => {
    const help = await store('fulfillment-orders', 'tracking', 'add', '--help');
    // Help wraps the list anywhere, inside names too.
    const offered = help.stdout.replace(/\s+/g, '').match(/Trackingstatus:([^;]+);orcustom_NAME/)![1]!.split(',');
    expect(offered).toEqual(TRACKING_STATUSES);
    const added: string[] = [];
    const runs = await Promise.all(
      ['received_by_post_office', 'ready_for_pickup', 'custom_at_customs'].map((status) =>
        store('fulfillment-orders', 'tracking', 'add', String(orderId), fo.id, '--status', status, '--json'),
      ),
    );
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      added.push((JSON.parse(r.stdout) as EventJson).id);
    }
    const events = (await foNow()).tracking_events.filter((e) => added.includes(e.id));
    expect(events.map((e) => e.status).sort()).toEqual(['custom_at_customs', 'ready_for_pickup', 'received_by_post_office']);
    await Promise.all(added.map((id) => api.del(`/orders/${orderId}/fulfillment-orders/${fo.id}/tracking-events/${id}`)));
  });

  it('checks every field before sending, naming the flag', async () => {
    const cases: [string[], RegExp][] = [
      [['--status', 'returned'], /--status "returned" is not a tracking status; use one of dispatched, .*, failure, or custom_NAME for a carrier's own\./],
      [['--status', 'dispached'], /--status "dispached" is not valid; did you mean dispatched\?/],
      [['--status', 'custom at customs'], /--status "custom at customs" is not a custom status; write custom_ and a lower-case name/],
      [['--status', 'dispatched', '--lat', '91', '--lon', '0'], /--lat 91 is out of range; a latitude lies between -90 and 90\./],
      [['--status', 'dispatched', '--lat', '0', '--lon', '-180.5'], /--lon -180\.5 is out of range; a longitude lies between -180 and 180\./],
      [['--status', 'dispatched', '--lat', 'north', '--lon', '0'], /--lat "north" is not a latitude/],
      [['--status', 'dispatched', '--lat', '10'], /--lat needs --lon/],
      [['--status', 'dispatched', '--happened-at', '2026-02-30'], /--happened-at "2026-02-30" is not a real calendar date\./],
      [['--status', 'dispatched', '--estimated-delivery-at', 'tomorrow'], /--estimated-delivery-at "tomorrow" is not a date/],
    ];
    const eventsBefore = (await foNow()).tracking_events.length;
    for (const [flags, message] of cases) {
      const r = await store('fulfillment-orders', 'tracking', 'add', String(orderId), fo.id, ...flags, '--debug');
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr.replace(/\s+›\s+/g, ' ')).toMatch(message);
      expect(r.stderr).not.toMatch(/→ POST/);
    }
    expect((await foNow()).tracking_events).toHaveLength(eventsBefore);
  });
});
