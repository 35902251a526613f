import { Args } from '@oclif/core';
import { WEBHOOK_EVENTS } from '../../platform/webhook-events.js';
import { BaseCommand } from '../../cli/base-command.js';
import type { TriggerResult } from '../../services/webhooks/trigger.js';

export default class WebhooksTrigger extends BaseCommand<typeof WebhooksTrigger> {
  static summary = 'Make the sandbox emit an event, by doing the real thing through the API (sandbox only).';
  static description = `order/created creates an order of one in-stock unit; order/updated, order/paid and order/cancelled create one and then change its note, mark it paid or cancel it (stock returned); product/*, category/* and location/* create a throwaway record named "Webhook trigger …" and rename or delete it; fulfillment_order/status_updated creates an order and packs its shipment; fulfillment_order/tracking_event_* create an order, dispatch its shipment and add, change or delete a tracking event on it. Every request is the real one, so the store also emits what it causes (e.g. order/created before order/paid).

Events that no API request causes (order/packed, order/fulfilled, order/edited, order/pending, order/voided, order/unpacked after creating an order; app/suspended, app/resumed, domain/updated, theme/updated, cart/created, cart/updated) are emitted by the sandbox's own POST /sandbox/events, with the documented body (domain/updated has no id; theme/updated carries old_theme and new_theme). app/uninstalled cannot be triggered (it would revoke the CLI's own token; uninstall another app on the sandbox instead, see docs/sandbox.md). Refused on a real store, where it would change real data.

Events: ${WEBHOOK_EVENTS.join(', ')}.`;

  static examples = [
    '<%= config.bin %> webhooks trigger order/created',
    '<%= config.bin %> webhooks trigger product/deleted --json',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    event: Args.string({ description: 'Event to emit, e.g. order/created.', required: true }),
  };

  async run(): Promise<TriggerResult> {
    const { parseDocumentedEvent } = await import('../../services/webhooks/webhooks.js');
    const event = parseDocumentedEvent(this.args.event);
    const ctx = await this.context();
    const client = await this.client();
    const { isSandboxHost } = await import('../../api/webhooks.js');
    if (!ctx.sandbox && !(await isSandboxHost(client, ctx.apiUrl))) {
      const { UsageError } = await import('../../errors.js');
      throw new UsageError(
        `\`store webhooks trigger\` works only on the sandbox, and profile ${ctx.profile} is a real store where it would change real data; use --profile sandbox (after \`store auth login --sandbox\`).`,
      );
    }
    const { triggerEvent } = await import('../../services/webhooks/trigger.js');
    const result = await triggerEvent(client, await this.recorder(), event);
    if (!this.jsonEnabled()) {
      const { terminalSafe } = await import('../../output/format.js');
      this.io.stdout.write(result.actions.map((a) => `${terminalSafe(a)}\n`).join(''));
    }
    return result;
  }
}
