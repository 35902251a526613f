import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv, clientFor, requestRecorder, writesOf } from '../helpers/sandbox.js';

/**
 * Issue 28 — brakes, saved plans and --verify, with the real commands against the demo sandbox:
 * - a feed multiplying prices by 100 under `--max-price-change 50%` exits 5 with 0 writes, naming each price;
 * - the other brakes, a profile default from `store config`, a bad value (exit 2);
 * - `--plan-out` then `store apply` writes exactly the plan; a stale plan is refused with 0 writes naming each
 *   record (exit 5); a plan edited by hand, or for another store, is refused (exit 2);
 * - `--verify` against the `ack-drop` fault names every dropped write (exit 3).
 */

let sandbox: RunningSandbox;
let dir: string;
let baseEnv: NodeJS.ProcessEnv;
const recorder = requestRecorder();

const env = (extra: Record<string, string> = {}) => ({ ...baseEnv, ...extra });

/** The demo store's variants as the sandbox holds them now. */
function variants() {
  const store = sandbox.state.defaultStore()!;
  return structuredClone(store.products.list().flatMap((p) => p.variants));
}
const bySku = (sku: string) => variants().find((v) => v.sku === sku)!;
/** The stock at the default location: what a plain `stock` column reads and sets. */
const stockOf = (sku: string) => {
  const main = sandbox.state.defaultStore()!.defaultLocation()!.id;
  return bySku(sku).inventory_levels.find((l) => l.location_id === main)?.stock ?? 0;
};
/** Variants with a SKU, a price and a tracked stock. */
const priced = () => variants().filter((v) => v.sku && v.price && v.stock_management);

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function store(args: string[], extra: Record<string, string> = {}) {
  recorder.take();
  const r = await runInProcess(args, { env: env(extra) });
  const received = recorder.take();
  return { ...r, received, writes: writesOf(received) };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plans-brakes-'));
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', onRequest: recorder.onRequest });
  baseEnv = cliEnv(sandbox, 'plans-brakes');
});
afterAll(async () => {
  await sandbox?.close();
});

describe('brakes for unattended runs', () => {
  it('a feed that multiplies prices by 100, with --max-price-change 50%, exits 5 with 0 writes and names each price', async () => {
    const targets = priced().slice(0, 4);
    const csv = `sku,price\n${targets.map((v) => `${v.sku},${(Number(v.price) * 100).toFixed(2)}`).join('\n')}\n`;
    const before = targets.map((v) => bySku(v.sku!).price);
    const r = await store(['variants', 'sync', file('x100.csv', csv), '--max-price-change', '50%']);
    expect(r.code, r.stderr).toBe(5);
    expect(r.writes).toEqual([]);
    expect(targets.map((v) => bySku(v.sku!).price)).toEqual(before);
    expect(r.stderr).toMatch(/--max-price-change 50%: 4 prices move by more \(up to 9,900%\)/);
    for (const v of targets) expect(r.stderr).toContain(`${v.sku} (variant ${v.id}): price ${v.price} → ${(Number(v.price) * 100).toFixed(2)} (+9,900%)`);
    expect(r.stdout).toMatch(/Would sync x100\.csv: 4 rows/);
    expect(r.stderr).toMatch(/Nothing was sent/);
  });

  it('--max-changes N and P%, --max-zero-stock: a plan over the limit stops; one within runs', async () => {
    const [a, b, c] = priced();
    const csv = `sku,stock\n${a!.sku},0\n${b!.sku},0\n${c!.sku},${stockOf(c!.sku!) + 1}\n`;
    const over = await store(['variants', 'sync', file('three.csv', csv), '--max-changes', '2']);
    expect(over.code, over.stderr).toBe(5);
    expect(over.writes).toEqual([]);
    expect(over.stderr).toMatch(/--max-changes 2: the plan changes 3 records/);
    const share = await store(['variants', 'sync', file('three.csv', csv), '--max-changes', '1%']);
    expect(share.code, share.stderr).toBe(5);
    const zero = await store(['variants', 'sync', file('three.csv', csv), '--max-zero-stock', '1']);
    expect(zero.code, zero.stderr).toBe(5);
    expect(zero.stderr).toContain(`${a!.sku} (variant ${a!.id}): stock`);
    expect(zero.writes).toEqual([]);
    const within = await store(['variants', 'sync', file('three.csv', csv), '--max-changes', '3', '--max-zero-stock', '2']);
    expect(within.code, within.stderr).toBe(0);
    expect(stockOf(a!.sku!)).toBe(0);
  });

  it('a brake set as the profile default (store config) applies without the flag; the flag wins', async () => {
    const [v] = priced();
    const config = join(baseEnv.XDG_CONFIG_HOME!, 'store');
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: {}, settings: { env: { 'max-price-change': '10%' } } }));
    const csv = `sku,price\n${v!.sku},${(Number(v!.price) * 2).toFixed(2)}\n`;
    const braked = await store(['variants', 'sync', file('double.csv', csv)]);
    expect(braked.code, braked.stderr).toBe(5);
    expect(braked.writes).toEqual([]);
    const allowed = await store(['variants', 'sync', file('double.csv', csv), '--max-price-change', '150%']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(bySku(v!.sku!).price).toBe((Number(v!.price) * 2).toFixed(2));
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: {} }));
  });

  it('a brake value that is not a count or a percentage is a usage error (exit 2), nothing read', async () => {
    const r = await store(['variants', 'sync', file('any.csv', 'sku,stock\nX,1\n'), '--max-changes', 'lots']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-changes takes a whole number \(10\) or a percentage \(5%\); "lots" is neither/);
    expect(r.received).toEqual([]);
  });
});

