import { describe, expect, it } from 'vitest';
import type { PlannedChange } from '../../../src/services/catalog-files/plan-changes.js';
import { planLines, stockWarning } from '../../../src/views/bulk.js';

/** A dry run's plan as lines: grouped by kind, old → new, cut to the width, the first N then "and M more". */

const change = (i: number, kind: PlannedChange['kind'] = 'updated'): PlannedChange => ({
  kind,
  handle: `remera-${i}`,
  sku: `REM-${i}`,
  line: i + 1,
  changes: [{ field: 'price', old: '100.00', new: `${100 + i}.00` }],
});

describe('planLines', () => {
  it('groups by kind in a fixed order and says each field old → new', () => {
    const plan: PlannedChange[] = [
      change(1),
      { kind: 'failed', handle: 'x', sku: 'X-1', line: 9, changes: [], reason: 'SKU X-1 belongs to product 3' },
      { kind: 'created', handle: 'nueva', sku: 'N-1', line: 4, changes: [{ field: 'price', old: '', new: '10.00' }, { field: 'stock:Local', old: '', new: '3' }] },
      { kind: 'kept', handle: 'medias', sku: 'ACC-MED', line: 7, changes: [{ field: 'stock', old: '30', new: '12' }] },
    ];
    expect(planLines(plan, 200)).toEqual([
      'To create (1):',
      '  nueva N-1 (line 4): price 10.00; stock:Local 3',
      'To update (1):',
      '  remera-1 REM-1 (line 2): price 100.00 → 101.00',
      'Kept as the store has them (changed there since the export; --overwrite-store-changes writes the file) (1):',
      '  medias ACC-MED (line 7): stock 30 → 12',
      'Failing (1):',
      '  x X-1 (line 9): SKU X-1 belongs to product 3',
    ]);
  });

  it('shows the first N, then how many more and where all are; lines fit the width', () => {
    const plan = Array.from({ length: 45 }, (_, i) => change(i));
    const lines = planLines(plan, 30, 10);
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toBe('… and 35 more, --json for all.');
    for (const line of lines.slice(1, -1)) expect([...line].length).toBeLessThanOrEqual(30);
  });

  it('warns when existing variants would get their stock written', () => {
    expect(stockWarning([change(1)], 'import')).toBeUndefined();
    const stock: PlannedChange = { ...change(2), changes: [{ field: 'stock:Local', old: '4', new: '9' }] };
    expect(stockWarning([stock, change(1)], 'sync')).toBe('this sync would write the stock of 1 variant; stock sold or synced since the file was made would be overwritten.');
  });
});
