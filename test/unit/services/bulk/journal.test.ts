import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, journalPath, readJournal, stateDir, storeKey, summarizeJournal } from '../../../../src/services/bulk/journal.js';
import { LockedError, acquireLock, lockKey, processStart } from '../../../../src/services/bulk/lock.js';
import { pool } from '../../../../src/services/bulk/pool.js';
import type { ImportJournalEntry } from '../../../../src/services/catalog-files/executor.js';

describe('import journal', () => {
  it('lives under $XDG_STATE_HOME/store/imports, one file per store and file content', () => {
    expect(stateDir({ XDG_STATE_HOME: '/x/state' })).toBe('/x/state/store/imports');
    const a = journalPath('/d', storeKey('http://127.0.0.1:1', 7), 'ab'.repeat(32), 'import');
    const b = journalPath('/d', storeKey('http://127.0.0.1:2', 7), 'ab'.repeat(32), 'import');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^\/d\/import-7-[0-9a-f]{8}-abababababababab\.jsonl$/);
  });

  it('appends entries, reads them back, and ignores a line torn by a crash', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'journal-')), 'sub', 'j.jsonl');
    const journal = Journal.open<ImportJournalEntry>(path, { append: false });
    journal.append({ t: 'begin', at: 'now', file: 'f.csv', mode: 'upsert', pid: 1 });
    journal.append({ t: 'product', key: 'a', id: 1 });
    journal.append({ t: 'done', key: 'a', outcome: 'created' });
    journal.close();
    appendFileSync(path, '{"t":"done","key":"b","outc');
    const state = summarizeJournal(readJournal(path));
    expect([...state.done.keys()]).toEqual(['a']);
    expect(state.finished).toBe(false);
    // Resuming appends; starting afresh truncates.
    const resumed = Journal.open(path, { append: true });
    resumed.append({ t: 'end', at: 'later' });
    resumed.close();
    expect(summarizeJournal(readJournal(path)).finished).toBe(true);
    // A run resumed after that end is unfinished until its own end.
    expect(summarizeJournal([...readJournal(path), { t: 'begin', at: 'x', file: 'f.csv', mode: 'upsert', pid: 2 }]).finished).toBe(false);
    Journal.open(path, { append: false }).close();
    expect(readFileSync(path, 'utf8')).toBe('');
    expect(readJournal(join(path, '..', 'missing.jsonl'))).toEqual([]);
  });
});

describe('store lock', () => {
  it('is exclusive while its owner lives, released by its owner, and taken over when its process is gone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-'));
    const lock = acquireLock(dir, 's1', 'products import');
    expect(() => acquireLock(dir, 's1', 'variants sync')).toThrow(LockedError);
    expect(() => acquireLock(dir, 's1', 'variants sync')).toThrow(/Another `store products import` for this store is running \(pid \d+/);
    // Another store is independent.
    acquireLock(dir, 's2', 'products import').release();
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    // A dead owner (no such pid) leaves a stale lock.
    writeFileSync(lock.path, JSON.stringify({ pid: 2 ** 22 + 4321, host: hostname(), since: 'then', command: 'products import' }));
    const again = acquireLock(dir, 's1', 'products import');
    expect(JSON.parse(readFileSync(again.path, 'utf8')).pid).toBe(process.pid);
    again.release();
  });

  it('records host, pid and start time, and takes over a lock whose pid now belongs to a later process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-'));
    const lock = acquireLock(dir, lockKey(7, 'app'), 'products import');
    const owner = JSON.parse(readFileSync(lock.path, 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, host: hostname(), command: 'products import' });
    if (process.platform === 'linux') expect(owner.started).toBe(processStart(process.pid));
    lock.release();
    if (process.platform !== 'linux') return;
    // This pid is alive, but the lock was taken by a process that started at another time: the pid was reused.
    writeFileSync(lock.path, JSON.stringify({ ...owner, started: '1' }));
    const taken = acquireLock(dir, lockKey(7, 'app'), 'variants sync');
    expect(JSON.parse(readFileSync(taken.path, 'utf8')).command).toBe('variants sync');
    taken.release();
  });

  it('is keyed by store and app, not by the URL that reaches them', () => {
    expect(lockKey(7, 'app')).toBe(lockKey('7', 'app'));
    expect(lockKey(7, 'app')).not.toBe(lockKey(7, 'other-app'));
    expect(lockKey(7, 'app')).not.toBe(lockKey(8, 'app'));
    expect(lockKey('1/../x', 'a b')).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

describe('pool', () => {
  it('runs at most `limit` at once, every item once, and stops starting new ones after an error', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await pool([...Array(30).keys()], 4, async (i) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 1));
      seen.push(i);
      running--;
    });
    expect(peak).toBe(4);
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(30).keys()]);
    const started: number[] = [];
    await expect(
      pool([...Array(30).keys()], 2, async (i) => {
        started.push(i);
        if (i === 3) throw new Error('boom');
        await new Promise((r) => setTimeout(r, 1));
      }),
    ).rejects.toThrow('boom');
    expect(started.length).toBeLessThan(30);
  });
});
