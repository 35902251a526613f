import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { BIN } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, cliEnv, requestRecorder, type TestSandbox } from '../helpers/sandbox.js';

/**
 * Issue 29, shipping from a file: `store orders ship --file` against the sandbox (platform.md §10), requests counted
 * at the server. 500 rows: 497 orders to dispatch (by id and by number, some naming their shipment), a pickup order
 * (a move the platform forbids), an order number the store does not have, and an order dispatched already with the
 * row's code. The orders are read in the fewest requests (docs/benchmarks.md "Shipping from a file": the two lists
 * of open orders not yet sent, 200 a page, and one GET for each order not in them, two for a number), then one PATCH
 * per shipment dispatched.
 */

let sandbox: RunningSandbox;
let api: TestSandbox;
let dir: string;
const requests = requestRecorder();
let onPatch: (() => void) | undefined;

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({
    seed: 'empty',
    rate: 'off',
    host: '127.0.0.1',
    port: 0,
    onRequest: (request) => {
      requests.onRequest(request);
      if (request.method === 'PATCH') onPatch?.();
    },
  });
  api = clientFor(sandbox);
  dir = mkdtempSync(join(tmpdir(), 'store-shipments-'));
  const address = { zipcode: '1000', street: 'Calle', number: '1', city: 'CABA', province: { code: 'C', name: 'CABA' }, country: { code: 'AR' } };
  expect((await api.post('/locations', { name: 'Depósito', address })).status).toBe(201);
}, 60_000);
afterAll(() => sandbox?.close());

interface NewOrder {
  id: number;
  number: number;
}

async function newOrders(count: number, extra: Record<string, unknown> = {}): Promise<NewOrder[]> {
  const locations = (await api.get('/locations')).body as { id: string }[];
  const product = await api.post('/products', { name: `Camiseta ${Date.now()}`, price: 10, inventory_levels: [{ location_id: locations[0]!.id, stock: count }] });
  const orders: NewOrder[] = [];
  for (let i = 0; i < count; i++) {
    const order = await api.post('/orders', { customer: { name: 'Ana' }, products: [{ variant_id: product.body.variants[0].id, quantity: 1 }], ...extra });
    expect(order.status, order.text).toBe(201);
    orders.push(order.body);
  }
  return orders;
}

const shipmentsOf = async (order: NewOrder) => (await api.get(`/orders/${order.id}/fulfillment-orders`)).body as { id: string; number: string; status: string; status_history: { to_status: string }[]; tracking_info: { code: string } | null }[];

