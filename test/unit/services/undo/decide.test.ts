import { describe, expect, it } from 'vitest';
import type { ChangeRecord } from '../../../../src/ledger/types.js';
import { decideField } from '../../../../src/services/undo/decide.js';
import { type Slot, collectSlots, markEarlierUndo } from '../../../../src/services/undo/slots.js';

/** Issue 28's rules for one field: back when untouched since, left when changed by others, stock by difference. */

const slot = (field: string, before: unknown, after: unknown, applied: Slot['applied'] = 'yes'): Slot => ({
  resource: 'variant', id: '7', parent: '1', key: 'SKU-7', field, location: null, kind: 'update', before, after, applied, run: 'R1', irreversible: null,
});

describe('decideField', () => {
  it('a field still holding what the run wrote goes back', () => {
    expect(decideField(slot('price', '10.00', '12.00'), '12.00')).toEqual({ action: 'write', value: '10.00' });
    expect(decideField(slot('price', '10.00', '12.00'), '12')).toEqual({ action: 'write', value: '10.00' });
  });

  it('a field changed since by someone else is left (and listed); --force writes it back', () => {
    expect(decideField(slot('price', '10.00', '12.00'), '15.00')).toEqual({ action: 'leave', why: 'changed since the run', kind: 'changed' });
    expect(decideField(slot('price', '10.00', '12.00'), '15.00', { force: true })).toMatchObject({ action: 'write', value: '10.00' });
  });

  it('stock goes back by difference: before 10, wrote 30, now 25 → 5', () => {
    expect(decideField(slot('stock', 10, 30), 25)).toEqual({ action: 'write', value: 5 });
    expect(decideField(slot('stock', 30, 10), 8)).toEqual({ action: 'write', value: 28 });
  });

  it('stock sold below what the run added is set to 0, with a note', () => {
    expect(decideField(slot('stock', 10, 30), 15)).toMatchObject({ action: 'write', value: 0 });
  });

  it('a write whose reply was lost: the store tells whether it was applied', () => {
    expect(decideField(slot('price', '10.00', '12.00', 'maybe'), '10.00')).toEqual({ action: 'nothing', why: 'not-applied' });
    expect(decideField(slot('stock', 10, 30, 'maybe'), 10)).toEqual({ action: 'nothing', why: 'not-applied' });
    expect(decideField(slot('stock', 10, 30, 'maybe'), 30)).toEqual({ action: 'write', value: 10 });
    expect(decideField(slot('stock', 10, 30, 'maybe'), 25)).toMatchObject({ action: 'leave' });
  });

  it('unlimited stock: made unlimited by the run comes back counted; counted by the run becomes unlimited again', () => {
    expect(decideField(slot('stock', 4, null), null)).toEqual({ action: 'write', value: 4 });
    expect(decideField(slot('stock', 4, null), 9)).toMatchObject({ action: 'leave' });
    expect(decideField(slot('stock', null, 20), 17)).toEqual({ action: 'write', value: null });
  });

  it('a before the run did not know is never guessed', () => {
    expect(decideField(slot('price', undefined, '12.00'), '12.00')).toMatchObject({ action: 'leave', why: 'the value before the run is not known' });
  });
});

const change = (seq: number, run: string, before: unknown, after: unknown, outcome: ChangeRecord['outcome']): ChangeRecord => ({
  seq, run, resource: 'variant', id: '7', parent: '1', key: 'SKU-7', field: 'stock', location: null, kind: 'update', before, after, outcome, reason: null, irreversible: null,
});

describe('slots and --resume', () => {
  it('a refused write is no slot; a field written twice keeps the first before and the last after', () => {
    const slots = collectSlots([change(1, 'R', 10, 30, 'failed'), change(2, 'R', 10, 20, 'unknown'), change(3, 'R', 20, 30, 'confirmed')]);
    expect([...slots.values()]).toMatchObject([{ before: 10, after: 30, applied: 'yes' }]);
  });

  it('an interrupted undo that wrote a stock is not taken off twice; one that never reached the store is done again', () => {
    const wrote = collectSlots([change(1, 'R', 10, 30, 'confirmed')]);
    markEarlierUndo(wrote, [change(5, 'U', 25, 5, 'intended')]);
    expect(decideField([...wrote.values()][0]!, 5)).toEqual({ action: 'nothing', why: 'done-earlier' });
    const lost = collectSlots([change(1, 'R', 10, 30, 'confirmed')]);
    markEarlierUndo(lost, [change(5, 'U', 25, 5, 'intended')]);
    expect(decideField([...lost.values()][0]!, 25)).toEqual({ action: 'write', value: 5 });
  });
});