describe('saved plans: --plan-out, then store apply', () => {
  it('--plan-out sends nothing; apply writes exactly that plan', async () => {
    const [a, b] = priced().slice(4, 6);
    const csv = `sku,price,stock\n${a!.sku},${(Number(a!.price) + 1).toFixed(2)},7\n${b!.sku},${(Number(b!.price) + 2).toFixed(2)},9\n`;
    const plan = join(dir, 'tonight.plan');
    const made = await store(['variants', 'sync', file('tonight.csv', csv), '--plan-out', plan]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.writes).toEqual([]);
    expect(existsSync(plan)).toBe(true);
    expect(made.stderr).toMatch(/Plan written to .*tonight\.plan; nothing was sent/);
    const applied = await store(['apply', plan]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.writes.map((w) => `${w.method} ${w.path}`)).toEqual(['PATCH /products/stock-price']);
    expect(bySku(a!.sku!).price).toBe((Number(a!.price) + 1).toFixed(2));
    expect(stockOf(b!.sku!)).toBe(9);
    // The reads were of the two products alone, with fields=.
    const reads = applied.received.filter((r) => r.method === 'GET' && r.path.startsWith('/products'));
    expect(reads.length).toBeLessThanOrEqual(2);
    expect(reads.every((r) => r.query.get('fields')?.includes('variants'))).toBe(true);
  });

  it('a plan whose records changed in the store since is refused with 0 writes, naming each (exit 5)', async () => {
    const [a, b, c] = priced().slice(6, 9);
    const csv = `sku,price\n${a!.sku},${(Number(a!.price) + 5).toFixed(2)}\n${b!.sku},${(Number(b!.price) + 5).toFixed(2)}\n${c!.sku},${(Number(c!.price) + 5).toFixed(2)}\n`;
    const plan = join(dir, 'stale.plan');
    expect((await store(['variants', 'sync', file('stale.csv', csv), '--plan-out', plan])).code).toBe(0);
    // An admin edits one price, another variant's price changes through the API, after the plan was made.
    const api = clientFor(sandbox);
    await api.put(`/products/${a!.product_id}/variants/${a!.id}`, { price: 1234.5 });
    await api.patch('/products/stock-price', [{ id: b!.product_id, variants: [{ id: b!.id, price: 99 }] }]);
    const r = await store(['apply', plan]);
    expect(r.code, r.stderr).toBe(5);
    expect(r.writes).toEqual([]);
    expect(r.stderr).toContain(`${a!.sku} (variant ${a!.id}) price: planned from ${a!.price}, the store holds 1234.50 now`);
    expect(r.stderr).toContain(`${b!.sku} (variant ${b!.id}) price: planned from ${b!.price}, the store holds 99.00 now`);
    expect(r.stderr).not.toContain(`${c!.sku} (variant`);
    expect(bySku(c!.sku!).price).toBe(c!.price);
  });

  it('a plan edited by hand, cut short, or made for another store is refused (exit 2) with nothing sent', async () => {
    const [a] = priced().slice(9, 10);
    const plan = join(dir, 'edit.plan');
    expect((await store(['variants', 'sync', file('edit.csv', `sku,stock\n${a!.sku},3\n`), '--plan-out', plan])).code).toBe(0);
    const text = readFileSync(plan, 'utf8');
    const edited = file('edited.plan', text.replace('"stock":3', '"stock":300'));
    expect(text).toContain('"stock":3');
    const r = await store(['apply', edited]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/edited\.plan cannot be applied: its seal does not match its content/);
    expect(r.writes).toEqual([]);
    const cut = file('cut.plan', text.split('\n').slice(0, -2).join('\n'));
    const short = await store(['apply', cut]);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/it has no seal/);
    const other = await store(['apply', plan], { STORE_ID: '1000002' });
    expect(other.code).toBe(2);
    expect(other.writes).toEqual([]);
  });

  it('products import --plan-out, then apply, creates the product the plan holds', async () => {
    const plan = join(dir, 'import.plan');
    const csv = 'handle,name,sku,price,stock\nplanned-mug,Planned Mug,PLAN-MUG-1,12.50,4\n';
    const made = await store(['products', 'import', file('mug.csv', csv), '--plan-out', plan]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.writes).toEqual([]);
    const applied = await store(['apply', plan]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.writes.map((w) => `${w.method} ${w.path}`)).toEqual(['POST /products']);
    expect(bySku('PLAN-MUG-1')).toMatchObject({ price: '12.50' });
    expect(stockOf('PLAN-MUG-1')).toBe(4);
    // Applied twice: the product exists now, so the plan is stale.
    const again = await store(['apply', plan]);
    expect(again.code).toBe(5);
    expect(again.stderr).toMatch(/a product with handle planned-mug exists now/);
    expect(again.writes).toEqual([]);
  });
});

