import { Flags } from '@oclif/core';
import type { Category } from '../../api/categories.js';
import { BaseCommand } from '../../cli/base-command.js';
import { categoryFieldsFrom, categorySeoFlags, localizedFlag } from '../../flags/catalog.js';
import { jsonFields } from '../../api/json-fields.js';

export default class CategoriesCreate extends BaseCommand<typeof CategoriesCreate> {
  static summary = 'Create a category, top-level or under a parent.';
  static description = `--parent takes an id or a path such as "Ropa > Camisas" (names in any of the store's languages, case ignored; leading ancestors may be left out when the rest is unique). On a multilingual store give texts per language (--name es=Camisas --name pt=Camisas); a plain value goes to the main language. A category whose name (main language, case ignored) the parent already has is refused with the existing one's id (exit 2) unless --allow-duplicate.`;

  static examples = [
    '<%= config.bin %> categories create --name Ropa',
    '<%= config.bin %> categories create --name Camisas --parent Ropa',
    '<%= config.bin %> categories create --name es=Manga larga --name pt="Manga longa" --parent "Ropa > Camisas" --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.category;

  static flags = {
    name: localizedFlag('Name', true),
    description: localizedFlag('Description'),
    handle: localizedFlag('URL handle (generated from the name when omitted)'),
    parent: Flags.string({ description: 'Parent category: an id or a path like "Ropa > Camisas".' }),
    'allow-duplicate': Flags.boolean({ description: 'Create it even when the parent already has a category of that name (main language, case ignored).' }),
    ...categorySeoFlags,
  };

  async run(): Promise<Category> {
    const client = await this.client();
    const { createCategoryFrom, getCategoryWithPath } = await import('../../services/catalog/categories.js');
    const category = await createCategoryFrom(client, await this.recorder(), { ...categoryFieldsFrom(this.flags), allowDuplicate: this.flags['allow-duplicate'] });
    if (!this.jsonEnabled()) {
      const { categoryFields } = await import('../../views/categories.js');
      await this.renderDetail(categoryFields(await getCategoryWithPath(client, category.id)));
    }
    return category;
  }
}
