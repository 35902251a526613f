import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/store.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { type BulkStore, startBulkStore } from '../helpers/bulk-store-server.js';
import { catalog, csvOf, syncFeed } from '../helpers/bulk-catalog.js';
import { BIN } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv } from '../helpers/sandbox.js';
import { serverEnv } from '../helpers/server-env.js';

/**
 * The run ledger through the real commands (docs/ledger.md): a write, then `runs list`, `runs show` and `history`
 * show it exactly; a bulk job's changes, before-values from its snapshot; a SIGKILLed job leaves every write the
 * store applied on the record.
 */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runInProcess(args, { env });
const json = async <T>(...args: string[]): Promise<T> => {
  const r = await store(...args, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};

interface RunJson {
  id: string;
  command: string;
  argv: string[];
  started_at: string;
  ended_at: string | null;
  exit_code: number | null;
  changes: number;
  confirmed: number;
  failed: number;
  unknown: number;
}
interface ChangeJson {
  run: string;
  resource: string;
  id: string | null;
  key: string | null;
  field: string;
  kind: string;
  before: unknown;
  before_known: boolean;
  after: unknown;
  outcome: string;
  irreversible: string | null;
}

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  env = cliEnv(sandbox, 'ledger');
});
afterAll(() => sandbox?.close());

