import { Args } from '@oclif/core';
import { BaseCommand } from '../../../cli/base-command.js';
import { yesFlag } from '../../../flags/common.js';
import { jsonFields } from '../../../api/json-fields.js';

export default class CustomFieldsDelete extends BaseCommand<typeof CustomFieldsDelete> {
  static summary = 'Delete a custom field definition and its value on every variant.';
  static description = 'Asks for confirmation on a terminal; pass --yes otherwise.';
  static examples = ['<%= config.bin %> variants custom-fields delete Material', '<%= config.bin %> variants custom-fields delete Material --yes'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.deleted;

  static args = {
    field: Args.string({ description: 'Custom field id or name.', required: true }),
  };

  static flags = { yes: yesFlag };

  async run(): Promise<{ id: string; deleted: boolean }> {
    const { confirmThenAct } = await import('../../../cli/confirm.js');
    return confirmThenAct({
      message: async () =>
        `Delete custom field ${await (await import('../../../services/catalog/variants.js')).describeCustomField(await this.client(), this.args.field)} and its value on every variant?`,
      yes: this.flags.yes,
      action: 'Deleting a custom field',
      nothingDone: 'Nothing deleted.',
      declined: () => ({ id: this.args.field, deleted: false }),
      act: async () => {
        const client = await this.client();
        const { deleteCustomFieldByRef } = await import('../../../services/catalog/variants.js');
        const field = await deleteCustomFieldByRef(client, await this.recorder(), this.args.field);
        this.note(`Deleted custom field ${field.name} (${field.id}).`);
        return { id: field.id, deleted: true };
      },
    });
  }
}
