import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobRuns, settleInterrupted } from '../../../src/ledger/jobs.js';
import { Ledger } from '../../../src/ledger/store.js';
import type { ChangeIntent, RunStart } from '../../../src/ledger/types.js';

/** A job killed and resumed is several runs: undo takes them as one, and --resume settles what the killed run left. */

let dir: string;
let ledger: Ledger;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-jobs-'));
  ledger = Ledger.open(join(dir, 'ledger.db'));
});
afterEach(() => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

const sync = (...extra: string[]): RunStart => ({ command: 'variants sync', argv: ['feed.csv', ...extra], storeId: 1, apiHost: '127.0.0.1:4010' });
const stock = (sku: string, before: number, after: number): ChangeIntent => ({ resource: 'variant', id: sku.slice(1), parent: 1, key: sku, field: 'stock', kind: 'update', before, after });

function run(start: RunStart, exit: number | null, changes: ChangeIntent[] = [stock('V1', 1, 2)]) {
  const r = ledger.startRun(start);
  ledger.intend(r.n, changes);
  if (exit !== null) ledger.endRun(r.n, exit);
  return r.id;
}

describe('jobRuns', () => {
  it('a killed run and the --resume runs that finished it are one job, whichever of them is named', () => {
    const before = run(sync(), 0);
    const killed = run(sync(), null);
    const stopped = run(sync('--resume'), 130);
    const resumed = run(sync('--resume'), 0);
    const after = run(sync(), 0);
    const ids = (id: string) => jobRuns(ledger.runs(), ledger.run(id)!).map((r) => r.id);
    expect(ids(killed)).toEqual([killed, stopped, resumed]);
    expect(ids(resumed)).toEqual([killed, stopped, resumed]);
    expect(ids(before)).toEqual([before]);
    expect(ids(after)).toEqual([after]);
  });

  it('another file, store or command is another job', () => {
    const killed = run(sync(), null);
    run({ ...sync('--resume'), storeId: 2 }, 0);
    run({ ...sync('--resume'), argv: ['other.csv', '--resume'] }, 0);
    expect(jobRuns(ledger.runs(), ledger.run(killed)!).map((r) => r.id)).toEqual([killed]);
  });
});

describe('settleInterrupted', () => {
  it('settles the unsettled writes of the interrupted runs by what the store holds: applied, not applied, or left', () => {
    const killed = run(sync(), null, [stock('V1', 1, 2), stock('V2', 1, 2), stock('V3', 1, 2)]);
    const settled = settleInterrupted(ledger, sync('--resume'), (c) => (c.key === 'V1' ? 'applied' : c.key === 'V2' ? 'not-applied' : undefined));
    expect(settled).toBe(2);
    const outcomes = [...ledger.changes(killed)].map((c) => [c.key, c.outcome]);
    expect(outcomes).toEqual([['V1', 'confirmed'], ['V2', 'failed'], ['V3', 'intended']]);
  });

  it('leaves a finished run, and runs of another job, alone', () => {
    const finished = run(sync(), 0);
    const other = run({ ...sync(), argv: ['other.csv'] }, null);
    expect(settleInterrupted(ledger, sync('--resume'), () => 'applied')).toBe(0);
    expect([...ledger.changes(finished), ...ledger.changes(other)].map((c) => c.outcome)).toEqual(['intended', 'intended']);
  });
});
