import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Location } from '../../../../src/api/locations.js';
import { NotFoundError } from '../../../../src/client/errors.js';
import { UsageError } from '../../../../src/errors.js';
import { planPriorities, resolveLocation } from '../../../../src/services/catalog/locations.js';

const loc = (id: string, name: string, priority: number, isDefault = false): Location => ({
  id,
  name: { es_AR: name },
  is_default: isDefault,
  allows_pickup: false,
  priority,
});

const LOCATIONS = [loc('01A', 'Central', 0, true), loc('01B', 'Palermo', 1), loc('01C', 'Córdoba', 2), loc('01D', 'Rosario', 3)];

describe('planPriorities', () => {
  it('puts the given locations first, in order, and the rest after in their current order', () => {
    expect(planPriorities(LOCATIONS, ['Córdoba', '01b'])).toEqual([
      { id: '01C', priority: 0 },
      { id: '01B', priority: 1 },
      { id: '01A', priority: 2 },
      { id: '01D', priority: 3 },
    ]);
  });

  it('names every location exactly once with priorities 0…n−1, for any choice of locations', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(LOCATIONS.map((l) => l.id)), (chosen) => {
        const plan = planPriorities(LOCATIONS, chosen);
        expect(plan.map((p) => p.priority)).toEqual([0, 1, 2, 3]);
        expect(new Set(plan.map((p) => p.id)).size).toBe(4);
        expect(plan.slice(0, chosen.length).map((p) => p.id)).toEqual(chosen);
      }),
    );
  });

  it('refuses a location named twice and reports an unknown one as not found', () => {
    expect(() => planPriorities(LOCATIONS, ['Palermo', '01B'])).toThrow(UsageError);
    expect(() => planPriorities(LOCATIONS, ['Mendoza'])).toThrow(NotFoundError);
  });
});

describe('resolveLocation', () => {
  it('finds by id or by name in any case', () => {
    expect(resolveLocation(LOCATIONS, '01C').id).toBe('01C');
    expect(resolveLocation(LOCATIONS, 'palermo').id).toBe('01B');
  });

  it('asks for the id when two locations share a name', () => {
    expect(() => resolveLocation([...LOCATIONS, loc('01E', 'Palermo', 4)], 'Palermo')).toThrow(/Several locations are named "Palermo" \(01B, 01E\)/);
  });
});
