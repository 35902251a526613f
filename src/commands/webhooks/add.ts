import { Args, Flags } from '@oclif/core';
import type { Webhook } from '../../api/webhooks.js';
import { WEBHOOK_EVENTS } from '../../platform/webhook-events.js';
import { BaseCommand } from '../../cli/base-command.js';
import { jsonFields } from '../../api/json-fields.js';

export default class WebhooksAdd extends BaseCommand<typeof WebhooksAdd> {
  static summary = 'Register a webhook: the store POSTs {store_id, event, id} to URL on every EVENT.';
  static description = `Each notification carries the headers given with --header, an x-linkedstore-hmac-sha256 signature (HMAC-SHA256 of the raw body keyed with the app's client secret) and an x-store-delivery-id that stays the same when the store retries it. URL must be https; plain http is accepted only on loopback.

EVENT is any resource/action name. The documented events are ${WEBHOOK_EVENTS.join(', ')}. The platform adds more over time, so another well-formed name is sent with a one-line warning (and the closest documented event) and the store decides.`;

  static examples = [
    '<%= config.bin %> webhooks add order/created https://example.com/hooks/orders',
    '<%= config.bin %> webhooks add order/paid https://example.com/hooks/orders --header X-Api-Key=abc123 --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;
  static jsonFields = jsonFields.webhook;

  static args = {
    event: Args.string({ description: 'Event to receive, resource/action, e.g. order/created (see the list above).', required: true }),
    url: Args.string({ description: 'Receiver URL (https; http only on 127.0.0.1, ::1 or localhost).', required: true }),
  };

  static flags = {
    header: Flags.string({ description: 'Header sent with every notification, as NAME=VALUE; repeatable.', multiple: true, multipleNonGreedy: true }),
  };

  async run(): Promise<Webhook> {
    const { parseHeaders, parseWebhookEvent, parseWebhookUrl, undocumentedEvent } = await import('../../services/webhooks/webhooks.js');
    const event = parseWebhookEvent(this.args.event);
    const url = parseWebhookUrl(this.args.url);
    const headers = parseHeaders(this.flags.header ?? []);
    const warning = undocumentedEvent(event);
    if (warning) this.warnUser(warning);
    const client = await this.client();
    const { addWebhook } = await import('../../services/webhooks/webhooks.js');
    const webhook = await addWebhook(client, await this.recorder(), { event, url, headers }).catch(async (error: unknown) => {
      const { ApiError } = await import('../../client/errors.js');
      // The store's 422 lists every event it knows; the warning above already said what was probably meant.
      if (warning && error instanceof ApiError && error.status === 422 && error.fieldErrors?.event) {
        throw new ApiError(`The store refused the event ${event} (HTTP 422: not one it knows).`, error, error.exitCode);
      }
      throw error;
    });
    const { webhookColumns } = await import('../../views/webhooks.js');
    await this.renderList([webhook], webhookColumns);
    return webhook;
  }
}
