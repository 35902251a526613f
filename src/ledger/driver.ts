/**
 * The run ledger's SQLite module (better-sqlite3 12 or 13, by Node line) and its errors, turned into one sentence
 * that names the file and what was being done.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { StoreError } from '../errors.js';

/** The ledger file could not be opened, read or written: one sentence naming it and the cause (exit 1). */
export class LedgerError extends StoreError {
  constructor(message: string) {
    super(message, 1);
  }
}

const require = createRequire(import.meta.url);
let DatabaseClass: typeof BetterSqlite3 | undefined;

/**
 * The SQLite module this Node loads. better-sqlite3 12 wraps its objects in Node's own `ObjectWrap`, and on Node 24
 * (24.19 on) a statement the garbage collector frees at the wrong moment aborts the whole process
 * (`RemoveEnvironmentCleanupHook: (env) != nullptr`, nodejs/node#65446): 13 is built on Node-API and is immune,
 * but needs Node 22 and crashes on 20. So package.json asks for both: 12 as `better-sqlite3`, 13 as the optional
 * `better-sqlite3-napi`, which npm skips on Node 20 (its engines say >=22). Node 22 and later load 13; Node 20
 * loads 12, whose ObjectWrap has no such hook there. A Node 22+ install without 13 (an optional package that
 * failed to install) falls back to 12.
 */
export function ledgerDriverName(): 'better-sqlite3-napi' | 'better-sqlite3' {
  if (Number(process.versions.node.split('.')[0]) >= 22) {
    try {
      require.resolve('better-sqlite3-napi');
      return 'better-sqlite3-napi';
    } catch {
      // not installed: 12 below
    }
  }
  return 'better-sqlite3';
}

/** The SQLite module is loaded on first use: commands that write nothing never load the native module. */
export function loadDriver(): typeof BetterSqlite3 {
  if (!DatabaseClass) {
    const name = ledgerDriverName();
    try {
      DatabaseClass = require(name) as typeof BetterSqlite3;
    } catch (error) {
      throw new LedgerError(
        `The run ledger's SQLite module (${name}) cannot be loaded on Node ${process.version}: ${(error as Error).message.split('\n')[0]}; run \`npm rebuild ${name}\` in store's installation.`,
      );
    }
  }
  return DatabaseClass;
}

function causeOf(error: unknown): string {
  const e = error as NodeJS.ErrnoException & { code?: string };
  if (e?.code === 'SQLITE_BUSY') return 'another store process holds it locked';
  if (e?.code === 'SQLITE_FULL' || e?.code === 'ENOSPC') return 'the disk is full';
  if (e?.code === 'SQLITE_READONLY' || e?.code === 'EACCES' || e?.code === 'EPERM') return 'permission denied';
  if (e?.code === 'SQLITE_NOTADB' || e?.code === 'SQLITE_CORRUPT') return 'it is not a ledger database (damaged, or another file)';
  return e instanceof Error ? e.message.replace(/\.$/, '') : String(error);
}

/** Runs `fn`, turning a SQLite or file error into a LedgerError naming the file and what was being done. */
export function guarded<T>(path: string, doing: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof LedgerError) throw error;
    throw new LedgerError(`Cannot ${doing} the run ledger ${path}: ${causeOf(error)}.`);
  }
}
