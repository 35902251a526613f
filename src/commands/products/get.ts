import type { Product } from '../../api/products.js';
import { BaseCommand } from '../../cli/base-command.js';
import { productRefArg } from '../../flags/catalog.js';

export default class ProductsGet extends BaseCommand<typeof ProductsGet> {
  static summary = 'Show one product with its variants.';
  static description = 'PRODUCT is the product id, its handle, or the SKU of one of its variants.';
  static examples = ['<%= config.bin %> products get 1234', '<%= config.bin %> products get remera-basica', '<%= config.bin %> products get REM-BAS-M-BLANCO --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    product: productRefArg,
  };

  async run(): Promise<Product> {
    const client = await this.client();
    const { findProduct } = await import('../../services/catalog/product-ref.js');
    const product = await findProduct(client, this.args.product);
    const { productFields, productSections } = await import('../../views/products.js');
    await this.renderDetail(productFields(product), productSections(product));
    return product;
  }
}
