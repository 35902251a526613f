import { readFile, stat, truncate } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { StoreError, UsageError } from '../../../errors.js';
import type { StoreClient } from '../../../client/index.js';
import type { Order } from '../../../api/orders.js';
import { parseTimestamp } from '../../../platform/timestamps.js';
import { MAX_PER_PAGE } from '../../../platform/pagination.js';
import { type StagedFile, stageFileAtomic } from '../../../util/atomic-file.js';
import { readJsonFile, xdgDir } from '../../../util/files.js';
import { allOrders } from '../all-orders.js';
import { formatTimestamp } from '../../common/validate.js';

/**
 * `store orders follow`: an incremental feed of order versions (docs/orders-follow.md). A version is an order
 * keyed by (id, updated_at); each is delivered once across runs, in updated_at order (ties by id), because the
 * checkpoint records, atomically after every delivery, the latest updated_at delivered (the watermark) and the
 * versions delivered within the overlap before it. Each poll asks for the orders updated since the watermark
 * less the overlap, so a version stamped a little in the past (clock skew between the store's servers, a
 * transaction committed late) is still seen, and the record of what was delivered keeps it from coming twice.
 */

/** How far before the watermark each poll reads again, to absorb clock skew and late commits. */
export const FOLLOW_OVERLAP_MS = 5 * 60_000;

/** The most order records a poll holds in memory; past that it reads in updated_at windows (see `poll`). */
export const FOLLOW_MEMORY_VERSIONS = 2000;

/** Versions delivered per checkpoint write to stdout or a file (one per write for --exec). */
export const FOLLOW_BATCH = 100;

/**
 * One version of an order: its key, and the record as the store sent it, kept as its JSON text (a first run
 * may hold every order of the store until they are sorted: text is a fraction of the parsed record's memory).
 */
export interface OrderVersion {
  id: number;
  /** updated_at in ms (both offset forms read); created_at when the store sent no updated_at. */
  at: number;
  /** updated_at as sent. */
  updatedAt?: string;
  number?: number;
  /** The record, as JSON. */
  json: string;
}

interface CheckpointFile {
  version: 1;
  apiUrl: string;
  storeId: string;
  /** Where the first run started (ms): the lower bound until something is delivered. */
  start: number;
  /** The latest updated_at delivered (ms). */
  watermark?: number;
  /** [id, updated_at ms] of the versions delivered with updated_at within the overlap before the watermark. */
  delivered: [number, number][];
  /** With --output: the file and its size once the last delivered batch was written. */
  output?: { path: string; size: number };
}

/** `$XDG_STATE_HOME/store/follow/<profile>-<store id>/<name>.json` */
export function checkpointPath(profile: string, storeId: string, name: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, '_');
  return join(xdgDir('state'), 'follow', `${safe(profile)}-${safe(storeId)}`, `${name}.json`);
}

/**
 * Every order updated at or after `since` (and at or before `until`; ISO 8601), as the pages arrive: the one
 * read of the feed. It reads
 * past the platform's 10,000-result cap per query (docs/platform.md §9) through the created_at windows of
 * `allOrders`; a poll that finds nothing is its one request.
 */
export async function* ordersUpdatedSince(client: StoreClient, since: string, until?: string): AsyncGenerator<Order[]> {
  const filters = { updated_at_min: since, ...(until === undefined ? {} : { updated_at_max: until }) };
  for await (const page of allOrders(client, filters, { perPage: MAX_PER_PAGE })) yield page.orders;
}

function versionOf(order: Order, key: { id: number; at: number }): OrderVersion {
  return { ...key, updatedAt: order.updated_at, number: order.number, json: JSON.stringify(order) };
}

/**
 * [start, end) updated_at windows over sorted keys, each of at most FOLLOW_MEMORY_VERSIONS versions unless one
 * timestamp alone has more (never split); the last is open-ended, so versions made since are read too.
 */
