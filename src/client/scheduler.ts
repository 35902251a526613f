import type { Clock } from '../sandbox/clock.js';

/**
 * The client's mirror of the server's leaky bucket (DESIGN.md §3, spec §8): it decides when each request
 * may be sent so that a burst uses the bucket's capacity at once and the rest flows at the leak rate,
 * without 429s. Pure and clock-driven, so tests can replay it exactly with a FakeClock.
 *
 * Life cycle: until the first response the scheduler sends one request at a time (a probe), because it
 * does not yet know the real capacity (a bucket smaller than the default 40 would answer a blind burst
 * with 429s). A response with rate headers switches to paced mode and teaches capacity and leak rate;
 * a response without them switches to unpaced mode (the server has no limit). A 429 always paces.
 *
 * A request may be sent when both the local estimate (counted at send, drained at the leak rate, raised to
 * the level each response reports) and the worst case (last reported level plus everything still in
 * flight) leave a slot below capacity − margin. Several requests are in flight at once.
 */

export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface SchedulerOptions {
  /** Assumed until `x-rate-limit-limit` says otherwise. */
  capacity?: number;
  /** Assumed until `x-rate-limit-reset` says otherwise. */
  leakPerSecond?: number;
  /** Slots kept free for other clients of the same bucket and for rounding. */
  margin?: number;
  clock?: Clock;
}

export type SchedulerMode = 'probing' | 'paced' | 'unpaced';

export interface SchedulerSnapshot {
  mode: SchedulerMode;
  level: number;
  capacity: number;
  leakPerSecond: number;
  queued: number;
  inFlight: number;
  holdUntil: number;
}

/**
 * Timers that keep the process alive: a CLI whose only pending work is a request waiting for its slot
 * must not exit (the sandbox's systemClock unrefs its timers, which suits a server but not this).
 */
export const keepAliveClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface Waiter {
  ticket: number;
  resolve: (ticket: number) => void;
}

const EPSILON = 1e-9;
const DEFAULT_RETRY_AFTER_SECONDS = 1;

