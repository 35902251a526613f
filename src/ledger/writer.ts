/**
 * Who writes a run's changes to the ledger file (docs/ledger.md, docs/decisions.md "Run ledger"): the recorder
 * numbers a run's changes itself, 0, 1, 2… as they are intended (a change's *local* number), and a writer puts them
 * in SQLite and turns a local number into the change's seq when it is settled.
 *
 * - `DirectWriter` writes on this thread, synchronously: a command that makes one write request (most of them)
 *   has its change on disk when `intend` returns, and never starts a thread.
 * - `ThreadWriter` hands the SQLite work to a worker thread (ledger/writer-thread.ts), from a run's second write
 *   request on: a bulk job's 2,000 transactions (an intent before each request, its settlement after) then cost
 *   its main thread only the message, while the requests, the replies and the plan go on. An intent is still
 *   committed before its request is sent: `intend` returns a `ready` promise the HTTP core awaits before sending,
 *   resolved when the worker has committed it. Settlements are sent and not awaited: one the process dies before
 *   writing leaves its change "intended", which is what a reply lost in flight leaves, and `--resume` settles it
 *   by what the store holds (ledger/jobs.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { Ledger } from './store.js';
import { LedgerError, ledgerDriverName } from './driver.js';
import type { ChangeIntent, SettledOutcome } from './types.js';

/** One change's settlement, by local number. */
export interface LocalSettlement {
  local: number;
  outcome: SettledOutcome;
  reason?: string;
  id?: string | number;
}

/** What the recorder needs of a writer. */
export interface LedgerWriter {
  /** Records `changes` as intended; their local numbers are `first`, `first + 1`…; `ready` once committed. */
  intend(first: number, changes: readonly ChangeIntent[]): { ready?: Promise<void> };
  settleRange(first: number, last: number, outcome: SettledOutcome, reason?: string): void;
  settleEach(settlements: readonly LocalSettlement[]): void;
  identify(first: number, last: number, id: string | number): void;
}

/** Local number → seq: each intent's changes take consecutive seqs (one transaction, nothing between them). */
export class SeqMap {
  private readonly seqs: number[] = [];

  add(first: number, count: number, firstSeq: number): void {
    for (let i = 0; i < count; i++) this.seqs[first + i] = firstSeq + i;
  }

  seq(local: number): number {
    const seq = this.seqs[local];
    if (seq === undefined) throw new Error(`change ${local} of this run was never intended (a bug: ledger/writer.ts).`);
    return seq;
  }

  /** The seqs of `first`..`last`, as one range when they run without a gap. */
  range(first: number, last: number): { first: number; last: number } | number[] {
    const a = this.seq(first);
    const b = this.seq(last);
    if (b - a === last - first) return { first: a, last: b };
    const seqs: number[] = [];
    for (let local = first; local <= last; local++) seqs.push(this.seq(local));
    return seqs;
  }

  settleRange(ledger: Ledger, first: number, last: number, outcome: SettledOutcome, reason?: string): void {
    const range = this.range(first, last);
    if (Array.isArray(range)) ledger.settleEach(range.map((seq) => ({ seq, outcome, reason })));
    else ledger.settleRange(range.first, range.last, outcome, reason);
  }

  settleEach(ledger: Ledger, settlements: readonly LocalSettlement[]): void {
    ledger.settleEach(settlements.map(({ local, ...s }) => ({ seq: this.seq(local), ...s })));
  }

  identify(ledger: Ledger, first: number, last: number, id: string | number): void {
    const range = this.range(first, last);
    if (Array.isArray(range)) for (const seq of range) ledger.identify(seq, seq, id);
    else ledger.identify(range.first, range.last, id);
  }
}

/** Writes on this thread: each call is its transaction, done when it returns. */
export class DirectWriter implements LedgerWriter {
  private readonly map = new SeqMap();

  constructor(
    private readonly ledger: Ledger,
    private readonly run: number,
  ) {}

  intend(first: number, changes: readonly ChangeIntent[]): { ready?: Promise<void> } {
    this.map.add(first, changes.length, this.ledger.intend(this.run, changes));
    return {};
  }

