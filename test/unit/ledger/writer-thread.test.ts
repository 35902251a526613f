// The run ledger's writer thread (src/ledger/writer.ts ThreadWriter), as the built CLI runs it: the worker loads
// JavaScript, so these tests use dist/ (built by `npm test`'s pretest), as the CLI does.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type * as RecorderModule from '../../../src/ledger/recorder.js';
import type * as StoreModule from '../../../src/ledger/store.js';
import type * as WriterModule from '../../../src/ledger/writer.js';
import type { ChangeIntent } from '../../../src/ledger/types.js';

const dist = new URL('../../../dist/ledger/', import.meta.url);
/** The SQLite module's connection, as these tests use it to read or seed the file as another process would. */
type Db = { prepare(sql: string): { pluck(): { get(n: number): number | null }; run(...args: unknown[]): unknown }; close(): void };
const { RunRecorder } = (await import(new URL('recorder.js', dist).href)) as typeof RecorderModule;
const { Ledger, ledgerDriverName } = (await import(new URL('store.js', dist).href)) as typeof StoreModule;
const { threadAvailable } = (await import(new URL('writer.js', dist).href)) as typeof WriterModule;

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-thread-'));
  path = join(dir, 'ledger.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const start = { command: 'variants sync', argv: ['stock.csv'], profile: 'sandbox', storeId: 1, apiHost: '127.0.0.1:4010' };
const stock = (sku: string, id: number, before: number, after: number): ChangeIntent => ({ resource: 'variant', id, parent: 1, key: sku, field: 'stock', kind: 'update', before, after });

function outcomes(runId: string): [string | null, string, string | null][] {
  const ledger = Ledger.open(path);
  try {
    return [...ledger.changes(runId)].map((c) => [c.key, c.outcome, c.reason]);
  } finally {
    ledger.close();
  }
}

describe('the ledger writer thread (built CLI)', () => {
  it('is what the built CLI uses on this Node', () => {
    expect(threadAvailable()).toBe(true);
  });

  it('commits each intent before its ready resolves, and settles every change of a many-request run in order', async () => {
    const recorder = new RunRecorder(() => Ledger.open(path), start);
    // The first request's changes are written on this thread; the rest by the worker.
    const first = recorder.intend([stock('A', 1, 1, 2)]);
    expect(first.ready).toBeUndefined();
    first.settle('confirmed');
    const writes = [];
    for (let batch = 0; batch < 20; batch++) {
      const write = recorder.intend(
        Array.from({ length: 50 }, (_, i) => stock(`S-${batch}-${i}`, 100 + batch * 50 + i, i, i + 1)),
        { settledByCaller: true },
      );
      expect(write.ready).toBeInstanceOf(Promise);
      await write.ready;
      // On disk when ready resolves: another connection sees the changes as intended.
      const seen = outcomes(recorder.runId!).filter(([key]) => key?.startsWith(`S-${batch}-`));
      expect(seen.map(([, outcome]) => outcome)).toEqual(Array(50).fill('intended'));
      writes.push(write);
    }
    // Per change, out of order, one refused; then a part settled on its own; a create identified.
    for (const [n, write] of writes.entries()) {
      if (n === 3) {
        write.part([0, 1]).settle('unknown', 'reply lost');
        write.settleEach(write.changes.map((_, i) => (i < 2 ? undefined : i === 7 ? { outcome: 'failed' as const, reason: 'refused' } : 'confirmed')));
      } else write.settleEach(write.changes.map(() => 'confirmed'));
    }
    const created = recorder.intend([{ resource: 'product', key: 'new-shirt', field: '*', kind: 'create', after: { handle: 'new-shirt' } }]);
    await created.ready;
    created.identify(98_765);
    created.settle('confirmed');
    expect(recorder.finish(0)).toEqual({});

    const rows = outcomes(recorder.runId!);
    expect(rows).toHaveLength(1 + 20 * 50 + 1);
    expect(rows.filter(([, outcome]) => outcome === 'confirmed')).toHaveLength(1 + 20 * 50 + 1 - 3);
    expect(rows.filter(([key]) => key === 'S-3-0' || key === 'S-3-1').map(([, o, r]) => [o, r])).toEqual([
      ['unknown', 'reply lost'],
      ['unknown', 'reply lost'],
    ]);
    expect(rows.find(([key]) => key === 'S-3-7')).toEqual(['S-3-7', 'failed', 'refused']);
    const ledger = Ledger.open(path);
    const run = ledger.run(recorder.runId!)!;
    expect([run.exit_code, run.changes, run.confirmed, run.failed, run.unknown]).toEqual([0, 1002, 999, 1, 2]);
    expect(ledger.history('98765').map((c) => c.key)).toEqual(['new-shirt']);
    ledger.close();
  });

  it("indexes the run for history a slice at a time while idle, and checkpoints then; a create identified after its slice is found by its id", async () => {
    const { ThreadWriter } = (await import(new URL('writer.js', dist).href)) as typeof WriterModule;
    const ledger = Ledger.open(path);
    // An earlier run's change at seq 10,000,000: this run's seqs start past it (a ledger of 10 million changes).
    const earlier = ledger.startRun(start);
    const Database = createRequire(import.meta.url)(ledgerDriverName()) as new (file: string) => Db;
    const raw = new Database(path);
    raw.prepare(`INSERT INTO changes (seq, run, resource, field, kind) VALUES (10000000, ?, 'variant', 'stock', 'update')`).run(earlier.n);
    raw.close();
    ledger.endRun(earlier.n, 0);
    const run = ledger.startRun(start);
    // A worker indexing 100 changes at a time (INDEX_SLICE in the CLI).
    const writer = new ThreadWriter(path, run.n, 100);
    const create = writer.intend(0, [{ resource: 'product', key: 'new-shirt', field: '*', kind: 'create', after: { handle: 'new-shirt' } }]);
    await create.ready;
    // How far the run is indexed, read by another connection as another process would.
    const indexed = () => {
      const db = new Database(path);
      try {
        return db.prepare(`SELECT indexed FROM runs WHERE n = ?`).pluck().get(run.n) ?? 0;
      } finally {
        db.close();
      }
    };
    // The ledger's own file before the run's changes: they are in the WAL until a checkpoint copies them.
    const fileBefore = statSync(path).size;
    let local = 1;
    for (let batch = 0; batch < 10; batch++) {
      const changes = Array.from({ length: 50 }, (_, i) => stock(`SL-${batch}-${i}`, 1_000 + batch * 50 + i, i, i + 1));
      await writer.intend(local, changes).ready;
      writer.settleRange(local, local + 49, 'confirmed');
      local += 50;
      // Idle between requests: the worker indexes what is committed.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Indexed from this run's first change (not crawling up from seq 1 a slice at a time: 100,000 commits here).
    expect(indexed()).toBeGreaterThanOrEqual(10_000_400);
    // Five slices indexed: the idle worker checkpoints (no commit reached SQLite's own mark of 1,000 pages).
    for (let waited = 0; statSync(path).size === fileBefore && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statSync(path).size).toBeGreaterThan(fileBefore);
    // The create was indexed before its id came: the id is indexed when it comes.
    writer.identify(0, 0, 98_766);
    writer.settleRange(0, 0, 'confirmed');
    writer.close();
    expect(ledger.history('98766').map((c) => c.key)).toEqual(['new-shirt']);
    // Before the run's end indexes the rest, and after: each change once.
    expect(ledger.history('SL-9-49')).toHaveLength(1);
    expect(ledger.history('1').length).toBe(500);
    ledger.endRun(run.n, 0);
    // Seqs 10,000,001 (the create) to 10,000,501: all indexed once the run ends.
    expect(indexed()).toBe(10_000_501);
    expect(ledger.history('1').length).toBe(500);
    expect(ledger.history('SL-0-0').map((c) => [c.key, c.outcome])).toEqual([['SL-0-0', 'confirmed']]);
    ledger.close();
  });

  it('a ledger another process holds locked: the intent is refused before its request, in one sentence, and finish says so', async () => {
    const recorder = new RunRecorder(() => Ledger.open(path), start);
    recorder.intend([stock('A', 1, 1, 2)]).settle('confirmed');
    // Another process holds the write lock past the ledger's 10 s wait: the worker cannot commit.
    const Database = createRequire(import.meta.url)(ledgerDriverName()) as new (file: string) => { exec(sql: string): void; close(): void };
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      const write = recorder.intend([stock('B', 2, 1, 2)]);
      await expect(write.ready).rejects.toThrow(/^Cannot write to the run ledger .*: another store process holds it locked\.$/);
      // The next intent is refused at once, as a failure on this thread is: the job stops there.
      expect(() => recorder.intend([stock('C', 3, 1, 2)])).toThrow(/another store process holds it locked/);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    const { error } = recorder.finish(1);
    expect(error?.message).toMatch(/another store process holds it locked/);
  }, 30_000);

  it('a job whose only pending work is a commit is not ended early, and its process exits when the job does', async () => {
    // Node ends a process whose event loop is empty: an awaited commit must hold it open, the idle worker must not.
    const script = join(dir, 'job.mjs');
    writeFileSync(
      script,
      `const { RunRecorder } = await import(${JSON.stringify(new URL('recorder.js', dist).href)});
const { Ledger } = await import(${JSON.stringify(new URL('store.js', dist).href)});
const recorder = new RunRecorder(() => Ledger.open(${JSON.stringify(path)}), ${JSON.stringify(start)});
for (let i = 0; i < 30; i++) {
  const write = recorder.intend([{ resource: 'variant', id: i, key: 'K' + i, field: 'stock', kind: 'update', before: 0, after: i }]);
  await write.ready;
  write.settle('confirmed');
}
console.log(recorder.runId);
`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, [script], { timeout: 30_000 });
    const rows = outcomes(stdout.trim());
    // The recorder's exit handler ended the run: every change confirmed, none left behind by the worker.
    expect(rows).toHaveLength(30);
    expect(rows.every(([, outcome]) => outcome === 'confirmed')).toBe(true);
    const ledger = Ledger.open(path);
    expect(ledger.run(stdout.trim())?.ended_at).not.toBeNull();
    ledger.close();
  });
});

describe('a new ledger made by several processes at once (a fleet\'s stores on their first run)', () => {
  it('is opened by each of them: none is refused as locked while another switches the new file to WAL', async () => {
    // SQLite refuses that switch at once, without the busy timeout, to the process holding a read lock while
    // another commits it (waiting could deadlock): one new file in 30 or so met it with 4 processes (stop 40's
    // CI). 4 processes open 80 new files, each file at the same instant in all four, and record a run in it.
    const FILES = 80;
    const child = `
      const [store, folder, at, files] = process.argv.slice(1);
      const { Ledger } = await import(store);
      for (let f = 0; f < Number(files); f++) {
        while (Date.now() < Number(at) + 40 * f) {}
        const ledger = Ledger.open(folder + '/' + f + '/ledger.db');
        const run = ledger.startRun({ command: 'variants sync', argv: [], profile: 'p' + process.pid, storeId: 1, apiHost: 'h' });
        ledger.endRun(run.n, 0);
        ledger.close();
      }`;
    const at = String(Date.now() + 500);
    const opened = await Promise.allSettled(
      [0, 1, 2, 3].map(() => promisify(execFile)(process.execPath, ['--input-type=module', '-e', child, new URL('store.js', dist).href, dir, at, String(FILES)])),
    );
    expect(opened.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);
    for (let f = 0; f < FILES; f++) {
      const ledger = Ledger.open(join(dir, String(f), 'ledger.db'));
      expect(ledger.runs()).toHaveLength(4);
      ledger.close();
    }
  }, 60_000);
});