describe('a single write on the record', () => {
  it('variants update: runs list, runs show and history show the change exactly, old → new', async () => {
    const before = await json<{ sku: string; price: string; stock: number }>('variants', 'get', 'CAM-OXF-S-BLANCO');
    const reads = await store('variants', 'list', '1');
    expect(reads.code).toBe(0);
    const update = await store('variants', 'update', 'CAM-OXF-S-BLANCO', '--price', '33500.50', '--stock', '7');
    expect(update.code, update.stderr).toBe(0);

    const runs = await json<RunJson[]>('runs', 'list');
    // The read-only commands left no run.
    expect(runs.map((r) => r.command)).toEqual(['variants update']);
    const [run] = runs;
    expect(run).toMatchObject({ command: 'variants update', argv: ['CAM-OXF-S-BLANCO', '--price', '33500.50', '--stock', '7'], exit_code: 0, changes: 2, confirmed: 2, failed: 0, unknown: 0 });
    expect(Date.parse(run!.ended_at!)).toBeGreaterThanOrEqual(Date.parse(run!.started_at));

    const shown = await json<{ run: RunJson; changes: ChangeJson[] }>('runs', 'show', run!.id);
    expect(shown.run.id).toBe(run!.id);
    expect(shown.changes.map(({ resource, id, key, field, kind, before: b, after, outcome }) => ({ resource, id, key, field, kind, before: b, after, outcome }))).toEqual([
      { resource: 'variant', id: '1', key: 'CAM-OXF-S-BLANCO', field: 'price', kind: 'update', before: before.price, after: '33500.50', outcome: 'confirmed' },
      { resource: 'variant', id: '1', key: 'CAM-OXF-S-BLANCO', field: 'stock', kind: 'update', before: before.stock, after: 7, outcome: 'confirmed' },
    ]);

    const text = await store('runs', 'show', 'last');
    expect(text.stdout).toContain(`Run ${run!.id}: store variants update CAM-OXF-S-BLANCO --price 33500.50 --stock 7`);
    expect(text.stdout).toContain(`Updated:\n  variant CAM-OXF-S-BLANCO (1): price ${before.price} → 33500.50; stock ${before.stock} → 7\n`);

    const csv = await store('runs', 'show', run!.id.slice(0, 20), '--csv');
    expect(csv.stdout.split('\n')[0]).toBe('run,seq,resource,id,parent,key,field,kind,before,after,outcome,reason');
    expect(csv.stdout.trim().split('\n')).toHaveLength(3);

    const history = await json<ChangeJson[]>('history', 'CAM-OXF-S-BLANCO');
    expect(history.map((c) => [c.run, c.field, c.after])).toEqual([
      [run!.id, 'stock', 7],
      [run!.id, 'price', '33500.50'],
    ]);
    // The product's id finds its variants' changes too.
    expect((await json<ChangeJson[]>('history', '1')).length).toBeGreaterThanOrEqual(2);
  });

  it('orders close and reopen: actions with the status before; a cancel says it cannot be taken back', async () => {
    const close = await store('orders', 'close', '1000000001', '--yes');
    expect(close.code, close.stderr).toBe(0);
    const reopen = await store('orders', 'reopen', '1000000001', '--yes');
    expect(reopen.code, reopen.stderr).toBe(0);
    const history = await json<ChangeJson[]>('history', '1000000001');
    expect(history.slice(0, 2).map((c) => [c.kind, c.field, c.before, c.after, c.outcome])).toEqual([
      ['action', 'status', 'closed', 'open', 'confirmed'],
      ['action', 'status', 'open', 'closed', 'confirmed'],
    ]);
    const cancel = await store('orders', 'cancel', '1000000001', '--yes');
    expect(cancel.code, cancel.stderr).toBe(0);
    const [cancelled] = await json<ChangeJson[]>('history', '1000000001');
    expect(cancelled).toMatchObject({ kind: 'action', field: 'status', before: 'open', after: 'cancelled', outcome: 'confirmed' });
    expect(cancelled!.irreversible).toMatch(/returned its items to stock/);
  });

  it('a refused write is on the record as failed, and the run as exit 2', async () => {
    const r = await store('variants', 'update', 'CAM-OXF-S-BLANCO', '--image-id', '999999');
    expect(r.code).toBe(2);
    const [run] = await json<RunJson[]>('runs', 'list', '--failed', '--limit', '1');
    expect(run).toMatchObject({ command: 'variants update', exit_code: 2, failed: 1 });
    const shown = await json<{ changes: ChangeJson[] }>('runs', 'show', 'last');
    expect(shown.changes.map((c) => [c.field, c.outcome])).toEqual([['image_id', 'failed']]);
  });

  it('store api: a non-GET request is on the record as the raw request it is', async () => {
    const r = await store('api', 'PUT', '/products/1', '-F', 'published=false');
    expect(r.code, r.stderr).toBe(0);
    const shown = await json<{ run: RunJson; changes: ChangeJson[] }>('runs', 'show', 'last');
    expect(shown.run.command).toBe('api');
    expect(shown.changes).toMatchObject([{ resource: 'api', id: '/products/1', field: 'PUT', kind: 'request', after: { published: false }, outcome: 'confirmed' }]);
  });

  it('runs list filters by command, time and failure, and says the ledger size', async () => {
    const all = await json<RunJson[]>('runs', 'list', '--all');
    const orders = await json<RunJson[]>('runs', 'list', '--command', 'orders');
    expect(orders.map((r) => r.command)).toEqual(all.filter((r) => r.command.startsWith('orders ')).map((r) => r.command));
    expect(await json<RunJson[]>('runs', 'list', '--since', '2099-01-01')).toEqual([]);
    const table = await store('runs', 'list');
    expect(table.stderr).toMatch(/^Ledger .*ledger\.db: \d+(\.\d+)? (KB|MB|bytes?); \d+ runs listed/m);
    for (const line of table.stdout.trim().split('\n')) expect(line.split('\t')).toHaveLength(9);
    const bad = await store('runs', 'list', '--since', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since "soon" is not a date');
  });

  it('runs prune removes old ended runs only; an unknown run is exit 1', async () => {
    const before = (await json<RunJson[]>('runs', 'list', '--all')).length;
    const none = await json<{ runs: number }>('runs', 'prune', '--older-than', '90d');
    expect(none.runs).toBe(0);
    expect((await json<RunJson[]>('runs', 'list', '--all')).length).toBe(before);
    const future = await store('runs', 'prune', '--older-than', '2099-01-01');
    expect(future.code).toBe(2);
    const all = await json<{ runs: number }>('runs', 'prune', '--older-than', '0d');
    expect(all.runs).toBe(before);
    const missing = await store('runs', 'show', 'ZZZZZZ');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No run ZZZZZZ in the ledger');
  });
});

describe('store config', () => {
  it('sets, gets, lists and unsets the brake defaults of the profile, checking names and values', async () => {
    expect((await store('config', 'set', 'max-price-change', '50%')).code).toBe(0);
    expect((await store('config', 'get', 'max-price-change')).stdout).toBe('50%\n');
    const list = await json<{ name: string; value: string | null }[]>('config', 'list');
    // The brakes' settings (other settings, e.g. api-version, are listed beside them).
    expect(list.filter((s) => s.name.startsWith('max-')).map((s) => [s.name, s.value])).toEqual([
      ['max-changes', null],
      ['max-price-change', '50%'],
      ['max-zero-stock', null],
      ['max-deletes', null],
    ]);
    const wrong = await store('config', 'set', 'max-price-changes', '50%');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Unknown setting "max-price-changes" (did you mean max-price-change?)');
    const bad = await store('config', 'set', 'max-deletes', '10%');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('max-deletes "10%" is not N');
    expect((await store('config', 'unset', 'max-price-change')).code).toBe(0);
    expect((await store('config', 'get', 'max-price-change')).stdout).toBe('');
  });
});

describe('bulk jobs on the record', () => {
  let dir: string;
  let bulk: BulkStore;
  const file = (name: string, text: string) => {
    const path = join(dir, `${name}.csv`);
    writeFileSync(path, text);
    return path;
  };
  const bulkEnv = (state: string) => serverEnv(bulk, dir, state);
  const changesOf = (state: string): ReturnType<Ledger['history']> => {
    const ledger = Ledger.open(join(dir, state, 'store', 'ledger.db'));
    try {
      return ledger.runs().flatMap((run) => [...ledger.changes(run.id)]);
    } finally {
      ledger.close();
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-bulk-'));
    bulk = await startBulkStore();
    const seed = await runInProcess(['products', 'import', file('seed', csvOf(catalog(60, 3)))], { env: bulkEnv('seed') });
    expect(seed.code, seed.stderr).toBe(0);
  });
  afterAll(() => bulk?.close());

  it('products import: every create on the record with the id the store gave', async () => {
    const created = changesOf('seed').filter((c) => c.kind === 'create');
    expect(created.filter((c) => c.resource === 'product')).toHaveLength(60);
    for (const c of created) expect(c.outcome, `${c.resource} ${c.key}`).toBe('confirmed');
    const ids = new Set(bulk.products.map((p) => String(p.id)));
    for (const c of created.filter((x) => x.resource === 'product')) expect(ids.has(c.id!), c.key!).toBe(true);
  });

  it('a SIGKILLed sync leaves every write the store applied on the record; the resumed run records the rest, before-values from its snapshot', async () => {
    const variants = bulk.products.flatMap((p) => p.variants);
    const was = new Map(variants.map((v) => [v.sku!, { stock: v.stock, price: v.price }]));
    const feed = variants.map((v, i) => ({ sku: v.sku!, stock: 700 + i, price: `${i}.25` }));
    const path = file('killed', syncFeed(feed));
    const state = bulkEnv('killed');
    const child = spawn(process.execPath, [BIN, 'variants', 'sync', path], { env: { ...process.env, ...state, NO_COLOR: '1' }, stdio: 'ignore' });
    // Killed while the store applies its second batch: applied, never answered.
    bulk.onWrite = (_request, count) => {
      if (count >= 2) child.kill('SIGKILL');
    };
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, s) => resolve(s)));
    bulk.onWrite = undefined;
    expect(signal).toBe('SIGKILL');

    const recorded = changesOf('killed');
    const onRecord = new Set(recorded.map((c) => `${c.key}|${c.field}`));
    const applied = feed.filter((f) => bulk.variantBySku(f.sku)!.stock === f.stock);
    expect(applied.length).toBeGreaterThanOrEqual(50);
    for (const f of applied) {
      expect(onRecord.has(`${f.sku}|stock`), f.sku).toBe(true);
      expect(onRecord.has(`${f.sku}|price`), f.sku).toBe(true);
    }
    // What the store applied but never answered is on the record as intended, which reads as unknown.
    for (const c of recorded) expect(['confirmed', 'intended']).toContain(c.outcome);
    const ledger = Ledger.open(join(dir, 'killed', 'store', 'ledger.db'));
    const [killed] = ledger.runs();
    ledger.close();
    expect(killed).toMatchObject({ command: 'variants sync', ended_at: null, exit_code: null });

    const resumed = await runInProcess(['variants', 'sync', path, '--resume'], { env: state });
    expect(resumed.code, resumed.stderr).toBe(0);
    const all = changesOf('killed');
    for (const f of feed) {
      // Confirmed, or applied while its reply was lost (the resumed run found it done): on the record either way.
      const mine = all.filter((c) => c.key === f.sku && c.field === 'stock' && c.after === f.stock);
      expect(mine.length, f.sku).toBeGreaterThanOrEqual(1);
      // The first run's before-value is the store's value before any write.
      const first = all.find((c) => c.key === f.sku && c.field === 'stock')!;
      expect(first.before, f.sku).toBe(was.get(f.sku)!.stock);
      expect(first.after, f.sku).toBe(f.stock);
    }
  });
});
