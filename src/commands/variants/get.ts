import type { Variant } from '../../api/variants.js';
import { BaseCommand } from '../../base-command.js';
import { variantArgs } from '../../flags/catalog.js';

export default class VariantsGet extends BaseCommand<typeof VariantsGet> {
  static summary = 'Show one variant with its stock per location and custom fields.';
  static examples = ['<%= config.bin %> variants get 1234 5678', '<%= config.bin %> variants get 1234 5678 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = variantArgs;

  async run(): Promise<Variant> {
    const { parseIntegerId } = await import('../../services/validate.js');
    const productId = parseIntegerId(this.args.product_id, 'PRODUCT_ID', 'product');
    const variantId = parseIntegerId(this.args.variant_id, 'VARIANT_ID', 'variant');
    const client = await this.client();
    const { getVariantDetail } = await import('../../services/variants.js');
    const { variant, levels, customFields } = await getVariantDetail(client, productId, variantId);
    if (!this.jsonEnabled()) {
      const { variantFields } = await import('../../views/variants.js');
      await this.renderDetail(variantFields(variant, levels, customFields));
    }
    return variant;
  }
}
