import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAN_FORMAT, PLAN_VERSION, type PlanHeader, readPlanFile, writePlanFile } from '../../../../src/services/bulk/plan-file.js';

/** Saved plans: written as a sealed stream of lines, read back only when the seal matches. */

const dir = mkdtempSync(join(tmpdir(), 'plan-file-'));
const env = { XDG_CONFIG_HOME: join(dir, 'config') };
const header: PlanHeader = {
  format: PLAN_FORMAT,
  version: PLAN_VERSION,
  command: 'variants sync',
  created_at: '2026-11-27T01:00:00.000Z',
  store: { store_id: '1000001', api_host: '127.0.0.1:4010' },
  source: { file: 'feed.csv' },
  options: {},
  catalog: { records: 10, products: 2, stockVariants: 8 },
  counts: { rows: 2 },
};

describe('plan files', () => {
  it('round-trips the header and every entry; the key file is made once, 0600', async () => {
    const path = join(dir, 'a.plan');
    const entries = Array.from({ length: 1000 }, (_, i) => ({ t: 'write', id: i, price: `${i}.00` }));
    await writePlanFile(path, header, entries, env);
    const read = await readPlanFile(path, env);
    expect(read.header).toEqual(header);
    expect(read.entries).toEqual(entries);
    expect(statSync(join(dir, 'config', 'store', 'plan.key')).mode & 0o777).toBe(0o600);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses an edited line, a line removed, a cut-off seal, a foreign key, another format', async () => {
    const path = join(dir, 'b.plan');
    await writePlanFile(path, header, [{ t: 'write', id: 1, stock: 3 }, { t: 'write', id: 2, stock: 4 }], env);
    const text = readFileSync(path, 'utf8');
    const variant = (name: string, body: string) => {
      const p = join(dir, name);
      writeFileSync(p, body);
      return readPlanFile(p, env);
    };
    await expect(variant('edited.plan', text.replace('"stock":3', '"stock":30'))).rejects.toThrow(/seal does not match/);
    const lines = text.split('\n');
    await expect(variant('removed.plan', [lines[0], lines[2], lines[3], ''].join('\n'))).rejects.toThrow(/seal does not match/);
    await expect(variant('cut.plan', lines.slice(0, 3).join('\n'))).rejects.toThrow(/has no seal/);
    await expect(readPlanFile(path, { XDG_CONFIG_HOME: join(dir, 'elsewhere') })).rejects.toThrow(/another key/);
    await expect(readPlanFile(path, { ...env, STORE_PLAN_KEY: 'shared' })).rejects.toThrow(/seal does not match/);
    await expect(variant('csv.plan', 'sku,stock\nA,1\n')).rejects.toThrow(/not JSON/);
    await expect(variant('json.plan', '{"format":"other"}\n')).rejects.toThrow(/not a plan written by/);
  });

  it('STORE_PLAN_KEY seals and opens plans on any machine that shares it', async () => {
    const path = join(dir, 'c.plan');
    await writePlanFile(path, header, [{ t: 'write', id: 1 }], { STORE_PLAN_KEY: 'shared-secret' });
    expect((await readPlanFile(path, { XDG_CONFIG_HOME: join(dir, 'other'), STORE_PLAN_KEY: 'shared-secret' })).entries).toHaveLength(1);
  });
});
