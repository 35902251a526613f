import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/run-cli.js';
import { clientFor } from '../helpers/sandbox.js';
import { aloneEnv, fleetEnv, sandboxStore, startSandboxes, type FleetStore } from '../helpers/fleet-stores.js';

/**
 * Reads over a fleet (docs/fleet.md): three sandbox stores, each its own server and bucket, whose open orders
 * differ; every store's part of the fleet's output is what the store alone answers, and a store that fails (its
 * token refused, its server down) leaves the others exact, named in the summary with its exit code.
 */

let sandboxes: RunningSandbox[];
let stores: FleetStore[];
let env: NodeJS.ProcessEnv;

interface OrderRow {
  store?: string;
  store_id?: string;
  id: number;
  number: number;
  status: string;
}

async function openOrdersAlone(sandbox: RunningSandbox): Promise<OrderRow[]> {
  const alone = await runCli(['orders', 'list', '--status', 'open', '--all', '--json', 'id,number,status'], { env: aloneEnv(sandbox) });
  expect(alone.code, alone.stderr).toBe(0);
  return JSON.parse(alone.stdout) as OrderRow[];
}

beforeAll(async () => {
  sandboxes = await startSandboxes(3);
  stores = sandboxes.map((s, i) => sandboxStore(['north', 'south', 'west'][i]!, s));
  env = fleetEnv(stores);
  // The stores differ: south closes 2 open orders, west 5, north none.
  for (const [i, closes] of [[1, 2], [2, 5]] as const) {
    const api = clientFor(sandboxes[i]!);
    const open = (await api.get<OrderRow[]>('/orders', { query: { status: 'open', per_page: closes } })).body;
    for (const order of open) expect((await api.post(`/orders/${order.id}/close`)).status).toBe(200);
  }
}, 60_000);
afterAll(async () => {
  for (const s of sandboxes ?? []) await s.close().catch(() => undefined);
});

describe('orders list over a fleet', () => {
  it('--all-profiles --status open --json: every store its own open orders, each record with store and store_id', async () => {
    const fleet = await runCli(['orders', 'list', '--all-profiles', '--status', 'open', '--all', '--json', 'id,number,status'], { env });
    expect(fleet.code, fleet.stderr).toBe(0);
    const rows = JSON.parse(fleet.stdout) as OrderRow[];
    for (const [i, store] of stores.entries()) {
      const alone = await openOrdersAlone(sandboxes[i]!);
      const mine = rows.filter((r) => r.store === store.profile);
      expect(mine.every((r) => r.store_id === store.storeId)).toBe(true);
      expect(mine.map(({ id, number, status }) => ({ id, number, status }))).toEqual(alone);
    }
    expect(rows.filter((r) => r.store === 'north').length - rows.filter((r) => r.store === 'west').length).toBe(5);
    // One line per store on stderr (not a terminal), then the summary and the verdict.
    for (const store of stores) expect(fleet.stderr).toMatch(new RegExp(`^\\[${store.profile}\\] store ${store.storeId}: exit 0 \\(\\d+ rows`, 'm'));
    expect(fleet.stderr).toContain('Fleet: 3 stores, 3 succeeded. Exit 0.');
  }, 60_000);

  it('--profiles piped: one TSV list led by the STORE column, one header', async () => {
    const fleet = await runCli(['orders', 'list', '--profiles', 'south,west', '--status', 'open', '--all'], { env });
    expect(fleet.code, fleet.stderr).toBe(0);
    const lines = fleet.stdout.trimEnd().split('\n');
    expect(lines[0]!.startsWith('store\tid\tnumber\t')).toBe(true);
    expect(lines.filter((l) => l.startsWith('store\t'))).toHaveLength(1);
    for (const [i, profile] of [[1, 'south'], [2, 'west']] as const) {
      const alone = await openOrdersAlone(sandboxes[i]!);
      const ids = lines.slice(1).filter((l) => l.startsWith(`${profile}\t`)).map((l) => Number(l.split('\t')[1]));
      expect(ids).toEqual(alone.map((o) => o.id));
    }
    expect(lines.some((l) => l.startsWith('north\t'))).toBe(false);
  }, 60_000);

  it('a store whose token is refused and a store that is down: the others exact, exit 4, each failing store named', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const down = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
    const failing = [...stores, { ...sandboxStore('gone', down) }, { ...stores[0]!, profile: 'revoked', token: 'not-a-valid-token-at-all' }];
    const failingEnv = { ...fleetEnv(failing, 'fleet-failing'), STORE_HTTP_TIMEOUT: '2' };
    await down.close();
    const fleet = await runCli(['orders', 'list', '--all-profiles', '--status', 'open', '--all', '--json', 'id'], { env: failingEnv, timeoutMs: 120_000 });
    expect(fleet.code, fleet.stderr).toBe(4);
    const rows = JSON.parse(fleet.stdout) as OrderRow[];
    for (const [i, store] of stores.entries()) {
      const alone = await openOrdersAlone(sandboxes[i]!);
      expect(rows.filter((r) => r.store === store.profile).map((r) => r.id)).toEqual(alone.map((o) => o.id));
    }
    expect(rows.some((r) => r.store === 'gone' || r.store === 'revoked')).toBe(false);
    expect(fleet.stderr).toMatch(/^\[revoked\] store \d+: exit 4 .*rejected the token of profile revoked .*STORE_TOKEN_REVOKED/m);
    expect(fleet.stderr).toMatch(/^\[gone\] store \d+: exit 1 .*Could not reach/m);
    expect(fleet.stderr).toContain('Fleet: 5 stores, 3 succeeded; exit 1: gone; exit 4: revoked. Exit 4.');
  }, 180_000);

  it('refuses a profile named twice, an unknown one, and a command that reaches no store, before any store is reached', async () => {
    const twice = await runCli(['orders', 'list', '--profiles', 'north,north'], { env });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('profile "north" is named twice');
    const unknown = await runCli(['orders', 'list', '--profiles', 'north,east'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no profile named "east"; the profiles are: north, south, west');
    const local = await runCli(['runs', 'list', '--all-profiles'], { env });
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('reaches no store');
  }, 60_000);
});

describe('orders export over a fleet', () => {
  it('--output-dir: each store its own export file, the same as the store alone exports', async () => {
    const out = mkdtempSync(join(tmpdir(), 'store-fleet-export-'));
    const fleet = await runCli(['orders', 'export', 'orders.csv', '--profiles', 'north,west', '--status', 'open', '--output-dir', out], { env });
    expect(fleet.code, fleet.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['north', 'west']);
    for (const [i, profile] of [[0, 'north'], [2, 'west']] as const) {
      const aloneFile = join(mkdtempSync(join(tmpdir(), 'store-alone-export-')), 'orders.csv');
      const alone = await runCli(['orders', 'export', aloneFile, '--status', 'open'], { env: aloneEnv(sandboxes[i]!) });
      expect(alone.code, alone.stderr).toBe(0);
      expect(readFileSync(join(out, profile, 'orders.csv'), 'utf8')).toBe(readFileSync(aloneFile, 'utf8'));
    }
    expect(existsSync(join(out, 'south'))).toBe(false);
  }, 90_000);

  it('--ndjson to stdout: every line carries store and store_id, and each store\'s lines are its own export', async () => {
    const fleet = await runCli(['orders', 'export', '--profiles', 'south,west', '--status', 'open', '--ndjson'], { env });
    expect(fleet.code, fleet.stderr).toBe(0);
    const lines = fleet.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const [i, profile] of [[1, 'south'], [2, 'west']] as const) {
      const alone = await runCli(['orders', 'export', '--status', 'open', '--ndjson'], { env: aloneEnv(sandboxes[i]!) });
      const expected = alone.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      const mine = lines.filter((l) => l.store === profile);
      expect(mine.every((l) => l.store_id === stores[i]!.storeId)).toBe(true);
      expect(mine.map(({ store: _s, store_id: _id, ...rest }) => rest)).toEqual(expected);
    }
  }, 90_000);
});

