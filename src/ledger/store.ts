/**
 * The run ledger's file: one SQLite database (better-sqlite3, WAL) under $XDG_STATE_HOME/store/ledger.db
 * (docs/ledger.md, docs/decisions.md "Run ledger"). Synchronous on purpose: a change is on disk before the
 * request that makes it is sent, and nothing else can run in between.
 *
 * Durability: WAL with synchronous=NORMAL. A commit is in the WAL file (the operating system's cache) when
 * `run` returns, so a killed process (SIGKILL, a crash) loses nothing committed; only a power cut can lose the
 * last commits, and those are intents whose requests had barely been sent.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { monotonicFactory } from 'ulid';
import { UsageError } from '../errors.js';
import { xdgDir, type Env } from '../util/files.js';
import { guarded, LedgerError, loadDriver } from './driver.js';
import { fillSubjects, indexLateIds, migrate, SCHEMA, SCHEMA_VERSION } from './schema.js';
import type { ChangeIntent, ChangeKind, ChangeRecord, Outcome, RunRecord, RunStart, SettledOutcome } from './types.js';

export { LedgerError, ledgerDriverName } from './driver.js';

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

/** `$XDG_STATE_HOME/store/ledger.db` (or `~/.local/state/store/ledger.db`); STORE_LEDGER names another file. */
export function ledgerPath(env: Env = process.env): string {
  return env.STORE_LEDGER || join(xdgDir('state', env), 'ledger.db');
}

const nextId = monotonicFactory();

/**
 * At most this many changes in one INSERT: the variants of one `PATCH /products/stock-price` (platform.md §8),
 * far under SQLite's limit of bound parameters (11 a change).
 */
const ROWS_PER_INSERT = 50;

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function parsed(text: string | null): unknown {
  return text === null ? undefined : (JSON.parse(text) as unknown);
}

function text(value: string | number | null | undefined): string | null {
  return value === undefined || value === null || value === '' ? null : String(value);
}

/** A change as SQLite returns it: its run's id, its kind and outcome as text, before and after as their JSON text. */
type ChangeRow = Omit<ChangeRecord, 'run' | 'kind' | 'outcome' | 'before' | 'after'> & {
  run_id: string;
  kind: string;
  outcome: string;
  before: string | null;
  after: string | null;
};

function changeOf(row: ChangeRow): ChangeRecord {
  return {
    seq: row.seq,
    run: row.run_id,
    at: row.at,
    resource: row.resource,
    id: row.id,
    parent: row.parent,
    key: row.key,
    field: row.field,
    location: row.location,
    kind: row.kind as ChangeKind,
    before: parsed(row.before),
    after: parsed(row.after),
    outcome: row.outcome as Outcome,
    reason: row.reason,
    irreversible: row.irreversible,
  };
}

/** A run as SQLite returns it: argv as its JSON text, the counts null for a run without changes. */
type RunRow = Omit<RunRecord, 'argv' | keyof Counts> & { n: number; argv: string } & { [K in keyof Counts]: number | null };

const CHANGE_COLUMNS = `c.seq, r.id AS run_id, r.started_at AS at, c.resource, c.id, c.parent, c.key, c.field, c.location, c.kind, c.before, c.after, c.outcome, c.reason, c.irreversible`;

/** Which runs `runs` lists. */
export interface RunFilter {
  /** Runs whose command starts with this (`variants sync`, `orders`). */
  command?: string;
  /** Runs started at or after this ISO time. */
  since?: string;
  /** Runs that ended non-zero, died before ending, or have a change that failed or is unknown. */
  failed?: boolean;
  /** Newest first; at most this many. */
  limit?: number;
}

/** The counts of a run's changes by outcome. */
interface Counts {
  changes: number;
  confirmed: number;
  failed: number;
  unknown: number;
}

const OPEN_TIMEOUT_MS = 10_000;

/** How long an opener waits for a migration another process is running: 10 million schema-1 changes take ~20 s. */
const MIGRATION_WAIT_MS = 120_000;

