import { Args } from '@oclif/core';
import type { Category } from '../../api/categories.js';
import { BaseCommand } from '../../cli/base-command.js';

export default class CategoriesGet extends BaseCommand<typeof CategoriesGet> {
  static summary = 'Show one category with its path.';
  static examples = ['<%= config.bin %> categories get 12', '<%= config.bin %> categories get 12 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    id: Args.string({ description: 'Category id.', required: true }),
  };

  async run(): Promise<Category & { path: string }> {
    const { parseIntegerId } = await import('../../services/common/validate.js');
    const id = parseIntegerId(this.args.id, 'ID', 'category');
    const client = await this.client();
    const { getCategoryWithPath } = await import('../../services/catalog/categories.js');
    const row = await getCategoryWithPath(client, id);
    if (!this.jsonEnabled()) {
      const { categoryFields } = await import('../../views/categories.js');
      await this.renderDetail(categoryFields(row));
    }
    return { ...row.category, path: row.path };
  }
}
