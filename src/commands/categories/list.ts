import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { csvFlag } from '../../flags/common.js';
import type { Category } from '../../api/categories.js';
import type { CategoryNode } from '../../services/catalog/categories.js';

type ListResult = Array<Category & { path: string; depth: number }> | CategoryNode[];

export default class CategoriesList extends BaseCommand<typeof CategoriesList> {
  static summary = 'List categories with their paths, or as a tree.';
  static examples = [
    '<%= config.bin %> categories list',
    '<%= config.bin %> categories list --tree',
    '<%= config.bin %> categories list --tree --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    tree: Flags.boolean({ description: 'Show the category tree, subcategories indented under their parent.', exclusive: ['csv'] }),
    csv: csvFlag,
  };

  async run(): Promise<ListResult> {
    const client = await this.client();
    const { categoryTree, listCategoryRows } = await import('../../services/catalog/categories.js');
    const rows = await listCategoryRows(client);
    if (this.flags.tree) {
      const tree = categoryTree(rows);
      if (!this.jsonEnabled()) {
        const { categoryTreeText } = await import('../../views/categories.js');
        const text = categoryTreeText(tree);
        if (text) this.io.stdout.write(text);
        else this.note('The store has no categories yet; add one with `store categories create`.');
      }
      return tree;
    }
    const { categoryColumns } = await import('../../views/categories.js');
    await this.renderList(rows, categoryColumns, { csv: this.flags.csv });
    if (rows.length === 0 && !this.jsonEnabled()) this.note('The store has no categories yet; add one with `store categories create`.');
    // --json: each record as the store returns it, plus its path.
    return rows.map((r) => ({ ...r.category, path: r.path, depth: r.depth }));
  }
}