function headerNumber(headers: ResponseHeaders, name: string): number | undefined {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

export class RateScheduler {
  private readonly clock: Clock;
  private readonly margin: number;
  private capacity: number;
  private leakPerSecond: number;
  /** The leak rates every observation since the last capacity change agrees with. */
  private leakRange: { lo: number; hi: number } | undefined;
  /** Local estimate of the server's level: every request counted when sent, drained at the leak rate. */
  private level = 0;
  private updatedAt: number;
  /** The level the last response reported, and when it arrived. */
  private observedLevel = 0;
  private observedAt: number;
  /** Requests sent whose outcome (`observe` or `sendFailed`) is not known yet. */
  private inFlight = 0;
  private mode: SchedulerMode = 'probing';
  private holdUntil = 0;
  private queue: Waiter[] = [];
  private timer: unknown;
  private nextTicket = 1;

  constructor(options: SchedulerOptions = {}) {
    this.clock = options.clock ?? keepAliveClock;
    this.capacity = options.capacity ?? 40;
    this.leakPerSecond = options.leakPerSecond ?? 2;
    this.margin = options.margin ?? 1;
    this.updatedAt = this.clock.now();
    this.observedAt = this.updatedAt;
  }

  /**
   * Resolves when one request may be sent; the request is counted then, and the caller must report its
   * outcome with `observe` (a response) or `sendFailed` (none). A retry passes the ticket its first
   * attempt got, so it goes back in line at its original place (FIFO by first arrival).
   */
  acquire(ticket?: number): Promise<number> {
    const own = ticket ?? this.nextTicket++;
    return new Promise((resolve) => {
      let index = this.queue.length;
      while (index > 0 && this.queue[index - 1]!.ticket > own) index--;
      this.queue.splice(index, 0, { ticket: own, resolve });
      this.drain();
    });
  }

  /** Feeds back one response's headers (any status, 429 included). */
  observe(headers: ResponseHeaders): void {
    const limit = headerNumber(headers, 'x-rate-limit-limit');
    const remaining = headerNumber(headers, 'x-rate-limit-remaining');
    const resetMs = headerNumber(headers, 'x-rate-limit-reset');
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (limit === undefined || remaining === undefined || limit <= 0) {
      this.mode = 'unpaced';
      this.level = 0;
      this.observedLevel = 0;
      this.drain();
      return;
    }
    this.leak();
    if (limit !== this.capacity) {
      this.capacity = limit;
      this.leakRange = undefined;
    }
    const serverLevel = Math.max(0, limit - remaining);
    if (resetMs !== undefined && resetMs > 0 && serverLevel > 0) this.learnLeak(serverLevel, resetMs);
    this.mode = 'paced';
    this.level = Math.max(this.level, serverLevel);
    this.observedLevel = serverLevel;
    this.observedAt = this.clock.now();
    this.drain();
  }

  /** A 429: the bucket is full; nobody is sent before Retry-After, then the queue flows at the leak rate. */
  on429(retryAfterSeconds?: number): void {
    this.leak();
    this.mode = 'paced';
    this.level = Math.max(this.level, this.capacity);
    const seconds = retryAfterSeconds !== undefined && retryAfterSeconds > 0 ? retryAfterSeconds : DEFAULT_RETRY_AFTER_SECONDS;
    this.holdUntil = Math.max(this.holdUntil, this.clock.now() + seconds * 1000);
    this.drain();
  }

  /** An attempt ended without news of the bucket (network error, a gateway's 5xx). */
  sendFailed(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.drain();
  }

  snapshot(): SchedulerSnapshot {
    this.leak();
    return {
      mode: this.mode,
      level: this.level,
      capacity: this.capacity,
      leakPerSecond: this.leakPerSecond,
      queued: this.queue.length,
      inFlight: this.inFlight,
      holdUntil: this.holdUntil,
    };
  }

  /**
   * reset = level / leak × 1000, so leak = level / (reset / 1000). But `remaining` is floored (the true
   * level lies in (L − 1, L]) and reset is rounded up (the true time lies in (reset − 1, reset]), so one
   * observation only bounds the leak rate; intersecting the bounds of successive observations converges
   * on the true rate. The upper bound is used: a rate slightly too high is corrected by the next
   * response's level, while one too low would waste capacity for ever. Bounds that contradict the
   * previous ones mean the plan changed: start again from the new observation.
   */
  private learnLeak(serverLevel: number, resetMs: number): void {
    const lo = ((serverLevel - 1) * 1000) / resetMs;
    const hi = resetMs > 1 ? (serverLevel * 1000) / (resetMs - 1) : (serverLevel * 1000) / resetMs;
    const known = this.leakRange;
    this.leakRange =
      known && lo <= known.hi && hi >= known.lo ? { lo: Math.max(lo, known.lo), hi: Math.min(hi, known.hi) } : { lo, hi };
    this.leakPerSecond = this.leakRange.hi;
  }

  private leak(): void {
    const now = this.clock.now();
    this.level = Math.max(0, this.level - ((now - this.updatedAt) / 1000) * this.leakPerSecond);
    this.updatedAt = now;
  }

  private drain(): void {
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.leak();
    const now = this.clock.now();
    while (this.queue.length > 0) {
      if (now < this.holdUntil) {
        this.wake(this.holdUntil - now);
        return;
      }
      if (this.mode === 'probing' && this.inFlight > 0) return; // the probe's response will call drain
      if (this.mode !== 'unpaced') {
        const room = Math.max(1, this.capacity - this.margin);
        const needed = Math.max(this.level, this.worstCaseLevel(now)) + 1 - room;
        if (needed > EPSILON) {
          this.wake(Math.ceil((needed / this.leakPerSecond) * 1000));
          return;
        }
        this.level += 1;
      }
      this.inFlight += 1;
      const waiter = this.queue.shift()!;
      waiter.resolve(waiter.ticket);
    }
  }

  /**
   * The server's level if every request still in flight arrived now. The local estimate assumes each
   * request reaches the server when sent; when requests are held up on the way (a busy event loop, a
   * congested link) and then arrive together, the server's bucket has meanwhile drained to empty and
   * wasted leak the estimate counted on. Bounding by the last reported level plus everything unanswered
   * stays safe in that case, and costs nothing unless the round trip nears capacity / leak (20 s on the
   * spec's buckets).
   */
  private worstCaseLevel(now: number): number {
    const drained = ((now - this.observedAt) / 1000) * this.leakPerSecond;
    return Math.max(0, this.observedLevel - drained) + this.inFlight;
  }

  private wake(ms: number): void {
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, Math.max(1, ms));
  }
}
