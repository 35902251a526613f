import { BaseCommand } from '../../cli/base-command.js';
import { variantRefArgs } from '../../flags/catalog.js';
import { yesFlag } from '../../flags/common.js';
import { jsonFields } from '../../api/json-fields.js';

export default class VariantsDelete extends BaseCommand<typeof VariantsDelete> {
  static summary = 'Delete a variant of a product.';
  static description = 'The variant is named by its SKU alone or by PRODUCT VARIANT_ID. Asks for confirmation on a terminal, naming the variant, its SKU and its product; pass --yes otherwise. The variant is always read before it is deleted (with ids and --yes too, one GET of its product): the run ledger keeps it whole.';
  static examples = ['<%= config.bin %> variants delete REM-BAS-M-BLANCO', '<%= config.bin %> variants delete 1234 5678 --yes'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.deleted;

  static args = variantRefArgs;

  static flags = { yes: yesFlag };

  async run(): Promise<{ product_id: number; id: number; deleted: boolean }> {
    const { confirmThenAct } = await import('../../cli/confirm.js');
    const { describeVariant, findVariantTarget, variantTarget } = await import('../../services/catalog/variants.js');
    const target = variantTarget(this.args.product_or_sku, this.args.variant_id);
    // Looked up once: to name the variant in the question, and before deleting it (after --yes is checked).
    let found: Awaited<ReturnType<typeof findVariantTarget>> | undefined;
    const lookUp = async () => (found ??= await findVariantTarget(await this.client(), target));
    // Declined only after the question, which looked the variant up.
    const productId = () => found!.product.id;
    const variantId = () => found!.variant.id;
    return confirmThenAct({
      message: async () => {
        const { product, variant } = await lookUp();
        return `Delete ${describeVariant(product, variant)}?`;
      },
      yes: this.flags.yes,
      action: 'Deleting a variant',
      nothingDone: 'Nothing deleted.',
      declined: () => ({ product_id: productId(), id: variantId(), deleted: false }),
      act: async () => {
        // Read before deleting, with --yes too: the run ledger keeps the variant whole, so undo can recreate it.
        const holder = await lookUp();
        const { deleteFoundVariant } = await import('../../services/catalog/variants.js');
        await deleteFoundVariant(await this.client(), await this.recorder(), holder);
        this.note(`Deleted ${describeVariant(holder.product, holder.variant)}.`);
        return { product_id: holder.product.id, id: holder.variant.id, deleted: true };
      },
    });
  }
}
