import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startBulkStore, type BulkStore } from '../helpers/bulk-store-server.js';
import { fleetEnv, seedProducts, type FleetStore } from '../helpers/fleet-stores.js';
import { hasScript, plainText, runOnTerminal } from '../helpers/terminal.js';

/**
 * A write to several stores asks once, on a terminal (src/cli/fleet.ts confirmWrites): each store's dry run
 * first, then one question naming the stores. "No" sends nothing to any store; "yes" writes each store its own
 * feed, each run on the ledger. Two independent stores (test/helpers/bulk-store-server.ts).
 */

const PRODUCTS = 10;
let stores: BulkStore[];
let fleet: FleetStore[];
let dir: string;

beforeAll(async () => {
  stores = await Promise.all([0, 1].map((i) => startBulkStore({ storeId: 4501 + i })));
  const products = Array.from({ length: PRODUCTS }, (_, p) => ({ name: { es: `Gorra ${p}` }, handle: { es: `gorra-${p}` }, variants: [{ sku: `G-${p}`, price: '10.00', stock: 1 }] }));
  for (const store of stores) await seedProducts(store, products);
  dir = mkdtempSync(join(tmpdir(), 'store-fleet-confirm-'));
  fleet = stores.map((s, i) => ({ profile: ['ar', 'cl'][i]!, storeId: String(s.storeId), apiUrl: s.url, token: s.token, appName: 'Fleet Test', appId: '77' }));
  // Each store its own stock: 20 + p in ar, 30 + p in cl.
  fleet.forEach((f, i) => writeFileSync(join(dir, `feed-${f.profile}.csv`), `sku,stock\n${Array.from({ length: PRODUCTS }, (_, p) => `G-${p},${20 + 10 * i + p}`).join('\n')}\n`));
  writeFileSync(join(dir, 'stores.csv'), `profile,feed\n${fleet.map((f) => `${f.profile},${join(dir, `feed-${f.profile}.csv`)}`).join('\n')}\n`);
});
afterAll(async () => {
  for (const s of stores ?? []) await s.close();
});

describe.skipIf(!hasScript)('variants sync over a fleet, on a terminal', () => {
  it('shows each store\'s dry run and asks once: "no" sends nothing anywhere, "yes" writes each store its feed, each run on the ledger', async () => {
    const env = fleetEnv(fleet, 'fleet-confirm');
    const args = ['variants', 'sync', '{feed}', '--fleet', join(dir, 'stores.csv')];
    const question = 'Write to these 2 stores: ar (store 4501), cl (store 4502)?';

    const no = await runOnTerminal(args, env, [{ when: question, send: 'n\r' }]);
    const shown = plainText(no.output);
    expect(no.code, shown).toBe(0);
    expect(shown).toContain('What each store would change (a dry run of each; nothing is sent):');
    expect(shown).toContain('== ar (store 4501) ==');
    expect(shown).toContain('== cl (store 4502) ==');
    expect(shown).toContain(question);
    expect(shown).toContain('Nothing written.');
    for (const store of stores) expect(store.writes()).toEqual([]);

    const yes = await runOnTerminal(args, env, [{ when: question, send: 'y\r' }]);
    expect(yes.code, plainText(yes.output)).toBe(0);
    stores.forEach((store, i) => {
      for (let p = 0; p < PRODUCTS; p++) expect(store.variantBySku(`G-${p}`)!.stock).toBe(20 + 10 * i + p);
      expect(store.writes().length).toBeGreaterThan(0);
    });
    const runs = await runCli(['runs', 'list', '--json'], { env });
    expect(runs.code, runs.stderr).toBe(0);
    const listed = (JSON.parse(runs.stdout) as { command: string; exit_code: number; changes: number }[]).filter((r) => r.command.startsWith('variants sync'));
    expect(listed.map((r) => [r.exit_code, r.changes])).toEqual([
      [0, PRODUCTS],
      [0, PRODUCTS],
    ]);
  }, 120_000);
});
