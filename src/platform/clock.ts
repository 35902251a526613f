/**
 * One injectable clock for everything time-based in the sandbox and the client's scheduler
 * (bucket leak, code expiry, webhook retries, idle timeout), so unit tests can be exact.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The longest delay Node's timers take: beyond it (or for NaN) Node fires after 1 ms and warns. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A delay any timer may be given: a number in [0, MAX_TIMER_MS] (NaN and negative values are 0, longer ones the
 * maximum). Every clock passes its delays through it, so a value read from a server can never make a timer
 * fire at once and spin (docs/decisions.md "Bounded waits").
 */
export function timerDelay(ms: number): number {
  if (!Number.isFinite(ms)) return Number.isNaN(ms) || ms < 0 ? 0 : MAX_TIMER_MS;
  return Math.min(MAX_TIMER_MS, Math.max(0, ms));
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, timerDelay(ms));
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A manual clock for tests: time moves only when `advance` is called; due timers fire in order. */
export class FakeClock implements Clock {
  private current: number;
  private timers: { id: number; at: number; fn: () => void }[] = [];
  private nextId = 1;

  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ id, at: this.current + timerDelay(ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way, earliest first. */
  advance(ms: number): void {
    const end = this.current + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = end;
  }

  pendingTimers(): number {
    return this.timers.length;
  }
}
