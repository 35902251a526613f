/**
 * The run ledger's writer thread (ledger/writer.ts ThreadWriter): its own connection to the ledger file, the
 * messages of one run handled in the order they were sent, each intent answered once committed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Ledger } from './store.js';
import { SeqMap, type FromThread, type ThreadStart, type ToThread } from './writer.js';

const { path, run, signal, answers } = workerData as ThreadStart;
const drains = new Int32Array(signal);
const map = new SeqMap();
let ledger: Ledger | undefined;

function answer(message: FromThread): void {
  answers.postMessage(message);
}

function handle(message: ToThread): void {
  if (message.t === 'drain') {
    if (message.close) {
      ledger?.close();
      ledger = undefined;
    }
    Atomics.add(drains, 0, 1);
    Atomics.notify(drains, 0);
    return;
  }
  try {
    ledger ??= Ledger.open(path);
    switch (message.t) {
      case 'intend':
        map.add(message.first, message.changes.length, ledger.intend(run, message.changes));
        answer({ t: 'committed', first: message.first });
        break;
      case 'settleRange':
        map.settleRange(ledger, message.first, message.last, message.outcome, message.reason);
        break;
      case 'settleEach':
        map.settleEach(ledger, message.settlements);
        break;
      case 'identify':
        map.identify(ledger, message.first, message.last, message.id);
        break;
    }
  } catch (error) {
    answer({ t: 'failed', message: (error as Error).message, first: message.t === 'intend' ? message.first : undefined });
  }
}

parentPort!.on('message', handle);
