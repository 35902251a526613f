import { writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/run-cli.js';
import { startMcp } from '../helpers/mcp-client.js';
import { accessKey, cliEnv, clientFor, requestRecorder, type TestSandbox } from '../helpers/sandbox.js';

/**
 * `store mcp --write`, the real process over stdio with the SDK's client: plan → apply → ledger → undo on the
 * sandbox, a stale plan refused with 0 writes, a repeated apply_plan writing once, an order action, and an
 * assistant session beside a `products import` on one store seeing no 429.
 */

const SKU = 'REM-BAS-S-NEGRO';

let sandbox: RunningSandbox;
let api: TestSandbox;
const recorder = requestRecorder();
/** The write requests the sandbox received since the last call. */
const writes = () => recorder.take().filter((r) => r.method !== 'GET');

async function variant(sku: string): Promise<{ id: number; product_id: number; stock: number | null; price: string }> {
  const res = await api.get(`/products/sku/${sku}`);
  return (res.body as { variants: { id: number; product_id: number; sku: string; stock: number | null; price: string }[] }).variants.find((v) => v.sku === sku)!;
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0, onRequest: recorder.onRequest });
  api = clientFor(sandbox);
});
afterAll(() => sandbox?.close());

describe('plan → apply → ledger → undo', () => {
  it('plans stock and price by SKU (old → new, nothing sent), applies it once under the client\'s name, and undoes it', async () => {
    const env = cliEnv(sandbox, 'mcp-apply');
    const s = await startMcp(['--write'], env, { clientName: 'Claude Desktop' });
    try {
      const before = await variant(SKU);
      recorder.take();
      // `stock` is the stock at the default location (docs/csv.md), one part of the variant's total.
      const plan = await s.call('plan_stock_price', { rows: [{ sku: SKU, stock: 40, price: '13999.00' }] });
      expect(plan.isError, plan.text).toBe(false);
      expect(writes()).toEqual([]);
      expect(plan.structured.plan_id).toMatch(/^plan_/);
      expect(plan.structured.changes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ key: SKU, field: 'price', before: before.price, after: '13999.00' }),
          expect.objectContaining({ key: SKU, field: 'stock', after: 40 }),
        ]),
      );
      const atDefault = plan.structured.changes.find((c: { field: string }) => c.field === 'stock').before as number;

      const applied = await s.call('apply_plan', { plan_id: plan.structured.plan_id });
      expect(applied.isError, applied.text).toBe(false);
      expect(applied.structured.already_applied).toBe(false);
      const sent = writes();
      expect(sent.length).toBeGreaterThan(0);
      expect(await variant(SKU)).toMatchObject({ price: '13999.00', stock: (before.stock ?? 0) - atDefault + 40 });

      // A retried call writes nothing and answers the same run.
      const again = await s.call('apply_plan', { plan_id: plan.structured.plan_id });
      expect(again.structured).toMatchObject({ already_applied: true, run: applied.structured.run });
      expect(writes()).toEqual([]);

      // On the record, under the client's name.
      const runs = await s.call('list_runs', { command: 'mcp apply_plan' });
      expect(runs.structured.runs[0]).toMatchObject({ id: applied.structured.run, command: 'mcp apply_plan', argv: ['apply_plan', plan.structured.plan_id, '--client', 'Claude Desktop'] });
      const shown = await s.call('show_run', { run: applied.structured.run });
      expect(shown.structured.changes).toEqual(
        expect.arrayContaining([expect.objectContaining({ key: SKU, field: 'price', before: before.price, after: '13999.00', outcome: 'confirmed' })]),
      );
      const cli = await runCli(['runs', 'show', applied.structured.run, '--json'], { env });
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout).run.argv).toContain('Claude Desktop');

      // Undo: planned (nothing sent), then applied.
      const undo = await s.call('undo_run', { run: applied.structured.run });
      expect(undo.isError, undo.text).toBe(false);
      expect(writes()).toEqual([]);
      expect(undo.structured.changes).toEqual(expect.arrayContaining([expect.objectContaining({ key: SKU, field: 'price', before: '13999.00', after: before.price })]));
      const undone = await s.call('apply_plan', { plan_id: undo.structured.plan_id });
      expect(undone.isError, undone.text).toBe(false);
      expect(await variant(SKU)).toMatchObject({ price: before.price, stock: before.stock });
      const undoRun = await s.call('show_run', { run: undone.structured.run });
      expect(undoRun.structured.run.undoes).toBe(applied.structured.run);
    } finally {
      await s.close();
    }
  });

  it('plans stock at named locations (stock_at, the sync\'s stock:<location> columns) and applies it there; rows naming other locations are refused', async () => {
    const s = await startMcp(['--write'], cliEnv(sandbox, 'mcp-locations'));
    try {
      const locations = (await api.get('/locations')).body as { id: string; name: Record<string, string> | string }[];
      const palermo = locations.find((l) => JSON.stringify(l.name).includes('Local Palermo'))!;
      const levelAt = async (sku: string) =>
        ((await api.get(`/products/sku/${sku}`)).body as { variants: { sku: string; inventory_levels: { location_id: string; stock: number | null }[] }[] }).variants
          .find((v) => v.sku === sku)!
          .inventory_levels.find((level) => level.location_id === palermo.id)?.stock;
      recorder.take();
      const mixed = await s.call('plan_stock_price', { rows: [{ sku: 'CAM-LIN-S', stock_at: { 'Local Palermo': 12 } }, { sku: 'CAM-LIN-M', stock_at: { 'Depósito Córdoba': 3 } }] });
      expect(mixed.isError).toBe(true);
      expect(mixed.text).toContain('rows[1] (CAM-LIN-M) gives stock_at for Depósito Córdoba; every row must give the same locations as the first: Local Palermo.');

      const both = await s.call('plan_stock_price', { rows: [{ sku: 'CAM-LIN-S', stock_at: { 'Local Palermo': 12 } }, { sku: 'CAM-LIN-M', stock_at: { 'Local Palermo': 13 } }] });
      expect(both.isError, both.text).toBe(false);
      expect(writes()).toEqual([]);
      expect(both.structured.changes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ key: 'CAM-LIN-S', field: 'stock', location: palermo.id, after: 12 }),
          expect.objectContaining({ key: 'CAM-LIN-M', field: 'stock', location: palermo.id, after: 13 }),
        ]),
      );
      const applied = await s.call('apply_plan', { plan_id: both.structured.plan_id });
      expect(applied.isError, applied.text).toBe(false);
      expect(writes().length).toBeGreaterThan(0);
      expect([await levelAt('CAM-LIN-S'), await levelAt('CAM-LIN-M')]).toEqual([12, 13]);
    } finally {
      await s.close();
    }
  });

  it('plans catalog rows through the import planner and applies them', async () => {
    const s = await startMcp(['--write'], cliEnv(sandbox, 'mcp-catalog'));
    try {
      recorder.take();
      const plan = await s.call('plan_catalog_rows', { csv: 'handle,name,sku,price,stock\ntaza-mcp,Taza MCP,TAZA-MCP-1,2500.00,7\n' });
      expect(plan.isError, plan.text).toBe(false);
      expect(writes()).toEqual([]);
      expect(plan.structured.changes).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'taza-mcp' })]));
      const applied = await s.call('apply_plan', { plan_id: plan.structured.plan_id });
      expect(applied.isError, applied.text).toBe(false);
      expect(await variant('TAZA-MCP-1')).toMatchObject({ price: '2500.00', stock: 7 });
    } finally {
      await s.close();
    }
  });

  it('refuses a stale plan with 0 writes, and a refused plan stays refused', async () => {
    const s = await startMcp(['--write'], cliEnv(sandbox, 'mcp-stale'));
    try {
      const before = await variant('REM-BAS-S-BLANCO');
      const plan = await s.call('plan_stock_price', { rows: [{ sku: 'REM-BAS-S-BLANCO', price: '15000.00' }] });
      expect(plan.structured.changes).toEqual([expect.objectContaining({ field: 'price', before: before.price, after: '15000.00' })]);
      // Someone changes the price in the admin meanwhile.
      await api.put(`/products/${before.product_id}/variants/${before.id}`, { price: '14000.00' });
      recorder.take();
      const refused = await s.call('apply_plan', { plan_id: plan.structured.plan_id });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/changed in the store since the plan was made; nothing was sent/);
      expect(writes()).toEqual([]);
      expect((await variant('REM-BAS-S-BLANCO')).price).toBe('14000.00');
      const retried = await s.call('apply_plan', { plan_id: plan.structured.plan_id });
      expect(retried.structured.already_applied).toBe(true);
      expect(writes()).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('an order action: planned with its status old → new, applied once however often apply_plan is called, refused when the order changed', async () => {
    const s = await startMcp(['--write'], cliEnv(sandbox, 'mcp-order'));
    try {
      const open = await s.call('search_orders', { status: 'open', limit: 2, fields: ['id', 'number', 'status'] });
      const [first, second] = open.structured.orders as { id: number; number: number }[];
      const plan = await s.call('plan_order_action', { order: first!.number, action: 'close' });
      expect(plan.isError, plan.text).toBe(false);
      expect(plan.structured.changes).toEqual([expect.objectContaining({ field: 'status', before: 'open', after: 'closed' })]);
      recorder.take();
      const results = await Promise.all([1, 2, 3].map(() => s.call('apply_plan', { plan_id: plan.structured.plan_id })));
      const closes = writes().filter((w) => w.path === `/orders/${first!.id}/close`);
      expect(closes).toHaveLength(1);
      expect(results.filter((r) => !r.isError && r.structured.already_applied === false)).toHaveLength(1);
      expect((await api.get(`/orders/${first!.id}`)).body.status).toBe('closed');

      const stale = await s.call('plan_order_action', { order: second!.id, action: 'close' });
      await api.put(`/orders/${second!.id}`, { owner_note: 'changed meanwhile' });
      recorder.take();
      const refused = await s.call('apply_plan', { plan_id: stale.structured.plan_id });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/changed since the plan was made/);
      expect(writes()).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('a host that can ask the user (elicitation)', () => {
  it('is asked before apply_plan writes, with the plan\'s old → new: a no sends nothing and leaves the plan to apply later', async () => {
    const questions: string[] = [];
    let answer: 'decline' | 'accept' = 'decline';
    const s = await startMcp(['--write'], cliEnv(sandbox, 'mcp-elicit'), {
      elicit: (message) => {
        questions.push(message);
        return answer === 'accept' ? { action: 'accept', content: { apply: true } } : { action: 'decline' };
      },
    });
    try {
      const before = await variant('CAM-LEN-M');
      const plan = await s.call('plan_stock_price', { rows: [{ sku: 'CAM-LEN-M', price: '31000.00' }] });
      recorder.take();
      const declined = await s.call('apply_plan', { plan_id: plan.structured.plan_id });
      expect(declined.structured).toMatchObject({ declined: true, run: null });
      expect(writes()).toEqual([]);
      expect(questions[0]).toContain(`CAM-LEN-M price: "${before.price}" → "31000.00"`);
      answer = 'accept';
      const applied = await s.call('apply_plan', { plan_id: plan.structured.plan_id });
      expect(applied.isError, applied.text).toBe(false);
      expect((await variant('CAM-LEN-M')).price).toBe('31000.00');
    } finally {
      await s.close();
    }
  });
});

describe('shipping and invoices by plan → apply', () => {
  it('dispatches an order to ship with its tracking code, then attaches an invoice, each planned first', async () => {
    const s = await startMcp(['--write'], cliEnv(sandbox, 'mcp-ship'));
    try {
      const toShip = await s.call('search_orders', { to_ship: true, limit: 1, fields: ['id', 'number'] });
      const order = toShip.structured.orders[0] as { id: number; number: number };
      recorder.take();
      const ship = await s.call('plan_order_action', { order: order.number, action: 'ship', tracking: 'BR123456789AA' });
      expect(ship.isError, ship.text).toBe(false);
      expect(writes()).toEqual([]);
      expect(ship.structured.changes[0]).toMatchObject({ resource: 'shipment', field: 'status', after: 'DISPATCHED' });
      const shipped = await s.call('apply_plan', { plan_id: ship.structured.plan_id });
      expect(shipped.isError, shipped.text).toBe(false);
      const after = await s.call('get_order', { order: order.id });
      expect(after.structured.shipments).toEqual(expect.arrayContaining([expect.objectContaining({ status: 'DISPATCHED', tracking_code: 'BR123456789AA' })]));

      const key = accessKey();
      recorder.take();
      const invoice = await s.call('plan_order_action', { order: order.id, action: 'attach_invoice', invoice_key: key, invoice_link: 'https://nfe.example.com/1.pdf' });
      expect(invoice.isError, invoice.text).toBe(false);
      expect(writes()).toEqual([]);
      const attached = await s.call('apply_plan', { plan_id: invoice.structured.plan_id });
      expect(attached.isError, attached.text).toBe(false);
      const withInvoice = await s.call('get_order', { order: order.id });
      expect(withInvoice.structured.invoices.map((i: { key: string }) => i.key)).toContain(key);
    } finally {
      await s.close();
    }
  });
});

/** A proxy in front of the store that counts the 429s it passes back, whoever the client. */
async function counting429(target: string): Promise<{ url: string; count: () => number; requests: () => number; close(): Promise<void> }> {
  const upstream = new URL(target);
  let limited = 0;
  let total = 0;
  const server: Server = createServer((req, res) => {
    const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (reply) => {
      total++;
      if (reply.statusCode === 429) limited++;
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => limited,
    requests: () => total,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('an assistant session and a products import at once on one store', () => {
  let limited: RunningSandbox;
  beforeAll(async () => {
    limited = await startSandbox({ seed: 'demo', rate: { capacity: 20, leakPerSecond: 10 }, host: '127.0.0.1', port: 0 });
  });
  afterAll(() => limited?.close());

  it('share one bucket and see 0 × 429', async () => {
    const proxy = await counting429(limited.apiUrl);
    try {
      const env = { ...cliEnv(limited, 'mcp-shared'), STORE_API_URL: proxy.url };
      const rows = ['handle,name,sku,price,stock'];
      for (let i = 1; i <= 80; i++) rows.push(`mcp-load-${i},Producto ${i},MCP-LOAD-${i},${1000 + i}.00,${i}`);
      const file = join(env.XDG_DATA_HOME!, '..', 'catalog.csv');
      writeFileSync(file, `${rows.join('\n')}\n`);
      const session = await startMcp([], env);
      const importing = runCli(['products', 'import', file, '--quiet'], { env, timeoutMs: 120_000 });
      let calls = 0;
      let done = false;
      void importing.then(() => {
        done = true;
      });
      while (!done || calls < 20) {
        const r = await session.call(calls % 2 === 0 ? 'search_orders' : 'find_products', calls % 2 === 0 ? { limit: 5, fields: ['id'] } : { query: 'remera', limit: 2 });
        expect(r.isError, r.text).toBe(false);
        calls++;
        if (calls > 400) break;
      }
      const imported = await importing;
      await session.close();
      expect(imported.code, imported.stderr).toBe(0);
      expect(calls).toBeGreaterThanOrEqual(20);
      expect(proxy.requests()).toBeGreaterThan(100);
      expect(proxy.count()).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});