function windows(keys: { at: number }[]): [number, number | undefined][] {
  const cuts: [number, number | undefined][] = [];
  let start = keys[0]!.at;
  let count = 0;
  for (let i = 0; i < keys.length; i++) {
    if (count >= FOLLOW_MEMORY_VERSIONS && keys[i]!.at > start && keys[i]!.at !== keys[i - 1]!.at) {
      cuts.push([start, keys[i]!.at]);
      start = keys[i]!.at;
      count = 0;
    }
    count++;
  }
  cuts.push([start, undefined]);
  return cuts;
}

function keyOf(order: Order): { id: number; at: number } | undefined {
  const at = parseTimestamp(order.updated_at ?? order.created_at);
  return at ? { id: order.id, at: at.getTime() } : undefined;
}

const byTime = (a: { id: number; at: number }, b: { id: number; at: number }) => a.at - b.at || a.id - b.id;

export interface FollowerOptions {
  client: StoreClient;
  profile: string;
  apiUrl: string;
  storeId: string;
  name: string;
  /** --since (ms): where a new feed starts; undefined: now. Ignored once the feed has a checkpoint. */
  since?: number;
  now: () => number;
  /** --output FILE: the file versions are appended to (exactly once: see `recoverOutput`). */
  output?: string;
}

/** A feed and its checkpoint. `poll` reads what is new; `delivered` records what was delivered of it. */
export class OrderFollower {
  /** Whether this run created the feed (no checkpoint before). */
  readonly created: boolean;
  private constructor(
    private readonly client: StoreClient,
    readonly path: string,
    private state: CheckpointFile,
    created: boolean,
    private readonly output?: string,
  ) {
    this.created = created;
  }

  /** Reads the checkpoint (a new feed writes its own first, so its start survives a crash). */
  static async open(opts: FollowerOptions): Promise<OrderFollower> {
    const path = checkpointPath(opts.profile, opts.storeId, opts.name);
    const raw = await readJsonFile(path).catch((error: unknown) => {
      throw new StoreError(`Cannot read the checkpoint ${path}: ${(error as Error).message}.`, 1);
    });
    let state: CheckpointFile;
    const created = raw === undefined;
    if (created) {
      state = { version: 1, apiUrl: opts.apiUrl, storeId: opts.storeId, start: opts.since ?? opts.now() - FOLLOW_OVERLAP_MS, delivered: [] };
    } else {
      state = readCheckpoint(raw, path);
      if (state.storeId !== opts.storeId) {
        throw new UsageError(`The checkpoint ${path} is of store ${state.storeId}, not ${opts.storeId}; give another --name.`);
      }
    }
    const output = opts.output === undefined ? undefined : resolve(opts.output);
    const follower = new OrderFollower(opts.client, path, state, created, output);
    if (output) await follower.recoverOutput(output);
    if (created || output) await follower.save();
    return follower;
  }

  /** Where the next poll starts: the watermark less the overlap, or the feed's start. */
  get from(): number {
    const { start, watermark } = this.state;
    return watermark === undefined ? start : Math.max(start, watermark - FOLLOW_OVERLAP_MS);
  }

