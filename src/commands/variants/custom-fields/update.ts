import { Args, Flags } from '@oclif/core';
import type { CustomField } from '../../../api/custom-fields.js';
import { BaseCommand } from '../../../cli/base-command.js';
import { jsonFields } from '../../../api/json-fields.js';

export default class CustomFieldsUpdate extends BaseCommand<typeof CustomFieldsUpdate> {
  static summary = 'Change a custom field definition, e.g. add allowed values to a text_list.';
  static examples = [
    '<%= config.bin %> variants custom-fields update Material --add-value Seda',
    '<%= config.bin %> variants custom-fields update 3f1c2a9e-5b6d-4e7f-8a9b-0c1d2e3f4a5b --description "Tela principal" --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.customField;

  static args = {
    field: Args.string({ description: 'Custom field id or name.', required: true }),
  };

  static flags = {
    'add-value': Flags.string({ description: 'Add an allowed value to a text_list field; repeatable.', multiple: true, multipleNonGreedy: true }),
    name: Flags.string({ description: 'New name.' }),
    description: Flags.string({ description: 'New description.' }),
    'read-only': Flags.boolean({ description: 'Make the field read-only (--no-read-only to allow changes).', allowNo: true }),
  };

  async run(): Promise<CustomField> {
    const client = await this.client();
    const { updateCustomFieldFrom } = await import('../../../services/catalog/variants.js');
    const field = await updateCustomFieldFrom(client, await this.recorder(), this.args.field, {
      addValues: this.flags['add-value'],
      name: this.flags.name,
      description: this.flags.description,
      readOnly: this.flags['read-only'],
    });
    const { customFieldColumns } = await import('../../../views/variants.js');
    await this.renderList([field], customFieldColumns);
    return field;
  }
}
