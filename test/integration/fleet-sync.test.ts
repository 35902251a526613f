import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startBulkStore, type BulkStore } from '../helpers/bulk-store-server.js';
import { fleetEnv, seedProducts, type FleetStore } from '../helpers/fleet-stores.js';

/**
 * `variants sync {feed} --fleet FILE` against independent stores (test/helpers/bulk-store-server.ts, written from
 * the platform's documents): each store its own feed; a store going down mid-run and a store whose token is
 * refused leave the others exact; `--resume` of the fleet finishes only what each store left.
 */

const PRODUCTS = 100;
const SIZES = 5;
const VARIANTS = PRODUCTS * SIZES;
let stores: BulkStore[];
let fleet: FleetStore[];
let dir: string;

/** The catalog, created through the store's own POST /products (§8). */
async function seed(store: BulkStore): Promise<void> {
  await seedProducts(
    store,
    Array.from({ length: PRODUCTS }, (_, p) => ({
      name: { es: `Producto ${p}` },
      handle: { es: `prod-${p}` },
      attributes: [{ es: 'Talle' }],
      variants: Array.from({ length: SIZES }, (_, v) => ({ values: [{ es: `T${v}` }], sku: `SKU-${p}-${v}`, price: '100.00', stock: 1 })),
    })),
  );
}

/** Store i's feed: every variant a stock and price of its own (100 % changed). */
function feedOf(i: number): string {
  const lines = ['sku,stock,price'];
  for (let p = 0; p < PRODUCTS; p++) for (let v = 0; v < SIZES; v++) lines.push(`SKU-${p}-${v},${10 * (i + 1) + v},${200 + i}.${String(p % 100).padStart(2, '0')}`);
  return `${lines.join('\n')}\n`;
}

function expectFeedIn(store: BulkStore, i: number): void {
  for (let p = 0; p < PRODUCTS; p++) {
    for (let v = 0; v < SIZES; v++) {
      const held = store.variantBySku(`SKU-${p}-${v}`)!;
      expect({ sku: held.sku, stock: held.stock, price: held.price }).toEqual({ sku: `SKU-${p}-${v}`, stock: 10 * (i + 1) + v, price: `${200 + i}.${String(p % 100).padStart(2, '0')}` });
    }
  }
}

/** Variants a run's stock-price batches carried. */
const batchedVariants = (store: BulkStore, from: number) =>
  store.writes().slice(from).filter((w) => w.path.endsWith('/products/stock-price') && w.status === 200).reduce((n, w) => n + (w.body as { variants: unknown[] }[]).reduce((m, p) => m + p.variants.length, 0), 0);

beforeAll(async () => {
  stores = await Promise.all([0, 1, 2].map((i) => startBulkStore({ storeId: 4321 + i })));
  for (const s of stores) await seed(s);
  dir = mkdtempSync(join(tmpdir(), 'store-fleet-sync-'));
  fleet = stores.map((s, i) => ({ profile: ['ar', 'br', 'mx'][i]!, storeId: String(s.storeId), apiUrl: s.url, token: s.token, appName: 'Fleet Test', appId: '77' }));
  stores.forEach((_, i) => writeFileSync(join(dir, `feed-${fleet[i]!.profile}.csv`), feedOf(i)));
  writeFileSync(join(dir, 'stores.csv'), `profile,feed\n${fleet.map((f) => `${f.profile},${join(dir, `feed-${f.profile}.csv`)}`).join('\n')}\nrevoked,${join(dir, 'feed-mx.csv')}\n`);
});
afterAll(async () => {
  for (const s of stores ?? []) await s.close();
});

