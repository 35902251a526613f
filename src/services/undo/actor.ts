import { AuthError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import type { Recorder } from '../../ledger/recorder.js';
import type { ChangeIntent } from '../../ledger/types.js';
import type { DecideOptions } from './decide.js';
import type { UndoSummary } from './summary.js';

/** Sends (or, on a dry run, counts) one write on the record. */
export class Actor {
  constructor(
    readonly client: StoreClient,
    private readonly recorder: Recorder,
    readonly summary: UndoSummary,
    readonly options: DecideOptions & { dryRun?: boolean },
  ) {}

  async write(changes: ChangeIntent[], request: (record: ReturnType<Recorder['intend']>) => Promise<unknown>): Promise<void> {
    if (!this.options.dryRun) {
      const record = this.recorder.intend(changes);
      try {
        await request(record);
      } catch (error) {
        if (error instanceof AuthError) throw error;
        for (const c of changes) this.summary.failures.push({ key: c.key ?? String(c.id ?? ''), field: c.field, reason: error instanceof Error ? error.message.replace(/\.$/, '') : String(error) });
        return;
      }
    }
    for (const c of changes) {
      const id = c.id === undefined || c.id === null ? null : String(c.id);
      this.summary.reverted.push({ resource: c.resource, id, parent: null, key: c.key ?? id ?? '', field: c.field, location: null, from: c.before, to: c.after });
    }
  }
}
