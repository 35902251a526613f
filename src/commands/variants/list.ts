import { Flags } from '@oclif/core';
import type { Variant } from '../../api/variants.js';
import { BaseCommand } from '../../cli/base-command.js';
import { productRefArg } from '../../flags/catalog.js';
import { csvFlag } from '../../flags/common.js';

export default class VariantsList extends BaseCommand<typeof VariantsList> {
  static summary = "List a product's variants with their options, prices and stock.";
  static examples = [
    '<%= config.bin %> variants list 1234',
    '<%= config.bin %> variants list remera-basica --by-location',
    '<%= config.bin %> variants list 1234 --csv',
    '<%= config.bin %> variants list 1234 --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = { product: productRefArg };

  static flags = {
    csv: csvFlag,
    'by-location': Flags.boolean({ description: 'One stock column per location, in priority order, instead of prices.' }),
  };

  async run(): Promise<Variant[]> {
    const client = await this.client();
    const { listVariantsOf } = await import('../../services/catalog/variants.js');
    const { onProduct } = await import('../../services/catalog/product-ref.js');
    const { variantColumns, variantStockColumns } = await import('../../views/variants.js');
    const { productId, variants } = await onProduct(client, this.args.product, async (id) => ({ productId: id, variants: await listVariantsOf(client, id) }));
    let columns = variantColumns;
    if (this.flags['by-location'] && !this.jsonEnabled()) {
      const { locationsByPriority } = await import('../../services/catalog/locations.js');
      columns = variantStockColumns(await locationsByPriority(client));
    }
    await this.renderList(variants, columns, { csv: this.flags.csv });
    if (variants.length === 0 && !this.jsonEnabled()) {
      this.note(`Product ${productId} has no variants yet; add one with \`store variants create ${productId} --option NAME=VALUE\`.`);
    }
    return variants;
  }
}
