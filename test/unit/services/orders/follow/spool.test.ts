import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VersionSpool } from '../../../../../src/services/orders/follow/spool.js';

/** What one poll of `orders follow` read, held until sorted: in memory up to its limit, then in a file. */

const version = (id: number, at: number) => ({ id, at, updatedAt: new Date(at).toISOString(), number: id + 100, json: JSON.stringify({ id, note: 'ñ'.repeat(id % 7) }) });

async function drain(spool: VersionSpool): Promise<{ id: number; at: number; json: string }[][]> {
  const groups = [];
  for await (const group of spool.sorted()) groups.push(group);
  return groups;
}

describe('VersionSpool', () => {
  it('past its limit keeps the records in a file and gives them back oldest first, ties by id, in groups of the limit, each record whole', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'store-spool-')), 'feed.json.spool');
    const spool = new VersionSpool(path, 3);
    const added = [version(5, 3000), version(2, 1000), version(9, 1000), version(4, 2000), version(7, 5000), version(1, 4000)];
    for (const v of added) await spool.add(v);
    expect(spool.count).toBe(6);
    expect(existsSync(path)).toBe(true);
    const groups = await drain(spool);
    expect(groups.map((g) => g.map((v) => v.id))).toEqual([[2, 9, 4], [5, 1, 7]]);
    for (const v of groups.flat()) expect(v.json).toBe(added.find((a) => a.id === v.id)!.json);
    await spool.close();
    expect(existsSync(path)).toBe(false);
  });

  it('within its limit writes no file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'store-spool-')), 'feed.json.spool');
    const spool = new VersionSpool(path, 10);
    for (const v of [version(3, 2000), version(1, 2000)]) await spool.add(v);
    expect((await drain(spool)).map((g) => g.map((v) => v.id))).toEqual([[1, 3]]);
    expect(existsSync(path)).toBe(false);
    await spool.close();
  });
});
