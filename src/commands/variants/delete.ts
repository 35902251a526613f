import { BaseCommand } from '../../base-command.js';
import { variantArgs } from '../../flags/catalog.js';
import { yesFlag } from '../../flags/common.js';
import { jsonFields } from '../../api/json-fields.js';

export default class VariantsDelete extends BaseCommand<typeof VariantsDelete> {
  static summary = 'Delete a variant of a product.';
  static description = 'Asks for confirmation on a terminal; pass --yes otherwise.';
  static examples = ['<%= config.bin %> variants delete 1234 5678', '<%= config.bin %> variants delete 1234 5678 --yes'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.deleted;

  static args = variantArgs;

  static flags = { yes: yesFlag };

  async run(): Promise<{ product_id: number; id: number; deleted: boolean }> {
    const { parseIntegerId } = await import('../../services/validate.js');
    const { confirmOrYes } = await import('../../output/prompt.js');
    const productId = parseIntegerId(this.args.product_id, 'PRODUCT_ID', 'product');
    const variantId = parseIntegerId(this.args.variant_id, 'VARIANT_ID', 'variant');
    const ok = await confirmOrYes({
      message: `Delete variant ${variantId} of product ${productId}?`,
      yes: this.flags.yes,
      action: 'Deleting a variant',
    });
    if (!ok) {
      this.note('Nothing deleted.');
      return { product_id: productId, id: variantId, deleted: false };
    }
    const client = await this.client();
    const { deleteVariantById } = await import('../../services/variants.js');
    await deleteVariantById(client, productId, variantId);
    this.note(`Deleted variant ${variantId} of product ${productId}.`);
    return { product_id: productId, id: variantId, deleted: true };
  }
}
