import { UsageError } from '../../errors.js';
import { leaveAlone } from './baseline.js';
import type { SyncFeed } from './sync-types.js';
import type { Catalog, ProductSpec, VariantSpec } from './catalog-model.js';
import { type ColumnField, type Dialect, mapColumns } from './dialects.js';

/**
 * `--only COLUMNS` (`products import`, `variants sync`): only the columns named are applied; the others are read
 * to match rows to the store (handle, SKU, options) and otherwise left as empty cells leave them ("leave as it
 * is"), before the planner runs. Names are the file's own headers, case ignored.
 */

/** Column kinds that say which product or variant a row is, or what to do with it: read whatever --only says. */
const KEYS = new Set<ColumnField['kind']>(['handle', 'sku', 'optionName', 'optionValue', 'baseline', 'ignored', 'command']);

const PRODUCT_FIELDS = new Set<ColumnField['kind']>(['name', 'description', 'categories', 'images']);

/** `products import --only`: the catalog's products with only the named columns applied. */
export function applyOnlyToCatalog(catalog: Catalog, raw: string): void {
  const only = onlyColumns(raw, catalog.headers, catalog.file);
  applyOnly(catalog.dialect, catalog.headers, only, catalog.products.map((product) => ({ product, variants: product.variants })));
}

/** `variants sync --only`: the feed's rows with only the named columns applied (`Precio` read as `price`). */
export function applyOnlyToFeed(feed: SyncFeed, raw: string, file: string): void {
  const named = onlyColumns(raw, feed.headers, file);
  const only = new Set(feed.headers.flatMap((h, i) => (named.has(h.toLowerCase()) && feed.canonical[i] ? [feed.canonical[i]!.toLowerCase()] : [])));
  applyOnly('canonical', feed.canonical.filter(Boolean), only, [{ variants: feed.rows }]);
  feed.locationColumns = feed.locationColumns.filter((l) => only.has(`stock:${l}`.toLowerCase()));
}

/** The names of `--only a,b`, checked against the file's header: a name it lacks is a usage error (exit 2). */
export function onlyColumns(raw: string, headers: string[], file: string): Set<string> {
  const names = raw.split(',').map((n) => n.trim()).filter(Boolean);
  if (names.length === 0) throw new UsageError('--only needs column names, separated by commas (e.g. --only price,promotional_price).');
  const known = new Set(headers.map((h) => h.toLowerCase()));
  const unknown = names.filter((n) => !known.has(n.toLowerCase()));
  if (unknown.length > 0) {
    throw new UsageError(
      `--only names ${unknown.map((n) => `"${n}"`).join(', ')}, which ${unknown.length === 1 ? 'is not a column' : 'are not columns'} of ${file} (its columns: ${headers.join(', ')}).`,
    );
  }
  return new Set(names.map((n) => n.toLowerCase()));
}

/** Leaves every column --only does not name as an empty cell would, in each product and variant; returns the columns left out. */
export function applyOnly(
  dialect: Dialect,
  headers: string[],
  only: Set<string>,
  rows: { product?: ProductSpec; variants: VariantSpec[] }[],
): string[] {
  const skipped = mapColumns(dialect, headers).filter((c) => c.field && !KEYS.has(c.field.kind) && !only.has(c.header.toLowerCase()));
  for (const { product, variants } of rows) {
    for (const column of skipped) {
      if (PRODUCT_FIELDS.has(column.field!.kind)) {
        if (product) leaveAlone(product, variants[0]!, column.field!);
      } else {
        for (const variant of variants) leaveAlone(undefined, variant, column.field!);
      }
    }
  }
  return skipped.map((c) => c.header);
}
