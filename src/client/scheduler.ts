import { timerDelay, type Clock } from '../platform/clock.js';
import { RATE_LIMIT_HEADERS, STANDARD_RATE } from '../platform/rate-limit.js';

/**
 * The longest wait the CLI accepts from a store (docs/decisions.md "Bounded waits"): a Retry-After beyond it
 * fails the request in one sentence, an `x-rate-limit-reset` beyond it is not believed, and no timer of the
 * scheduler is ever set further out.
 */
export const MAX_WAIT_MS = 600_000;
/** A wait at least this long is announced (one line on stderr, by the command). */
export const ANNOUNCED_WAIT_MS = 5_000;

/** `ms` as a wait the scheduler may take: a number in [0, MAX_WAIT_MS] (NaN and negatives are 0). */
export function boundedWaitMs(ms: number): number {
  return Math.min(MAX_WAIT_MS, timerDelay(ms));
}

/** Told, before a long wait, how long it is (ms) and until when (the scheduler's clock). */
export type WaitListener = (ms: number, until: number) => void;

/**
 * The client's mirror of the server's leaky bucket (docs/decisions.md "HTTP client", docs/api-rules.md "Limits"): it decides when each request
 * may be sent so that a burst uses the bucket's capacity at once and the rest flows at the leak rate,
 * without 429s. Pure and clock-driven, so tests can replay it exactly with a FakeClock.
 *
 * Life cycle: until the first response the scheduler sends one request at a time (a probe), because it
 * does not yet know the real capacity (a bucket smaller than the default 40 would answer a blind burst
 * with 429s). A response with rate headers switches to paced mode and teaches capacity and leak rate;
 * a response without them switches to unpaced mode (the server has no limit). A 429 always paces.
 *
 * A request may be sent when both the local estimate (counted at send, drained at the leak rate, raised to
 * the level each response reports) and the worst case (last reported level, drained at this client's share
 * of the leak rate, plus everything still in flight) leave a slot below capacity − margin. Several requests
 * are in flight at once.
 *
 * Other clients of the same bucket (another process of the same app) are seen only through the levels the
 * responses report. Raising the estimate to those levels is not enough: if each client expected the bucket
 * to drain at the full leak rate, every client would see each freed slot as its own and they would all
 * race for it, one winning and the others meeting a 429. So the scheduler measures the rate at which
 * requests it did not send arrive in the bucket (`foreignRate`) and expects the last reported level to
 * drain only at leak − foreignRate: the clients settle on sharing the leak rate instead of fighting over
 * each slot. That expectation lives in the worst case, which each response resets (down as well as up),
 * not in the local estimate, which never goes below a reported level: so when the other client stops,
 * the slots it leaves are seen free at the next response rather than lost for ever.
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
  /** Smoothed arrival rate, per second, of requests other clients put in the same bucket. */
  foreignPerSecond: number;
}

/**
 * Timers that keep the process alive: a CLI whose only pending work is a request waiting for its slot
 * must not exit (the sandbox's systemClock unrefs its timers, which suits a server but not this).
 */
export const keepAliveClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, timerDelay(ms)),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface Waiter {
  ticket: number;
  resolve: (ticket: number) => void;
  onWait?: WaitListener;
  /** The end of the last long wait this waiter was told about. */
  toldUntil?: number;
}

const EPSILON = 1e-9;
const DEFAULT_RETRY_AFTER_SECONDS = 1;
/**
 * A foreign-rate measurement spans at least the time the bucket takes to leak this many slots: a reported
 * level is only known to ±1 (`remaining` is floored), so over 10 slots the error stays near a tenth of
 * the leak rate, and a window is still short (0.5 s at 20/s) next to a bench or an import.
 */
const FOREIGN_WINDOW_SLOTS = 10;
/** The foreign estimate moves by 1 − e^(−window / τ) toward each measurement, τ = this many windows. */
const FOREIGN_SMOOTHING_WINDOWS = 2;
/**
 * At most this share of the leak rate is ascribed to other clients, so a client always keeps sending (and
 * so keeps measuring) and never waits for ever on an estimate nothing would come to correct.
 */
