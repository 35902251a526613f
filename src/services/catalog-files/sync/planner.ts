import type { Product } from '../../../api/products.js';
import type { Variant, VariantInput } from '../../../api/variants.js';
import { UsageError } from '../../../errors.js';
import { plural } from '../../../output/format.js';
import { type StoreSnapshot } from '../plan-model.js';
import { ambiguousSku, variantDiff } from '../variant-diff.js';
import { indexSnapshot, locationColumnProblems } from '../store-index.js';
import { looseSku, nearSkuReason } from '../sku-match.js';
import type { SyncFeed, SyncPlan, SyncWrite } from '../sync-types.js';

/**
 * The sync plan: a pure function from the checked feed and one snapshot of the store to one PUT per variant
 * that differs. SKUs the store does not have are failed rows, never created; a SKU the store holds twice fails its
 * row, and so does one it holds only in a near form (sku-match.ts). With `zeroMissing`, stock-tracked variants
 * the feed leaves out (in any form) get stock 0 — refused when the feed names fewer than half of the store's SKUs (a truncated feed must not empty a store) unless `force`.
 */

export function planSync(
  file: string,
  feed: SyncFeed,
  snapshot: StoreSnapshot,
  options: { zeroMissing?: boolean; force?: boolean } = {},
): SyncPlan {
  const ix = indexSnapshot(snapshot);
  // A `stock` column is the default location's: beside a `stock:` column naming that location, one value would be lost.
  const plainStock = feed.canonical.indexOf('stock');
  const [problem] = locationColumnProblems(file, feed.locationColumns, snapshot.locations, plainStock === -1 ? undefined : feed.headers[plainStock]);
  if (problem) throw new UsageError(`${problem} Nothing was sent.`);
  const plan: SyncPlan = { writes: [], unchanged: 0, notFoundSkus: [], failures: [] };
  for (const row of feed.rows) {
    const holders = ix.bySku.get(row.sku) ?? [];
    const near = holders.length === 0 ? (ix.byLooseSku.get(looseSku(row.sku)) ?? []) : [];
    if (near.length > 0) plan.failures.push({ line: row.line, key: row.sku, stage: 'plan', reason: nearSkuReason(row.sku, near) });
    else if (holders.length === 0) {
      // A feed naming a SKU the store lacks is out of step with it (a new product not yet created, a typo):
      // a failed row, in --report and exit 3, so that cron hears of it.
      plan.notFoundSkus.push(row.sku);
      plan.failures.push({ line: row.line, key: row.sku, stage: 'plan', reason: `SKU ${row.sku} is not in the store (variants sync never creates variants)` });
    }
    else if (holders.length > 1) plan.failures.push({ line: row.line, key: row.sku, stage: 'plan', reason: ambiguousSku(row.sku, holders) });
    else {
      const body = variantDiff(row, holders[0]!.variant, ix);
      if (Object.keys(body).length === 0) plan.unchanged++;
      else plan.writes.push({ line: row.line, sku: row.sku, variant: holders[0]!.variant, body, zero: false });
    }
  }
  if (options.zeroMissing) {
    // A row left out by --skip-invalid still names its SKU: that variant is in the file, not missing from it.
    const unnamed = feed.invalidRows.find((r) => r.sku === '');
    if (unnamed) {
      throw new UsageError(
        `${file}, line ${unnamed.line} names no SKU, so --zero-missing cannot tell which variant it is and might empty its stock; fix the row, or leave out --zero-missing. Nothing was sent.`,
      );
    }
    const fileSkus = new Set([...feed.rows, ...feed.invalidRows].map((r) => r.sku));
    guardTruncatedFeed(file, fileSkus, new Set(ix.bySku.keys()), options.force);
    // A variant the feed names in a near form (a trailing space, another Unicode form) is not missing from it.
    const namedLoosely = new Set(feed.rows.map((r) => looseSku(r.sku)));
    plan.writes.push(...zeroWrites(snapshot.products, (sku) => fileSkus.has(sku) || namedLoosely.has(looseSku(sku))));
  }
  return plan;
}

function guardTruncatedFeed(file: string, fileSkus: Set<string>, storeSkus: Set<string>, force: boolean | undefined): void {
  const named = [...fileSkus].filter((s) => storeSkus.has(s)).length;
  if (named * 2 < storeSkus.size && !force) {
    throw new UsageError(
      `${file} names ${named} of the store's ${plural(storeSkus.size, 'SKU')}, fewer than half: --zero-missing would empty the stock of ${plural(storeSkus.size - named, 'variant')}. A truncated feed? Add --force if this is intended. Nothing was sent.`,
    );
  }
}

/** Stock 0, at every location that holds some, for the stock-tracked variants the feed leaves out. */
function zeroWrites(products: Product[], named: (sku: string) => boolean): SyncWrite[] {
  const writes: SyncWrite[] = [];
  for (const product of products) {
    for (const variant of product.variants) {
      if (!variant.sku || named(variant.sku)) continue;
      if (variant.stock === null || variant.stock === undefined || variant.stock === 0) continue;
      const levels = (variant.inventory_levels ?? []).filter((l) => (l.stock ?? 0) !== 0);
      const body: VariantInput = levels.length > 0 ? { inventory_levels: levels.map((l) => ({ location_id: l.location_id, stock: 0 })) } : { stock: 0 };
      writes.push({ line: 0, sku: variant.sku, variant, body, zero: true });
    }
  }
  return writes;
}
