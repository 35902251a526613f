import { Args } from '@oclif/core';
import { BaseCommand } from '../../../cli/base-command.js';
import { variantArgs } from '../../../flags/catalog.js';
import { csvFlag } from '../../../flags/common.js';
import type { VariantFieldValue } from '../../../services/catalog/variants.js';

export default class CustomFieldsSet extends BaseCommand<typeof CustomFieldsSet> {
  static summary = "Set custom field values on a variant.";
  static description = `Each FIELD=VALUE names the field by name or id. Values are checked against the field's type first: numeric fields take numbers, date fields YYYY-MM-DD, text_list fields one of their allowed values. Fields not named keep their values. Prints the variant's custom field values afterwards. The variant is read first (one GET), so the run ledger keeps the values replaced.`;

  static examples = [
    '<%= config.bin %> variants custom-fields set 1234 5678 Material=Algodón',
    '<%= config.bin %> variants custom-fields set 1234 5678 Material=Lino "Fecha de lote=2026-11-01" --json',
  ];

  static strict = false;
  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    ...variantArgs,
    assignment: Args.string({ description: 'FIELD=VALUE pairs, one or more.', required: true }),
  };

  static flags = {
    csv: csvFlag,
  };

  async run(): Promise<VariantFieldValue[]> {
    const { argv } = await this.parse(CustomFieldsSet);
    const { parseIntegerId } = await import('../../../services/common/validate.js');
    const variantId = parseIntegerId(this.args.variant_id, 'VARIANT_ID', 'variant');
    const client = await this.client();
    const { productIdFor } = await import('../../../services/catalog/product-ref.js');
    const productId = await productIdFor(client, this.args.product);
    const { setVariantFieldValues } = await import('../../../services/catalog/variants.js');
    const { fieldValueColumns } = await import('../../../views/variants.js');
    const values = await setVariantFieldValues(client, await this.recorder(), productId, variantId, (argv as string[]).slice(2));
    await this.renderList(values, fieldValueColumns, { csv: this.flags.csv });
    return values;
  }
}
