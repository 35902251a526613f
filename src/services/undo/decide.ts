import { sameValue } from '../catalog-files/record-values.js';
import type { Slot } from './slots.js';

/**
 * What undo does with one field a run wrote, given what the store holds now (docs/ledger.md, issue 28):
 * - a field still holding what the run wrote goes back to its value before;
 * - a field changed since by someone else is left and listed (`force` writes it back anyway);
 * - stock goes back by difference, so sales since are kept: before 10, the run wrote 30, now 25 → 5;
 * - a write whose outcome is not known (its reply lost, or the process killed before it) is judged by the store:
 *   holding what the run wrote, it was applied; holding the value before, it was not.
 * Pure: the caller reads the store and sends what this decides.
 */

export type Decision =
  | { action: 'write'; value: unknown; note?: string }
  | { action: 'nothing'; why: 'already' | 'not-applied' | 'done-earlier' }
  | { action: 'leave'; why: string; kind: 'changed' | 'unknown' };

const isStock = (field: string) => field === 'stock' || field.startsWith('stock:');

export interface DecideOptions {
  force?: boolean;
}

export function decideField(slot: Slot, now: unknown, options: DecideOptions = {}): Decision {
  if (slot.before === undefined) return { action: 'leave', why: 'the value before the run is not known', kind: 'unknown' };
  const earlier = slot.earlier;
  if (earlier) {
    if (earlier.applied === 'yes' || sameValue(now, earlier.after, slot.field)) return { action: 'nothing', why: 'done-earlier' };
    // Not holding what the interrupted undo wrote: unless it holds what that undo read, it may have been written.
    if (!sameValue(now, earlier.before, slot.field) && !options.force) {
      return { action: 'leave', why: 'changed since the interrupted undo read it: not known whether that undo wrote it', kind: 'unknown' };
    }
  }
  return isStock(slot.field) ? decideStock(slot, now, options) : decideValue(slot, now, options);
}

function decideValue(slot: Slot, now: unknown, options: DecideOptions): Decision {
  if (sameValue(now, slot.before, slot.field)) return { action: 'nothing', why: sameValue(slot.after, slot.before, slot.field) ? 'already' : slot.applied === 'yes' ? 'already' : 'not-applied' };
  if (sameValue(now, slot.after, slot.field)) return { action: 'write', value: slot.before };
  if (options.force) return { action: 'write', value: slot.before, note: 'changed since; written back (--force)' };
  return { action: 'leave', why: 'changed since the run', kind: 'changed' };
}

const asStock = (v: unknown): number | null | undefined => {
  if (v === null) return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

function decideStock(slot: Slot, nowValue: unknown, options: DecideOptions): Decision {
  const before = asStock(slot.before);
  const after = asStock(slot.after);
  const now = asStock(nowValue);
  if (before === undefined || after === undefined || now === undefined) return decideValue(slot, nowValue, options);
  if (after === null) {
    // The run made the stock unlimited: counted again only if still unlimited.
    if (now === null) return before === null ? { action: 'nothing', why: 'already' } : { action: 'write', value: before };
    if (options.force && before !== null) return { action: 'write', value: before, note: 'counted again since; written back (--force)' };
    return { action: 'leave', why: 'stock counted again since the run made it unlimited', kind: 'changed' };
  }
  if (before === null) {
    // The run started counting an unlimited stock: unlimited again, whatever sold since.
    return now === null ? { action: 'nothing', why: 'already' } : { action: 'write', value: null };
  }
  if (now === null) {
    if (options.force) return { action: 'write', value: before, note: 'made unlimited since; written back (--force)' };
    return { action: 'leave', why: 'stock made unlimited since the run', kind: 'changed' };
  }
  const delta = after - before;
  if (delta === 0) return { action: 'nothing', why: 'already' };
  if (slot.applied === 'maybe' && !slot.earlier) {
    if (now === before) return { action: 'nothing', why: 'not-applied' };
    if (now !== after && !options.force) return { action: 'leave', why: `not known whether the run's write reached the store (it holds ${now}: neither ${before} before nor ${after} written)`, kind: 'unknown' };
  }
  const target = now - delta;
  if (target < 0) return { action: 'write', value: 0, note: `${now} in stock now, fewer than the ${delta} the run added: set to 0` };
  return target === now ? { action: 'nothing', why: 'already' } : { action: 'write', value: target };
}
