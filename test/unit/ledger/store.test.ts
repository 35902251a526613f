import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunRecorder } from '../../../src/ledger/recorder.js';
import { Ledger, LedgerError, ledgerDriverName, ledgerPath } from '../../../src/ledger/store.js';
import type { ChangeIntent } from '../../../src/ledger/types.js';

/** The SQLite module the ledger itself loads on this Node, to read and write the file as another program would. */
const Database = createRequire(import.meta.url)(ledgerDriverName()) as typeof import('better-sqlite3');

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-'));
  path = join(dir, 'state', 'ledger.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const start = { command: 'variants sync', argv: ['stock.csv', '--yes'], profile: 'sandbox', storeId: 1, apiHost: '127.0.0.1:4010' };

function price(sku: string, before: string, after: string, id = 10): ChangeIntent {
  return { resource: 'variant', id, parent: 1, key: sku, field: 'price', kind: 'update', before, after };
}

describe('ledger file', () => {
  it('is written through better-sqlite3 13 (Node-API) on Node 22 and later, 12 on Node 20', () => {
    // 12 aborts Node 24 when the collector frees a statement at the wrong moment (src/ledger/store.ts); 13
    // crashes Node 20. npm installs 13 only where its engines allow, so this checks the install as much as the code.
    const major = Number(process.versions.node.split('.')[0]);
    const name = ledgerDriverName();
    expect(name).toBe(major >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3');
    const { version } = createRequire(import.meta.url)(`${name}/package.json`) as { version: string };
    expect(version.split('.')[0]).toBe(major >= 22 ? '13' : '12');
    const ledger = Ledger.open(path);
    const run = ledger.startRun(start);
    ledger.intend(run.n, [price('A', '1.00', '2.00')]);
    expect([...ledger.changes(run.id)].map((change) => [change.key, change.after])).toEqual([['A', '2.00']]);
    ledger.close();
  });

  it('lives under $XDG_STATE_HOME/store unless STORE_LEDGER names a file', () => {
    expect(ledgerPath({ XDG_STATE_HOME: '/x/state', HOME: '/home/u' })).toBe('/x/state/store/ledger.db');
    expect(ledgerPath({ HOME: '/home/u' })).toBe('/home/u/.local/state/store/ledger.db');
    expect(ledgerPath({ STORE_LEDGER: '/tmp/l.db', XDG_STATE_HOME: '/x' })).toBe('/tmp/l.db');
  });

  it('creates its directory and schema, and opens again with what it holds', () => {
    const ledger = Ledger.open(path);
    const run = ledger.startRun(start);
    ledger.intend(run.n, [price('A', '1.00', '2.00')]);
    ledger.endRun(run.n, 0);
    ledger.close();
    const again = Ledger.open(path);
    expect(again.runs().map((r) => r.id)).toEqual([run.id]);
    expect(again.size()).toBeGreaterThan(0);
    again.close();
  });

  it('refuses a file that is not a ledger, in one sentence naming it', () => {
    const other = join(dir, 'not.db');
    writeFileSync(other, 'hello, this is not SQLite at all, just text that is long enough to be a header'.repeat(20));
    expect(() => Ledger.open(other)).toThrow(LedgerError);
    expect(() => Ledger.open(other)).toThrow(new RegExp(`Cannot open the run ledger ${other}: it is not a ledger database`));
  });
});

describe('runs and changes', () => {
  let ledger: Ledger;
  beforeEach(() => {
    ledger = Ledger.open(path);
  });
  afterEach(() => ledger.close());

  it('records a run with its changes as intended, then settles them', () => {
    const run = ledger.startRun(start, new Date('2026-11-01T10:00:00Z'));
    const first = ledger.intend(run.n, [price('A', '1.00', '2.00'), { ...price('A', '5', '7'), field: 'stock', before: 5, after: 7 }]);
    let changes = [...ledger.changes(run.id)];
    expect(changes.map((c) => [c.seq, c.outcome])).toEqual([
      [first, 'intended'],
      [first + 1, 'intended'],
    ]);
    ledger.settleRange(first, first + 1, 'confirmed');
    ledger.endRun(run.n, 0, new Date('2026-11-01T10:00:05Z'));
    changes = [...ledger.changes(run.id)];
    expect(changes).toEqual([
      { seq: first, run: run.id, at: expect.any(String), resource: 'variant', id: '10', parent: '1', key: 'A', field: 'price', location: null, kind: 'update', before: '1.00', after: '2.00', outcome: 'confirmed', reason: null, irreversible: null },
      { seq: first + 1, run: run.id, at: expect.any(String), resource: 'variant', id: '10', parent: '1', key: 'A', field: 'stock', location: null, kind: 'update', before: 5, after: 7, outcome: 'confirmed', reason: null, irreversible: null },
    ]);
    expect(ledger.run(run.id)).toMatchObject({
      id: run.id,
      command: 'variants sync',
      argv: ['stock.csv', '--yes'],
      profile: 'sandbox',
      store_id: '1',
      api_host: '127.0.0.1:4010',
      started_at: '2026-11-01T10:00:00.000Z',
      ended_at: '2026-11-01T10:00:05.000Z',
      exit_code: 0,
      changes: 2,
      confirmed: 2,
      failed: 0,
      unknown: 0,
    });
  });

  it('records an intent of more changes than one INSERT holds in order, with consecutive seqs from the one returned', () => {
    const run = ledger.startRun(start);
    ledger.intend(run.n, [price('before', '1.00', '2.00')]);
    const intents = Array.from({ length: 123 }, (_, i) => price(`SKU-${i}`, `${i}.00`, `${i + 1}.00`, 1000 + i));
    const first = ledger.intend(run.n, intents);
    const changes = [...ledger.changes(run.id)].slice(1);
    expect(changes.map((c) => [c.seq, c.key, c.id, c.before, c.after])).toEqual(intents.map((c, i) => [first + i, c.key, String(c.id), c.before, c.after]));
  });

  it('counts an unsettled change as unknown, live, for a run that never ended', () => {
    const run = ledger.startRun(start);
    const first = ledger.intend(run.n, [price('A', '1', '2'), price('B', '1', '2', 11), price('C', '1', '2', 12)]);
    ledger.settleEach([
      { seq: first, outcome: 'confirmed' },
      { seq: first + 1, outcome: 'failed', reason: 'the store refused it' },
    ]);
    expect(ledger.run(run.id)).toMatchObject({ ended_at: null, exit_code: null, changes: 3, confirmed: 1, failed: 1, unknown: 1 });
    expect([...ledger.changes(run.id)].map((c) => [c.key, c.outcome, c.reason])).toEqual([
      ['A', 'confirmed', null],
      ['B', 'failed', 'the store refused it'],
      ['C', 'intended', null],
    ]);
  });

  it('keeps JSON values exactly: text money, numbers, null (unlimited stock), records, and "not known"', () => {
    const run = ledger.startRun(start);
    const record = { id: 7, handle: { es: 'remera' }, variants: [{ sku: 'A', price: '10.00' }] };
    const first = ledger.intend(run.n, [
      { resource: 'variant', id: 1, key: 'A', field: 'stock', kind: 'update', before: null, after: 0 },
      { resource: 'product', id: 7, key: 'remera', field: '*', kind: 'delete', before: record },
      { resource: 'order', id: 99, key: '1001', field: 'status', kind: 'action', after: 'closed' },
    ]);
    ledger.identify(first, first, 1);
    const [stock, deleted, action] = [...ledger.changes(run.id)];
    expect([stock!.before, stock!.after]).toEqual([null, 0]);
    expect([deleted!.before, deleted!.after]).toEqual([record, undefined]);
    expect([action!.before, action!.after]).toEqual([undefined, 'closed']);
  });

  it('finds a record\'s history across runs, newest first, by key, id or parent', () => {
    const one = ledger.startRun(start);
    ledger.intend(one.n, [price('SKU-1', '1.00', '2.00', 10), price('SKU-2', '1.00', '3.00', 11)]);
    ledger.endRun(one.n, 0);
    const two = ledger.startRun({ ...start, command: 'variants update' });
    ledger.intend(two.n, [price('SKU-1', '2.00', '2.50', 10)]);
    ledger.intend(two.n, [{ resource: 'product', id: 1, key: 'shirt', field: 'name', kind: 'update', before: 'Shirt', after: 'T-shirt' }]);
    ledger.endRun(two.n, 0);

    expect(ledger.history('SKU-1').map((c) => [c.run, c.before, c.after])).toEqual([
      [two.id, '2.00', '2.50'],
      [one.id, '1.00', '2.00'],
    ]);
    expect(ledger.history('10').map((c) => c.after)).toEqual(['2.50', '2.00']);
    // A product id finds the product's own changes and its variants'.
    expect(ledger.history('1').map((c) => [c.resource, c.key, c.after])).toEqual([
      ['product', 'shirt', 'T-shirt'],
      ['variant', 'SKU-1', '2.50'],
      ['variant', 'SKU-2', '3.00'],
      ['variant', 'SKU-1', '2.00'],
    ]);
    expect(ledger.history('shirt')).toHaveLength(1);
    expect(ledger.history('nothing')).toEqual([]);
  });

  it('finds the changes of a run that has not ended (still going, or killed) as well as of ended ones, once each', () => {
    const ended = ledger.startRun(start);
    ledger.intend(ended.n, [price('SKU-1', '1.00', '2.00', 10)]);
    ledger.endRun(ended.n, 0);
    // Killed after two intents: nothing indexed its changes, and history still reads them.
    const killed = ledger.startRun(start);
    ledger.intend(killed.n, [price('SKU-1', '2.00', '3.00', 10)]);
    ledger.intend(killed.n, [price('SKU-1', '3.00', '4.00', 10)]);
    const afters = () => ledger.history('SKU-1').map((c) => c.after);
    expect(afters()).toEqual(['4.00', '3.00', '2.00']);
    // Its resume indexes it; a later change of the same run (indexed or not) is found once.
    ledger.indexRun(killed.id);
    ledger.intend(killed.n, [price('SKU-1', '4.00', '5.00', 10)]);
    expect(afters()).toEqual(['5.00', '4.00', '3.00', '2.00']);
    ledger.indexRun(killed.id);
    ledger.indexRun(killed.id);
    expect(afters()).toEqual(['5.00', '4.00', '3.00', '2.00']);
    expect(ledger.history('10')).toHaveLength(4);
  });

  it('indexes each fill as a region of its own at the end of the index: slices of a run, then its end', () => {
    const run = ledger.startRun(start);
    const first = ledger.intend(run.n, [price('R-1', '1', '2', 21), price('R-2', '1', '2', 22)]);
    ledger.indexRunThrough(run.n, first + 1);
    ledger.intend(run.n, [price('R-1', '2', '3', 21)]);
    ledger.indexRunThrough(run.n, first + 2);
    ledger.intend(run.n, [price('R-3', '1', '2', 23)]);
    ledger.endRun(run.n, 0);
    expect(ledger.history('R-1').map((c) => c.after)).toEqual(['3', '2']);
    // A product id finds its variants' changes in every region, once each.
    expect(ledger.history('1').map((c) => c.key)).toEqual(['R-3', 'R-1', 'R-2', 'R-1']);
    ledger.close();
    const db = new Database(path);
    // Three fills, three regions, each numbered above every run number by its first seq.
    const regions = db.prepare(`SELECT region, first, last FROM slices WHERE run = ? ORDER BY region`).raw().all(run.n) as number[][];
    expect(regions.map(([, f, l]) => [f! - first, l! - first])).toEqual([[0, 1], [2, 2], [3, 3]]);
    expect(regions.map(([region, f]) => region! - f!)).toEqual([2 ** 40, 2 ** 40, 2 ** 40]);
    db.close();
    ledger = Ledger.open(path);
  });

  it('lists runs newest first, by command prefix, start time, and failure', () => {
    const a = ledger.startRun({ ...start, command: 'variants sync' }, new Date('2026-10-01T00:00:00Z'));
    ledger.endRun(a.n, 0);
    const b = ledger.startRun({ ...start, command: 'variants update' }, new Date('2026-10-02T00:00:00Z'));
    ledger.endRun(b.n, 3);
    const c = ledger.startRun({ ...start, command: 'orders close' }, new Date('2026-10-03T00:00:00Z'));
    const first = ledger.intend(c.n, [{ resource: 'order', id: 5, field: 'status', kind: 'action', before: 'open', after: 'closed' }]);
    ledger.settleRange(first, first, 'unknown', 'no answer');
    ledger.endRun(c.n, 0);
    const d = ledger.startRun({ ...start, command: 'variants' }, new Date('2026-10-04T00:00:00Z'));

    expect(ledger.runs().map((r) => r.id)).toEqual([d.id, c.id, b.id, a.id]);
    expect(ledger.runs({ command: 'variants' }).map((r) => r.command)).toEqual(['variants', 'variants update', 'variants sync']);
    expect(ledger.runs({ command: 'variants sync' }).map((r) => r.id)).toEqual([a.id]);
    expect(ledger.runs({ command: 'vari' })).toEqual([]);
    expect(ledger.runs({ since: '2026-10-02T00:00:00.000Z' }).map((r) => r.id)).toEqual([d.id, c.id, b.id]);
    // Failed: a non-zero exit, an unknown change, or a run that never ended (d).
    expect(ledger.runs({ failed: true }).map((r) => r.id)).toEqual([d.id, c.id, b.id]);
    expect(ledger.runs({ limit: 1 }).map((r) => r.id)).toEqual([d.id]);
  });

  it('finds a run by a unique prefix of its id, case-insensitively, and says when a prefix is ambiguous', () => {
    const a = ledger.startRun(start);
    const b = ledger.startRun(start);
    expect(ledger.run(a.id.toLowerCase())?.id).toBe(a.id);
    expect(ledger.run(b.id)?.id).toBe(b.id);
    expect(ledger.run('ZZZZ')).toBeUndefined();
    const common = [...a.id].findIndex((ch, i) => b.id[i] !== ch);
    expect(() => ledger.run(a.id.slice(0, common))).toThrow(/More than one run starts with/);
    expect(ledger.lastRun()?.id).toBe(b.id);
  });

  it('prunes ended runs started before a time, with their changes', () => {
    const old = ledger.startRun(start, new Date('2026-01-01T00:00:00Z'));
    ledger.intend(old.n, [price('A', '1', '2')]);
    ledger.endRun(old.n, 0);
    const dead = ledger.startRun(start, new Date('2026-01-02T00:00:00Z'));
    ledger.intend(dead.n, [price('B', '1', '2')]);
    const recent = ledger.startRun(start, new Date('2026-11-01T00:00:00Z'));
    ledger.intend(recent.n, [price('C', '1', '2')]);
    ledger.endRun(recent.n, 0);

    expect(ledger.prune('2026-06-01T00:00:00.000Z')).toEqual({ runs: 1, changes: 1 });
    expect(ledger.runs().map((r) => r.id)).toEqual([recent.id, dead.id]);
    expect(ledger.history('A')).toEqual([]);
    ledger.close();
    const db = new Database(path);
    // The pruned run's index entries went with it: only the recent run's SKU, id and parent are left.
    expect(db.prepare(`SELECT DISTINCT subject FROM subjects ORDER BY subject`).pluck().all()).toEqual(['1', '10', 'C']);
    db.close();
    ledger = Ledger.open(path);
  });
});

/**
 * Writes the ledger file an older store left: schema 1's runs and changes (schema 2 added `runs.indexed`), at
 * `version`, then `rest` (that schema's own tables and the rows).
 */
function writeOlderLedger(version: 1 | 2, rest: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE runs (n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, command TEXT NOT NULL, argv TEXT NOT NULL, profile TEXT, store_id TEXT, api_host TEXT,
      started_at TEXT NOT NULL, ended_at TEXT, exit_code INTEGER, pid INTEGER, undoes TEXT, changes INTEGER, confirmed INTEGER, failed INTEGER, unknown INTEGER
      ${version >= 2 ? ', indexed INTEGER' : ''});
    CREATE TABLE changes (seq INTEGER PRIMARY KEY, run INTEGER NOT NULL, resource TEXT NOT NULL, id TEXT, parent TEXT, key TEXT, field TEXT NOT NULL, location TEXT,
      kind TEXT NOT NULL, before TEXT, after TEXT, outcome TEXT NOT NULL DEFAULT 'intended', reason TEXT, irreversible TEXT);
    CREATE INDEX changes_run ON changes(run);
    PRAGMA user_version = ${version};
    ${rest}`);
  db.close();
}

describe('a ledger of schema 1 (stops 34–36)', () => {
  it('is migrated on open: its runs are indexed for history, its three per-change indexes dropped', () => {
    writeOlderLedger(
      1,
      `CREATE INDEX changes_key ON changes(key) WHERE key IS NOT NULL;
      CREATE INDEX changes_id ON changes(id) WHERE id IS NOT NULL;
      CREATE INDEX changes_parent ON changes(parent) WHERE parent IS NOT NULL;
      INSERT INTO runs (n, id, command, argv, started_at, ended_at, exit_code) VALUES
        (1, '01KOLD0000000000000000001', 'variants sync', '[]', '2026-11-01T00:00:00.000Z', '2026-11-01T00:01:00.000Z', 0),
        (2, '01KOLD0000000000000000002', 'variants update', '[]', '2026-11-02T00:00:00.000Z', NULL, NULL);
      INSERT INTO changes (run, resource, id, parent, key, field, kind, before, after, outcome) VALUES
        (1, 'variant', '10', '1', 'SKU-1', 'price', 'update', '"1.00"', '"2.00"', 'confirmed'),
        (1, 'variant', '11', '1', 'SKU-2', 'price', 'update', '"1.00"', '"3.00"', 'confirmed'),
        (2, 'variant', '10', '1', 'SKU-1', 'price', 'update', '"2.00"', '"2.50"', 'intended');`,
    );

    const ledger = Ledger.open(path);
    expect(ledger.history('SKU-1').map((c) => c.after)).toEqual(['2.50', '2.00']);
    expect(ledger.history('1')).toHaveLength(3);
    expect(ledger.runs().map((r) => r.changes)).toEqual([1, 2]);
    ledger.close();
    const after = new Database(path);
    expect(after.pragma('user_version', { simple: true })).toBe(3);
    expect(after.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'changes'`).pluck().all()).toEqual(['changes_run']);
    after.close();
  });
});