  settleRange(first: number, last: number, outcome: SettledOutcome, reason?: string): void {
    this.map.settleRange(this.ledger, first, last, outcome, reason);
  }

  settleEach(settlements: readonly LocalSettlement[]): void {
    this.map.settleEach(this.ledger, settlements);
  }

  identify(first: number, last: number, id: string | number): void {
    this.map.identify(this.ledger, first, last, id);
  }
}

/** The messages to the worker (ledger/writer-thread.ts), posted in bundles (`ToThread[]`). */
export type ToThread =
  | { t: 'intend'; first: number; changes: readonly ChangeIntent[] }
  | { t: 'settleRange'; first: number; last: number; outcome: SettledOutcome; reason?: string }
  | { t: 'settleEach'; settlements: readonly LocalSettlement[] }
  | { t: 'identify'; first: number; last: number; id: string | number }
  | { t: 'close' };

/** The worker's answers: an intent committed (by its first local number), or what failed. */
export type FromThread = { t: 'committed'; first: number } | { t: 'failed'; message: string; first?: number };

/** What the worker is started with. */
export interface ThreadStart {
  path: string;
  run: number;
  /** Int32Array over a SharedArrayBuffer: [CLOSED once the worker has written everything and let the file go]. */
  signal: SharedArrayBuffer;
  /** Where the worker answers: a port this thread can also read synchronously (`close`). */
  answers: MessagePort;
  /** How many changes the worker indexes at a time for `history`, when it has nothing else to do. */
  indexSlice: number;
}

/**
 * A slice of the run's changes the worker puts in `history`'s index when idle (ledger/schema.ts fillSubjects):
 * ~2 ms of work, so an intent that arrives meanwhile waits little, and the run's end has only the last slice
 * left to index (the whole run, ~0.2 s for 100,000 changes, was the job's thread's to do at its end).
 */
export const INDEX_SLICE = 1_000;

/** Settlements held on this thread until the next intent's message carries them (they are not awaited). */
const HELD_MAX = 64;

const THREAD_SCRIPT = new URL('./writer-thread.js', import.meta.url);

/** Asked once (a job where it is false would ask at every intent). */
let available: boolean | undefined;

/**
 * Whether this installation can start the worker: the built CLI can; the TypeScript sources under a test runner
 * cannot (a worker loads JavaScript), and write on this thread instead.
 */
export function threadAvailable(): boolean {
  // better-sqlite3 12 in a worker thread is what aborts Node 24 (ledger/store.ts ledgerDriverName): only 13 there.
  available ??=
    (ledgerDriverName() === 'better-sqlite3-napi' || Number(process.versions.node.split('.')[0]) < 22) &&
    THREAD_SCRIPT.protocol === 'file:' &&
    existsSync(fileURLToPath(THREAD_SCRIPT));
  return available;
}

/** The signal's value once the worker is done: closed after writing everything, or dead (ledger/writer-thread.ts). */
export const CLOSED = 1;

/** How long `close` waits for the worker before it gives up: what it holds is a few commits. */
const CLOSE_TIMEOUT_MS = 60_000;

/** Hands the SQLite work to a worker thread; see the top of this file. */
export class ThreadWriter implements LedgerWriter {
  private readonly worker: Worker;
  private readonly answers: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private failure?: LedgerError;
  /**
   * Settlements and ids not sent yet: they go in the next intent's message (or the close's), one message where
   * there were two for each request (posting is the largest part of what the ledger costs the job's thread).
   */
  private held: ToThread[] = [];

