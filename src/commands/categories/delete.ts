import { BaseCommand } from '../../cli/base-command.js';
import { categoryRefArg } from '../../flags/catalog.js';
import { yesFlag } from '../../flags/common.js';
import { jsonFields } from '../../api/json-fields.js';

export default class CategoriesDelete extends BaseCommand<typeof CategoriesDelete> {
  static summary = 'Delete a category.';
  static description = `CATEGORY is its id or its name path ("Ropa > Buzos"). The store refuses while the category has subcategories: delete or move them first. Asks for confirmation on a terminal; pass --yes otherwise. The category is read first (one GET): the run ledger keeps it whole.`;

  static examples = ['<%= config.bin %> categories delete 12', '<%= config.bin %> categories delete "Ropa > Buzos" --yes'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.deleted;

  static args = {
    category: categoryRefArg,
  };

  static flags = { yes: yesFlag };

  async run(): Promise<{ id: number; deleted: boolean }> {
    const { confirmThenAct } = await import('../../cli/confirm.js');
    const { categoryIdFor } = await import('../../services/catalog/categories.js');
    const id = await categoryIdFor(await this.client(), this.args.category);
    const describe = async () => (await import('../../services/catalog/categories.js')).describeCategory(await this.client(), id);
    return confirmThenAct({
      message: async () => `Delete category ${await describe()}?`,
      yes: this.flags.yes,
      action: 'Deleting a category',
      nothingDone: 'Nothing deleted.',
      declined: () => ({ id, deleted: false }),
      act: async () => {
        const client = await this.client();
        const { deleteCategoryById } = await import('../../services/catalog/categories.js');
        await deleteCategoryById(client, await this.recorder(), id);
        this.note(`Deleted category ${id}.`);
        return { id, deleted: true };
      },
    });
  }
}
