import { type FileHandle, open, rm } from 'node:fs/promises';

/**
 * The versions one poll read, until they are sorted and delivered. A poll reads the store in creation order and
 * delivers in updated_at order, so it must hold what it read first: up to `limit` versions in memory; past that
 * (a first run with --since far back, a follower stopped for days) their records go to a file beside the
 * checkpoint and only their keys stay in memory (about 60 bytes a version), to be read back in order. One read
 * of the store, whatever its size: the versions delivered are exactly those the poll read, and memory stays
 * bounded. The file is the feed's own (its lock keeps other runs out), emptied at each poll and removed after.
 */

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

interface Spooled {
  id: number;
  at: number;
  updatedAt?: string;
  number?: number;
  offset: number;
  length: number;
}

/** How much the spool gathers before a write. */
const WRITE_BYTES = 1 << 20;

const byTime = (a: { id: number; at: number }, b: { id: number; at: number }) => a.at - b.at || a.id - b.id;
const keyOf = (v: { id: number; at: number }) => `${v.id}@${v.at}`;

export class VersionSpool {
  private memory: Map<string, OrderVersion> | undefined = new Map();
  private spooled: Spooled[] = [];
  private file: FileHandle | undefined;
  private size = 0;
  /** Records not yet written: written together, about a megabyte at a time. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly path: string,
    private readonly limit: number,
  ) {}

  /** How many versions are held. */
  get count(): number {
    return this.memory ? this.memory.size : this.spooled.length;
  }

  /**
   * Holds a version. The same key twice (which the poll's read never yields: allOrders lists each order once) is
   * held once in memory, twice past it.
   */
  async add(version: OrderVersion): Promise<void> {
    if (this.memory) {
      this.memory.set(keyOf(version), version);
      if (this.memory.size > this.limit) await this.spill();
      return;
    }
    await this.write(version);
  }

  /** The versions held, oldest updated_at first (ties by id), in groups of at most `limit`. */
  async *sorted(): AsyncGenerator<OrderVersion[]> {
    if (this.memory) {
      if (this.memory.size > 0) yield [...this.memory.values()].sort(byTime);
      return;
    }
    await this.flush();
    this.spooled.sort(byTime);
    for (let i = 0; i < this.spooled.length; i += this.limit) {
      const group: OrderVersion[] = [];
      for (const s of this.spooled.slice(i, i + this.limit)) {
        const buffer = Buffer.alloc(s.length);
        await this.file!.read(buffer, 0, s.length, s.offset);
        group.push({ id: s.id, at: s.at, updatedAt: s.updatedAt, number: s.number, json: buffer.toString('utf8') });
      }
      yield group;
    }
  }

  /** Removes the file, if one was written. */
  async close(): Promise<void> {
    this.memory = undefined;
    this.spooled = [];
    this.pending = [];
    if (!this.file) return;
    await this.file.close().catch(() => undefined);
    this.file = undefined;
    await rm(this.path, { force: true });
  }

  private async spill(): Promise<void> {
    const held = [...this.memory!.values()];
    this.memory = undefined;
    // 'w+': a file left by a killed run is emptied; 0600, as the checkpoint: it holds customers' orders.
    this.file = await open(this.path, 'w+', 0o600);
    for (const version of held) await this.write(version);
  }

  private async write(version: OrderVersion): Promise<void> {
    const data = Buffer.from(version.json, 'utf8');
    this.spooled.push({ id: version.id, at: version.at, updatedAt: version.updatedAt, number: version.number, offset: this.size, length: data.length });
    this.size += data.length;
    this.pending.push(data);
    this.pendingBytes += data.length;
    if (this.pendingBytes >= WRITE_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const data = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    await this.file!.write(data, 0, data.length, this.size - data.length);
  }
}
