import type { Variant } from '../../api/variants.js';
import { BaseCommand } from '../../cli/base-command.js';
import { variantRefArgs } from '../../flags/catalog.js';

export default class VariantsGet extends BaseCommand<typeof VariantsGet> {
  static summary = 'Show one variant with its stock per location and custom fields.';
  static description = 'The variant is named by its SKU alone or by PRODUCT VARIANT_ID; a SKU held by several variants is refused, naming them.';
  static examples = ['<%= config.bin %> variants get REM-BAS-M-BLANCO', '<%= config.bin %> variants get 1234 5678', '<%= config.bin %> variants get 1234 5678 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = variantRefArgs;

  async run(): Promise<Variant> {
    const { resolveVariantTarget, variantTarget } = await import('../../services/catalog/variants.js');
    const target = variantTarget(this.args.product_or_sku, this.args.variant_id);
    const client = await this.client();
    const { productId, variantId } = await resolveVariantTarget(client, target);
    const { getVariantDetail } = await import('../../services/catalog/variants.js');
    const { variant, levels, customFields } = await getVariantDetail(client, productId, variantId);
    if (!this.jsonEnabled()) {
      const { variantFields } = await import('../../views/variants.js');
      await this.renderDetail(variantFields(variant, levels, customFields));
    }
    return variant;
  }
}