describe('a ledger of schema 2 (stops 37–38)', () => {
  it("is migrated on open without moving an entry: each run's part of the index becomes its region; new runs, late ids and prune work on it", () => {
    writeOlderLedger(
      2,
      `CREATE TABLE subjects (run INTEGER NOT NULL, subject TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (run, subject, seq)) WITHOUT ROWID;
      INSERT INTO runs (n, id, command, argv, started_at, ended_at, exit_code, indexed) VALUES
        (1, '01KOLD0000000000000000001', 'variants sync', '[]', '2026-01-01T00:00:00.000Z', '2026-01-01T00:01:00.000Z', 0, 2),
        (2, '01KOLD0000000000000000002', 'variants update', '[]', '2026-11-02T00:00:00.000Z', NULL, NULL, NULL);
      INSERT INTO changes (seq, run, resource, id, parent, key, field, kind, before, after, outcome) VALUES
        (1, 1, 'variant', '10', '1', 'SKU-1', 'price', 'update', '"1.00"', '"2.00"', 'confirmed'),
        (2, 1, 'variant', '11', '1', 'SKU-2', 'price', 'update', '"1.00"', '"3.00"', 'confirmed'),
        (3, 2, 'variant', '10', '1', 'SKU-1', 'price', 'update', '"2.00"', '"2.50"', 'intended');
      INSERT INTO subjects (run, subject, seq) VALUES (1, '1', 1), (1, '1', 2), (1, '10', 1), (1, '11', 2), (1, 'SKU-1', 1), (1, 'SKU-2', 2);`,
    );

    const ledger = Ledger.open(path);
    // Run 1 through its index, run 2 (killed, never indexed) through its changes.
    expect(ledger.history('SKU-1').map((c) => c.after)).toEqual(['2.50', '2.00']);
    expect(ledger.history('11').map((c) => c.key)).toEqual(['SKU-2']);
    // A run of this schema beside them: its region, and a create's id given after the run's end indexed it.
    const run = ledger.startRun(start);
    ledger.intend(run.n, [price('SKU-1', '2.50', '4.00')]);
    const create = ledger.intend(run.n, [{ resource: 'product', key: 'new-shirt', field: '*', kind: 'create', after: { handle: 'new-shirt' } }]);
    ledger.endRun(run.n, 0);
    ledger.identify(create, create, 777);
    expect(ledger.history('SKU-1').map((c) => c.after)).toEqual(['4.00', '2.50', '2.00']);
    expect(ledger.history('777').map((c) => c.key)).toEqual(['new-shirt']);
    expect(ledger.prune('2026-06-01T00:00:00.000Z')).toEqual({ runs: 1, changes: 2 });
    expect(ledger.history('SKU-1').map((c) => c.after)).toEqual(['4.00', '2.50']);
    ledger.close();

    const after = new Database(path);
    expect(after.pragma('user_version', { simple: true })).toBe(3);
    // The pruned run's region went with it; the new run's one region holds its key, id, parent and the late id.
    expect(after.prepare(`SELECT count(*) FROM subjects WHERE region = 1`).pluck().get()).toBe(0);
    expect(after.prepare(`SELECT run, first, last FROM slices ORDER BY region`).raw().all()).toEqual([[3, 4, 5]]);
    expect(after.prepare(`SELECT subject FROM subjects ORDER BY subject`).pluck().all()).toEqual(['1', '10', '777', 'SKU-1', 'new-shirt']);
    after.close();
  });
});

