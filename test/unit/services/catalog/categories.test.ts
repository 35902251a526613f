import { describe, expect, it } from 'vitest';
import type { Category } from '../../../../src/api/categories.js';
import { NotFoundError } from '../../../../src/client/errors.js';
import { categoryRows, categoryTree, resolveCategory } from '../../../../src/services/catalog/categories.js';

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
