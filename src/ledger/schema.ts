/**
 * The run ledger's tables (docs/ledger.md "The file"), the index `store history` reads, and the migration of an
 * older file. Schema 2 (stop 37): the records a change touches are indexed in order of seq, sorted within each
 * fill — by a bulk job's writer thread a slice at a time while idle, and what is left when the run ends — not one
 * b-tree insert per change and index while the job's requests wait (schema 1's key, id and parent indexes): a
 * run's entries go into a region of their own at the end of the index, so the cost does not grow with the ledger
 * (docs/decisions.md "Run ledger", docs/benchmarks.md).
 */
import type BetterSqlite3 from 'better-sqlite3';

type Database = BetterSqlite3.Database;

/** How these functions get a statement: the Ledger's, prepared once per connection (store.ts `statement`). */
export type Prepare = (sql: string) => BetterSqlite3.Statement;

/** What history looks up: each change's key, id and parent, a run's entries together. */
const SUBJECTS = `CREATE TABLE subjects (
  run     INTEGER NOT NULL,
  subject TEXT NOT NULL,
  seq     INTEGER NOT NULL,
  PRIMARY KEY (run, subject, seq)
) WITHOUT ROWID;`;

/** The schema's version (PRAGMA user_version); a newer file than this code knows is refused, an older one migrated. */
export const SCHEMA_VERSION = 2;

export const SCHEMA = `
CREATE TABLE runs (
  n          INTEGER PRIMARY KEY,   -- the run's number in this file: what changes refer to (smaller than the id)
  id         TEXT NOT NULL UNIQUE,  -- ULID
  command    TEXT NOT NULL,
  argv       TEXT NOT NULL,         -- JSON array, secrets scrubbed
  profile    TEXT,
  store_id   TEXT,
  api_host   TEXT,
  started_at TEXT NOT NULL,
  ended_at   TEXT,
  exit_code  INTEGER,
  pid        INTEGER,
  undoes     TEXT,                  -- the run id this run reverts
  changes    INTEGER,               -- the counts, kept when the run ends (counted live before)
  confirmed  INTEGER,
  failed     INTEGER,
  unknown    INTEGER,
  indexed    INTEGER                -- the last seq of this run whose subjects are in subjects (null: none)
);
CREATE TABLE changes (
  seq          INTEGER PRIMARY KEY, -- increasing in the order changes were intended
  run          INTEGER NOT NULL,    -- runs.n
  resource     TEXT NOT NULL,
  id           TEXT,
  parent       TEXT,
  key          TEXT,
  field        TEXT NOT NULL,
  location     TEXT,
  kind         TEXT NOT NULL,
  before       TEXT,                -- JSON; NULL: not known
  after        TEXT,                -- JSON; NULL: nothing sent (a delete)
  outcome      TEXT NOT NULL DEFAULT 'intended',
  reason       TEXT,
  irreversible TEXT
);
CREATE INDEX changes_run ON changes(run);
${SUBJECTS}
`;

/**
 * Puts the subjects of run `n`'s changes after seq `after` (through seq `through`) into the index, sorted, and
 * notes how far the run is indexed. Called by a bulk job's writer thread a slice at a time while it is idle, when
 * a run ends (in its endRun transaction), and for runs that died, once resumed: a run not indexed yet (running,
 * or killed) is still found by `history`, which reads its changes past `indexed`.
 */
export function fillSubjects(prepare: Prepare, n: number, after = 0, through = Number.MAX_SAFE_INTEGER): void {
  const range = `run = @n AND seq > @after AND seq <= @through`;
  prepare(
    `INSERT OR IGNORE INTO subjects (run, subject, seq)
       SELECT @n, subject, seq FROM (
         SELECT key AS subject, seq FROM changes WHERE ${range} AND key IS NOT NULL
         UNION ALL SELECT id, seq FROM changes WHERE ${range} AND id IS NOT NULL
         UNION ALL SELECT parent, seq FROM changes WHERE ${range} AND parent IS NOT NULL)
       ORDER BY subject, seq`,
  ).run({ n, after, through });
  prepare(
    `UPDATE runs SET indexed = max(coalesce(indexed, 0), coalesce((SELECT max(seq) FROM changes WHERE run = @n AND seq <= @through), 0)) WHERE n = @n`,
  ).run({ n, through });
}

/**
 * A change's id given after its run's index passed it (a create's reply, settled after a slice was indexed): its
 * new id goes into the index too.
 */
export function indexLateIds(prepare: Prepare, first: number, last: number): void {
  prepare(
    `INSERT OR IGNORE INTO subjects (run, subject, seq)
       SELECT c.run, c.id, c.seq FROM changes c JOIN runs r ON r.n = c.run
        WHERE c.seq BETWEEN ? AND ? AND c.id IS NOT NULL AND c.seq <= coalesce(r.indexed, 0)`,
  ).run(first, last);
}

/**
 * Brings a file of an older schema to this one, inside the caller's write transaction. 1 → 2: the subjects
 * index is built from every run's changes, then schema 1's three per-change indexes go (~1.9 s per million
 * changes, measured: ~20 s for 10 million, once).
 */
export function migrate(db: Database, from: number, prepare: Prepare): void {
  if (from < 2) {
    db.exec(`ALTER TABLE runs ADD COLUMN indexed INTEGER; ${SUBJECTS}`);
    for (const { n } of db.prepare(`SELECT n FROM runs ORDER BY n`).all() as { n: number }[]) fillSubjects(prepare, n);
    db.exec(`DROP INDEX IF EXISTS changes_key; DROP INDEX IF EXISTS changes_id; DROP INDEX IF EXISTS changes_parent;`);
  }
}
