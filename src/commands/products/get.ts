import type { Product } from '../../api/products.js';
import { BaseCommand } from '../../base-command.js';
import { productIdArg } from '../../flags/catalog.js';

export default class ProductsGet extends BaseCommand<typeof ProductsGet> {
  static summary = 'Show one product with its variants.';
  static examples = ['<%= config.bin %> products get 1234', '<%= config.bin %> products get 1234 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    id: productIdArg,
  };

  async run(): Promise<Product> {
    const { parseIntegerId } = await import('../../services/validate.js');
    const id = parseIntegerId(this.args.id, 'ID', 'product');
    const client = await this.client();
    const { getProductById } = await import('../../services/products.js');
    const product = await getProductById(client, id);
    const { productFields, productSections } = await import('../../views/products.js');
    await this.renderDetail(productFields(product), productSections(product));
    return product;
  }
}
