import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Category } from '../../src/api/categories.js';
import type { CustomField } from '../../src/api/custom-fields.js';
import type { Location } from '../../src/api/locations.js';
import { NotFoundError, UsageError } from '../../src/client/errors.js';
import { categoryRows, categoryTree, resolveCategory } from '../../src/services/categories.js';
import { planPriorities, resolveLocation } from '../../src/services/locations.js';
import { checkFieldValue, resolveCustomField } from '../../src/services/variants.js';

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

const cat = (id: number, es: string, parent: number | null, pt = es): Category => ({ id, name: { es, pt }, parent });
const CATEGORIES = [
  cat(1, 'Ropa', null, 'Roupas'),
  cat(2, 'Camisas', 1),
  cat(3, 'Pantalones', 1, 'Calças'),
  cat(4, 'Accesorios', null),
  cat(5, 'Camisas', 4),
  cat(6, 'Manga larga', 2),
];

describe('category paths and tree', () => {
  it('lists parents before their subcategories with full paths', () => {
    const rows = categoryRows(CATEGORIES, 'es');
    expect(rows.map((r) => r.path)).toEqual([
      'Ropa',
      'Ropa > Camisas',
      'Ropa > Camisas > Manga larga',
      'Ropa > Pantalones',
      'Accesorios',
      'Accesorios > Camisas',
    ]);
    const tree = categoryTree(rows);
    expect(tree.map((n) => n.id)).toEqual([1, 4]);
    expect(tree[0]!.children.map((n) => n.id)).toEqual([2, 3]);
    expect(tree[0]!.children[0]!.children.map((n) => n.id)).toEqual([6]);
  });

  it('resolves ids, full paths, unique tails and paths in another language', () => {
    expect(resolveCategory(CATEGORIES, '3').id).toBe(3);
    expect(resolveCategory(CATEGORIES, 'Ropa > Camisas').id).toBe(2);
    expect(resolveCategory(CATEGORIES, 'accesorios>camisas').id).toBe(5);
    expect(resolveCategory(CATEGORIES, 'Manga larga').id).toBe(6);
    expect(resolveCategory(CATEGORIES, 'Roupas > Calças').id).toBe(3);
  });

  it('says in one sentence when a path is ambiguous or matches nothing', () => {
    expect(() => resolveCategory(CATEGORIES, 'Camisas')).toThrow(
      'The category path "Camisas" is ambiguous: it matches 2 (Ropa > Camisas), 5 (Accesorios > Camisas); give the id or a longer path.',
    );
    expect(() => resolveCategory(CATEGORIES, 'Ropa > Zapatos')).toThrow(NotFoundError);
    expect(() => resolveCategory(CATEGORIES, '99')).toThrow('Category 99 not found.');
  });
});

const field = (over: Partial<CustomField>): CustomField => ({ id: 'f1', name: 'Material', value_type: 'text', values: [], ...over });

describe('custom field values', () => {
  it('checks values against the field type before sending', () => {
    expect(checkFieldValue(field({ value_type: 'numeric' }), '12,5')).toBe('12.5');
    expect(() => checkFieldValue(field({ value_type: 'numeric' }), 'doce')).toThrow(/Material is numeric/);
    expect(checkFieldValue(field({ value_type: 'date' }), '2026-11-01')).toBe('2026-11-01');
    expect(() => checkFieldValue(field({ value_type: 'date' }), '01/11/2026')).toThrow(/is a date/);
    expect(checkFieldValue(field({ value_type: 'text_list', values: ['Lino'] }), 'Lino')).toBe('Lino');
    expect(() => checkFieldValue(field({ value_type: 'text_list', values: ['Lino'] }), 'Seda')).toThrow(/allows only "Lino"/);
  });

  it('finds a field by id or name', () => {
    const fields = [field({}), field({ id: 'f2', name: 'Temporada' })];
    expect(resolveCustomField(fields, 'temporada').id).toBe('f2');
    expect(resolveCustomField(fields, 'f1').name).toBe('Material');
    expect(() => resolveCustomField(fields, 'Color')).toThrow(NotFoundError);
  });
});
