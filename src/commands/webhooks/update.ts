import { Args, Flags } from '@oclif/core';
import type { Webhook } from '../../api/webhooks.js';
import { BaseCommand } from '../../cli/base-command.js';
import { jsonFields } from '../../api/json-fields.js';

export default class WebhooksUpdate extends BaseCommand<typeof WebhooksUpdate> {
  static summary = 'Change the URL or the headers of a webhook.';
  static description = `--header replaces the whole set of headers (give every header the webhook should keep); --clear-headers removes them all. The event of a webhook cannot change: add a new one and delete the old. The webhooks are read first (one GET), so the run ledger keeps what the change replaces.`;

  static examples = [
    '<%= config.bin %> webhooks update 12 --url https://example.com/hooks/v2',
    '<%= config.bin %> webhooks update 12 --header X-Api-Key=new-key --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.webhook;

  static args = {
    id: Args.string({ description: 'Webhook id (see `store webhooks list`).', required: true }),
  };

  static flags = {
    url: Flags.string({ description: 'New receiver URL (https; http only on loopback).' }),
    header: Flags.string({ description: 'Header sent with every notification, as NAME=VALUE; repeatable; replaces the current set.', multiple: true, multipleNonGreedy: true, exclusive: ['clear-headers'] }),
    'clear-headers': Flags.boolean({ description: 'Remove every custom header.' }),
  };

  async run(): Promise<Webhook> {
    const { parseIntegerId } = await import('../../services/common/validate.js');
    const { parseHeaders, parseWebhookUrl } = await import('../../services/webhooks/webhooks.js');
    const { UsageError } = await import('../../errors.js');
    const id = parseIntegerId(this.args.id, 'ID', 'webhook');
    const url = this.flags.url === undefined ? undefined : parseWebhookUrl(this.flags.url, '--url');
    const headers = this.flags['clear-headers'] ? {} : this.flags.header ? parseHeaders(this.flags.header) : undefined;
    if (url === undefined && headers === undefined) {
      throw new UsageError('Nothing to change: give --url, --header or --clear-headers.');
    }
    const client = await this.client();
    const { changeWebhook } = await import('../../services/webhooks/webhooks.js');
    const webhook = await changeWebhook(client, await this.recorder(), id, { url, headers });
    const { webhookColumns } = await import('../../views/webhooks.js');
    await this.renderList([webhook], webhookColumns);
    return webhook;
  }
}
