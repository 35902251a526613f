/**
 * How a write gets on the record (docs/ledger.md): a service declares the changes a request makes
 * (`recorder.intend([...])`, one transaction) before sending it, and passes the returned PendingWrite as the
 * request's `record`; the HTTP core settles it when the request ends (confirmed on 2xx, failed when the store
 * refused, unknown when the reply was lost). A batch answered per record is settled by its caller
 * (`settledByCaller`), change by change. The run is opened on the first intent and ended by the command kit
 * with the exit code, so a command that writes nothing leaves nothing in the ledger.
 */
import { type HeldJudgement, settleInterrupted } from './jobs.js';
import type { Ledger } from './store.js';
import { DirectWriter, type LedgerWriter, ThreadWriter, threadAvailable } from './writer.js';
import type { ChangeIntent, ChangeRecord, RunStart, SettledOutcome } from './types.js';

/** One change's outcome in `settleEach`: an outcome, or with the reason and the id the store gave a created record. */
export type Settlement = SettledOutcome | { outcome: SettledOutcome; reason?: string; id?: string | number };

/** A settlement's outcome when that is all it says (no reason, no id); undefined otherwise. */
function plainOutcome(s: Settlement | undefined): SettledOutcome | undefined {
  if (typeof s === 'string') return s;
  return s && s.reason === undefined && s.id === undefined ? s.outcome : undefined;
}

/** What a service is given to record its writes. */
export interface Recorder {
  /**
   * Records `changes` as intended, in one transaction, before the request that makes them is sent. Give the
   * result to the request (`record`); with `settledByCaller`, settle it yourself from the reply.
   */
  intend(changes: readonly ChangeIntent[], options?: { settledByCaller?: boolean }): PendingWrite;
  /**
   * `--resume` of a bulk job: settles what the job's interrupted runs left unsettled, by what the store holds now
   * (ledger/jobs.ts). Returns how many changes were settled.
   */
  settleInterrupted?(judge: (change: ChangeRecord) => HeldJudgement): number;
}

/**
 * The changes one request makes, on the record as intended until settled. What the HTTP core needs of it
 * (`WriteRecord` of client/index.ts): `ready` (awaited before the request is sent), `settledByCaller` and `settle`.
 */
export class PendingWrite {
  constructor(
    private readonly writer: LedgerWriter,
    /** The changes' local numbers in their run (ledger/writer.ts), in the order of `changes`. */
    readonly locals: readonly number[],
    /** The changes as declared, in order. */
    readonly changes: readonly ChangeIntent[],
    /** The caller reads the reply and settles each change; the HTTP core settles only a failure. */
    readonly settledByCaller = false,
    /** Resolved once the changes are committed (a writer on another thread); absent: committed already. */
    readonly ready?: Promise<void>,
  ) {}

  /** Whether the local numbers run without a gap (one statement settles them all). */
  private get contiguous(): boolean {
    const first = this.locals[0]!;
    return this.locals.every((local, i) => local === first + i);
  }

  /** Settles every change of this write with one outcome. */
  settle(outcome: SettledOutcome, reason?: string): void {
    if (this.locals.length === 0) return;
    if (this.contiguous) this.writer.settleRange(this.locals[0]!, this.locals.at(-1)!, outcome, reason);
    else this.writer.settleEach(this.locals.map((local) => ({ local, outcome, reason })));
  }

  /** Settles each change (in the order of `changes`); an undefined entry leaves that change as it is. */
  settleEach(settlements: readonly (Settlement | undefined)[]): void {
    // A batch the store confirmed whole (the usual reply): one range, without a row per change — for either writer,
    // a message of five fields rather than fifty rows, and one UPDATE.
    const whole = plainOutcome(settlements[0]);
    if (whole && settlements.length === this.locals.length && settlements.every((s) => plainOutcome(s) === whole)) {
      this.settle(whole);
      return;
    }
    const rows = settlements.flatMap((s, i) => {
      if (s === undefined || i >= this.locals.length) return [];
      return [typeof s === 'string' ? { local: this.locals[i]!, outcome: s } : { local: this.locals[i]!, ...s }];
    });
    if (rows.length > 0) this.writer.settleEach(rows);
  }

