import type { Category } from '../api/categories.js';
import { pickLocalized } from '../api/read.js';
import { type Column, terminalSafe } from '../output/format.js';
import type { CategoryNode, CategoryRow } from '../services/catalog/categories.js';

/** Categories as the commands show them: with their path ("Ropa > Camisas"), texts in the main language. */

export const categoryColumns: Column<CategoryRow>[] = [
  { header: 'id', get: (c) => c.id, kind: 'id' },
  { header: 'name', get: (c) => c.name, kind: 'text' },
  { header: 'parent', get: (c) => c.parent, kind: 'id', priority: 2 },
  { header: 'path', get: (c) => c.path, kind: 'text', priority: 1 },
];

/** The tree as indented lines ("Ropa", "  Camisas", …) with ids. */
function categoryTreeLines(nodes: CategoryNode[], depth = 0): string[] {
  return nodes.flatMap((n) => [`${'  '.repeat(depth)}${n.name} (${n.id})`, ...categoryTreeLines(n.children, depth + 1)]);
}

/** `categories list --tree`: the indented lines, terminal-safe; empty for an empty tree. */
export function categoryTreeText(nodes: CategoryNode[]): string {
  const lines = categoryTreeLines(nodes);
  return lines.length > 0 ? `${lines.map(terminalSafe).join('\n')}\n` : '';
}

export function categoryFields(row: CategoryRow): [string, unknown][] {
  const c: Category = row.category;
  return [
    ['ID', c.id],
    ['Name', pickLocalized(c.name)],
    ['Path', row.path],
    ['Parent', c.parent ?? ''],
    ['Handle', pickLocalized(c.handle)],
    ['Description', pickLocalized(c.description)],
    ['Google category', c.google_shopping_category ?? ''],
    ['SEO title', pickLocalized(c.seo_title)],
    ['SEO description', pickLocalized(c.seo_description)],
  ];
}