/**
 * Puts the file in WAL mode. Two processes that make a new ledger at once (a fleet's stores, on their first run) both
 * switch it: the one that holds a read lock while the other commits the switch gets SQLITE_BUSY at once, without
 * the busy timeout, because waiting could deadlock. It lets go of its lock and tries again (once the other has
 * committed, the file is already WAL and the pragma no longer writes), until the same 10 s the timeout allows.
 */
function toWal(db: Database): void {
  const deadline = Date.now() + OPEN_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, wait);
    }
  }
}

/**
 * One open ledger file. Every method is synchronous; every write is one transaction. Opened by `openLedger`,
 * closed with `close()` (a process that dies leaves it consistent: SQLite's WAL is replayed on the next open).
 */
export class Ledger {
  private readonly statements = new Map<string, Statement>();

  private constructor(
    readonly path: string,
    private readonly db: Database,
  ) {}

  /** Opens (creating it and its directory if need be) the ledger at `path`. */
  static open(path: string): Ledger {
    const Driver = loadDriver();
    return guarded(path, 'open', () => {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      const db = new Driver(path, { timeout: OPEN_TIMEOUT_MS });
      const ledger = new Ledger(path, db);
      try {
        toWal(db);
        db.pragma('synchronous = NORMAL');
        const version = db.pragma('user_version', { simple: true }) as number;
        if (version > SCHEMA_VERSION) {
          throw new LedgerError(`The run ledger ${path} was written by a newer store (schema ${version}); update store to read it.`);
        }
        // auto_vacuum must be set before the first table: prune gives the space back to the disk.
        if (version === 0) db.pragma('auto_vacuum = INCREMENTAL');
        if (version < SCHEMA_VERSION) {
          // Another process may be migrating it now, holding the lock for as long as that takes (schema 1's
          // ~1.9 s per million changes): wait for it that long, not the 10 s of a commit.
          db.pragma(`busy_timeout = ${MIGRATION_WAIT_MS}`);
          db.transaction(() => {
            // Another process may have made or migrated it between the read above and this lock (a fleet's stores
            // open the ledger at once): only the first one to hold the lock does.
            const now = db.pragma('user_version', { simple: true }) as number;
            if (now >= SCHEMA_VERSION) return;
            if (now === 0) db.exec(SCHEMA);
            else migrate(db, now, ledger.prepare);
            db.pragma(`user_version = ${SCHEMA_VERSION}`);
          }).immediate();
          db.pragma(`busy_timeout = ${OPEN_TIMEOUT_MS}`);
        }
      } catch (error) {
        db.close();
        throw error;
      }
      return ledger;
    });
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Runs `fn`'s writes in one transaction: one commit for all (each write inside is its own savepoint). */
  batch(fn: () => void): void {
    this.guarded('write to', () => this.db.transaction(fn).immediate());
  }

  /** `statement`, for the index functions of schema.ts. */
  private readonly prepare = (sql: string): Statement => this.statement(sql);

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private guarded<T>(doing: string, fn: () => T): T {
    return guarded(this.path, doing, fn);
  }

  /** Starts a run: returns its number in this file (for `intend`) and its id. */
  startRun(start: RunStart, now = new Date()): { n: number; id: string } {
    return this.guarded('write to', () => {
      const id = nextId(now.getTime());
      const info = this.statement(
        `INSERT INTO runs (id, command, argv, profile, store_id, api_host, started_at, pid, undoes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, start.command, JSON.stringify(start.argv), text(start.profile), text(start.storeId), text(start.apiHost), now.toISOString(), process.pid, text(start.undoes));
      return { n: Number(info.lastInsertRowid), id };
    });
  }

  /** Ends a run: its exit code, end time and counts; its changes go into the index `history` reads. */
  endRun(n: number, exitCode: number, now = new Date()): void {
    this.guarded('write to', () => {
      this.db
        .transaction(() => {
          this.indexTail(n);
          const counts = this.countsOf(n);
          this.statement(`UPDATE runs SET ended_at = ?, exit_code = ?, changes = ?, confirmed = ?, failed = ?, unknown = ? WHERE n = ?`).run(
            now.toISOString(),
            exitCode,
            counts.changes,
            counts.confirmed,
            counts.failed,
            counts.unknown,
            n,
          );
        })
        .immediate();
    });
  }

  /**
   * Records changes as intended, in one transaction, before their request is sent: returns the seq of the
   * first (the others follow it, one each, in the order given).
   */
  intend(run: number, changes: readonly ChangeIntent[]): number {
    return this.guarded('write to', () => {
      let first = 0;
      this.db
        .transaction(() => {
          for (let start = 0; start < changes.length; start += ROWS_PER_INSERT) {
            const chunk = changes.slice(start, start + ROWS_PER_INSERT);
            const values: unknown[] = [];
            for (const c of chunk) {
              values.push(run, c.resource, text(c.id), text(c.parent), text(c.key), c.field, text(c.location), c.kind, json(c.before), json(c.after), c.irreversible ?? null);
            }
            // The rows of one INSERT take consecutive seqs (nothing else writes inside this transaction): the
            // statement's last rowid less the rows before it is the chunk's first.
            const last = Number(this.insertRows(chunk.length).run(values).lastInsertRowid);
            if (start === 0) first = last - chunk.length + 1;
          }
        })
        .immediate();
      return first;
    });
  }

  /** The INSERT of `count` changes at once (one statement per request, not one per change: ~0.1 s of a 100,000-change sync). */
  private insertRows(count: number): Statement {
    const row = `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
    return this.statement(
      `INSERT INTO changes (run, resource, id, parent, key, field, location, kind, before, after, irreversible) VALUES ${Array<string>(count).fill(row).join(', ')}`,
    );
  }

  /** Settles the changes `first`..`last` (seq, inclusive) with one outcome: one statement, one transaction. */
  settleRange(first: number, last: number, outcome: SettledOutcome, reason?: string): void {
    this.guarded('write to', () => {
      this.statement(`UPDATE changes SET outcome = ?, reason = ? WHERE seq BETWEEN ? AND ?`).run(outcome, reason ?? null, first, last);
    });
  }

  /** Settles changes one by one (a batch whose reply answers per record), in one transaction. */
  settleEach(settlements: readonly { seq: number; outcome: SettledOutcome; reason?: string; id?: string | number }[]): void {
    this.guarded('write to', () => {
      const settle = this.statement(`UPDATE changes SET outcome = ?, reason = ?, id = coalesce(?, id) WHERE seq = ?`);
      const settleRange = this.statement(`UPDATE changes SET outcome = ?, reason = NULL WHERE seq BETWEEN ? AND ?`);
      // A batch the store confirmed whole is consecutive seqs with one outcome: one statement for each such stretch
      // (a third of the settling time of a 100,000-variant sync, docs/benchmarks.md).
      const plain = (s: (typeof settlements)[number]) => s.reason === undefined && s.id === undefined;
      this.db
        .transaction(() => {
          for (let i = 0; i < settlements.length; ) {
            const s = settlements[i]!;
            let j = i + 1;
            if (plain(s)) while (j < settlements.length && plain(settlements[j]!) && settlements[j]!.outcome === s.outcome && settlements[j]!.seq === s.seq + (j - i)) j++;
            if (j - i > 1) settleRange.run(s.outcome, s.seq, settlements[j - 1]!.seq);
            else {
              settle.run(s.outcome, s.reason ?? null, text(s.id), s.seq);
              if (s.id !== undefined) indexLateIds(this.prepare, s.seq, s.seq);
            }
            i = j;
          }
        })
        .immediate();
    });
  }

  /** Indexes run `n`'s changes not indexed yet (a run that died: its resume settles it, then indexes it). */
  indexRun(runId: string): void {
    this.guarded('write to', () =>
      this.db
        .transaction(() => {
          const row = this.statement(`SELECT n FROM runs WHERE id = ?`).get(runId) as { n: number } | undefined;
          if (row) this.indexTail(row.n);
        })
        .immediate(),
    );
  }

  /** Indexes run `n`'s changes through seq `through` that are not indexed yet (a writer thread's slice). */
  indexRunThrough(n: number, through: number): void {
    this.guarded('write to', () => this.db.transaction(() => this.indexTail(n, through)).immediate());
  }

  private indexTail(n: number, through?: number): void {
    const { indexed } = this.statement(`SELECT indexed FROM runs WHERE n = ?`).get(n) as { indexed: number | null };
    fillSubjects(this.prepare, n, indexed ?? 0, through);
  }

  /**
   * Leaves this connection's checkpoints to `checkpoint()` unless the WAL passes `pages` (a bulk job's writer
   * thread, which checkpoints when idle): SQLite's own, at every 1,000 pages, runs inside whichever commit
   * crosses the mark, and that is an intent a request is waiting for.
   */
  deferCheckpoints(pages: number): void {
    this.db.pragma(`wal_autocheckpoint = ${pages}`);
  }

  /** Copies the WAL's commits into the file, as far as no reader holds it back (PASSIVE: never waits). */
  checkpoint(): void {
    this.guarded('write to', () => this.db.pragma('wal_checkpoint(PASSIVE)'));
  }

  /** The id the store gave a record the changes `first`..`last` created. */
  identify(first: number, last: number, id: string | number): void {
    this.guarded('write to', () => {
      this.db
        .transaction(() => {
          this.statement(`UPDATE changes SET id = ? WHERE seq BETWEEN ? AND ?`).run(String(id), first, last);
          indexLateIds(this.prepare, first, last);
        })
        .immediate();
    });
  }

  private countsOf(n: number): Counts {
    const rows = this.statement(`SELECT outcome, count(*) AS count FROM changes WHERE run = ? GROUP BY outcome`).all(n) as { outcome: Outcome; count: number }[];
    const counts: Counts = { changes: 0, confirmed: 0, failed: 0, unknown: 0 };
    for (const { outcome, count } of rows) {
      counts.changes += count;
      if (outcome === 'confirmed') counts.confirmed += count;
      else if (outcome === 'failed') counts.failed += count;
      else counts.unknown += count;
    }
    return counts;
  }

  private runOf(row: RunRow): RunRecord {
    const counts = row.changes === null ? this.countsOf(row.n) : (row as unknown as Counts);
    return {
      id: row.id,
      command: row.command,
      argv: JSON.parse(row.argv) as string[],
      profile: row.profile,
      store_id: row.store_id,
      api_host: row.api_host,
      started_at: row.started_at,
      ended_at: row.ended_at,
      exit_code: row.exit_code,
      pid: row.pid,
      undoes: row.undoes,
      changes: counts.changes,
      confirmed: counts.confirmed,
      failed: counts.failed,
      unknown: counts.unknown,
    };
  }

  /** Runs, newest first. */
  runs(filter: RunFilter = {}): RunRecord[] {
    return this.guarded('read', () => {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.command) {
        where.push(`(command = ? OR command LIKE ? ESCAPE '\\')`);
        params.push(filter.command, `${filter.command.replace(/[\\%_]/g, (c) => `\\${c}`)} %`);
      }
      if (filter.since) {
        where.push('started_at >= ?');
        params.push(filter.since);
      }
      const sql = `SELECT * FROM runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY n DESC`;
      const out: RunRecord[] = [];
      for (const row of this.db.prepare(sql).iterate(...params) as IterableIterator<RunRow>) {
        const run = this.runOf(row);
        if (filter.failed && run.exit_code === 0 && run.failed === 0 && run.unknown === 0) continue;
        out.push(run);
        if (filter.limit !== undefined && out.length >= filter.limit) break;
      }
      return out;
    });
  }

  /** One run by its id, or by a unique prefix of it (case-insensitive); undefined when none matches. */
  run(idOrPrefix: string): RunRecord | undefined {
    return this.guarded('read', () => {
      const prefix = idOrPrefix.trim().toUpperCase();
      if (prefix === '') return undefined;
      const rows = this.statement(`SELECT * FROM runs WHERE id >= ? AND id < ? ORDER BY n LIMIT 2`).all(prefix, `${prefix}\uffff`) as RunRow[];
      if (rows.length > 1 && rows[0]!.id !== prefix) throw new UsageError(`More than one run starts with ${idOrPrefix}: give more of its id.`);
      return rows[0] ? this.runOf(rows[0]) : undefined;
    });
  }

  /** The newest run (`store runs show last`). */
  lastRun(): RunRecord | undefined {
    return this.guarded('read', () => {
      const row = this.statement(`SELECT * FROM runs ORDER BY n DESC LIMIT 1`).get() as RunRow | undefined;
      return row ? this.runOf(row) : undefined;
    });
  }

  /** A run's changes in the order they were intended, read as they are iterated (a 100,000-change run streams). */
  *changes(runId: string): Generator<ChangeRecord> {
    const rows = this.guarded('read', () =>
      this.db.prepare(`SELECT ${CHANGE_COLUMNS} FROM changes c JOIN runs r ON r.n = c.run WHERE r.id = ? ORDER BY c.seq`).iterate(runId),
    ) as IterableIterator<ChangeRow>;
    for (const row of rows) yield changeOf(row);
  }

  /**
   * Every recorded change to one record, newest first: KEY is matched against the key (SKU, handle, order
   * number), the id (variant, product, order) and the parent (a product id also finds its variants' changes).
   */
  history(key: string, limit = 10_000): ChangeRecord[] {
    return this.guarded('read', () => {
      const k = key.trim();
      // The indexed changes through the subjects index (one seek a region, each a fill of a run's), and the changes
      // past what is indexed (a run still going, or one that died) read from the run's own (none, for a run that ended).
      const rows = this.statement(
        `SELECT ${CHANGE_COLUMNS} FROM changes c JOIN runs r ON r.n = c.run
          WHERE c.seq IN (
            SELECT s.seq FROM slices x CROSS JOIN subjects s ON s.region = x.region AND s.subject = @key
            UNION
            SELECT t.seq FROM runs x CROSS JOIN changes t ON t.run = x.n AND t.seq > coalesce(x.indexed, 0) WHERE @key IN (t.key, t.id, t.parent))
          ORDER BY c.seq DESC LIMIT @limit`,
      ).all({ key: k, limit }) as ChangeRow[];
      return rows.map(changeOf);
    });
  }

  /** Removes the runs started before `before` (ISO) and their changes; returns how many runs went. */
  prune(before: string): { runs: number; changes: number } {
    return this.guarded('write to', () => {
      const result = this.db
        .transaction(() => {
          const pruned = `SELECT n FROM runs WHERE started_at < ? AND ended_at IS NOT NULL`;
          this.db.prepare(`DELETE FROM subjects WHERE region IN (SELECT region FROM slices WHERE run IN (${pruned}))`).run(before);
          this.db.prepare(`DELETE FROM slices WHERE run IN (${pruned})`).run(before);
          const changes = this.db.prepare(`DELETE FROM changes WHERE run IN (${pruned})`).run(before).changes;
          const runs = this.db.prepare(`DELETE FROM runs WHERE started_at < ? AND ended_at IS NOT NULL`).run(before).changes;
          return { runs, changes };
        })
        .immediate();
      this.db.pragma('incremental_vacuum');
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      return result;
    });
  }

  /** The file's size on disk (its WAL included), in bytes. */
  size(): number {
    let bytes = 0;
    for (const file of [this.path, `${this.path}-wal`]) {
      try {
        bytes += statSync(file).size;
      } catch {
        // no WAL file: nothing to add
      }
    }
    return bytes;
  }
}

/** Opens the ledger of this environment (ledgerPath). */
export function openLedger(env: Env = process.env): Ledger {
  return Ledger.open(ledgerPath(env));
}
