// One `variants sync` of every variant of the bench store, every value changed, run through the real service
// (dist/) — with the run ledger (`ledger`) or with a record that keeps nothing (`none`), the baseline the ledger's
// cost is measured against. Started by ledger.bench.js (through paired.js), a process per run:
//
//   node test/bench/ledger-sync.js URL STORE_ID TOKEN WORKDIR ledger|none
//
// Each run changes every stock (a counter in WORKDIR moves them on), so every run writes all 100,000 variants.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [url, storeId, token, work, mode] = process.argv.slice(2);
const dist = new URL('../../dist/', import.meta.url);
const { createClient } = await import(new URL('client/index.js', dist).href);
const { runSync } = await import(new URL('services/catalog-files/sync/run-sync.js', dist).href);
const { RunRecorder } = await import(new URL('ledger/recorder.js', dist).href);
const { Ledger } = await import(new URL('ledger/store.js', dist).href);

const skus = JSON.parse(readFileSync(join(work, 'skus.json'), 'utf8'));
const counterFile = join(work, 'counter');
let counter = 0;
try {
  counter = Number(readFileSync(counterFile, 'utf8')) || 0;
} catch {
  // the first run
}
writeFileSync(counterFile, String(counter + 1));
const feed = join(work, `feed-${process.pid}.csv`);
// Above every earlier run's values and the seeded stock (under 50): each run changes every variant, its first too.
writeFileSync(feed, `sku,stock\n${skus.map((sku, i) => `${sku},${1 + ((i + counter + 1) % 997) + (counter + 1) * 1000}`).join('\n')}\n`);

/** What a write carries without a ledger: a record that keeps nothing (the baseline). */
const nothingKept = {
  intend: (changes, options = {}) => {
    const write = { changes, seqs: [], settledByCaller: Boolean(options.settledByCaller), settle() {}, settleEach() {}, identify() {} };
    write.part = (_indexes, opts = {}) => ({ ...write, settledByCaller: opts.settledByCaller ?? write.settledByCaller });
    return write;
  },
};
const recorder =
  mode === 'ledger' ? new RunRecorder(() => Ledger.open(join(work, 'ledger.db')), { command: 'variants sync', argv: [feed] }) : nothingKept;

const client = createClient({ apiUrl: url, storeId, token, appName: 'bench', appId: 'bench' });
const summary = await runSync(client, { apiUrl: url, storeId, file: feed, recorder, env: { ...process.env, XDG_STATE_HOME: join(work, `state-${mode}`) } });
if (mode === 'ledger') recorder.finish(0);
if (summary.updated !== skus.length) {
  console.error(`expected ${skus.length} variants updated, got ${summary.updated} (${summary.failed} failed)`);
  process.exit(1);
}