  /** The id the store gave the record these changes created (a create's reply). */
  identify(id: string | number): void {
    if (this.locals.length === 0) return;
    if (this.contiguous) this.writer.identify(this.locals[0]!, this.locals.at(-1)!, id);
    else for (const local of this.locals) this.writer.identify(local, local, id);
  }

  /**
   * The changes at `indexes` as a write of their own: the part of a batch sent again alone (a 422 bisected, the
   * per-record fallback). Nothing new is recorded: they were intended with the batch.
   */
  part(indexes: readonly number[], options: { settledByCaller?: boolean } = {}): PendingWrite {
    return new PendingWrite(
      this.writer,
      indexes.map((i) => this.locals[i]!),
      indexes.map((i) => this.changes[i]!),
      options.settledByCaller ?? this.settledByCaller,
      this.ready,
    );
  }
}

/**
 * The recorder of one command's run: opens the ledger and starts the run on the first intent (a command that
 * writes nothing leaves no run), and ends it with the exit code (`finish`, from the command kit's finally).
 * The first write request's changes are written on this thread; from the second on (a bulk job), on a worker
 * thread (ledger/writer.ts says why).
 */
export class RunRecorder implements Recorder {
  private ledger?: Ledger;
  private run?: { n: number; id: string };
  private direct?: DirectWriter;
  private thread?: ThreadWriter;
  /** The local number of the next change (ledger/writer.ts). */
  private nextLocal = 0;
  /** A process that exits without returning through the command kit (a second Ctrl-C) still ends its run. */
  private readonly onExit = () => this.finish(Number(process.exitCode ?? 1));

  constructor(
    private readonly openLedger: () => Ledger,
    private readonly start: RunStart,
  ) {}

  /** The run's id, once a change has been recorded. */
  get runId(): string | undefined {
    return this.run?.id;
  }

  intend(changes: readonly ChangeIntent[], options: { settledByCaller?: boolean } = {}): PendingWrite {
    const writer = this.writer();
    const first = this.nextLocal;
    this.nextLocal += changes.length;
    const { ready } = changes.length > 0 ? writer.intend(first, changes) : {};
    return new PendingWrite(
      writer,
      changes.map((_, i) => first + i),
      changes,
      options.settledByCaller ?? false,
      ready,
    );
  }

  /** This thread's writer for the run's first intent (which starts the run), the worker's for every later one. */
  private writer(): LedgerWriter {
    if (!this.run) {
      this.ledger ??= this.openLedger();
      this.run = this.ledger.startRun(this.start);
      this.direct = new DirectWriter(this.ledger, this.run.n);
      process.once('exit', this.onExit);
      return this.direct;
    }
    if (!this.thread && threadAvailable()) this.thread = new ThreadWriter(this.ledger!.path, this.run.n);
    return this.thread ?? this.direct!;
  }

  settleInterrupted(judge: (change: ChangeRecord) => HeldJudgement): number {
    this.ledger ??= this.openLedger();
    return settleInterrupted(this.ledger, this.start, judge);
  }

  /**
   * Ends the run, if one was started, and closes the ledger: what the worker holds is written first. Never
   * throws: the command's own outcome stands.
   */
  finish(exitCode: number): { error?: Error } {
    let error: Error | undefined;
    try {
      this.thread?.close();
    } catch (caught) {
      error = caught as Error;
    }
    this.thread = undefined;
    try {
      if (this.run) this.ledger?.endRun(this.run.n, exitCode);
    } catch (caught) {
      error ??= caught as Error;
    } finally {
      process.off('exit', this.onExit);
      this.ledger?.close();
      this.ledger = undefined;
    }
    return error ? { error } : {};
  }
}
