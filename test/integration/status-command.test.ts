import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/store.js';
import { displayWidth } from '../../src/output/format.js';
import { useCliSandbox } from '../helpers/cli-sandbox.js';
import { hasScript, plainText, runOnTerminal } from '../helpers/terminal.js';

/**
 * Issue 29, "the morning check in one command": `store status` against the demo sandbox — each section's figures
 * are the API's, the whole check costs the four requests its help says, the last runs come from the run ledger
 * (only this store's), and it fits an 80-column terminal.
 */

const t = useCliSandbox('status', {}, () => ({ STORE_LEDGER: join(mkdtempSync(join(tmpdir(), 'store-status-ledger-')), 'ledger.db') }));

interface OrderJson {
  id: number;
  status: string;
  payment_status: string;
  shipping_status: string;
}
interface ProductJson {
  id: number;
  variants: { id: number; sku: string | null; stock: number | null; stock_management?: boolean }[];
}

const status = (...args: string[]) => t.run('status', ...args);

async function everyOrder(): Promise<OrderJson[]> {
  return (await t.api.get<OrderJson[]>('/orders', { query: { per_page: 200 } })).body;
}

describe('store status', () => {
  it("each section's figures are the store's, in four requests", async () => {
    const r = await status('--low-stock', '10', '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    const orders = await everyOrder();
    const toShip = orders.filter((o) => o.status === 'open' && o.payment_status === 'paid' && !['fulfilled', 'shipped', 'delivered'].includes(o.shipping_status));
    expect(s.to_ship.total).toBe(toShip.length);
    expect(s.to_ship.orders.map((o: OrderJson) => o.id)).toEqual(toShip.slice(0, 5).map((o) => o.id));
    const pending = orders.filter((o) => o.payment_status === 'pending');
    expect(s.payments_pending.total).toBe(pending.length);
    expect(s.payments_pending.orders.map((o: OrderJson) => o.id)).toEqual(pending.slice(0, 5).map((o) => o.id));
    const products = (await t.api.get<ProductJson[]>('/products', { query: { per_page: 200 } })).body;
    const low = products.flatMap((p) => p.variants.filter((v) => v.stock !== null && v.stock <= 10).map((v) => v.id));
    expect(low.length).toBeGreaterThan(0);
    expect(s.low_stock).toMatchObject({ threshold: 10, complete: true });
    expect(s.low_stock.variants.map((v: { variant_id: number }) => v.variant_id).sort()).toEqual(low.sort());
    expect(s.runs).toEqual({ runs: [] });
    expect(r.requests.map((q) => `${q.path}?${[...q.query.keys()].filter((k) => !['page', 'per_page', 'fields'].includes(k)).sort().map((k) => `${k}=${q.query.get(k)}`).join('&')}`).sort()).toEqual([
      '/orders?payment_status=paid&shipping_status=unfulfilled&status=open',
      '/orders?payment_status=paid&shipping_status=unpacked&status=open',
      '/orders?payment_status=pending',
      '/products?max_stock=10',
    ]);
  });

  it('the last run of each command that wrote to this store, with its exit code, from the run ledger', async () => {
    const ledger = Ledger.open(t.env.STORE_LEDGER!);
    try {
      const run = (command: string, storeId: string, exitCode: number) => {
        const { n } = ledger.startRun({ command, argv: [], storeId, apiHost: '127.0.0.1' });
        ledger.endRun(n, exitCode);
      };
      run('variants sync', String(t.sandbox.storeId), 0);
      run('variants sync', String(t.sandbox.storeId), 3);
      run('products import', '999', 1);
      run('invoices attach', String(t.sandbox.storeId), 0);
    } finally {
      ledger.close();
    }
    const r = await status('--json');
    expect(r.code).toBe(0);
    const { runs } = JSON.parse(r.stdout).runs;
    expect(runs.map((x: { command: string; exit_code: number; state: string }) => [x.command, x.exit_code, x.state])).toEqual([
      ['invoices attach', 0, 'ended'],
      ['variants sync', 3, 'ended'],
    ]);
    const shown = await status();
    expect(shown.stdout).toMatch(/variants sync\t\S+\texit 3/);
  });
});

describe.runIf(hasScript)('store status on an 80-column terminal', () => {
  it('fits, every section headed by its count', async () => {
    const r = await runOnTerminal(['status'], { ...t.env, COLUMNS: undefined, LINES: undefined }, [], { columns: 80 });
    const lines = plainText(r.output).split('\n');
    expect(r.code, lines.join('\n')).toBe(0);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    const text = lines.join('\n');
    expect(text).toMatch(/^Orders to ship: \d+ orders/m);
    expect(text).toMatch(/^Payments pending: \d+ orders/m);
    expect(text).toMatch(/^Low stock: \d+\+? SKUs? at or below 5/m);
    expect(text).toMatch(/^Last runs: \d+ commands? in 30 days/m);
    expect(text).not.toContain('Hidden to fit');
  });
});