  constructor(path: string, run: number, indexSlice = INDEX_SLICE) {
    const { port1, port2 } = new MessageChannel();
    this.answers = port1;
    const start: ThreadStart = { path, run, signal: this.signal.buffer as SharedArrayBuffer, answers: port2, indexSlice };
    // A small young generation: the worker's garbage (each message's copy) is collected as it goes, rather than
    // growing a second heap beside the job's (+100 MiB peak in the bench without it).
    this.worker = new Worker(THREAD_SCRIPT, { workerData: start, transferList: [port2], resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    // The process ends when its work does: neither the worker nor its port holds it open (`close` waits for writes).
    this.worker.unref();
    this.answers.on('message', (message: FromThread) => this.answered(message));
    this.answers.unref();
    this.worker.on('error', (error) => this.fail(`The run ledger's writer stopped: ${error.message}`));
  }

  private answered(message: FromThread): void {
    if (message.t === 'committed') {
      this.waiting.get(message.first)?.resolve();
      this.forget(message.first);
      return;
    }
    if (message.first !== undefined) {
      this.waiting.get(message.first)?.reject(new LedgerError(message.message));
      this.forget(message.first);
    }
    this.fail(message.message);
  }

  /**
   * An intent awaited holds the process open until it is answered (otherwise a job whose only pending work is
   * that commit would end there); nothing else does.
   */
  private await(first: number, waiter: { resolve: () => void; reject: (error: Error) => void }): void {
    if (this.waiting.size === 0) this.answers.ref();
    this.waiting.set(first, waiter);
  }

  private forget(first: number): void {
    this.waiting.delete(first);
    if (this.waiting.size === 0) this.answers.unref();
  }

  private fail(message: string): void {
    this.failure ??= new LedgerError(message);
    for (const { reject } of this.waiting.values()) reject(this.failure);
    this.waiting.clear();
    this.answers.unref();
  }

  private post(message: ToThread): void {
    if (this.failure) throw this.failure;
    this.held.push(message);
    if (this.held.length >= HELD_MAX) this.send();
  }

  /** Posts what is held, with `last` after it (the worker handles a bundle's messages in order). */
  private send(last?: ToThread): void {
    const bundle = this.held;
    this.held = [];
    if (last) bundle.push(last);
    if (bundle.length > 0) this.worker.postMessage(bundle);
  }

  intend(first: number, changes: readonly ChangeIntent[]): { ready?: Promise<void> } {
    // Once the worker could not write, every later intent fails here, synchronously, as on this thread: a bulk job
    // stops on it (exit 1) instead of failing row after row.
    if (this.failure) throw this.failure;
    const ready = new Promise<void>((resolve, reject) => this.await(first, { resolve, reject }));
    // A write abandoned before its request (an interrupt) must not leave an unhandled rejection behind.
    ready.catch(() => undefined);
    this.send({ t: 'intend', first, changes });
    return { ready };
  }

  settleRange(first: number, last: number, outcome: SettledOutcome, reason?: string): void {
    this.post({ t: 'settleRange', first, last, outcome, reason });
  }

  settleEach(settlements: readonly LocalSettlement[]): void {
    // A batch settled whole already came as a range (recorder.ts PendingWrite.settleEach).
    this.post({ t: 'settleEach', settlements });
  }

  identify(first: number, last: number, id: string | number): void {
    this.post({ t: 'identify', first, last, id });
  }

  /**
   * Has the worker write everything sent so far (it handles messages in order) and let the file go, blocking this
   * thread until it has; then reads the answers that came meanwhile (this thread's event loop was blocked) and
   * stops the worker. Throws the first failure.
   */
  close(): void {
    try {
      if (!this.failure) {
        this.send({ t: 'close' });
        const deadline = Date.now() + CLOSE_TIMEOUT_MS;
        while (Atomics.load(this.signal, 0) !== CLOSED) {
          const left = deadline - Date.now();
          if (left <= 0) {
            this.fail(`The run ledger's writer did not finish within ${CLOSE_TIMEOUT_MS / 1000} s.`);
            break;
          }
          Atomics.wait(this.signal, 0, 0, Math.min(left, 1_000));
        }
      }
      for (let received = receiveMessageOnPort(this.answers); received; received = receiveMessageOnPort(this.answers)) {
        this.answered(received.message as FromThread);
      }
      if (this.failure) throw this.failure;
    } finally {
      this.answers.close();
      void this.worker.terminate();
    }
  }
}