describe('--verify against a store that acknowledges writes it does not apply (ack-drop)', () => {
  let faulty: RunningSandbox;
  beforeAll(async () => {
    faulty = await startSandbox({ seed: 'demo', rate: 'off', faults: 'ack-drop=0.3,seed=11' });
  });
  afterAll(() => faulty?.close());

  it('names every dropped write as a failed row (exit 3); the others are verified', async () => {
    const store = faulty.state.defaultStore()!;
    const targets = structuredClone(store.products.list().flatMap((p) => p.variants).filter((v) => v.sku && v.price && v.stock_management).slice(0, 30));
    const csv = `sku,price\n${targets.map((v) => `${v.sku},${(Number(v.price) + 3).toFixed(2)}`).join('\n')}\n`;
    const r = await runInProcess(['variants', 'sync', file('verify.csv', csv), '--verify', '--report', join(dir, 'verify-report.csv')], {
      env: cliEnv(faulty, 'verify'),
    });
    expect(r.stderr).not.toMatch(/Error/);
    const now = new Map(store.products.list().flatMap((p) => p.variants).map((v) => [v.sku, v.price]));
    const dropped = targets.filter((v) => now.get(v.sku) !== (Number(v.price) + 3).toFixed(2)).map((v) => v.sku!);
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.length).toBeLessThan(targets.length);
    expect(r.code, r.stderr).toBe(3);
    const report = readFileSync(join(dir, 'verify-report.csv'), 'utf8');
    // The report repeats each failed row as the feed has it (sku, price), then line, error and stage.
    expect(report.split('\n')[0]).toBe('sku,price,line,error,stage');
    const failedSkus = report.split('\n').slice(1).filter(Boolean).map((line) => line.split(',')[0]);
    expect(failedSkus.sort()).toEqual([...dropped].sort());
    expect(report).toMatch(/verify/);
    expect(r.stdout).toMatch(new RegExp(`verified: *${targets.length} fields read back; ${dropped.length} records? not held`));
  });
});
