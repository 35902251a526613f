import { Flags } from '@oclif/core';
import type { Webhook } from '../../api/webhooks.js';
import { BaseCommand } from '../../cli/base-command.js';
import { csvFlag } from '../../flags/common.js';

export default class WebhooksList extends BaseCommand<typeof WebhooksList> {
  static summary = "List the webhooks this app registered on the store (the table shows header names; --json their values).";
  static examples = ['<%= config.bin %> webhooks list', '<%= config.bin %> webhooks list --event order/created --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    event: Flags.string({ description: 'Only the webhooks of this event.' }),
    csv: csvFlag,
  };

  async run(): Promise<Webhook[]> {
    const { parseWebhookEvent } = await import('../../services/webhooks/webhooks.js');
    const { webhookColumns } = await import('../../views/webhooks.js');
    const event = this.flags.event === undefined ? undefined : parseWebhookEvent(this.flags.event, '--event');
    const client = await this.client();
    const { listWebhooks } = await import('../../api/webhooks.js');
    const webhooks = (await listWebhooks(client)).filter((w) => event === undefined || w.event === event);
    await this.renderList(webhooks, webhookColumns, { csv: this.flags.csv });
    if (webhooks.length === 0 && !this.jsonEnabled()) {
      this.note(event ? `No webhook receives ${event}.` : 'No webhooks yet; add one with `store webhooks add EVENT URL`.');
    }
    return webhooks;
  }
}
