import { Flags } from '@oclif/core';
import type { Category } from '../../api/categories.js';
import { BaseCommand } from '../../cli/base-command.js';
import { categoryFieldsFrom, categoryRefArg, categorySeoFlags, localizedFlag } from '../../flags/catalog.js';
import { jsonFields } from '../../api/json-fields.js';

export default class CategoriesUpdate extends BaseCommand<typeof CategoriesUpdate> {
  static summary = 'Change a category: texts, or move it under another parent.';
  static description = `CATEGORY is its id or its name path ("Ropa > Buzos"). Only the fields given change; on a multilingual store the languages not given keep their text. --parent takes an id or a path such as "Ropa > Camisas"; --parent none makes it a top-level category.`;

  static examples = [
    '<%= config.bin %> categories update 12 --name Remeras',
    '<%= config.bin %> categories update "Ropa > Remeras" --parent "Ropa > Camisas"',
    '<%= config.bin %> categories update 12 --parent none --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.category;

  static args = {
    category: categoryRefArg,
  };

  static flags = {
    name: localizedFlag('Name'),
    description: localizedFlag('Description'),
    handle: localizedFlag('URL handle'),
    parent: Flags.string({ description: 'New parent: an id, a path like "Ropa > Camisas", or "none" for top level.' }),
    ...categorySeoFlags,
  };

  async run(): Promise<Category> {
    const client = await this.client();
    const { categoryIdFor, getCategoryWithPath, updateCategoryFrom } = await import('../../services/catalog/categories.js');
    const id = await categoryIdFor(client, this.args.category);
    const category = await updateCategoryFrom(client, await this.recorder(), id, categoryFieldsFrom(this.flags));
    if (!this.jsonEnabled()) {
      const { categoryFields } = await import('../../views/categories.js');
      await this.renderDetail(categoryFields(await getCategoryWithPath(client, category.id)));
    }
    return category;
  }
}
