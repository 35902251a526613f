import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv, clientFor } from '../helpers/sandbox.js';

/**
 * Issue 28, "Done when" — undo: a sync runs; a few of its variants sell and an admin edits a few prices; `store
 * undo` puts every untouched field back, keeps the admin's prices and lists them, and leaves stock at before minus
 * what sold.
 */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'undo-'));
  sandbox = await startSandbox({ seed: 'empty', rate: 'off' });
  env = cliEnv(sandbox, 'undo');
  const api = clientFor(sandbox);
  for (let i = 1; i <= 6; i++) {
    const res = await api.post('/products', { name: `Remera ${i}`, variants: [{ sku: `U-${i}`, price: 10 * i, stock: 10 }] });
    expect(res.status, res.text).toBe(201);
  }
});
afterAll(() => sandbox?.close());

const variant = (sku: string) => sandbox.state.defaultStore()!.products.list().flatMap((p) => p.variants).find((v) => v.sku === sku)!;
const stock = (sku: string) => variant(sku).inventory_levels.reduce((n, l) => n + l.stock, 0);

describe('store undo RUN', () => {
  it('puts back what no one touched, keeps the admin prices (listed), and leaves stock at before minus sold', async () => {
    const feed = join(dir, 'feed.csv');
    writeFileSync(feed, `sku,price,stock\n${[1, 2, 3, 4, 5, 6].map((i) => `U-${i},${10 * i + 5},30`).join('\n')}\n`);
    const sync = await runInProcess(['variants', 'sync', feed], { env });
    expect(sync.code, sync.stderr).toBe(0);
    const runs = await runInProcess(['runs', 'list', '--json'], { env });
    const runId = (JSON.parse(runs.stdout) as { id: string; command: string }[]).find((r) => r.command === 'variants sync')!.id;
    // Sales: U-1 sells 5, U-2 sells 3. Admin: U-3 and U-4 prices.
    const api = clientFor(sandbox);
    for (const [sku, qty] of [['U-1', 5], ['U-2', 3]] as const) {
      const res = await api.post('/orders', { customer: { name: 'Ana', email: 'ana@example.com' }, products: [{ variant_id: variant(sku).id, quantity: qty }] });
      expect(res.status, res.text).toBe(201);
    }
    for (const sku of ['U-3', 'U-4']) await api.put(`/products/${variant(sku).product_id}/variants/${variant(sku).id}`, { price: 99 });
    const undo = await runInProcess(['undo', runId, '--yes', '--verify'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(stock('U-1')).toBe(5);
    expect(stock('U-2')).toBe(7);
    for (const sku of ['U-3', 'U-4', 'U-5', 'U-6']) expect(stock(sku)).toBe(10);
    expect(variant('U-1').price).toBe('10.00');
    expect(variant('U-5').price).toBe('50.00');
    expect(variant('U-3').price).toBe('99.00');
    expect(variant('U-4').price).toBe('99.00');
    expect(undo.stderr).toMatch(/U-3 \(variant \d+\) price: the run wrote 35\.00, the store holds 99\.00 — changed since the run/);
    expect(undo.stderr).toMatch(/U-4 \(variant \d+\) price/);
    expect(undo.stdout).toMatch(/verified: .* all held as written/);
    // Undo of the undo redoes.
    const undoRuns = await runInProcess(['runs', 'list', '--json'], { env });
    const undoId = (JSON.parse(undoRuns.stdout) as { id: string; command: string }[]).find((r) => r.command === 'undo')!.id;
    const redo = await runInProcess(['undo', undoId, '--yes'], { env });
    expect(redo.code, redo.stderr).toBe(0);
    expect(variant('U-5').price).toBe('55.00');
    expect(stock('U-5')).toBe(30);
    expect(stock('U-1')).toBe(25);
  });

  it('a second undo of the same run is refused; --resume without an interrupted one too', async () => {
    const runs = await runInProcess(['runs', 'list', '--json'], { env });
    const runId = (JSON.parse(runs.stdout) as { id: string; command: string }[]).find((r) => r.command === 'variants sync')!.id;
    const again = await runInProcess(['undo', runId, '--yes'], { env });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/was undone already by run/);
  });
});