describe('an older ledger another process is migrating', () => {
  it('is waited for past the 10 s of a commit (as long as a migration can take), then migrated and opened', async () => {
    // Schema 1's migration holds the lock ~1.9 s per million changes (~20 s for 10 million): an opener meanwhile
    // was refused "locked" after 10 s. Here another process holds the lock 11 s on a schema-2 file.
    writeOlderLedger(2, `CREATE TABLE subjects (run INTEGER NOT NULL, subject TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (run, subject, seq)) WITHOUT ROWID;`);
    const holder = spawn(
      process.execPath,
      ['-e', `const db = new (require(process.argv[1]))(process.argv[2]); db.exec('BEGIN IMMEDIATE'); console.log('held');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 11000); db.exec('COMMIT'); db.close();`, ledgerDriverName(), path],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', () => resolve());
      holder.on('exit', (code) => reject(new Error(`the lock holder exited (${code}) before holding the lock`)));
    });
    const waited = performance.now();
    const ledger = Ledger.open(path);
    expect(performance.now() - waited).toBeGreaterThan(10_000);
    const run = ledger.startRun(start);
    ledger.endRun(run.n, 0);
    expect(ledger.runs().map((r) => r.id)).toEqual([run.id]);
    ledger.close();
    await new Promise((resolve) => (holder.exitCode === null ? holder.on('exit', resolve) : resolve(undefined)));
    const after = new Database(path);
    expect(after.pragma('user_version', { simple: true })).toBe(3);
    after.close();
  }, 30_000);
});

