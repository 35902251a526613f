import { Flags } from '@oclif/core';
import { WEBHOOK_EVENTS } from '../../platform/webhook-events.js';
import { BaseCommand } from '../../cli/base-command.js';
import { watchStopSignals } from '../../cli/signals.js';
import { notificationLine, readyLine } from '../../views/webhooks.js';
import { terminalWidth } from '../../output/terminal.js';
import { SIGNAL_EXIT_CODES } from '../../util/process.js';
import type { ReceivedNotification, WebhookListener } from '../../services/webhooks/listener.js';

export default class WebhooksListen extends BaseCommand<typeof WebhooksListen> {
  static summary = 'Receive webhook notifications on this machine and print one line per event.';
  static description = `Starts a receiver on 127.0.0.1 that checks each notification's x-linkedstore-hmac-sha256 signature with the app's client secret (the profile's, or STORE_CLIENT_SECRET) and refuses a bad or missing one with 401, checks its shape, drops duplicate deliveries, fetches the order, product, category or location, and only then answers 200. Each event is printed on stdout (time, event, id and a summary such as order number, status and total), or as one JSON object per line with --json; --forward-to also posts the original request (headers and raw body, so the signature still verifies) to your own endpoint, and the store retries while that endpoint does not answer 2xx.

On the sandbox (the sandbox profile, or any profile whose API host answers /sandbox/status) it registers a webhook per event (every event, or those of --events) pointing at the receiver and removes them when stopped; --no-register skips that. A real store cannot reach 127.0.0.1: expose the port through a tunnel and register the tunnel's https URL with \`store webhooks add\`.

Ctrl-C or SIGTERM removes the registered webhooks and exits 0 (stopping is how a listener ends; nothing is left half done). One line on stderr says where it listens and how many webhooks it registered (--debug lists them); on a terminal each event's line is cut to the terminal's width.

Documented events: ${WEBHOOK_EVENTS.join(', ')}. --events also takes other resource/action names (with a warning); some events (domain/updated) carry no id, and their line shows "-" in its place.`;

  static examples = [
    '<%= config.bin %> webhooks listen',
    '<%= config.bin %> webhooks listen --events order/created,order/paid --json',
    '<%= config.bin %> webhooks listen --port 8999 --forward-to http://localhost:3000/webhooks',
  ];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static flags = {
    port: Flags.integer({ description: 'Port to listen on (default: a free one).', min: 0, max: 65535 }),
    events: Flags.string({ description: 'Only these events, comma-separated or repeated (default: every event).', multiple: true, multipleNonGreedy: true }),
    'forward-to': Flags.string({ description: 'Also send each notification, unchanged, to this URL.' }),
    register: Flags.boolean({
      description: 'Register webhooks pointing at the receiver, removed on exit (default: on the sandbox only).',
      allowNo: true,
    }),
  };

  async run(): Promise<void> {
    const { parseWebhookEvents, undocumentedEvent } = await import('../../services/webhooks/webhooks.js');
    const { parseHttpUrl } = await import('../../services/common/validate.js');
    const events = this.flags.events ? parseWebhookEvents(this.flags.events) : undefined;
    for (const event of events ?? []) {
      const warning = undocumentedEvent(event);
      if (warning) this.warnUser(warning);
    }
    const forwardTo = this.flags['forward-to'] === undefined ? undefined : parseHttpUrl('--forward-to', this.flags['forward-to'], 'http://localhost:3000/webhooks');
    const ctx = await this.context();
    const secret = process.env.STORE_CLIENT_SECRET || ctx.clientSecret;
    if (!secret) {
      const { AuthError } = await import('../../client/errors.js');
      throw new AuthError(
        `Profile ${ctx.profile} has no client secret to check signatures with; set STORE_CLIENT_SECRET or run \`store auth login --profile ${ctx.profile}\` with the app's client secret.`,
      );
    }
    const client = await this.client();
    const { isSandboxHost } = await import('../../api/webhooks.js');
    const register = this.flags.register ?? (ctx.sandbox || (await isSandboxHost(client, ctx.apiUrl)));

    const { startListening } = await import('../../services/webhooks/listener.js');
    const session = await startListening({
      recorder: await this.recorder(),
      client,
      storeId: Number(ctx.storeId),
      secret,
      events,
      forwardTo,
      port: this.flags.port,
      register,
      subscribe: (listener) => this.show(listener),
    });
    this.note(readyLine(session.url, session.registered.length, { register, forwardTo }));
    // Which webhook is which: for --debug (the store's `webhooks list` shows them too).
    if (this.flags.debug) for (const w of session.registered) this.note(`Registered ${w.event} (${w.id}).`);

    // A second Ctrl-C while the webhooks are being removed gives up on the removal.
    const signal = await watchStopSignals((name, count) => {
      if (count > 1 && name === 'SIGINT') process.exit(SIGNAL_EXIT_CODES.SIGINT);
    }).first;
    this.note(`Stopping (${signal}).`);
    const { removed, failed } = await session.close();
    if (removed.length > 0) this.note(`Removed ${removed.length} webhook${removed.length === 1 ? '' : 's'}.`);
    if (failed.length > 0) {
      this.warnUser(`Could not remove webhook${failed.length === 1 ? '' : 's'} ${failed.map((f) => f.id).join(', ')} (${failed[0]!.message}); delete them with \`store webhooks delete ID --yes\`.`);
      process.exitCode = 1;
    }
  }

  /** Events on stdout as they arrive; everything else about requests on stderr. */
  private show(listener: WebhookListener): void {
    const json = this.jsonEnabled();
    const width = this.io.stdout.isTTY ? terminalWidth() : undefined;
    listener.on('notification', (n: ReceivedNotification) => {
      if (json) {
        this.io.stdout.write(`${JSON.stringify(n)}\n`);
        return;
      }
      this.io.stdout.write(notificationLine(n, width));
    });
    listener.on('refused', ({ status, reason }) => this.note(`Refused a request with ${status}: ${reason}.`));
    const about = (event: string, id: number | string | undefined) => (id === undefined ? event : `${event} ${id}`);
    listener.on('duplicate', ({ event, id, delivery_id: deliveryId }) =>
      this.note(`Ignored a duplicate of ${about(event, id)}${deliveryId ? ` (delivery ${deliveryId})` : ''}.`),
    );
    listener.on('ignored', ({ event, id, reason }) => this.note(`Ignored ${about(event, id)}: ${reason}.`));
    listener.on('problem', ({ event, id, message }) =>
      this.warnUser(`${event ? `${about(event, id)}: ` : ''}${message.replace(/\.+$/, '')}.`),
    );
  }
}
