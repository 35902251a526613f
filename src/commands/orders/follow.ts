import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import type { EventEmitter } from 'node:events';
import { DATE_FORMS } from '../../services/common/validate.js';
import type { Order } from '../../api/orders.js';
import type { OrderVersion } from '../../services/orders/follow/feed.js';
import type { FollowEvents } from '../../services/orders/follow/run.js';

export default class OrdersFollow extends BaseCommand<typeof OrdersFollow> {
  static summary = 'Follow the orders that change: every new version of an order, once, oldest first.';
  static description = `An incremental feed for integrations (docs/orders-follow.md). Each poll reads the orders updated since the last one delivered, less a 5-minute overlap that absorbs clock skew, and delivers every version it reads that was not delivered before (a version is an order's id and updated_at), in updated_at order (ties by id): as one JSON object per line on stdout (one line per version, to read, at a terminal), appended to --output FILE, or given to --exec CMD on its standard input. A durable checkpoint per profile, store and --name ($XDG_STATE_HOME/store/follow/) records, atomically after each delivery, what was delivered, so the next poll or run goes on from there: nothing is skipped and nothing is delivered twice. One run per feed at a time: a second one is refused (exit 1). Times are the store's (its Date header), never this machine's.

When a version counts as delivered: on stdout, once its line was written (a kill between the write and the checkpoint repeats at most the last 100 lines); with --output, once appended and flushed to disk — exactly once even under SIGKILL (the next run reads back what the checkpoint missed); with --exec, once CMD exited 0 (at least once: CMD should ignore an (id, updated_at) it has seen). CMD runs through the shell (/bin/sh -c) with the order's JSON on stdin and STORE_ORDER_ID, STORE_ORDER_NUMBER, STORE_ORDER_UPDATED_AT set, its output passed on as the reader takes it; a non-zero exit stops the feed with exit 1 and that version is offered again on the next run.

The first run starts at --since (ISO 8601, YYYY-MM-DD, today, yesterday, 7d, 12h: see the flag), or the store's time now; later runs ignore --since. Without --once it polls every --interval (30s) until Ctrl-C or SIGTERM, which end it with exit 0 after the delivery in progress (an --exec command is let finish; a second Ctrl-C ends it at once, stopping the command); --once polls once (exit 130 or 143 if interrupted). A poll that finds nothing new costs one request. At a terminal, a line on stderr after each poll says what was delivered.`;

  static examples = [
    '<%= config.bin %> orders follow --once --since 2026-11-01 >> orders.ndjson',
    '<%= config.bin %> orders follow --once --since 7d | jq -c \'{id, number, status, updated_at}\'',
    '<%= config.bin %> orders follow --name erp --interval 1m --exec ./push-to-erp.sh',
    '<%= config.bin %> orders follow --name audit --output orders.ndjson --once',
  ];

  static flags = {
    name: Flags.string({ description: 'Name of the feed: each name keeps its own checkpoint.', default: 'default' }),
    since: Flags.string({ description: `Where a new feed starts: ${DATE_FORMS}; default now. Ignored once the feed has a checkpoint.` }),
    once: Flags.boolean({ description: 'Poll once and exit (for cron).', exclusive: ['interval'] }),
    interval: Flags.string({ description: 'Time between polls: 30s, 5m, 1h (default 30s).' }),
    exec: Flags.string({ description: "Run this shell command for each version, with the order's JSON on stdin.", exclusive: ['output'] }),
    output: Flags.string({ description: 'Append the versions to this file (exactly once, even after a kill) instead of stdout.' }),
    ndjson: Flags.boolean({ description: 'One JSON object per version on stdout even at a terminal (the default elsewhere).', exclusive: ['exec', 'output'] }),
  };

  async run(): Promise<void> {
    const { parseFeedName, parseInterval, parseSince } = await import('../../services/orders/follow/input.js');
    const name = parseFeedName(this.flags.name);
    const since = this.flags.since === undefined ? undefined : parseSince(this.flags.since);
    const interval = this.flags.interval === undefined ? 30_000 : parseInterval(this.flags.interval);
    // A first run far back reads the whole store: keep the heap near what is live (as orders list --all).
    const { limitHeapGrowth } = await import('../../cli/heap.js');
    limitHeapGrowth();
    const ctx = await this.context();
    const client = await this.client();
    const { followOrders } = await import('../../services/orders/follow/run.js');
    const { trapInterrupt } = await import('../../cli/signals.js');
    // The first signal ends the run after the delivery in progress, a second one at once.
    const trap = trapInterrupt(
      () => true,
      (signal) => (this.io.stderr.isTTY ? `Stopping after the delivery in progress (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to stop at once)…\n` : undefined),
    );
    try {
      const { stopped } = await followOrders(
        {
          client,
          profile: ctx.profile,
          apiUrl: ctx.apiUrl,
          storeId: ctx.storeId,
          name,
          since,
          output: this.flags.output,
          exec: this.flags.exec,
          once: this.flags.once,
          interval,
          stop: trap.signal,
          toStdout: await this.stdoutSink(),
          execStreams: { stdout: this.io.stdout, stderr: this.io.stderr },
        },
        (feed) => this.show(feed),
      );
      // A follower ends by being stopped; a single poll cut short says so.
      if (stopped && this.flags.once) process.exitCode = trap.exitCode();
    } finally {
      trap.dispose();
    }
  }

  private show(feed: EventEmitter<FollowEvents>): void {
    feed.on('created', ({ name, from, path }) => this.note(`New feed "${name}": orders updated since ${new Date(from).toISOString()} (checkpoint ${path}).`));
    feed.on('retrying', ({ message }) => this.warnUser(`${message.replace(/\.+$/, '')}; trying again at the next poll.`));
    // At a terminal, what each poll delivered; a poll that found nothing says so only when it is the run's one poll.
    if (!this.io.stderr.isTTY) return;
    feed.on('polled', ({ delivered, stopped }) => {
      if (delivered === 0 && !this.flags.once && !stopped) return;
      const what = delivered === 0 ? 'No new versions' : `${delivered} version${delivered === 1 ? '' : 's'} delivered, checkpoint saved`;
      this.note(stopped ? `Stopped: ${what.charAt(0).toLowerCase()}${what.slice(1)}.` : `${what}.`);
    });
  }

  /**
   * Versions on stdout: one JSON object a line, or at a terminal one line to read per version (--ndjson keeps the
   * JSON). Resolves once stdout took them (its pipe or file), rejects on a closed pipe.
   */
  private async stdoutSink(): Promise<(versions: OrderVersion[]) => Promise<void>> {
    const { versionLines } = await import('../../services/orders/follow/sinks.js');
    let render = versionLines;
    if (this.io.stdout.isTTY && !this.flags.ndjson) {
      const { orderVersionLine } = await import('../../views/orders.js');
      const { terminalWidth } = await import('../../output/terminal.js');
      render = (versions) => versions.map((v) => orderVersionLine(JSON.parse(v.json) as Order, terminalWidth(this.io.stdout))).join('');
    }
    return (versions) =>
      new Promise((resolve, reject) => {
        this.io.stdout.write(render(versions), (error) => (error ? reject(error) : resolve()));
      });
  }
}
