import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, JournalError, journalFs, makeJournalDir, readJournal } from '../../../../src/services/bulk/journal.js';
import { LockedError, acquireLock } from '../../../../src/services/bulk/lock.js';
import { ReportError, writeReportKeepingResult, writeReport } from '../../../../src/services/bulk/report.js';
import { CannotWriteError, stageFileAtomic, writeFileAtomic } from '../../../../src/util/atomic-file.js';
import { diskErrorReason } from '../../../../src/util/disk-error.js';

/**
 * Issue 24: a full or read-only disk names the file, says the cause in words and whether --resume finishes the
 * work. The tests run as root, whom permissions do not stop: a full disk is /dev/full, a directory that cannot
 * be created is one under a file, and a read-only disk is an injected EROFS (journalFs).
 */

const dir = mkdtempSync(join(tmpdir(), 'store-disk-'));
const original = { ...journalFs };
afterEach(() => Object.assign(journalFs, original));

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected`), { code });
}

describe('diskErrorReason', () => {
  it('says the cause in words', () => {
    expect(diskErrorReason(errno('ENOSPC'))).toBe('the disk is full');
    expect(diskErrorReason(errno('EROFS'))).toBe('the file system is read-only');
    expect(diskErrorReason(errno('EACCES'))).toBe('permission denied');
    expect(diskErrorReason(errno('ENOTDIR'))).toBe('a part of the path is a file, not a directory');
    expect(diskErrorReason(new Error('odd.'))).toBe('odd');
  });
});

describe('the journal on a failing disk', () => {
  it('a full disk: names the journal, the cause, and --resume; later appends fail the same way', () => {
    const journal = Journal.open('/dev/full', { append: false });
    let error: unknown;
    try {
      journal.append({ t: 'done', key: 'a', outcome: 'created' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JournalError);
    expect((error as JournalError).exitCode).toBe(1);
    expect((error as Error).message).toBe(
      'Cannot write the journal /dev/full: the disk is full; the run stopped. The work recorded so far is kept: once that is fixed, run the same command with --resume to finish it.',
    );
    expect(() => journal.append({ t: 'done', key: 'b', outcome: 'created' })).toThrow(error as Error);
    journal.close();
  });

  it('a read-only disk at the second entry keeps the first for --resume', () => {
    const path = join(dir, 'ro.jsonl');
    const journal = Journal.open(path, { append: false });
    journal.append({ t: 'begin', at: 'now', file: 'x.csv', pid: 1 });
    journalFs.writeSync = () => {
      throw errno('EROFS');
    };
    expect(() => journal.append({ t: 'done', key: 'a', outcome: 'created' })).toThrow(/^Cannot write the journal .*ro\.jsonl: the file system is read-only; the run stopped\..*--resume/);
    journal.close();
    expect(readJournal(path)).toEqual([{ t: 'begin', at: 'now', file: 'x.csv', pid: 1 }]);
  });

  it('a journal that cannot be opened, and a directory that cannot be created, are one sentence each', () => {
    journalFs.openSync = () => {
      throw errno('EACCES');
    };
    expect(() => Journal.open(join(dir, 'x.jsonl'), { append: false })).toThrow(/^Cannot write the journal .*x\.jsonl: permission denied; nothing was sent\.$/);
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    expect(() => makeJournalDir(join(file, 'imports'))).toThrow(
      `Cannot create ${join(file, 'imports')}, the directory of the bulk commands' journals (under XDG_STATE_HOME): a part of the path is a file, not a directory; nothing was sent.`,
    );
  });
});

describe('--report on a failing disk', () => {
  const rows = [{ line: 2, key: 'a', stage: 'validation' as const, reason: 'price: not a number' }];

  it('a full disk is one sentence naming the report', async () => {
    await expect(writeReport('/dev/full', { file: undefined }, rows)).rejects.toThrow(new ReportError('--report: cannot write /dev/full: the disk is full.'));
  });

  it('the report of an invalid file that cannot be written is noted on the refusal, not thrown', async () => {
    const refusal: { reportProblem?: string } = {};
    await writeReportKeepingResult(refusal, '/dev/full', { file: undefined }, rows);
    expect(refusal.reportProblem).toBe('--report: cannot write /dev/full: the disk is full.');
    const ok: { reportProblem?: string } = {};
    await writeReportKeepingResult(ok, join(dir, 'report.csv'), { file: undefined }, rows);
    expect(ok.reportProblem).toBeUndefined();
    expect(readFileSync(join(dir, 'report.csv'), 'utf8')).toContain('price: not a number');
  });
});

describe('every atomic write on a failing disk (the follow checkpoint, the config, an export)', () => {
  it('a full disk is one sentence naming the file, not a bare ENOSPC', async () => {
    await expect(writeFileAtomic('/dev/full', '{}\n')).rejects.toThrow(new CannotWriteError('Cannot write /dev/full: the disk is full.'));
    await expect(stageFileAtomic('/dev/full', '{}\n')).rejects.toThrow(new CannotWriteError('Cannot write /dev/full: the disk is full.'));
  });

  it('a directory that cannot be created is one sentence naming the file', async () => {
    const file = join(dir, 'in-the-way');
    writeFileSync(file, '');
    const target = join(file, 'follow', 'feed.json');
    await expect(stageFileAtomic(target, '{}\n')).rejects.toThrow(
      new CannotWriteError(`Cannot write ${target}: a part of the path is a file, not a directory.`),
    );
  });
});

describe('the store lock on a failing disk', () => {
  it('a lock file that cannot be created is one sentence naming it, not a raw errno', () => {
    const lockDir = join(dir, 'locks');
    const attempt = () => acquireLock(lockDir, join('no-such-dir', 'store-1'), 'products import');
    expect(attempt).toThrow(LockedError);
    expect(attempt).toThrow(`Cannot write the lock ${join(lockDir, 'no-such-dir', 'store-1.lock')}: no such file or directory; nothing was sent.`);
  });
});
