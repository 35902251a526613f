import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimPidFile } from '../../../src/util/pid-file.js';

const fresh = () => join(mkdtempSync(join(tmpdir(), 'pid-file-')), 'x.pid');

describe('claimPidFile', () => {
  it('claims a free file with this pid, and release removes it', () => {
    const file = fresh();
    const claim = claimPidFile(file);
    expect('release' in claim).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
    if ('release' in claim) claim.release();
    expect(existsSync(file)).toBe(false);
  });

  it('names a live holder and leaves its file alone', () => {
    const file = fresh();
    writeFileSync(file, String(process.ppid));
    expect(claimPidFile(file)).toEqual({ holder: process.ppid });
    expect(readFileSync(file, 'utf8')).toBe(String(process.ppid));
  });

  it('takes over a file whose pid is gone, or that names this very pid (left by an earlier process)', () => {
    for (const stale of ['2147483646', String(process.pid)]) {
      const file = fresh();
      writeFileSync(file, stale);
      expect('release' in claimPidFile(file)).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
    }
  });

  it('a release does not remove a file another process has claimed since', () => {
    const file = fresh();
    const claim = claimPidFile(file);
    writeFileSync(file, String(process.ppid));
    if ('release' in claim) claim.release();
    expect(readFileSync(file, 'utf8')).toBe(String(process.ppid));
  });
});
