import { Args } from '@oclif/core';
import type { Product } from '../../api/products.js';
import { BaseCommand } from '../../base-command.js';

export default class ProductsGet extends BaseCommand<typeof ProductsGet> {
  static summary = 'Show one product with its variants.';
  static examples = ['<%= config.bin %> products get 1234', '<%= config.bin %> products get 1234 --json'];

  static enableJsonFlag = true;

  static args = {
    id: Args.string({ description: 'Product id.', required: true }),
  };

  async run(): Promise<Product> {
    const { parseIntegerId } = await import('../../services/validate.js');
    const id = parseIntegerId(this.args.id, 'ID', 'product');
    const client = await this.client();
    const { getProductById } = await import('../../services/products.js');
    const product = await getProductById(client, id);
    if (!this.jsonEnabled()) {
      const { renderRecord } = await import('../../output/render.js');
      const { productFields, variantColumns } = await import('../../services/catalog-views.js');
      renderRecord(productFields(product), (text) => process.stdout.write(text));
      if (product.variants.length > 0) {
        process.stdout.write('\n');
        await this.renderList(product.variants, variantColumns);
      }
    }
    return product;
  }
}
