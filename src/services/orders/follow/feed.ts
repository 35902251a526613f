import { open as openFile, stat, truncate } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { StoreError, UsageError } from '../../../errors.js';
import type { StoreClient } from '../../../client/index.js';
import { type Order, storeTimeFromOrders } from '../../../api/orders.js';
import { parseTimestamp } from '../../../platform/timestamps.js';
import { MAX_PER_PAGE } from '../../../platform/pagination.js';
import { type StagedFile, stageFileAtomic } from '../../../util/atomic-file.js';
import { readJsonFile, xdgDir } from '../../../util/files.js';
import { LockBusyError, type ProcessLock, holdProcessLock } from '../../../util/process-lock.js';
import { allOrders } from '../all-orders.js';
import { formatTimestamp } from '../../common/validate.js';
import { type OrderVersion, VersionSpool } from './spool.js';

/**
 * `store orders follow`: an incremental feed of order versions (docs/orders-follow.md). A version is an order
 * keyed by (id, updated_at); each one a poll reads is delivered once across runs, in updated_at order (ties by
 * id), because the checkpoint records, atomically after every delivery, the watermark and the versions delivered
 * within the overlap before it. Each poll asks for the orders updated since the watermark less the overlap, so a
 * version stamped a little in the past (clock skew between the store's servers, a transaction committed late)
 * is still seen, and the record of what was delivered keeps it from coming twice.
 *
 * Times are the store's, never this machine's: a new feed starts at the store's time (the Date header), and the
 * watermark never passes the store's time at the poll that delivered (a record stamped in the future by a server
 * running ahead is delivered, but does not move the feed past the records stamped after it). One run per feed
 * at a time: the feed's lock (util/process-lock.ts) is held from `open` to `close`, and by an --exec command
 * while it runs.
 */

/** How far before the watermark each poll reads again, to absorb clock skew and late commits. */
export const FOLLOW_OVERLAP_MS = 5 * 60_000;

/** The most order records a poll holds in memory; past that they wait in a file beside the checkpoint (spool.ts). */
export const FOLLOW_MEMORY_VERSIONS = 2000;

/** Versions delivered per checkpoint write to stdout or a file (one per write for --exec). */
export const FOLLOW_BATCH = 100;

export type { OrderVersion } from './spool.js';

interface CheckpointFile {
  version: 1;
  apiUrl: string;
  storeId: string;
  /** Where the first run started (ms, the store's time): the lower bound of every poll. */
  start: number;
  /**
   * Every version stamped before it, less the overlap, was delivered (ms): the latest updated_at delivered, or
   * the store's time at the start of a poll that delivered all it read, whichever is later, and never later
   * than the store's time at the poll that delivered.
   */
  watermark?: number;
  /** [id, updated_at ms] of the versions delivered with updated_at at or after the next poll's start. */
  delivered: [number, number][];
  /** With --output: the file and its size once the last delivered batch was written. */
  output?: { path: string; size: number };
}

/** `$XDG_STATE_HOME/store/follow/<profile>-<store id>/<name>.json` */
export function checkpointPath(profile: string, storeId: string, name: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, '_');
  return join(xdgDir('state'), 'follow', `${safe(profile)}-${safe(storeId)}`, `${name}.json`);
}

/** The feed is being followed by another run: one sentence, exit 1. */
export class FeedBusyError extends StoreError {
  constructor(name: string, holderPid: number | undefined) {
    super(
      holderPid === undefined
        ? `Feed "${name}" is held by another run, or by the --exec command of a run that was killed and is still delivering; it is free once that ends (or follow under another --name).`
        : `Feed "${name}" is being followed by another run (pid ${holderPid}); stop it first, or follow under another --name.`,
      1,
    );
  }
}

function versionOf(order: Order, key: { id: number; at: number }): OrderVersion {
  return { ...key, updatedAt: order.updated_at, number: order.number, json: JSON.stringify(order) };
}

function keyOf(order: Order): { id: number; at: number } | undefined {
  const at = parseTimestamp(order.updated_at ?? order.created_at);
  return at ? { id: order.id, at: at.getTime() } : undefined;
}

const floorSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

export interface FollowerOptions {
  client: StoreClient;
  profile: string;
  apiUrl: string;
  storeId: string;
  name: string;
  /** --since (ms): where a new feed starts; undefined: the store's time now. Ignored once the feed has a checkpoint. */
  since?: number;
  /** --output FILE: the file versions are appended to (exactly once: see `recoverOutput`). */
  output?: string;
}

/** A feed and its checkpoint. `poll` reads what is new; `delivered` records what was delivered of it. */
export class OrderFollower {
  /** Whether this run created the feed (no checkpoint before). */
  readonly created: boolean;
  /** The store's time at the start of the current poll (its first answer's Date header), whole seconds. */
  private pollTime: number | undefined;

