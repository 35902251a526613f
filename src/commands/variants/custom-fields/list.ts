import type { CustomField } from '../../../api/custom-fields.js';
import { BaseCommand } from '../../../cli/base-command.js';
import { csvFlag } from '../../../flags/common.js';

export default class CustomFieldsList extends BaseCommand<typeof CustomFieldsList> {
  static summary = 'List the custom field definitions of variants.';
  static examples = ['<%= config.bin %> variants custom-fields list', '<%= config.bin %> variants custom-fields list --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    csv: csvFlag,
  };

  async run(): Promise<CustomField[]> {
    const client = await this.client();
    const { listCustomFieldDefinitions } = await import('../../../services/catalog/variants.js');
    const { customFieldColumns } = await import('../../../views/variants.js');
    const fields = await listCustomFieldDefinitions(client);
    await this.renderList(fields, customFieldColumns, { csv: this.flags.csv });
    if (fields.length === 0 && !this.jsonEnabled()) this.note('No custom fields yet; define one with `store variants custom-fields create`.');
    return fields;
  }
}
