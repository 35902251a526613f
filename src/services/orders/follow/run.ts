import { EventEmitter } from 'node:events';
import { NetworkError, RateLimitError, ServerError } from '../../../client/errors.js';
import { UsageError } from '../../../errors.js';
import { checkWritable } from '../../../util/atomic-file.js';
import { FOLLOW_BATCH, type FollowerOptions, OrderFollower, type OrderVersion } from './feed.js';
import { appendToOutput, execForVersion, versionLines } from './sinks.js';

/**
 * `store orders follow`'s loop (docs/orders-follow.md), as `webhooks listen`'s is in its service: the polls, the
 * wait between them, the retry of a poll that failed for a reason that passes, the deliveries to the sink
 * (stdout, --output FILE or --exec CMD), each recorded in the checkpoint, and the stop asked by a signal. It never
 * prints: it emits what happened (FollowEvents) and returns how the run ended; the command renders both.
 *
 * The stop (`FollowOptions.stop`, aborted by the first Ctrl-C or SIGTERM) never cuts a delivery: the one in
 * progress (a batch written to stdout or the file, an --exec command) finishes and is recorded, then the run
 * ends; a read in progress ends at once (nothing was delivered of it). The checkpoint then says exactly what was
 * delivered. A second signal is the command's (it exits at once): an --exec command still running is sent
 * SIGTERM on the way out and its version stays undelivered (sinks.ts).
 */

export interface FollowOptions extends Omit<FollowerOptions, 'output'> {
  /** Append the versions to this file (exactly once) instead of stdout. */
  output?: string;
  /** Run this shell command for each version, its JSON on stdin. */
  exec?: string;
  /** Poll once, then end. */
  once: boolean;
  /** Between polls (ms). */
  interval: number;
  /** Aborted by the first stop signal: the delivery in progress finishes, then the run ends. */
  stop: AbortSignal;
  /** The stdout sink: resolves once the versions were taken (written to the pipe or file), rejects when they cannot be. */
  toStdout: (versions: OrderVersion[]) => Promise<void>;
  /** Where --exec's own output goes. */
  execStreams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
}

export type FollowEvents = {
  /** A feed without a checkpoint was created: it starts at `from` (ms, the store's time); its checkpoint is `path`. */
  created: [{ name: string; from: number; path: string }];
  /** A poll ended: `delivered` versions were delivered and recorded in the checkpoint; `stopped` when cut short by the stop. */
  polled: [{ delivered: number; stopped: boolean }];
  /** A poll of a long-running follower failed for a reason that may pass (network, 5xx, 429): the next poll tries again. */
  retrying: [{ message: string }];
};

export interface FollowOutcome {
  /** The run ended because it was asked to stop (a signal), not because `once` polled. */
  stopped: boolean;
}

/** Runs the feed until `stop` (or one poll with `once`); `subscribe` sees its events from the start. */
export async function followOrders(options: FollowOptions, subscribe?: (events: EventEmitter<FollowEvents>) => void): Promise<FollowOutcome> {
  const events = new EventEmitter<FollowEvents>();
  subscribe?.(events);
  if (options.output !== undefined) {
    await checkWritable(options.output).catch((error: Error) => {
      throw new UsageError(`--output: ${error.message}`);
    });
  }
  const follower = await OrderFollower.open(options);
  try {
    if (follower.created) events.emit('created', { name: options.name, from: follower.from, path: follower.path });
    const { stop } = options;
    while (!stop.aborted) {
      await pollOnce(follower, options, events);
      if (options.once || stop.aborted) break;
      await waitOrStop(options.interval, stop);
    }
    return { stopped: stop.aborted };
  } finally {
    follower.close();
  }
}

/** Resolves after `ms`, or at once when `stop` is aborted. */
function waitOrStop(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stop.addEventListener('abort', done, { once: true });
  });
}

/** One poll and its deliveries; a transient failure of a long-running follower waits for the next poll. */
async function pollOnce(follower: OrderFollower, options: FollowOptions, events: EventEmitter<FollowEvents>): Promise<void> {
  let delivered = 0;
  try {
    for await (const versions of follower.poll(options.stop)) {
      delivered += await deliver(follower, versions, options);
      if (options.stop.aborted) break;
    }
  } catch (error) {
    const transient = error instanceof NetworkError || error instanceof ServerError || error instanceof RateLimitError;
    if (options.once || !transient) throw error;
    events.emit('retrying', { message: (error as Error).message });
  }
  events.emit('polled', { delivered, stopped: options.stop.aborted });
}

/** Delivers versions in order, recording each batch in the checkpoint once delivered; returns how many were. */
async function deliver(follower: OrderFollower, versions: OrderVersion[], options: FollowOptions): Promise<number> {
  const { exec, output, stop } = options;
  const batch = exec === undefined ? FOLLOW_BATCH : 1;
  let delivered = 0;
  for (let i = 0; i < versions.length && !stop.aborted; i += batch) {
    const chunk = versions.slice(i, i + batch);
    if (output !== undefined) {
      await follower.delivered(chunk, await appendToOutput(output, versionLines(chunk)));
    } else {
      // The checkpoint is flushed first, so that only its rename follows the delivery (see deliveryStaged).
      const checkpoint = await follower.deliveryStaged(chunk);
      try {
        if (exec !== undefined) await execForVersion(exec, chunk[0]!, { ...options.execStreams, lockFd: follower.lockFd });
        else await options.toStdout(chunk);
      } catch (error) {
        await checkpoint.discard();
        throw error;
      }
      checkpoint.publish();
    }
    delivered += chunk.length;
  }
  return delivered;
}
