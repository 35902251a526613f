import { Flags } from '@oclif/core';
import type { CustomField } from '../../../api/custom-fields.js';
import { BaseCommand } from '../../../cli/base-command.js';
import { jsonFields } from '../../../api/json-fields.js';

export default class CustomFieldsCreate extends BaseCommand<typeof CustomFieldsCreate> {
  static summary = 'Define a custom field for variants.';
  static description = `Types: text, numeric, date (YYYY-MM-DD) and text_list (a choice among the values given with --value; more can be added later with \`store variants custom-fields update ID --add-value\`).`;

  static examples = [
    '<%= config.bin %> variants custom-fields create --name Material --type text_list --value Algodón --value Lino',
    '<%= config.bin %> variants custom-fields create --name "Fecha de lote" --type date --description "Fecha de fabricación"',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.customField;

  static flags = {
    name: Flags.string({ description: 'Field name.', required: true }),
    description: Flags.string({ description: 'What the field holds.' }),
    type: Flags.string({
      description: 'Value type.',
      options: ['text', 'numeric', 'date', 'text_list'],
      default: 'text',
    }),
    value: Flags.string({ description: 'An allowed value of a text_list field; repeatable.', multiple: true, multipleNonGreedy: true }),
    'read-only': Flags.boolean({ description: 'The value cannot be changed through the API once set.' }),
  };

  async run(): Promise<CustomField> {
    const client = await this.client();
    const { createCustomFieldFrom } = await import('../../../services/catalog/variants.js');
    const field = await createCustomFieldFrom(client, await this.recorder(), {
      name: this.flags.name,
      description: this.flags.description,
      type: this.flags.type,
      values: this.flags.value,
      readOnly: this.flags['read-only'],
    });
    const { customFieldColumns } = await import('../../../views/variants.js');
    await this.renderList([field], customFieldColumns);
    return field;
  }
}
