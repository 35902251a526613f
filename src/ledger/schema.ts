/**
 * The run ledger's tables (docs/ledger.md "The file"), the index `store history` reads, and the migration of an
 * older file. Schema 2 (stop 37): the records a change touches are indexed in order of seq, sorted within each
 * fill — by a bulk job's writer thread a slice at a time while idle, and what is left when the run ends — not one
 * b-tree insert per change and index while the job's requests wait (schema 1's key, id and parent indexes).
 * Schema 3 (stop 39): each fill is a region of its own at the end of the index (`slices`), where schema 2 sorted
 * a slice's entries in among the run's earlier ones: a slice's inserts are appends, not rewrites of pages all
 * over the run's part (docs/decisions.md "Run ledger", docs/benchmarks.md).
 */
import type BetterSqlite3 from 'better-sqlite3';

type Database = BetterSqlite3.Database;

/** How these functions get a statement: the Ledger's, prepared once per connection (store.ts `statement`). */
export type Prepare = (sql: string) => BetterSqlite3.Statement;

/**
 * What history looks up: each change's key, id and parent, a fill's entries together (its region) and sorted, so
 * that a fill appends to the index.
 */
const SUBJECTS = `CREATE TABLE subjects (
  region  INTEGER NOT NULL,   -- slices.region: the fill that put it here
  subject TEXT NOT NULL,
  seq     INTEGER NOT NULL,
  PRIMARY KEY (region, subject, seq)
) WITHOUT ROWID;`;

/**
 * The fills of the index, one row each: history seeks each region (~100 for a 100,000-change run filled a slice
 * at a time), and an id given late goes into the region of its change.
 */
const SLICES = `CREATE TABLE slices (
  region INTEGER PRIMARY KEY, -- REGION_BASE + the fill's first seq (a region of schema 2: the run's n)
  run    INTEGER NOT NULL,    -- runs.n
  first  INTEGER NOT NULL,    -- the run's first and last seq in the fill (0 for schema 2's: the whole run)
  last   INTEGER NOT NULL
);
CREATE INDEX slices_run ON slices(run, first);`;

/**
 * Where a fill's region number starts: above every run number, so that the regions of a schema-2 file (its runs'
 * numbers) and the fills since (this plus their first seq) never meet.
 */
const REGION_BASE = 2 ** 40;

/** The schema's version (PRAGMA user_version); a newer file than this code knows is refused, an older one migrated. */
export const SCHEMA_VERSION = 3;

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
${SLICES}
`;

/**
 * Puts the subjects of run `n`'s changes after seq `after` (through seq `through`) into the index, as a region of
 * their own, sorted, and notes how far the run is indexed. Called by a bulk job's writer thread a slice at a time
 * while it is idle, when a run ends (in its endRun transaction), and for runs that died, once resumed: a run not
 * indexed yet (running, or killed) is still found by `history`, which reads its changes past `indexed`.
 */
export function fillSubjects(prepare: Prepare, n: number, after = 0, through = Number.MAX_SAFE_INTEGER): void {
  const range = `run = @n AND seq > @after AND seq <= @through`;
  // The run's first and last change in the range (each one seek of changes_run): none, nothing to index.
  const first = prepare(`SELECT seq FROM changes WHERE ${range} ORDER BY seq LIMIT 1`).pluck().get({ n, after, through }) as number | undefined;
  if (first === undefined) return;
  const last = prepare(`SELECT seq FROM changes WHERE ${range} ORDER BY seq DESC LIMIT 1`).pluck().get({ n, after, through }) as number;
  const region = REGION_BASE + first;
  prepare(
    `INSERT OR IGNORE INTO subjects (region, subject, seq)
       SELECT @region, subject, seq FROM (
         SELECT key AS subject, seq FROM changes WHERE ${range} AND key IS NOT NULL
         UNION ALL SELECT id, seq FROM changes WHERE ${range} AND id IS NOT NULL
         UNION ALL SELECT parent, seq FROM changes WHERE ${range} AND parent IS NOT NULL)
       ORDER BY subject, seq`,
  ).run({ region, n, after, through });
  prepare(`INSERT OR REPLACE INTO slices (region, run, first, last) VALUES (?, ?, ?, ?)`).run(region, n, first, last);
  prepare(`UPDATE runs SET indexed = max(coalesce(indexed, 0), ?) WHERE n = ?`).run(last, n);
}

/**
 * A change's id given after its run's index passed it (a create's reply, settled after a slice was indexed): its
 * new id goes into the index too.
 */
export function indexLateIds(prepare: Prepare, first: number, last: number): void {
  prepare(
    `INSERT OR IGNORE INTO subjects (region, subject, seq)
       SELECT (SELECT x.region FROM slices x WHERE x.run = c.run AND x.first <= c.seq ORDER BY x.first DESC LIMIT 1), c.id, c.seq
         FROM changes c JOIN runs r ON r.n = c.run
        WHERE c.seq BETWEEN ? AND ? AND c.id IS NOT NULL AND c.seq <= coalesce(r.indexed, 0)`,
  ).run(first, last);
}

/**
 * Brings a file of an older schema to this one, inside the caller's write transaction. 1 → 3: the subjects
 * index is built from every run's changes, then schema 1's three per-change indexes go (~1.9 s per million
 * changes, measured: ~20 s for 10 million, once). 2 → 3: each run's part of the index becomes its region as it
 * is (the column renamed, a `slices` row a run: no entry moves).
 */
export function migrate(db: Database, from: number, prepare: Prepare): void {
  if (from < 2) {
    db.exec(`ALTER TABLE runs ADD COLUMN indexed INTEGER; ${SUBJECTS} ${SLICES}`);
    for (const { n } of db.prepare(`SELECT n FROM runs ORDER BY n`).all() as { n: number }[]) fillSubjects(prepare, n);
    db.exec(`DROP INDEX IF EXISTS changes_key; DROP INDEX IF EXISTS changes_id; DROP INDEX IF EXISTS changes_parent;`);
  } else if (from < 3) {
    db.exec(`ALTER TABLE subjects RENAME COLUMN run TO region; ${SLICES}`);
    db.exec(`INSERT INTO slices (region, run, first, last) SELECT n, n, 0, indexed FROM runs WHERE indexed IS NOT NULL`);
  }
}
