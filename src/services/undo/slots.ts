import { type ChangeRecord, type ChangeTarget, changeTarget } from '../../ledger/types.js';

/**
 * What a run did, field by field, as `store undo` reasons about it: the run ledger's changes (docs/ledger.md)
 * folded into one slot per field of one record — its value before the run's first write of it and the last
 * value the run sent — keeping only what may have reached the store (a change the store refused is left out).
 */

/** Whether the store applied the run's write: it said so, or the reply never came (or was never waited for). */
export type Applied = 'yes' | 'maybe';

export interface Slot extends ChangeTarget {
  /** Before the run's first write of it; `undefined` when the run did not know. */
  before: unknown;
  /** The last value the run sent. */
  after: unknown;
  applied: Applied;
  /** The run of its last change (a job killed and resumed is undone as one, prepare.ts). */
  run: string;
  irreversible: string | null;
  /** What an interrupted undo of the same run already did to this slot (`--resume`). */
  earlier?: { before: unknown; after: unknown; applied: Applied };
}

const slotKey = (c: ChangeTarget, seq: number) =>
  // A create without an id (its reply was lost) is its own slot: nothing else can be matched to it.
  c.id === null ? `${c.resource}\u0000new\u0000${c.parent ?? ''}\u0000${c.key ?? ''}\u0000${c.field}\u0000${seq}` : `${c.resource}\u0000${c.id}\u0000${c.field}\u0000${c.location ?? ''}`;

/** A run's changes as slots, in the order the run first wrote them. */
export function collectSlots(changes: Iterable<ChangeRecord>): Map<string, Slot> {
  const slots = new Map<string, Slot>();
  for (const c of changes) {
    if (c.outcome === 'failed') continue;
    const key = slotKey(c, c.seq);
    const applied: Applied = c.outcome === 'confirmed' ? 'yes' : 'maybe';
    const slot = slots.get(key);
    if (!slot) {
      slots.set(key, {
        ...changeTarget(c),
        before: c.before,
        after: c.after,
        applied,
        run: c.run,
        irreversible: c.irreversible,
      });
      continue;
    }
    // Written twice in one run (a create then an update of it, a batch sent again): the last value counts.
    slot.after = c.after;
    slot.run = c.run;
    if (applied === 'yes') slot.applied = 'yes';
    slot.irreversible ??= c.irreversible;
    slot.key ??= c.key;
  }
  return slots;
}

/**
 * `--resume`: marks each slot with what the interrupted undo runs of the same run wrote to it, so that the
 * resumed undo neither writes a field twice nor, for stock, takes the run's difference off twice.
 */
export function markEarlierUndo(slots: Map<string, Slot>, earlierChanges: Iterable<ChangeRecord>): void {
  const earlier = collectSlots(earlierChanges);
  for (const [key, e] of earlier) {
    const slot = slots.get(key);
    if (!slot) continue;
    slot.earlier = { before: slot.earlier?.before ?? e.before, after: e.after, applied: e.applied === 'yes' || slot.earlier?.applied === 'yes' ? 'yes' : 'maybe' };
  }
}

/** The product a slot belongs to (a variant's or an image's parent, a product's own id), or undefined. */
export function productOf(slot: Slot): number | undefined {
  const id = slot.resource === 'product' ? slot.id : slot.resource === 'variant' || slot.resource === 'image' ? slot.parent : null;
  const n = id === null || id === undefined ? NaN : Number(id);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Slots grouped by the product they belong to; the rest (orders, webhooks, …) apart. */
export function byProduct(slots: Iterable<Slot>): { products: Map<number, Slot[]>; others: Slot[] } {
  const products = new Map<number, Slot[]>();
  const others: Slot[] = [];
  for (const slot of slots) {
    const product = productOf(slot);
    if (product === undefined) {
      others.push(slot);
      continue;
    }
    const list = products.get(product);
    if (list) list.push(slot);
    else products.set(product, [slot]);
  }
  return { products, others };
}
