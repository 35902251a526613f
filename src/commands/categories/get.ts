import type { Category } from '../../api/categories.js';
import { BaseCommand } from '../../cli/base-command.js';
import { categoryRefArg } from '../../flags/catalog.js';

export default class CategoriesGet extends BaseCommand<typeof CategoriesGet> {
  static summary = 'Show one category with its path.';
  static description = 'CATEGORY is its id or its name path ("Ropa > Buzos", in any of the store\'s languages, case ignored; "Buzos" alone when only one category is so named). A path that matches several categories is refused, naming them.';
  static examples = ['<%= config.bin %> categories get 12', '<%= config.bin %> categories get "Ropa > Buzos"', '<%= config.bin %> categories get 12 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    category: categoryRefArg,
  };

  async run(): Promise<Category & { path: string }> {
    const client = await this.client();
    const { getCategoryWithPath } = await import('../../services/catalog/categories.js');
    const row = await getCategoryWithPath(client, this.args.category);
    if (!this.jsonEnabled()) {
      const { categoryFields } = await import('../../views/categories.js');
      await this.renderDetail(categoryFields(row));
    }
    return { ...row.category, path: row.path };
  }
}