  private constructor(
    private readonly client: StoreClient,
    readonly path: string,
    private state: CheckpointFile,
    created: boolean,
    private readonly lock: ProcessLock,
    private readonly output?: string,
  ) {
    this.created = created;
  }

  /**
   * Takes the feed's lock (a second run is refused: FeedBusyError) and reads the checkpoint; a new feed writes its
   * own first, so that its start survives a crash. `close` releases the lock.
   */
  static async open(opts: FollowerOptions): Promise<OrderFollower> {
    const path = checkpointPath(opts.profile, opts.storeId, opts.name);
    const lock = await holdProcessLock(path).catch((error: unknown) => {
      throw error instanceof LockBusyError ? new FeedBusyError(opts.name, error.holderPid) : error;
    });
    try {
      const raw = await readJsonFile(path).catch((error: unknown) => {
        throw new StoreError(`Cannot read the checkpoint ${path}: ${(error as Error).message}.`, 1);
      });
      let state: CheckpointFile;
      const created = raw === undefined;
      if (created) {
        const start = opts.since ?? (await storeNow(opts.client)) - FOLLOW_OVERLAP_MS;
        state = { version: 1, apiUrl: opts.apiUrl, storeId: opts.storeId, start, delivered: [] };
      } else {
        state = readCheckpoint(raw, path);
        if (state.storeId !== opts.storeId) {
          throw new UsageError(`The checkpoint ${path} is of store ${state.storeId}, not ${opts.storeId}; give another --name.`);
        }
      }
      const output = opts.output === undefined ? undefined : resolve(opts.output);
      const follower = new OrderFollower(opts.client, path, state, created, lock, output);
      if (output) await follower.recoverOutput(output);
      if (created || output) await follower.save();
      return follower;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Releases the feed's lock. */
  close(): void {
    this.lock.release();
  }

  /** The lock's descriptor, for an --exec command to hold while it runs (a killed run's command keeps the feed). */
  get lockFd(): number | undefined {
    return this.lock.fd;
  }

  /** Where the next poll starts: the watermark less the overlap, or the feed's start. */
  get from(): number {
    const { start, watermark } = this.state;
    return watermark === undefined ? start : Math.max(start, watermark - FOLLOW_OVERLAP_MS);
  }

  /**
   * The versions not yet delivered, oldest first (ties by id), in groups of at most FOLLOW_MEMORY_VERSIONS: one
   * request when nothing changed. The store is read once (`allOrders`, a cursor in created_at: an order updated
   * during the read hides no other), and what was read waits in a VersionSpool (memory, then a file) until it is
   * sorted. Records a group's caller delivers must be reported (`delivered`, `deliveryStaged`) before the next
   * group is asked for; once the last group was delivered, the watermark moves to the store's time at the start
   * of the poll. `stop` ends the read early (nothing is yielded then).
   */
  async *poll(stop?: AbortSignal): AsyncGenerator<OrderVersion[]> {
    const from = this.from;
    const delivered = this.deliveredKeys();
    const spool = new VersionSpool(`${this.path}.spool`, FOLLOW_MEMORY_VERSIONS);
    let undated = 0;
    let storeTime: number | undefined;
    try {
      for await (const page of allOrders(this.client, { updated_at_min: formatTimestamp(new Date(from)) }, { perPage: MAX_PER_PAGE })) {
        // Asked to stop while reading: nothing was delivered yet, so nothing is left half done.
        if (stop?.aborted) return;
        storeTime ??= page.date;
        for (const order of page.orders) {
          const key = keyOf(order);
          if (!key) {
            undated++;
            continue;
          }
          // Older than the window: a store that ignored the filter; delivered before or never to be asked for.
          if (key.at < from || delivered.has(`${key.id}@${key.at}`)) continue;
          await spool.add(versionOf(order, key));
        }
      }
      if (undated > 0) this.client.warn(`${undated} order${undated === 1 ? ' has' : 's have'} no readable updated_at and cannot be followed; left out.`);
      this.pollTime = storeTime === undefined ? undefined : floorSecond(storeTime);
      for await (const group of spool.sorted()) yield group;
    } finally {
      await spool.close();
    }
    // Every version the poll read was delivered: what is stamped before the store's time at its start is behind.
    if (this.pollTime !== undefined && this.pollTime > (this.state.watermark ?? Number.NEGATIVE_INFINITY)) {
      this.state = { ...this.state, watermark: this.pollTime };
      await this.save();
    }
  }

  private deliveredKeys(): Set<string> {
    return new Set(this.state.delivered.map(([id, at]) => `${id}@${at}`));
  }

  /** Records versions as delivered, in the order given, and writes the checkpoint (atomically). */
  async delivered(versions: OrderVersion[], outputSize?: number): Promise<void> {
    (await this.deliveryStaged(versions, outputSize)).publish();
  }

  /**
   * The checkpoint that records `versions` as delivered, written and flushed before they are, so that once they
   * are delivered only one rename is left to do (`publish`, which also makes it this run's state): a SIGKILL
   * between the two repeats them at the next run, and this keeps that instant as short as a rename. `discard`
   * if the delivery failed or was abandoned: the checkpoint, on disk and here, stays what it was.
   */
  async deliveryStaged(versions: OrderVersion[], outputSize?: number): Promise<StagedFile> {
    let next = this.remember(this.state, versions);
    if (outputSize !== undefined && this.output) next = { ...next, output: { path: this.output, size: outputSize } };
    const staged = await this.staged(next);
    return {
      publish: () => {
        staged.publish();
        this.state = next;
      },
      discard: () => staged.discard(),
    };
  }

  /**
   * `state` with `versions` delivered. The watermark moves to their updated_at, but never past the store's time at
   * this poll: a record stamped in the future is delivered and kept in `delivered`, while the next poll still
   * reads from before the store's present. `advance: false` records them without moving the watermark at all.
   */
  private remember(state: CheckpointFile, versions: { id: number; at: number }[], advance = true): CheckpointFile {
    const delivered: [number, number][] = [...state.delivered, ...versions.map((v): [number, number] => [v.id, v.at])];
    if (!advance || versions.length === 0) return { ...state, delivered };
    let watermark = state.watermark;
    for (const { at } of versions) {
      const mark = this.pollTime === undefined ? at : Math.min(at, this.pollTime);
      watermark = Math.max(watermark ?? mark, mark);
    }
    return { ...state, delivered, watermark };
  }

  private async save(): Promise<void> {
    (await this.staged(this.state)).publish();
  }

  private async staged(state: CheckpointFile): Promise<StagedFile> {
    // What is older than the next poll's start is never asked for again.
    const from = state.watermark === undefined ? state.start : Math.max(state.start, state.watermark - FOLLOW_OVERLAP_MS);
    const kept: CheckpointFile = { ...state, delivered: state.delivered.filter(([, at]) => at >= from) };
    // The run's stop signal is its own (the delivery in progress finishes): the staged file goes when the process exits.
    return stageFileAtomic(this.path, `${JSON.stringify(kept)}\n`, 0o600, { signalsHandledByCaller: true });
  }

  /**
   * A kill between appending to the --output file and writing the checkpoint leaves lines in the file the
   * checkpoint does not know: they were delivered, so they are recorded now (without moving the watermark: the
   * next poll reads them again and leaves them out); a line cut short is removed (its version is delivered
   * again, whole). This is what makes --output exactly once under SIGKILL. Only the lines past the recorded
   * size are read.
   */
  private async recoverOutput(path: string): Promise<void> {
    const size = await stat(path).then((s) => (s.isFile() ? s.size : undefined), () => undefined);
    if (size === undefined) return;
    const known = this.state.output?.path === path ? this.state.output.size : undefined;
    if (known === undefined || size < known) {
      // A file this feed never wrote, or one rotated since: its lines are not ours to count.
      this.state = { ...this.state, output: { path, size } };
      return;
    }
    if (size === known) return;
    const handle = await openFile(path, 'r');
    let tail: string;
    try {
      const buffer = Buffer.alloc(size - known);
      await handle.read(buffer, 0, buffer.length, known);
      tail = buffer.toString('utf8');
    } finally {
      await handle.close();
    }
    const end = tail.lastIndexOf('\n') + 1;
    const found: { id: number; at: number }[] = [];
    for (const line of tail.slice(0, end).split('\n')) {
      if (line.trim() === '') continue;
      try {
        const version = keyOf(JSON.parse(line) as Order);
        if (version && typeof version.id === 'number') found.push(version);
      } catch {
        // not a line of ours
      }
    }
    const state = this.remember(this.state, found, false);
    const kept = known + Buffer.byteLength(tail.slice(0, end));
    if (kept < size) await truncate(path, kept);
    this.state = { ...state, output: { path, size: kept } };
  }
}

/**
 * The store's time now, for a new feed's start: the Date header of the cheapest read of the orders. A store that
 * sends none is taken at this machine's time, with a warning (the one place the local clock could enter).
 */
async function storeNow(client: StoreClient): Promise<number> {
  const date = await storeTimeFromOrders(client);
  if (date !== undefined) return date;
  client.warn("The store sent no Date header; the new feed starts at this machine's time, which may differ from the store's.");
  return Date.now();
}

function readCheckpoint(raw: unknown, path: string): CheckpointFile {
  const c = raw as Partial<CheckpointFile> | null;
  const ok =
    c !== null &&
    typeof c === 'object' &&
    c.version === 1 &&
    typeof c.start === 'number' &&
    typeof c.storeId === 'string' &&
    (c.watermark === undefined || typeof c.watermark === 'number') &&
    Array.isArray(c.delivered) &&
    c.delivered.every((d) => Array.isArray(d) && typeof d[0] === 'number' && typeof d[1] === 'number');
  if (!ok) throw new StoreError(`The checkpoint ${path} is not one this version of store wrote; move it away to start the feed again.`, 1);
  return c as CheckpointFile;
}