/** 497 orders to dispatch, a pickup order, an order number nobody has and an order dispatched already: 500 rows. */
async function shipmentsFile(name: string): Promise<{ path: string; good: NewOrder[]; pickup: NewOrder; sent: NewOrder }> {
  const good = await newOrders(497);
  const [pickup] = await newOrders(1, { shipping_pickup_type: 'pickup', shipping_option: 'Retiro en local' });
  const [sent] = await newOrders(1);
  const fo = (await shipmentsOf(sent!))[0]!;
  expect((await api.patch(`/orders/${sent!.id}/fulfillment-orders/${fo.id}`, { status: 'DISPATCHED', tracking_info: { code: `PRE-${sent!.number}` } })).status).toBe(200);
  const rows = ['order,fulfillment_order,tracking_code,tracking_url,notify'];
  good.forEach((o, i) => {
    // By id and by number, with and without the shipment named (its number as listed, or its place).
    const order = i % 2 === 0 ? String(o.id) : String(o.number);
    const shipment = i % 3 === 0 ? `${o.number}-1` : i % 3 === 1 ? '1' : '';
    rows.push(`${order},${shipment},BR${o.number}AA,${i % 5 === 0 ? `https://track.example/BR${o.number}AA` : ''},${i % 7 === 0 ? 'yes' : ''}`);
  });
  rows.splice(101, 0, `${pickup!.id},,BR-PICKUP,,`);
  rows.splice(301, 0, '99999,,BR-NOBODY,,');
  rows.push(`${sent!.number},,PRE-${sent!.number},,`);
  const path = join(dir, name);
  writeFileSync(path, `${rows.join('\n')}\n`);
  return { path, good, pickup: pickup!, sent: sent! };
}

const countsOf = (list: { method: string; path: string; query: URLSearchParams }[]) => {
  const lists = list.filter((r) => r.method === 'GET' && r.path === '/orders' && r.query.get('status') === 'open');
  return {
    lists: lists.length,
    singles: list.filter((r) => r.method === 'GET' && !lists.includes(r)).length,
    patches: list.filter((r) => r.method === 'PATCH').length,
    others: list.filter((r) => r.method !== 'GET' && r.method !== 'PATCH').length,
  };
};

describe('store orders ship --file: 500 rows, a bad order number and a forbidden move', () => {
  it('dry-runs and applies at the documented minimum of requests, and reports the two bad rows', async () => {
    const { path, good, pickup, sent } = await shipmentsFile('shipments.csv');
    const env = cliEnv(sandbox, 'shipments');
    // 498 open orders not yet sent (3 pages of the unpacked list), an empty unfulfilled list (1); the order sent
    // already and the bad number, both given by number, each read as an id then searched as a number (2 + 2).
    const reads = { lists: 3 + 1, singles: 2 + 2 };

    requests.take();
    const dry = await runInProcess(['orders', 'ship', '--file', path, '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(3);
    const dryRequests = requests.take();
    expect(dryRequests.filter((r) => r.method === 'GET' && r.path !== '/orders').map((r) => r.path).sort()).toEqual([`/orders/${sent.number}`, '/orders/99999'].sort());
    expect(countsOf(dryRequests)).toEqual({ ...reads, patches: 0, others: 0 });
    expect(dry.stdout).toContain('Would ship shipments.csv: 500 rows.');
    expect(dry.stdout).toContain('497 to ship, 1 already shipped, 2 failed');
    expect(dry.stdout).toContain('497 shipments would be dispatched, one PATCH each');
    expect(dry.stdout.match(/^ {2}line \d+: order #\d+, shipment \S+ UNPACKED → DISPATCHED, tracking BR\d+AA/gm)).toHaveLength(497);
    expect(dry.stdout).toContain(`order #${good[0]!.number}, shipment ${good[0]!.number}-1 UNPACKED → DISPATCHED, tracking BR${good[0]!.number}AA https://track.example/BR${good[0]!.number}AA (customer notified)`);
    expect(dry.stderr).toContain('shipments.csv, line 102 (');
    expect(dry.stderr).toContain('a pickup shipment is collected, never dispatched');
    expect(dry.stderr).toContain('shipments.csv, line 302 (99999): the store has no order 99999');

    const report = join(dir, 'failed.csv');
    const applied = await runInProcess(['orders', 'ship', '--file', path, '--report', report], { env });
    expect(applied.code, applied.stderr).toBe(3);
    expect(countsOf(requests.take())).toEqual({ ...reads, patches: 497, others: 0 });
    expect(applied.stdout).toContain('Shipped shipments.csv: 500 rows.');
    expect(applied.stdout).toContain('497 shipped, 1 already shipped, 2 failed');
    const lines = readFileSync(report, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('order,fulfillment_order,tracking_code,tracking_url,notify,line,error,stage');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^${pickup.id},,BR-PICKUP,,,102,.*never dispatched.*,plan$`));
    expect(lines[2]).toMatch(/^99999,,BR-NOBODY,,,302,"the store has no order 99999, neither by id nor by the number the customer sees",request$/);

    for (const order of [good[0]!, good[1]!, good[496]!]) {
      const [fo] = await shipmentsOf(order);
      expect(fo!.status).toBe('DISPATCHED');
      expect(fo!.tracking_info!.code).toBe(`BR${order.number}AA`);
    }
    expect((await shipmentsOf(pickup))[0]!.status).toBe('UNPACKED');
    expect((await shipmentsOf(sent))[0]!.status_history.filter((h) => h.to_status === 'DISPATCHED')).toHaveLength(1);
    const shown = await runInProcess(['orders', 'get', String(good[1]!.number)], { env });
    expect(shown.stdout).toMatch(/shipping\s+fulfilled/);
    expect(shown.stdout).toContain(`BR${good[1]!.number}AA`);

    // Every dispatch is on the run ledger; undo lists them (a dispatched shipment never goes back).
    const runs = JSON.parse((await runInProcess(['runs', 'list', '--json'], { env })).stdout) as { id: string; command: string }[];
    const run = runs.find((r) => r.command.startsWith('orders ship'))!;
    const undo = await runInProcess(['undo', run.id, '--dry-run'], { env });
    expect(undo.stdout + undo.stderr).toContain('never goes back');
  }, 120_000);

  it('a run killed with SIGKILL while dispatching finishes exactly with --resume: no shipment dispatched twice, none left', async () => {
    const { path, good } = await shipmentsFile('killed.csv');
    const env = cliEnv(sandbox, 'shipments-killed');
    const child = spawn(process.execPath, [BIN, 'orders', 'ship', '--file', path], { env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: 'ignore' });
    let patches = 0;
    onPatch = () => {
      if (++patches === 150) child.kill('SIGKILL');
    };
    expect(await new Promise((resolve) => child.on('close', (_code, signal) => resolve(signal)))).toBe('SIGKILL');
    onPatch = undefined;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const statuses = async () => Promise.all(good.map(async (o) => (await shipmentsOf(o))[0]!));
    const dispatchedBefore = (await statuses()).filter((fo) => fo.status === 'DISPATCHED').length;
    expect(dispatchedBefore).toBeGreaterThanOrEqual(140);
    expect(dispatchedBefore).toBeLessThan(497);

    requests.take();
    const resumed = await runInProcess(['orders', 'ship', '--file', path, '--resume'], { env });
    expect(resumed.code, resumed.stderr).toBe(3);
    expect(countsOf(requests.take()).patches).toBe(497 - dispatchedBefore);
    expect(resumed.stdout).toMatch(/\(\d+ finished by the interrupted run\)/);
    const after = await statuses();
    expect(after.every((fo) => fo.status === 'DISPATCHED')).toBe(true);
    expect(after.every((fo) => fo.status_history.filter((h) => h.to_status === 'DISPATCHED').length === 1)).toBe(true);
  }, 120_000);

  it('checks every row before any request: each problem with its line and column; --skip-invalid ships the good rows; --map renames columns', async () => {
    const [a, b] = await newOrders(2);
    const env = cliEnv(sandbox, 'shipments-invalid');
    const path = join(dir, 'invalid.csv');
    writeFileSync(
      path,
      [
        'Pedido,Rastreio,notify',
        `${a!.id},BR1 AA,`,
        `${b!.id},BR2AA,talvez`,
        `${b!.id},BR3AA,`,
        `x12,BR4AA,`,
        `${a!.number},BR5AA,sim`,
      ].join('\n') + '\n',
    );
    requests.take();
    const refused = await runInProcess(['orders', 'ship', '--file', path, '--map', 'Pedido=order,Rastreio=tracking_code'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('invalid.csv, line 2, column 2 (Rastreio): "BR1 AA" is not a tracking code: one word of at most 100 characters');
    expect(refused.stderr).toContain('invalid.csv, line 3, column 3 (notify): "talvez" is not yes or no');
    expect(refused.stderr).toContain(`invalid.csv, line 4, column 1 (Pedido): line 3 dispatches every shipment of order ${b!.id} already`);
    expect(refused.stderr).toContain('invalid.csv, line 5, column 1 (Pedido): "x12" is not an order id');
    expect(refused.stderr).toContain('nothing was sent (fix the file, or use --skip-invalid to ship the valid row)');
    expect(requests.take()).toEqual([]);

    const skipped = await runInProcess(['orders', 'ship', '--file', path, '--map', 'Pedido=order,Rastreio=tracking_code', '--skip-invalid'], { env });
    expect(skipped.code, skipped.stderr).toBe(3);
    expect(countsOf(requests.take())).toEqual({ lists: 0, singles: 2, patches: 1, others: 0 });
    const [fo] = await shipmentsOf(a!);
    expect(fo).toMatchObject({ status: 'DISPATCHED', tracking_info: { code: 'BR5AA' } });
  });
});
