import { Args } from '@oclif/core';
import { BaseCommand } from '../../../cli/base-command.js';
import { variantArgs } from '../../../flags/catalog.js';
import { csvFlag } from '../../../flags/common.js';
import type { VariantFieldValue } from '../../../services/catalog/variants.js';

export default class CustomFieldsUnset extends BaseCommand<typeof CustomFieldsUnset> {
  static summary = 'Remove custom field values from a variant (the field definitions stay).';
  static description = `The variant is read first (one GET), so the run ledger keeps the values removed.`;
  static examples = [
    '<%= config.bin %> variants custom-fields unset 1234 5678 Material',
    '<%= config.bin %> variants custom-fields unset 1234 5678 Material "Fecha de lote" --json',
  ];

  static strict = false;
  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    ...variantArgs,
    field: Args.string({ description: 'Field names or ids, one or more.', required: true }),
  };

  static flags = {
    csv: csvFlag,
  };

  async run(): Promise<VariantFieldValue[]> {
    const { argv } = await this.parse(CustomFieldsUnset);
    const { parseIntegerId } = await import('../../../services/common/validate.js');
    const variantId = parseIntegerId(this.args.variant_id, 'VARIANT_ID', 'variant');
    const client = await this.client();
    const { productIdFor } = await import('../../../services/catalog/product-ref.js');
    const productId = await productIdFor(client, this.args.product);
    const { unsetVariantFieldValues } = await import('../../../services/catalog/variants.js');
    const { fieldValueColumns } = await import('../../../views/variants.js');
    const values = await unsetVariantFieldValues(client, await this.recorder(), productId, variantId, (argv as string[]).slice(2));
    await this.renderList(values, fieldValueColumns, { csv: this.flags.csv });
    return values;
  }
}