const MAX_FOREIGN_SHARE = 0.9;

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
  /** Every request sent (retries included), and those the bucket refused: what this client put in it. */
  private sent = 0;
  private refused = 0;
  /** Smoothed arrival rate (per second) of other clients' requests in the same bucket. */
  private foreignRate = 0;
  /** Where the current foreign-rate measurement started: a reported level, when, and own requests in it. */
  private foreignAnchor:
    | { at: number; level: number; own: number; response: number; mayHaveEmptied: boolean }
    | undefined;
  /** Responses observed (with rate headers), to tell whether the anchor is the latest one. */
  private responses = 0;
  /** The previous response's level and time, as reported (`observedAt` moves to the end of a 429 hold). */
  private previousReport: { at: number; level: number } | undefined;
  private mode: SchedulerMode = 'probing';
  private holdUntil = 0;
  private queue: Waiter[] = [];
  private timer: unknown;
  private nextTicket = 1;

  constructor(options: SchedulerOptions = {}) {
    this.clock = options.clock ?? keepAliveClock;
    this.capacity = options.capacity ?? STANDARD_RATE.capacity;
    this.leakPerSecond = options.leakPerSecond ?? STANDARD_RATE.leakPerSecond;
    this.margin = options.margin ?? 1;
    this.updatedAt = this.clock.now();
    this.observedAt = this.updatedAt;
  }

  /**
   * Resolves when one request may be sent; the request is counted then, and the caller must report its
   * outcome with `observe` (a response) or `sendFailed` (none). A retry passes the ticket its first
   * attempt got, so it goes back in line at its original place (FIFO by first arrival).
   */
  acquire(ticket?: number, onWait?: WaitListener): Promise<number> {
    const own = ticket ?? this.nextTicket++;
    return new Promise((resolve) => {
      let index = this.queue.length;
      while (index > 0 && this.queue[index - 1]!.ticket > own) index--;
      this.queue.splice(index, 0, { ticket: own, resolve, onWait });
      this.drain();
    });
  }

  /** Feeds back one response's headers (any status, 429 included). */
  observe(headers: ResponseHeaders): void {
    const limit = headerNumber(headers, RATE_LIMIT_HEADERS.limit);
    const remaining = headerNumber(headers, RATE_LIMIT_HEADERS.remaining);
    const resetMs = headerNumber(headers, RATE_LIMIT_HEADERS.reset);
    this.inFlight = Math.max(0, this.inFlight - 1);
    const sent = headers[RATE_LIMIT_HEADERS.limit] !== undefined || headers[RATE_LIMIT_HEADERS.remaining] !== undefined;
    if (sent && (limit === undefined || remaining === undefined || limit <= 0 || remaining < 0)) {
      // Rate headers that make no sense (a limit of 0 or below, a word): the limit is unknown, not absent. The
      // scheduler keeps pacing to what it assumed or learnt, as if this response had said nothing.
      if (this.mode !== 'paced') {
        this.mode = 'paced';
        this.updatedAt = this.clock.now();
      }
      this.drain();
      return;
    }
    if (limit === undefined || remaining === undefined) {
      this.mode = 'unpaced';
      this.level = 0;
      this.observedLevel = 0;
      this.foreignRate = 0;
      this.foreignAnchor = undefined;
      this.previousReport = undefined;
      this.drain();
      return;
    }
    this.leak();
    if (limit !== this.capacity) {
      this.capacity = limit;
      this.leakRange = undefined;
      this.foreignAnchor = undefined; // levels of another plan do not compare
    }
    const serverLevel = Math.max(0, limit - remaining);
    // A reset beyond the longest wait accepted is not believed: it would pace the store to a crawl.
    if (resetMs !== undefined && resetMs > 0 && resetMs <= MAX_WAIT_MS && serverLevel > 0) this.learnLeak(serverLevel, resetMs);
    this.measureForeign(serverLevel);
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
    // The refused request added nothing to the bucket. If `observe` just anchored a measurement on its
    // response, it counted the request among ours there: take it back, or the next window would ascribe
    // one request too many to other clients. (The window that ended on it is one request short the
    // other way, which errs on the side of a smaller foreign estimate; a 429 storm is exactly when the
    // measurement must keep going, so it is not dropped.)
    this.refused += 1;
    if (this.foreignAnchor?.response === this.responses) this.foreignAnchor.own -= 1;
    this.level = Math.max(this.level, this.capacity);
    const seconds =
      retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0 ? retryAfterSeconds : DEFAULT_RETRY_AFTER_SECONDS;
    this.holdUntil = Math.max(this.holdUntil, this.clock.now() + boundedWaitMs(seconds * 1000));
    // Full until the hold ends (one slot short of it, so that the first request goes then), and draining
    // at our share of the leak rate after: the queue goes out one slot at a time, not as a burst of what
    // the bucket would have leaked meanwhile had nobody else been filling it (someone was: that is why
    // this request met a full bucket). The first response after the hold reports the real level and
    // resets this bound, so a bucket that did drain is used at once.
    this.observedLevel = Math.max(0, this.capacity - this.margin - 1);
    this.observedAt = Math.max(this.observedAt, this.holdUntil);
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
      foreignPerSecond: this.foreignRate,
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

  /**
   * Measures other clients' arrivals between two responses: while the bucket cannot have emptied, it
   * leaked exactly leak × elapsed, so what the level rose by beyond that and beyond our own requests came
   * from someone else. It cannot have emptied between two consecutive responses if the first reported
   * more than it can leak until the second (checked for each pair, as a window spans many of them).
   * Own requests counted are those sent, less those refused and those still unanswered (sent after the
   * request now answered, so not yet in the level it reports); the response latency is the same at both
   * ends of the window and cancels out. If the bucket may have emptied meanwhile, it leaked less than
   * that and the figure is only an upper bound: it may lower the estimate, never raise it. (Once the
   * other client stops, the bucket still cannot empty for a while, so the estimate decays on exact
   * measurements of 0.)
   */
  private measureForeign(serverLevel: number): void {
    const now = this.clock.now();
    const own = this.sent - this.refused - this.inFlight;
    const response = ++this.responses;
    const previous = this.previousReport;
    this.previousReport = { at: now, level: serverLevel };
    const anchor = this.foreignAnchor;
    if (!anchor || !previous || own < anchor.own) {
      this.foreignAnchor = { at: now, level: serverLevel, own, response, mayHaveEmptied: false };
      return;
    }
    if (previous.level - 1 < (this.leakPerSecond * (now - previous.at)) / 1000) anchor.mayHaveEmptied = true;
    const seconds = (now - anchor.at) / 1000;
    const windowSeconds = FOREIGN_WINDOW_SLOTS / this.leakPerSecond;
    if (seconds < windowSeconds) return;
    // The lower bound of the learnt leak rate, so that a one-client run never ascribes to a phantom
    // client what is only the rounding of the leak rate.
    const leak = this.leakRange?.lo ?? this.leakPerSecond;
    const measured = (serverLevel - anchor.level - (own - anchor.own) + leak * seconds) / seconds;
    const sample = Math.min(
      Math.max(0, anchor.mayHaveEmptied ? Math.min(measured, this.foreignRate) : measured),
      MAX_FOREIGN_SHARE * this.leakPerSecond,
    );
    const weight = 1 - Math.exp(-seconds / (FOREIGN_SMOOTHING_WINDOWS * windowSeconds));
    this.foreignRate += weight * (sample - this.foreignRate);
    this.foreignAnchor = { at: now, level: serverLevel, own, response, mayHaveEmptied: false };
  }

  /** The part of the leak rate this client may count on: the rest frees slots other clients take. */
  private ownLeakRate(): number {
    return Math.max(this.leakPerSecond - this.foreignRate, (1 - MAX_FOREIGN_SHARE) * this.leakPerSecond);
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
        const wait = this.secondsUntilSlot(now);
        if (wait === Infinity) return; // a response (or `sendFailed`) will call drain
        if (wait > EPSILON) {
          this.wake(Math.ceil(wait * 1000));
          return;
        }
        this.level += 1;
      }
      this.inFlight += 1;
      this.sent += 1;
      const waiter = this.queue.shift()!;
      waiter.resolve(waiter.ticket);
    }
  }

  /**
   * How long until one more request may be sent (Infinity: not before a response). Each bound drains at
   * its own rate; the wait is until all of them leave a slot:
   * - the local estimate, at the leak rate;
   * - the worst case, at our share of it;
   * - our share of the free room: when the bucket has room (everyone held by a 429, or a client just
   *   stopped), every client sharing it sees that room at once, and if each claimed all of it they would
   *   all burst into the same slots. So while requests are in flight, a client claims only its share of
   *   the room (leak − foreignRate)/leak, which the clients' shares add up to. One request may always be
   *   in flight, so this changes nothing in the steady flow, nor anything at all for a client alone
   *   (share 1: the claim is the worst-case bound itself).
   */
  private secondsUntilSlot(now: number): number {
    const room = Math.max(1, this.capacity - this.margin);
    const ownLeak = this.ownLeakRate();
    const reported = this.reportedLevel(now);
    let wait = Math.max((this.level + 1 - room) / this.leakPerSecond, (this.worstCaseLevel(now) + 1 - room) / ownLeak);
    const share = ownLeak / this.leakPerSecond;
    if (this.inFlight > 0 && this.inFlight + 1 > share * (room - reported) + EPSILON) {
      // The claim grows as the reported level drains; below zero it cannot grow enough by waiting.
      const target = room - (this.inFlight + 1) / share;
      wait = Math.max(wait, target >= 0 ? (reported - target) / ownLeak : Infinity);
    }
    return wait;
  }

  /** The last reported level, drained since at our share of the leak rate. */
  private reportedLevel(now: number): number {
    const drained = (Math.max(0, now - this.observedAt) / 1000) * this.ownLeakRate();
    return Math.max(0, this.observedLevel - drained);
  }

  /**
   * The server's level if every request still in flight arrived now. The local estimate assumes each
   * request reaches the server when sent; when requests are held up on the way (a busy event loop, a
   * congested link) and then arrive together, the server's bucket has meanwhile drained to empty and
   * wasted leak the estimate counted on. Bounding by the last reported level plus everything unanswered
   * stays safe in that case, and costs nothing unless the round trip nears capacity / leak (20 s on the
   * spec's buckets). Other clients refill the bucket too, so it drains only at our share of the leak.
   */
  private worstCaseLevel(now: number): number {
    return this.reportedLevel(now) + this.inFlight;
  }

  private wake(ms: number): void {
    const delay = Math.max(1, boundedWaitMs(ms));
    if (delay >= ANNOUNCED_WAIT_MS) {
      const until = this.clock.now() + delay;
      for (const waiter of this.queue) {
        // Told once per wait: a later drain that finds the same end (give or take a second) says nothing new.
        if (!waiter.onWait || (waiter.toldUntil !== undefined && Math.abs(waiter.toldUntil - until) < 1000)) continue;
        waiter.toldUntil = until;
        waiter.onWait(delay, until);
      }
    }
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, delay);
  }
}
