import type { Variant, VariantInput } from '../../api/variants.js';
import { fieldUpdates, type Subject } from '../../ledger/changes.js';
import type { ChangeIntent } from '../../ledger/types.js';

/** A variant as the ledger names it: its id, its product, its SKU. */
export function variantSubject(productId: number, variantId: number, sku: string | null | undefined): Subject {
  return { resource: 'variant', id: variantId, parent: productId, key: sku || null };
}

/**
 * The ledger's changes of one variant write (docs/ledger.md): one per field sent, and stock as one change per
 * location written (`location` names it; plain `stock` is the variant's total, as single-location stores keep
 * it). `before` is the variant as read (undefined: not read). `defaultLocation`: where plain stock goes on a
 * store whose variants list their levels.
 */
export function variantChanges(subject: Subject, input: VariantInput, before?: Variant, defaultLocation?: string): ChangeIntent[] {
  const { stock, inventory_levels: levels, attributes: _attributes, ...fields } = input;
  const changes = fieldUpdates(subject, fields, before);
  const levelBefore = (location: string) => before?.inventory_levels?.find((l) => l.location_id === location)?.stock ?? (before?.inventory_levels ? 0 : undefined);
  if (stock !== undefined) {
    const location = before?.inventory_levels && before.inventory_levels.length > 1 ? defaultLocation : undefined;
    const was = location ? levelBefore(location) : before?.stock;
    changes.push({ ...subject, kind: 'update', field: 'stock', location: location ?? null, ...(before ? { before: was ?? null } : {}), after: stock });
  }
  for (const level of levels ?? []) {
    const was = levelBefore(level.location_id);
    changes.push({ ...subject, kind: 'update', field: 'stock', location: level.location_id, ...(was === undefined ? {} : { before: was }), after: level.stock });
  }
  return changes;
}
