import type { Variant } from '../../api/variants.js';
import { BaseCommand } from '../../cli/base-command.js';
import { priceStockFlags, variantRefArgs, variantFieldsFrom, variantOnlyFlags } from '../../flags/catalog.js';
import { jsonFields } from '../../api/json-fields.js';

export default class VariantsUpdate extends BaseCommand<typeof VariantsUpdate> {
  static summary = "Change a variant's price, stock, SKU or measures.";
  static description = `The variant is named by its SKU alone or by PRODUCT VARIANT_ID (a SKU held by several variants is refused, naming them). Only the fields given change; what changed is shown old → new, stock per location with the new total. --stock N sets the stock at the default location; --stock-at LOCATION=N (location by name or id, repeatable) sets it at each location named. --promotional-price none removes the promotional price.`;

  static examples = [
    '<%= config.bin %> variants update ACC-MED --stock 40',
    '<%= config.bin %> variants update 1234 5678 --price 16500 --promotional-price 14900',
    '<%= config.bin %> variants update 1234 5678 --stock-at "Local Palermo=0" --stock-at "Depósito Central=25"',
    '<%= config.bin %> variants update 1234 5678 --stock 12 --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.variant;

  static args = variantRefArgs;

  static flags = {
    ...priceStockFlags,
    ...variantOnlyFlags,
  };

  async run(): Promise<Variant> {
    const { updateVariantTarget, variantTarget } = await import('../../services/catalog/variants.js');
    const target = variantTarget(this.args.product_or_sku, this.args.variant_id);
    const client = await this.client();
    const update = await updateVariantTarget(client, await this.recorder(), target, variantFieldsFrom(this.flags));
    if (!this.jsonEnabled()) {
      const { variantUpdateFields } = await import('../../views/variants.js');
      await this.renderDetail(variantUpdateFields(update));
    }
    return update.after;
  }
}
