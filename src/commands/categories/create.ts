import { Flags } from '@oclif/core';
import type { Category } from '../../api/categories.js';
import { BaseCommand } from '../../base-command.js';
import { localizedFlag } from '../../services/catalog-flags.js';
import { jsonFields } from '../../api/json-fields.js';

export default class CategoriesCreate extends BaseCommand<typeof CategoriesCreate> {
  static summary = 'Create a category, top-level or under a parent.';
  static description = `--parent takes an id or a path such as "Ropa > Camisas" (names in any of the store's languages, case ignored; leading ancestors may be left out when the rest is unique). On a multilingual store give texts per language (--name es=Camisas --name pt=Camisas); a plain value goes to the main language.`;

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
    'google-shopping-category': Flags.string({ description: 'Google Shopping category path.' }),
    'seo-title': Flags.string({ description: 'SEO title.' }),
    'seo-description': Flags.string({ description: 'SEO description.' }),
  };

  async run(): Promise<Category> {
    const client = await this.client();
    const { createCategoryFrom, getCategoryWithPath } = await import('../../services/categories.js');
    const category = await createCategoryFrom(client, {
      name: this.flags.name,
      description: this.flags.description,
      handle: this.flags.handle,
      parent: this.flags.parent,
      googleShoppingCategory: this.flags['google-shopping-category'],
      seoTitle: this.flags['seo-title'],
      seoDescription: this.flags['seo-description'],
    });
    if (!this.jsonEnabled()) {
      const { renderRecord } = await import('../../output/render.js');
      const { categoryFields } = await import('../../services/catalog-views.js');
      renderRecord(categoryFields(await getCategoryWithPath(client, category.id)), (text) => this.io.stdout.write(text));
    }
    return category;
  }
}
