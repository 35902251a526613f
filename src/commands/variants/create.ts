import { Flags } from '@oclif/core';
import type { Variant } from '../../api/variants.js';
import { BaseCommand } from '../../cli/base-command.js';
import { priceStockFlags, productRefArg, variantFieldsFrom, variantOnlyFlags } from '../../flags/catalog.js';
import { jsonFields } from '../../api/json-fields.js';

export default class VariantsCreate extends BaseCommand<typeof VariantsCreate> {
  static summary = 'Add a variant to a product, with its option values, price and stock.';
  static description = `--option NAME=VALUE gives the variant's value for each option (at most 3). The first variant with options fixes the product's option names and their order; later variants must use the same names in the same order, and a combination of values that already exists is refused. Prices are decimals with "." or ","; stock is a whole number, per location with --stock-at LOCATION=N (location by name or id) or at the default location with --stock N.`;

  static examples = [
    '<%= config.bin %> variants create 1234 --option Talle=M --option Color=Azul --price 15000 --sku CAM-AZ-M --stock 10',
    '<%= config.bin %> variants create 1234 --option Talle=L --price 15000 --stock-at "Depósito Central=4" --stock-at "Local Palermo=2"',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.variant;

  static args = { product: productRefArg };

  static flags = {
    option: Flags.string({ description: 'Option value NAME=VALUE (e.g. Size=M); repeatable, in option order.', multiple: true, multipleNonGreedy: true }),
    ...priceStockFlags,
    ...variantOnlyFlags,
  };

  async run(): Promise<Variant> {
    const client = await this.client();
    const { createVariantFrom } = await import('../../services/catalog/variants.js');
    const { onProduct } = await import('../../services/catalog/product-ref.js');
    const recorder = await this.recorder();
    const fields = { ...variantFieldsFrom(this.flags), options: this.flags.option };
    const variant = await onProduct(client, this.args.product, (productId) => createVariantFrom(client, recorder, productId, fields));
    if (!this.jsonEnabled()) {
      const { variantFields } = await import('../../views/variants.js');
      await this.renderDetail(variantFields(variant));
    }
    return variant;
  }
}
