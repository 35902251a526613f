import { BaseCommand } from '../../cli/base-command.js';
import { productIdArg } from '../../flags/catalog.js';
import { yesFlag } from '../../flags/common.js';
import { jsonFields } from '../../api/json-fields.js';

export default class ProductsDelete extends BaseCommand<typeof ProductsDelete> {
  static summary = 'Delete a product with its variants and images.';
  static description = 'Asks for confirmation on a terminal; pass --yes otherwise. The product is read first (one GET): the run ledger keeps it whole, with its variants and images, so `store undo` can recreate it (with new ids).';
  static examples = ['<%= config.bin %> products delete 1234', '<%= config.bin %> products delete 1234 --yes --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.deleted;

  static args = {
    id: productIdArg,
  };

  static flags = { yes: yesFlag };

  async run(): Promise<{ id: number; deleted: boolean }> {
    const { parseIntegerId } = await import('../../services/common/validate.js');
    const { confirmThenAct } = await import('../../cli/confirm.js');
    const id = parseIntegerId(this.args.id, 'ID', 'product');
    return confirmThenAct({
      message: async () => `Delete product ${await (await import('../../services/catalog/products.js')).describeProduct(await this.client(), id)}?`,
      yes: this.flags.yes,
      action: 'Deleting a product',
      nothingDone: 'Nothing deleted.',
      declined: () => ({ id, deleted: false }),
      act: async () => {
        const client = await this.client();
        const { deleteProductById } = await import('../../services/catalog/products.js');
        await deleteProductById(client, await this.recorder(), id);
        this.note(`Deleted product ${id}.`);
        return { id, deleted: true };
      },
    });
  }
}