describe('RunRecorder', () => {
  it('opens the ledger and starts the run on the first intent only, and ends it with the exit code', () => {
    let opened = 0;
    const open = () => {
      opened++;
      return Ledger.open(path);
    };
    const idle = new RunRecorder(open, start);
    expect(idle.finish(0)).toEqual({});
    expect(opened).toBe(0);

    const recorder = new RunRecorder(open, start);
    const write = recorder.intend([price('A', '1.00', '2.00'), price('B', '1.00', '2.00', 11)]);
    const later = recorder.intend([price('C', '1.00', '2.00', 12)], { settledByCaller: true });
    expect(opened).toBe(1);
    expect(later.settledByCaller).toBe(true);
    write.settle('confirmed');
    later.settleEach([{ outcome: 'failed', reason: '"success": false' }]);
    expect(recorder.finish(3)).toEqual({});

    const ledger = Ledger.open(path);
    expect(ledger.run(recorder.runId!)).toMatchObject({ exit_code: 3, changes: 3, confirmed: 2, failed: 1 });
    ledger.close();
  });

  it('settles a part of a batch on its own (a bisected 422, the per-record fallback)', () => {
    const recorder = new RunRecorder(() => Ledger.open(path), start);
    const batch = recorder.intend([price('A', '1', '2'), price('B', '1', '2', 11), price('C', '1', '2', 12), price('D', '1', '2', 13)]);
    batch.settle('failed', '422');
    batch.part([0, 2]).settle('confirmed');
    const rest = batch.part([1, 3], { settledByCaller: true });
    expect(rest.changes.map((c) => c.key)).toEqual(['B', 'D']);
    rest.settleEach(['confirmed', undefined]);
    recorder.finish(0);
    const ledger = Ledger.open(path);
    expect([...ledger.changes(recorder.runId!)].map((c) => [c.key, c.outcome])).toEqual([
      ['A', 'confirmed'],
      ['B', 'confirmed'],
      ['C', 'confirmed'],
      ['D', 'failed'],
    ]);
    ledger.close();
  });

  it('names the created record once the store answers', () => {
    const recorder = new RunRecorder(() => Ledger.open(path), start);
    const create = recorder.intend([{ resource: 'product', key: 'new-shirt', field: '*', kind: 'create', after: { name: { es: 'Shirt' } } }]);
    create.settle('confirmed');
    create.identify(4242);
    recorder.finish(0);
    const ledger = Ledger.open(path);
    expect(ledger.history('4242').map((c) => [c.kind, c.key, c.outcome])).toEqual([['create', 'new-shirt', 'confirmed']]);
    ledger.close();
  });
});
