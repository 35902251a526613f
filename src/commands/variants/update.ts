import type { Variant } from '../../api/variants.js';
import { BaseCommand } from '../../base-command.js';
import { priceStockFlags, variantArgs, variantFieldsFrom, variantOnlyFlags } from '../../flags/catalog.js';
import { jsonFields } from '../../api/json-fields.js';

export default class VariantsUpdate extends BaseCommand<typeof VariantsUpdate> {
  static summary = "Change a variant's price, stock, SKU or measures.";
  static description = `Only the fields given change. --stock N sets the stock at the default location; --stock-at LOCATION=N (location by name or id, repeatable) sets it at each location named. --promotional-price none removes the promotional price.`;

  static examples = [
    '<%= config.bin %> variants update 1234 5678 --price 16500 --promotional-price 14900',
    '<%= config.bin %> variants update 1234 5678 --stock-at "Local Palermo=0" --stock-at "Depósito Central=25"',
    '<%= config.bin %> variants update 1234 5678 --stock 12 --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.variant;

  static args = variantArgs;

  static flags = {
    ...priceStockFlags,
    ...variantOnlyFlags,
  };

  async run(): Promise<Variant> {
    const { parseIntegerId } = await import('../../services/validate.js');
    const productId = parseIntegerId(this.args.product_id, 'PRODUCT_ID', 'product');
    const variantId = parseIntegerId(this.args.variant_id, 'VARIANT_ID', 'variant');
    const client = await this.client();
    const { updateVariantFrom } = await import('../../services/variants.js');
    const variant = await updateVariantFrom(client, productId, variantId, variantFieldsFrom(this.flags));
    if (!this.jsonEnabled()) {
      const { variantFields } = await import('../../views/variants.js');
      await this.renderDetail(variantFields(variant));
    }
    return variant;
  }
}