describe('a sharded fleet', () => {
  it('--shard i/4 on four machines: every store exactly once, and fleet merge of the shards equals the unsharded run', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const more = await Promise.all(Array.from({ length: 5 }, () => startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 })));
    try {
      const eight = [...stores, ...more.map((s, i) => sandboxStore(`extra-${i}`, s))];
      const shardEnv = fleetEnv(eight, 'fleet-shards');
      const sharded = mkdtempSync(join(tmpdir(), 'store-fleet-shards-'));
      const whole = mkdtempSync(join(tmpdir(), 'store-fleet-whole-'));
      const args = ['orders', 'list', '--all-profiles', '--status', 'open', '--limit', '7'];
      const ran: string[] = [];
      for (let i = 1; i <= 4; i++) {
        // The shard's index the way a Kubernetes Indexed Job gives it (from 0), for two of them.
        const how = i % 2 === 0 ? ['--shard', `${i}/4`] : ['--shard', 'auto'];
        const shard = await runCli([...args, ...how, '--results-dir', sharded], { env: { ...shardEnv, JOB_COMPLETION_INDEX: String(i - 1), STORE_SHARD_COUNT: '4' } });
        expect(shard.code, shard.stderr).toBe(0);
        ran.push(...shard.stdout.split('\n').filter((l) => l && !l.startsWith('store\t')).map((l) => l.split('\t')[0]!));
      }
      expect(new Set(ran)).toEqual(new Set(eight.map((s) => s.profile)));
      const unsharded = await runCli([...args, '--results-dir', whole], { env: shardEnv });
      expect(unsharded.code, unsharded.stderr).toBe(0);
      expect(readdirSync(sharded).filter((f) => f.endsWith('.json'))).toHaveLength(8);

      const merged = await runCli(['fleet', 'merge', sharded, '--json'], { env: shardEnv });
      const mergedWhole = await runCli(['fleet', 'merge', whole, '--json'], { env: shardEnv });
      expect(merged.code, merged.stderr).toBe(0);
      expect(mergedWhole.code).toBe(0);
      const comparable = (text: string) =>
        (JSON.parse(text) as Record<string, unknown>[]).map(({ seconds: _t, shard: _s, ...rest }) => rest);
      expect(comparable(merged.stdout)).toEqual(comparable(mergedWhole.stdout));
      expect(comparable(merged.stdout).map((r) => r.store)).toEqual(eight.map((s) => s.profile).sort());
      expect(merged.stderr).toContain('Fleet: 8 stores, 8 succeeded. Exit 0.');

      // A shard that left nothing is named, and the merge is not a success.
      const manifest = readdirSync(sharded).find((f) => f.startsWith('shard-2-of-4'))!;
      const { rmSync } = await import('node:fs');
      rmSync(join(sharded, manifest));
      const missing = await runCli(['fleet', 'merge', sharded], { env: shardEnv });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('Shard 2/4 left no results.');
    } finally {
      for (const s of more) await s.close();
    }
  }, 240_000);
});
