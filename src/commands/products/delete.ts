import type { Product } from '../../api/products.js';
import { BaseCommand } from '../../cli/base-command.js';
import { productRefArg } from '../../flags/catalog.js';
import { yesFlag } from '../../flags/common.js';
import { jsonFields } from '../../api/json-fields.js';

export default class ProductsDelete extends BaseCommand<typeof ProductsDelete> {
  static summary = 'Delete a product with its variants and images.';
  static description = "PRODUCT is its id, handle or a variant's SKU. Asks for confirmation on a terminal; pass --yes otherwise. The product is read first (one GET, or the one lookup of the handle or SKU): the run ledger keeps it whole, with its variants and images, so `store undo` can recreate it (with new ids).";
  static examples = ['<%= config.bin %> products delete 1234', '<%= config.bin %> products delete remera-basica --yes --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.deleted;

  static args = {
    product: productRefArg,
  };

  static flags = { yes: yesFlag };

  async run(): Promise<{ id: number; deleted: boolean }> {
    const { confirmThenAct } = await import('../../cli/confirm.js');
    const { findProduct } = await import('../../services/catalog/product-ref.js');
    // Looked up once: to name the product in the question, and before deleting it (after --yes is checked).
    let found: Product | undefined;
    const lookUp = async () => (found ??= await findProduct(await this.client(), this.args.product));
    return confirmThenAct({
      message: async () => `Delete product ${(await import('../../services/catalog/products.js')).describeProduct(await lookUp())}?`,
      yes: this.flags.yes,
      action: 'Deleting a product',
      nothingDone: 'Nothing deleted.',
      // Declined only after the question, which looked the product up.
      declined: () => ({ id: found!.id, deleted: false }),
      act: async () => {
        const product = await lookUp();
        const { deleteFoundProduct } = await import('../../services/catalog/products.js');
        await deleteFoundProduct(await this.client(), await this.recorder(), product);
        this.note(`Deleted product ${product.id}.`);
        return { id: product.id, deleted: true };
      },
    });
  }
}
