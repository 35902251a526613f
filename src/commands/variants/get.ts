import { Args } from '@oclif/core';
import type { Variant } from '../../api/variants.js';
import { BaseCommand } from '../../base-command.js';

export default class VariantsGet extends BaseCommand<typeof VariantsGet> {
  static summary = 'Show one variant with its stock per location and custom fields.';
  static examples = ['<%= config.bin %> variants get 1234 5678', '<%= config.bin %> variants get 1234 5678 --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    product_id: Args.string({ description: 'Product id.', required: true }),
    variant_id: Args.string({ description: 'Variant id.', required: true }),
  };

  async run(): Promise<Variant> {
    const { parseIntegerId } = await import('../../services/validate.js');
    const productId = parseIntegerId(this.args.product_id, 'PRODUCT_ID', 'product');
    const variantId = parseIntegerId(this.args.variant_id, 'VARIANT_ID', 'variant');
    const client = await this.client();
    const { getVariantDetail } = await import('../../services/variants.js');
    const { variant, levels, customFields } = await getVariantDetail(client, productId, variantId);
    if (!this.jsonEnabled()) {
      const { renderRecord } = await import('../../output/render.js');
      const { variantFields } = await import('../../services/catalog-views.js');
      renderRecord(variantFields(variant, levels, customFields), (text) => this.io.stdout.write(text));
    }
    return variant;
  }
}
