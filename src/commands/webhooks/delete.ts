import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { yesFlag } from '../../flags/common.js';
import { jsonFields } from '../../api/json-fields.js';

export default class WebhooksDelete extends BaseCommand<typeof WebhooksDelete> {
  static summary = 'Delete a webhook: the store stops sending its notifications.';
  static description = 'Asks for confirmation on a terminal; pass --yes otherwise. The webhooks are read first (one GET): the run ledger keeps the one deleted.';
  static examples = ['<%= config.bin %> webhooks delete 12', '<%= config.bin %> webhooks delete 12 --yes'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.deleted;

  static args = {
    id: Args.string({ description: 'Webhook id (see `store webhooks list`).', required: true }),
  };

  static flags = { yes: yesFlag };

  async run(): Promise<{ id: number; deleted: boolean }> {
    const { parseIntegerId } = await import('../../services/common/validate.js');
    const { confirmThenAct } = await import('../../cli/confirm.js');
    const id = parseIntegerId(this.args.id, 'ID', 'webhook');
    return confirmThenAct({
      message: async () => `Delete webhook ${await (await import('../../services/webhooks/webhooks.js')).describeWebhook(await this.client(), id)}?`,
      yes: this.flags.yes,
      action: 'Deleting a webhook',
      nothingDone: 'Nothing deleted.',
      declined: () => ({ id, deleted: false }),
      act: async () => {
        const client = await this.client();
        const { removeWebhook } = await import('../../services/webhooks/webhooks.js');
        await removeWebhook(client, await this.recorder(), id);
        this.note(`Deleted webhook ${id}.`);
        return { id, deleted: true };
      },
    });
  }
}