  /**
   * The versions not yet delivered, oldest first (ties by id), in groups: one request when nothing changed.
   * A poll holds at most FOLLOW_MEMORY_VERSIONS records: past that (a first run far back, a long outage), it
   * keeps only the keys it read, cuts them into updated_at windows of at most that many versions, and reads
   * each window again to deliver it (twice the requests for that poll, memory bounded whatever the store size).
   * Records a group's caller delivers must be reported with `delivered` before the next group is asked for.
   */
  async *poll(): AsyncGenerator<OrderVersion[]> {
    const from = this.from;
    let fresh: Map<string, OrderVersion> | undefined = new Map();
    const keys: { id: number; at: number }[] = [];
    let undated = 0;
    const delivered = this.deliveredKeys();
    for await (const orders of ordersUpdatedSince(this.client, formatTimestamp(new Date(from)))) {
      for (const order of orders) {
        const key = keyOf(order);
        if (!key) {
          undated++;
          continue;
        }
        // Older than the window: a store that ignored the filter; delivered before or never to be asked for.
        if (key.at < from || delivered.has(`${key.id}@${key.at}`)) continue;
        keys.push(key);
        fresh?.set(`${key.id}@${key.at}`, versionOf(order, key));
        if (fresh && fresh.size > FOLLOW_MEMORY_VERSIONS) fresh = undefined;
      }
    }
    if (undated > 0) this.client.warn(`${undated} order${undated === 1 ? ' has' : 's have'} no readable updated_at and cannot be followed; left out.`);
    if (fresh) {
      if (fresh.size > 0) yield [...fresh.values()].sort(byTime);
      return;
    }
    keys.sort(byTime);
    for (const [start, end] of windows(keys)) {
      const known = this.deliveredKeys();
      const group = new Map<string, OrderVersion>();
      const until = end === undefined ? undefined : formatTimestamp(new Date(end));
      for await (const orders of ordersUpdatedSince(this.client, formatTimestamp(new Date(start)), until)) {
        for (const order of orders) {
          const key = keyOf(order);
          // A version at the window's end belongs to the next window, so a second is never split.
          if (!key || key.at < start || (end !== undefined && key.at >= end) || known.has(`${key.id}@${key.at}`)) continue;
          group.set(`${key.id}@${key.at}`, versionOf(order, key));
        }
      }
      if (group.size > 0) yield [...group.values()].sort(byTime);
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
   * are delivered only one rename is left to do (`publish`): a SIGKILL between the two repeats them at the next
   * run, and this keeps that instant as short as a rename. `discard` if the delivery failed.
   */
  async deliveryStaged(versions: OrderVersion[], outputSize?: number): Promise<StagedFile> {
    for (const v of versions) this.remember(v.id, v.at);
    if (outputSize !== undefined && this.output) this.state.output = { path: this.output, size: outputSize };
    return this.staged();
  }

  private remember(id: number, at: number): void {
    this.state.watermark = Math.max(this.state.watermark ?? at, at);
    this.state.delivered.push([id, at]);
  }

  private async save(): Promise<void> {
    (await this.staged()).publish();
  }

  private async staged(): Promise<StagedFile> {
    // What is older than the next poll's window is never asked for again.
    const from = this.from;
    this.state.delivered = this.state.delivered.filter(([, at]) => at >= from);
    return stageFileAtomic(this.path, `${JSON.stringify(this.state)}\n`);
  }

  /**
   * A kill between appending to the --output file and writing the checkpoint leaves lines in the file the
   * checkpoint does not know: they were delivered, so they are recorded now; a line cut short is removed (its
   * version is delivered again, whole). This is what makes --output exactly once under SIGKILL.
   */
  private async recoverOutput(path: string): Promise<void> {
    const size = await stat(path).then((s) => (s.isFile() ? s.size : undefined), () => undefined);
    if (size === undefined) return;
    const known = this.state.output?.path === path ? this.state.output.size : undefined;
    if (known === undefined || size < known) {
      // A file this feed never wrote, or one rotated since: its lines are not ours to count.
      this.state.output = { path, size };
      return;
    }
    if (size === known) return;
    const tail = (await readFile(path)).subarray(known).toString('utf8');
    const end = tail.lastIndexOf('\n') + 1;
    for (const line of tail.slice(0, end).split('\n')) {
      if (line.trim() === '') continue;
      try {
        const version = keyOf(JSON.parse(line) as Order);
        if (version && typeof version.id === 'number') this.remember(version.id, version.at);
      } catch {
        // not a line of ours
      }
    }
    const kept = known + Buffer.byteLength(tail.slice(0, end));
    if (kept < size) await truncate(path, kept);
    this.state.output = { path, size: kept };
  }
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
