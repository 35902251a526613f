import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/run-cli.js';
import { clientFor, type TestSandbox, cliEnv } from '../helpers/sandbox.js';

/** `store fulfillment-orders …` and its tracking events, against the demo store. */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runCli(args, { env });

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
  order_id: number;
  status: string;
  tracking_events: EventJson[];
}

let orderId: number;
let fo: FoJson;

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  api = clientFor(sandbox);
  env = cliEnv(sandbox, 'fulfillment');
  const [order] = (await api.get<{ id: number }[]>('/orders', { query: { status: 'paid' } })).body;
  orderId = order!.id;
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
    expect(tsv.stdout.split('\n')[0]).toBe('id\tstatus\tlocation\titems\tevents\tlast_event');

    const get = await store('fulfillment-orders', 'get', String(orderId), fo.id, '--json');
    expect(get.code).toBe(0);
    expect(JSON.parse(get.stdout)).toMatchObject({ id: fo.id, order_id: orderId });
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
    expect(badId.stderr).toContain('is not a fulfillment order id');
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

    const update = await store('fulfillment-orders', 'tracking', 'update', String(orderId), fo.id, added.id, '--status', 'delivered');
    expect(update.code).toBe(0);
    const updated = (await foNow()).tracking_events.find((e) => e.id === added.id)!;
    expect(updated).toMatchObject({ status: 'delivered', description: 'Left the hub', address: 'Campinas, SP', happened_at: added.happened_at });
    expect(updated.geolocation).toEqual({ latitude: -22.9099, longitude: -47.0626 });

    const refused = await store('fulfillment-orders', 'tracking', 'delete', String(orderId), fo.id, added.id);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    const del = await store('fulfillment-orders', 'tracking', 'delete', String(orderId), fo.id, added.id, '--yes', '--json');
    expect(del.code).toBe(0);
    expect(JSON.parse(del.stdout)).toEqual({ id: added.id, deleted: true });
    expect((await foNow()).tracking_events.map((e) => e.id)).not.toContain(added.id);

    const [gone, goneDelete, unknownFo] = await Promise.all([
      store('fulfillment-orders', 'tracking', 'update', String(orderId), fo.id, added.id, '--status', 'returned'),
      store('fulfillment-orders', 'tracking', 'delete', String(orderId), fo.id, added.id, '--yes'),
      store('fulfillment-orders', 'tracking', 'add', String(orderId), '01ARZ3NDEKTSV4RRFFQ69G5FAV', '--status', 'dispatched'),
    ]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`Tracking event ${added.id} not found`);
    expect(goneDelete.code).toBe(1);
    expect(goneDelete.stderr).toContain(`Tracking event ${added.id} of fulfillment order ${fo.id} not found.`);
    expect(unknownFo.code).toBe(1);
    expect(unknownFo.stderr).toContain('Fulfillment order 01ARZ3NDEKTSV4RRFFQ69G5FAV not found.');
  });

  it('checks every field before sending, naming the flag', async () => {
    const cases: [string[], RegExp][] = [
      [['--status', 'lost'], /--status=lost to be one of: dispatched, in_transit/],
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
