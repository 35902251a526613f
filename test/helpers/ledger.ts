import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PendingWrite, RunRecorder } from '../../src/ledger/recorder.js';
import { Ledger } from '../../src/ledger/store.js';
import type { ChangeRecord } from '../../src/ledger/types.js';

/**
 * A real run ledger in a temporary file, for tests that call services or the HTTP core themselves (a command
 * gets its recorder from the command kit): every write the core sends must carry its record (docs/ledger.md).
 */
export function testLedger(command = 'test') {
  const path = join(mkdtempSync(join(tmpdir(), 'store-ledger-')), 'ledger.db');
  const recorder = new RunRecorder(() => Ledger.open(path), { command, argv: [] });
  return {
    path,
    recorder,
    /** A raw request's record, for HTTP-level tests. */
    record(method: string, path: string): PendingWrite {
      return recorder.intend([{ resource: 'api', id: path, kind: 'request', field: method }]);
    },
    /** The changes recorded so far, in order. */
    changes(): ChangeRecord[] {
      const runId = recorder.runId;
      if (!runId) return [];
      const ledger = Ledger.open(path);
      try {
        return [...ledger.changes(runId)];
      } finally {
        ledger.close();
      }
    },
  };
}
