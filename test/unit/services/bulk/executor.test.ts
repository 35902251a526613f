import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../../src/api/products.js';
import type { Variant } from '../../../../src/api/variants.js';
import { UsageError } from '../../../../src/errors.js';
import { executeItems } from '../../../../src/services/bulk/executor.js';
import { checkAbort } from '../../../../src/services/bulk/pool.js';
import type { StoreSnapshot } from '../../../../src/services/catalog-files/plan-model.js';
import { readSyncFile } from '../../../../src/services/catalog-files/sync/feed.js';
import { planSync } from '../../../../src/services/catalog-files/sync/planner.js';

/** The shared executor of the bulk commands, and sync as a pure planner in front of it. */

describe('executeItems', () => {
  it('keeps each result in plan order whatever order the items finish in', async () => {
    const delays = [30, 0, 15, 5];
    const { results, interrupted } = await executeItems(delays, { concurrency: 4 }, async (ms) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return ms;
    });
    expect([results, interrupted]).toEqual([delays, false]);
  });

  it('stops starting items once the run is interrupted; those not started have no result', async () => {
    const controller = new AbortController();
    const { results, interrupted } = await executeItems([1, 2, 3, 4], { concurrency: 1 }, async (n) => {
      checkAbort(controller.signal);
      if (n === 2) controller.abort();
      return n;
    });
    expect([results, interrupted]).toEqual([[1, 2], true]);
  });
});

const dir = mkdtempSync(join(tmpdir(), 'bulk-pipeline-'));
let n = 0;
async function feedOf(csv: string) {
  const path = join(dir, `feed-${n++}.csv`);
  writeFileSync(path, csv);
  const feed = await readSyncFile(path);
  expect(feed.errors).toEqual([]);
  return feed;
}

const LOC = '01JD0000000000000000000000';

function storeWith(variants: Partial<Variant>[]): StoreSnapshot {
  const products = variants.map(
    (v, i) =>
      ({
        id: 100 + i,
        name: { es: `P${i}` },
        handle: { es: `p${i}` },
        attributes: [],
        images: [],
        categories: [],
        variants: [{ id: 200 + i, product_id: 100 + i, values: [], price: '1.00', stock: 5, inventory_levels: [{ location_id: LOC, stock: 5 }], ...v }],
      }) as unknown as Product,
  );
  return {
    store: { languages: ['es'], main_language: 'es' },
    products,
    categories: [],
    locations: [{ id: LOC, name: { es: 'Principal' }, is_default: true, priority: 0 }] as StoreSnapshot['locations'],
    customFields: [],
  };
}

describe('planSync', () => {
  it('plans one write per variant that differs; an unknown SKU and a SKU held twice fail their rows', async () => {
    const feed = await feedOf('sku,stock,price\nA,5,1.00\nB,7,\nNEW,1,\nTWICE,1,\n');
    const plan = planSync('feed.csv', feed, storeWith([{ sku: 'A' }, { sku: 'B' }, { sku: 'TWICE' }, { sku: 'TWICE' }]));
    expect(plan.unchanged).toBe(1);
    expect(plan.notFoundSkus).toEqual(['NEW']);
    expect(plan.writes.map((w) => [w.line, w.sku, w.body])).toEqual([[3, 'B', { stock: 7 }]]);
    expect(plan.failures).toEqual([
      { line: 4, key: 'NEW', stage: 'plan', reason: 'SKU NEW is not in the store (variants sync never creates variants)' },
      { line: 5, key: 'TWICE', stage: 'plan', reason: expect.stringMatching(/^SKU TWICE is held by 2 variants/) },
    ]);
  });

  it('--zero-missing zeroes the stock-tracked variants the feed leaves out, and refuses a feed naming fewer than half', async () => {
    const store = storeWith([{ sku: 'A' }, { sku: 'B' }, { sku: 'C', stock: 0, inventory_levels: [] }]);
    const feed = await feedOf('sku,stock\nA,5\nC,0\n');
    const plan = planSync('feed.csv', feed, store, { zeroMissing: true });
    expect(plan.writes.map((w) => [w.sku, w.zero, w.body])).toEqual([['B', true, { inventory_levels: [{ location_id: LOC, stock: 0 }] }]]);

    const short = await feedOf('sku,stock\nA,5\n');
    expect(() => planSync('short.csv', short, store, { zeroMissing: true })).toThrow(UsageError);
    expect(planSync('short.csv', short, store, { zeroMissing: true, force: true }).writes.map((w) => w.sku)).toEqual(['B']);
  });
});