describe('variants sync over a fleet file', () => {
  it('refuses to write to the stores without --yes when not on a terminal, naming them; nothing sent', async () => {
    const env = fleetEnv([...fleet, { ...fleet[2]!, profile: 'revoked', token: 'refused-token-0123456789' }], 'fleet-sync');
    const r = await runCli(['variants', 'sync', '{feed}', '--fleet', join(dir, 'stores.csv')], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Writing to 4 stores needs confirmation: pass --yes');
    expect(r.stderr).toContain('ar (store 4321), br (store 4322), mx (store 4323), revoked (store 4323)');
    for (const s of stores) expect(s.writes()).toEqual([]);
  }, 60_000);

  it('--dry-run: each store its own plan, under its name, and nothing sent', async () => {
    const env = fleetEnv(fleet, 'fleet-sync-dry');
    writeFileSync(join(dir, 'three.csv'), `profile,feed\n${fleet.map((f) => `${f.profile},${join(dir, `feed-${f.profile}.csv`)}`).join('\n')}\n`);
    const r = await runCli(['variants', 'sync', '{feed}', '--fleet', join(dir, 'three.csv'), '--dry-run'], { env });
    expect(r.code, r.stderr).toBe(0);
    for (const f of fleet) expect(r.stdout).toContain(`== ${f.profile} (store ${f.storeId}) ==`);
    expect(r.stdout).toContain('feed-br.csv');
    for (const s of stores) expect(s.writes()).toEqual([]);
  }, 60_000);

  it('one store down mid-run and one token refused: the others exact, exit 4, both named; --resume finishes only what each store left', async () => {
    const env = { ...fleetEnv([...fleet, { ...fleet[2]!, profile: 'revoked', token: 'refused-token-0123456789' }], 'fleet-sync-run'), STORE_HTTP_TIMEOUT: '2' };
    // br goes down once it has applied its first batch.
    let wentDown = false;
    stores[1]!.onWrite = (_request, applied) => {
      if (applied < 1 || wentDown) return;
      wentDown = true;
      setImmediate(() => stores[1]!.goDown());
    };
    const run = await runCli(['variants', 'sync', '{feed}', '--fleet', join(dir, 'stores.csv'), '--yes', '--report', join(dir, 'failed-{profile}.csv')], { env, timeoutMs: 170_000 });
    stores[1]!.onWrite = undefined;
    expect(run.code, run.stderr).toBe(4);
    expectFeedIn(stores[0]!, 0);
    expectFeedIn(stores[2]!, 2);
    expect(run.stderr).toMatch(/^\[revoked\] store 4323: exit 4 .*STORE_TOKEN_REVOKED/m);
    expect(run.stderr).toMatch(/^\[br\] store 4322: exit [13] /m);
    expect(run.stderr).toMatch(/Fleet: 4 stores, 2 succeeded; exit [13]: br; exit 4: revoked\. Exit 4\./);
    const doneBefore = batchedVariants(stores[1]!, 0);
    expect(doneBefore).toBeGreaterThan(0);
    expect(doneBefore).toBeLessThan(VARIANTS);

    await stores[1]!.comeBack();
    const writesBefore = stores.map((s) => s.writes().length);
    const resumeEnv = fleetEnv(fleet, 'fleet-sync-run');
    // The same state directory (the journals) as the first run.
    Object.assign(resumeEnv, { XDG_STATE_HOME: env.XDG_STATE_HOME, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME, STORE_TOKEN_REVOKED: fleet[2]!.token });
    const resumed = await runCli(['variants', 'sync', '{feed}', '--fleet', join(dir, 'stores.csv'), '--yes', '--resume'], { env: resumeEnv, timeoutMs: 170_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    // ar and mx had finished: nothing more written there; br only what it had left.
    expect(stores[0]!.writes().length).toBe(writesBefore[0]);
    expect(stores[2]!.writes().length).toBe(writesBefore[2]);
    expect(batchedVariants(stores[1]!, writesBefore[1]!)).toBe(VARIANTS - doneBefore);
    stores.forEach((s, i) => expectFeedIn(s, i));
    expect(resumed.stderr).toContain('Fleet: 4 stores, 4 succeeded. Exit 0.');
  }, 360_000);
});
