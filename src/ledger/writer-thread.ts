/**
 * The run ledger's writer thread (ledger/writer.ts ThreadWriter): its own connection to the ledger file, the
 * messages of one run handled in the order they were sent, each intent answered once committed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Ledger } from './store.js';
import { CLOSED, SeqMap, type FromThread, type ThreadStart, type ToThread } from './writer.js';

const { path, run, signal, answers, indexSlice } = workerData as ThreadStart;
const done = new Int32Array(signal);
const map = new SeqMap();
let ledger: Ledger | undefined;

/** The ledger, opened on the first message; its checkpoints are this thread's to run when idle (`idleWork`). */
function opened(): Ledger {
  if (!ledger) {
    ledger = Ledger.open(path);
    ledger.deferCheckpoints(CHECKPOINT_FALLBACK_PAGES);
  }
  return ledger;
}

/**
 * The WAL pages past which a commit checkpoints after all: a job that never leaves this thread idle (no slice, no
 * idle checkpoint) still keeps the WAL bounded, at 40 MiB.
 */
const CHECKPOINT_FALLBACK_PAGES = 10_000;

/** Slices indexed between two idle checkpoints: ~1,000 WAL pages, SQLite's own cadence (a slice writes ~200). */
const SLICES_PER_CHECKPOINT = 5;

function answer(message: FromThread): void {
  answers.postMessage(message);
}

/** One message's write (inside the flush's transaction: a failure undoes that message's write only). */
function write(message: Exclude<ToThread, { t: 'close' }>): void {
  try {
    const open = opened();
    switch (message.t) {
      case 'intend': {
        const firstSeq = open.intend(run, message.changes);
        // Slices start at this run's first change, not at seq 1: earlier runs' seqs hold none of this run's, and
        // crawling up to it a slice at a time was a commit each (1,500 on a 1.5-million-change ledger).
        if (indexedThrough === 0) indexedThrough = firstSeq - 1;
        map.add(message.first, message.changes.length, firstSeq);
        intendedThrough = Math.max(intendedThrough, firstSeq + message.changes.length - 1);
        break;
      }
      case 'settleRange':
        map.settleRange(open, message.first, message.last, message.outcome, message.reason);
        break;
      case 'settleEach':
        map.settleEach(open, message.settlements);
        break;
      case 'identify':
        map.identify(open, message.first, message.last, message.id);
        break;
    }
  } catch (error) {
    failed.push({ t: 'failed', message: (error as Error).message, first: message.t === 'intend' ? message.first : undefined });
  }
}

/**
 * The messages that arrived while the last flush ran, written in one transaction: under a bulk job's load that is
 * several requests' intents and settlements in one commit, not one each (commits were half the ledger's time).
 */
let queue: ToThread[] = [];
let failed: FromThread[] = [];

function flush(): void {
  const messages = queue;
  queue = [];
  failed = [];
  const writes = messages.filter((m): m is Exclude<ToThread, { t: 'close' }> => m.t !== 'close');
  if (writes.length === 1) write(writes[0]!);
  else if (writes.length > 1) {
    try {
      opened().batch(() => writes.forEach(write));
    } catch (error) {
      // The commit itself failed (locked past the wait, disk full): none of these writes is on the ledger.
      failed = writes.map((m) => ({ t: 'failed', message: (error as Error).message, first: m.t === 'intend' ? m.first : undefined }));
    }
  }
  const refused = new Set(failed.map((f) => (f.t === 'failed' ? f.first : undefined)));
  for (const f of failed) answer(f);
  for (const m of writes) if (m.t === 'intend' && !refused.has(m.first)) answer({ t: 'committed', first: m.first });
  if (messages.some((m) => m.t === 'close')) {
    ledger?.close();
    ledger = undefined;
    Atomics.store(done, 0, CLOSED);
    Atomics.notify(done, 0);
  } else idleWork();
}

/** The last seq of this run written, and the last its index holds (the worker's own slices; the run's end does the rest). */
let intendedThrough = 0;
let indexedThrough = 0;
let slicesSinceCheckpoint = 0;
let idleStepQueued = false;

/**
 * What this thread does when nothing waits to be written, a step at a time: a slice of the run's changes into
 * `history`'s index (~2 ms), or, every few slices, a checkpoint, which a commit would otherwise run while an intent
 * waits on it. An intent that comes meanwhile waits for the step, and the next flush starts the next one. A step
 * that cannot be done (the file locked) is left: the run's end indexes whatever is left, and SQLite checkpoints
 * past CHECKPOINT_FALLBACK_PAGES; no write is lost by it.
 */
function idleWork(): void {
  if (idleStepQueued || (intendedThrough - indexedThrough < indexSlice && slicesSinceCheckpoint < SLICES_PER_CHECKPOINT)) return;
  idleStepQueued = true;
  setImmediate(() => {
    idleStepQueued = false;
    if (queue.length > 0 || flushing || !ledger) return;
    try {
      if (slicesSinceCheckpoint >= SLICES_PER_CHECKPOINT) {
        slicesSinceCheckpoint = 0;
        ledger.checkpoint();
      } else {
        const through = Math.min(intendedThrough, indexedThrough + indexSlice);
        ledger.indexRunThrough(run, through);
        indexedThrough = through;
        slicesSinceCheckpoint++;
      }
    } catch {
      indexedThrough = Number.MAX_SAFE_INTEGER;
      slicesSinceCheckpoint = 0;
      return;
    }
    idleWork();
  });
}

/**
 * A bug that escapes a message's handling stops this thread: the main thread is told, and a `close` it may be
 * blocked in (which cannot see the worker's exit) is released at once rather than after its timeout.
 */
process.on('uncaughtException', (error) => {
  answer({ t: 'failed', message: `The run ledger's writer stopped: ${error.message}` });
  Atomics.store(done, 0, CLOSED);
  Atomics.notify(done, 0);
  process.exit(1);
});

let flushing = false;

/**
 * A bundle is written as it comes: the job's thread already held its settlements until an intent (or 64 of them,
 * or the close) went with them (writer.ts ThreadWriter), so each bundle is worth a commit.
 */
parentPort!.on('message', (bundle: ToThread[]) => {
  queue.push(...bundle);
  if (!flushing) {
    flushing = true;
    setImmediate(() => {
      flushing = false;
      flush();
    });
  }
});
