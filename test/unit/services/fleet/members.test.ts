import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lanesOf, parseShard, readFleetFile, shardOf, type FleetMember } from '../../../../src/services/fleet/members.js';
import { worstExitCode } from '../../../../src/services/fleet/results.js';

const dir = mkdtempSync(join(tmpdir(), 'fleet-members-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const member = (profile: string, storeId: string, apiHost = 'api.example.com'): FleetMember => ({ profile, storeId, apiHost, vars: { profile }, args: [], where: profile });

describe('readFleetFile', () => {
  it('reads CSV, TSV and JSON alike: profile, values by column, args', async () => {
    const csv = await readFleetFile(file('a.csv', 'profile,feed,args\nar,feeds/ar.csv,--max-changes 10%\nbr,feeds/br.csv,\n'));
    const tsv = await readFleetFile(file('a.tsv', 'profile\tfeed\targs\nar\tfeeds/ar.csv\t--max-changes 10%\nbr\tfeeds/br.csv\t\n'));
    const json = await readFleetFile(file('a.json', JSON.stringify({ stores: [{ profile: 'ar', feed: 'feeds/ar.csv', args: ['--max-changes', '10%'] }, { profile: 'br', feed: 'feeds/br.csv' }] })));
    for (const read of [csv, tsv, json]) {
      expect(read.map(({ profile, vars, args }) => ({ profile, vars, args }))).toEqual([
        { profile: 'ar', vars: { profile: 'ar', feed: 'feeds/ar.csv' }, args: ['--max-changes', '10%'] },
        { profile: 'br', vars: { profile: 'br', feed: 'feeds/br.csv' }, args: [] },
      ]);
    }
  });

  it('refuses a store without a profile, naming its line', async () => {
    await expect(readFleetFile(file('b.csv', 'profile,feed\nar,a.csv\n,b.csv\n'))).rejects.toThrow(/b\.csv line 3: no profile/);
    await expect(readFleetFile(file('b.json', '[{"feed":"x"}]'))).rejects.toThrow(/b\.json store 1: no profile/);
  });
});

describe('shards', () => {
  it('i/N from 1, auto from JOB_COMPLETION_INDEX (from 0) or STORE_SHARD', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard('auto', { JOB_COMPLETION_INDEX: '0', STORE_SHARD_COUNT: '4' })).toEqual({ index: 1, count: 4 });
    expect(parseShard('auto', { STORE_SHARD_INDEX: '3', STORE_SHARD_COUNT: '4' })).toEqual({ index: 4, count: 4 });
    expect(parseShard('auto', { STORE_SHARD: '3/5' })).toEqual({ index: 3, count: 5 });
    expect(() => parseShard('0/4')).toThrow(/between 1 and its count/);
    expect(() => parseShard('5/4')).toThrow(/between 1 and its count/);
    expect(() => parseShard('auto', {})).toThrow(/JOB_COMPLETION_INDEX/);
  });

  it('a store keeps its shard whatever else the fleet holds, and the shards share the fleet out', () => {
    const stores = Array.from({ length: 400 }, (_, i) => member(`p${i}`, String(1000 + i)));
    const shards = stores.map((s) => shardOf(s, 4));
    expect(stores.map((s) => shardOf({ ...s, profile: 'renamed' }, 4))).toEqual(shards);
    for (let k = 1; k <= 4; k++) expect(shards.filter((n) => n === k).length).toBeGreaterThan(60);
    expect(shardOf(member('a', '7', 'api.tiendanube.com'), 1000)).not.toBe(shardOf(member('a', '7', 'api.nuvemshop.com.br'), 1000));
  });
});

describe('lanesOf', () => {
  it('puts the profiles of one store (id and host) in one lane, in the fleet order', () => {
    const lanes = lanesOf([member('a', '1'), member('b', '2'), member('a2', '1'), member('c', '1', 'other.example.com')]);
    expect(lanes.map((l) => l.map((m) => m.profile))).toEqual([['a', 'a2'], ['b'], ['c']]);
  });
});

describe('worstExitCode', () => {
  it('ranks 0 < 3 < 5 < 1 < 4 < 2 < 143 < 130; an unknown code ranks with 1', () => {
    expect(worstExitCode([])).toBe(0);
    expect(worstExitCode([0, 3, 0])).toBe(3);
    expect(worstExitCode([3, 5])).toBe(5);
    expect(worstExitCode([1, 4, 3])).toBe(4);
    expect(worstExitCode([4, 2])).toBe(2);
    expect(worstExitCode([2, 143, 130])).toBe(130);
    expect(worstExitCode([3, 7])).toBe(7);
  });
});
