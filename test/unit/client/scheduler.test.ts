import { describe, expect, it } from 'vitest';
import { RateScheduler } from '../../../src/client/scheduler.js';
import { FakeClock } from '../../../src/platform/clock.js';
import { HIGH_PLAN_RATE, STANDARD_RATE } from '../../../src/platform/rate-limit.js';
import { LeakyBucket, rateLimitHeaders, type BucketConfig } from '../../../src/sandbox/bucket.js';

/**
 * A simulated store on the same FakeClock: every request a scheduler releases reaches a real
 * LeakyBucket after `arrivalDelay(n)` ms (0: at once; varying delays model network and event-loop
 * jitter) and its response (with the bucket's headers) comes back `latencyMs` later.
 * A 429'd request is retried with its ticket, as the client does. With `clients` > 1, as many
 * schedulers (separate processes of the same app) share the one bucket and see each other only
 * through its headers; `scheduler` is the first.
 */
class Simulation {
  readonly clock = new FakeClock(0);
  readonly bucket: LeakyBucket;
  readonly schedulers: RateScheduler[];
  /** Ticket, time and client of every request the bucket accepted, in arrival order. */
  readonly accepted: { ticket: number; at: number; client: number }[] = [];
  readonly refused: { ticket: number; at: number; client: number }[] = [];
  /** Ticket and time of every release (send), retries included. */
  readonly sent: { ticket: number; at: number; client: number }[] = [];
  private readonly rateOff: boolean;

  constructor(
    rate: BucketConfig | 'off',
    private readonly latencyMs = 20,
    private readonly arrivalDelay: (n: number, sentAt: number) => number = () => 0,
    clients = 1,
  ) {
    this.bucket = new LeakyBucket(rate === 'off' ? STANDARD_RATE : rate, this.clock);
    this.rateOff = rate === 'off';
    this.schedulers = Array.from({ length: clients }, () => new RateScheduler({ clock: this.clock }));
  }

  get scheduler(): RateScheduler {
    return this.schedulers[0]!;
  }

  /** Issues one logical request from `client`; it is retried until the bucket accepts it. */
  request(ticket?: number, client = 0): void {
    void this.schedulers[client]!.acquire(ticket).then((own) => {
      this.sent.push({ ticket: own, at: this.clock.now(), client });
      const delay = this.arrivalDelay(this.sent.length, this.clock.now());
      if (delay > 0) this.clock.setTimeout(() => this.arrive(own, client), delay);
      else this.arrive(own, client);
    });
  }

  private arrive(ticket: number, client: number): void {
    const at = this.clock.now();
    const scheduler = this.schedulers[client]!;
    if (this.rateOff) {
      this.accepted.push({ ticket, at, client });
      this.clock.setTimeout(() => scheduler.observe({}), this.latencyMs);
      return;
    }
    const decision = this.bucket.take();
    (decision.allowed ? this.accepted : this.refused).push({ ticket, at, client });
    this.clock.setTimeout(() => {
      scheduler.observe(rateLimitHeaders(decision));
      if (!decision.allowed) {
        scheduler.on429(decision.retryAfterSeconds);
        this.request(ticket, client);
      }
    }, this.latencyMs);
  }

  /** Moves the fake time in small steps, letting promise callbacks run between steps. */
  async run(ms: number, stepMs = 5): Promise<void> {
    await flush();
    for (let elapsed = 0; elapsed < ms; elapsed += stepMs) {
      this.clock.advance(stepMs);
      await flush();
    }
  }

  acceptedBetween(from: number, to: number): number {
    return this.accepted.filter((a) => a.at >= from && a.at < to).length;
  }
}

function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('RateScheduler', () => {
  it('sends a burst of the bucket capacity (less the margin), then 2 per second, with no 429', async () => {
    const sim = new Simulation(STANDARD_RATE);
    for (let i = 0; i < 80; i++) sim.request();
    await sim.run(25);
    // The first request probes alone; once its headers arrive the rest of the bucket goes at once.
    expect(sim.accepted.length).toBe(39);
    await sim.run(10_000);
    expect(sim.acceptedBetween(25, 10_025)).toBeGreaterThanOrEqual(19);
    expect(sim.acceptedBetween(25, 10_025)).toBeLessThanOrEqual(21);
    await sim.run(15_000);
    expect(sim.accepted.length).toBe(80);
    expect(sim.refused).toEqual([]);
    const learnt = sim.scheduler.snapshot();
    expect(learnt).toMatchObject({ mode: 'paced', capacity: 40, queued: 0 });
    expect(learnt.leakPerSecond).toBeCloseTo(2, 1);
  });

  it('follows the server when another client has filled part of the shared bucket', async () => {
    const sim = new Simulation(STANDARD_RATE);
    for (let i = 0; i < 25; i++) sim.bucket.take(); // the other client
    for (let i = 0; i < 40; i++) sim.request();
    await sim.run(100);
    // remaining = 14 after the probe, so only what fits below the margin goes now.
    expect(sim.accepted.length).toBe(40 - 25 - 1);
    await sim.run(20_000);
    expect(sim.accepted.length).toBe(40);
    expect(sim.refused).toEqual([]);
  });

  it('survives a 429 storm: holds for Retry-After, releases in order at the leak rate, drops nothing', async () => {
    const sim = new Simulation(STANDARD_RATE, 50);
    sim.request();
    await sim.run(100); // learnt: paced, capacity 40, leak 2
    for (let i = 0; i < 40; i++) sim.bucket.take(); // another client fills the bucket behind our back
    const stormAt = sim.clock.now();
    for (let i = 0; i < 30; i++) sim.request();
    await sim.run(60);
    // Our mirror believed the bucket almost empty, so the burst met a full one: a storm of 429s.
    expect(sim.refused.length).toBeGreaterThanOrEqual(30);
    const firstRefusalAnswered = stormAt + 50;

    await sim.run(30_000);
    expect(sim.accepted.length).toBe(31);
    const retried = sim.sent.filter((s) => s.at > stormAt + 50);
    // Nobody was sent again before Retry-After (1 s) had passed since the 429s came back.
    expect(Math.min(...retried.map((s) => s.at))).toBeGreaterThanOrEqual(firstRefusalAnswered + 1000);
    // Released in the original order, one slot per 1/leak seconds, not after the whole bucket emptied.
    const acceptedTickets = sim.accepted.map((a) => a.ticket);
    expect(acceptedTickets).toEqual([...acceptedTickets].sort((a, b) => a - b));
    expect(new Set(acceptedTickets).size).toBe(31);
    const stormAccepted = sim.accepted.slice(1);
    expect(stormAccepted[0]!.at - stormAt).toBeLessThan(5_000);
    const gaps = stormAccepted.slice(1).map((a, i) => a.at - stormAccepted[i]!.at);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(600);
    expect(sim.refused.length).toBeLessThanOrEqual(32);
  });

  it('learns a ×10 plan from the headers alone and uses it', async () => {
    const sim = new Simulation(HIGH_PLAN_RATE);
    for (let i = 0; i < 700; i++) sim.request();
    await sim.run(25);
    expect(sim.accepted.length).toBe(399);
    const learnt = sim.scheduler.snapshot();
    expect(learnt.capacity).toBe(400);
    expect(learnt.leakPerSecond).toBeCloseTo(20, 0);
    await sim.run(10_000, 10);
    expect(sim.acceptedBetween(25, 10_025)).toBeGreaterThanOrEqual(199);
    expect(sim.acceptedBetween(25, 10_025)).toBeLessThanOrEqual(201);
    await sim.run(6_000, 10);
    expect(sim.accepted.length).toBe(700);
    expect(sim.refused).toEqual([]);
  });

  it('does not pace a server that sends no rate headers, yet still obeys a 429', async () => {
    const sim = new Simulation('off');
    for (let i = 0; i < 300; i++) sim.request();
    await sim.run(50);
    expect(sim.accepted.length).toBe(300);
    expect(sim.scheduler.snapshot().mode).toBe('unpaced');

    const scheduler = new RateScheduler({ clock: sim.clock });
    scheduler.observe({});
    scheduler.on429(2);
    let released = false;
    void scheduler.acquire().then(() => {
      released = true;
    });
    await sim.run(1_990);
    expect(released).toBe(false);
    await sim.run(20);
    expect(released).toBe(true);
  });

  it('stays within the bucket when requests reach the server late and in bunches', async () => {
    // As on a starved event loop: whatever is sent during each 300 ms reaches the server together at
    // its end, after the server's bucket has drained to empty in the meantime.
    const bunched = (_n: number, sentAt: number) => 300 - (sentAt % 300);
    const sim = new Simulation({ capacity: 10, leakPerSecond: 50 }, 10, bunched);
    for (let i = 0; i < 200; i++) sim.request();
    await sim.run(15_000);
    expect(sim.accepted).toHaveLength(200);
    expect(new Set(sim.accepted.map((a) => a.ticket)).size).toBe(200);
    expect(sim.refused).toEqual([]);
  });

  it('keeps FIFO order across retries: a retried ticket goes ahead of later arrivals', async () => {
    const clock = new FakeClock(0);
    const scheduler = new RateScheduler({ clock });
    scheduler.observe({ 'x-rate-limit-limit': '3', 'x-rate-limit-remaining': '2', 'x-rate-limit-reset': '500' });
    const order: number[] = [];
    const first = await scheduler.acquire();
    scheduler.observe({ 'x-rate-limit-limit': '3', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '1500' });
    scheduler.on429(1);
    const sent = (ticket: number) => {
      order.push(ticket);
      scheduler.sendFailed();
    };
    for (let i = 0; i < 3; i++) void scheduler.acquire().then(sent);
    void scheduler.acquire(first).then(sent);
    for (let i = 0; i < 400; i++) {
      clock.advance(10);
      await flush();
    }
    expect(order).toEqual([first, first + 1, first + 2, first + 3]);
  });

  /**
   * `clients` schedulers (separate processes of one app) each queue `perClient` requests against one
   * bucket of 40 at 20/s and saturate it for 60 s; then the run goes on until every request is accepted.
   * The first seconds are blind: every client probes the nearly empty bucket and bursts capacity − margin
   * − level ≈ 37 requests into it at once, so all bursts but one meet a full bucket: up to 37 × 429 for
   * each client beyond the first, whatever the scheduler does. After that the clients share the leak rate
   * and the free room, and a 429 is rare. The code before they did (measured on these simulations): two
   * clients met 1051 × 429 in 60 s, 945 of them after the first 5 s; three jittery ones 2080 and 1856.
   */
  async function shareOneBucket(clients: number, perClient: number, sim: Simulation) {
    for (let i = 0; i < perClient; i++) for (let c = 0; c < clients; c++) sim.request(undefined, c);
    const seconds = 60;
    await sim.run(seconds * 1000);
    const acceptedIn60s = sim.accepted.length;
    const refusedIn60s = sim.refused.length;
    const perClientIn60s = Array.from({ length: clients }, (_, c) => sim.accepted.filter((a) => a.client === c).length);
    await sim.run(((clients * perClient - acceptedIn60s) / 20 + 5) * 1000, 10);
    // Together the clients use what the bucket allows; none of them is starved.
    expect(acceptedIn60s).toBeGreaterThanOrEqual(0.95 * (40 + 20 * seconds));
    for (const accepted of perClientIn60s) expect(accepted).toBeGreaterThanOrEqual(0.1 * acceptedIn60s);
    // Nothing dropped: every request of every client accepted, once.
    for (let c = 0; c < clients; c++) {
      const tickets = sim.accepted.filter((a) => a.client === c).map((a) => a.ticket);
      expect(tickets).toHaveLength(perClient);
      expect(new Set(tickets).size).toBe(perClient);
    }
    return { refusedIn60s, refusedAfterStart: sim.refused.filter((r) => r.at >= 5_000).length };
  }

  it('shares a bucket with another client of the same app: few 429s, the bucket used, nothing dropped', async () => {
    // As the rate bench's two-client case: each sees the other's requests only in the levels reported.
    const sim = new Simulation({ capacity: 40, leakPerSecond: 20 }, 20, () => 0, 2);
    const { refusedIn60s, refusedAfterStart } = await shareOneBucket(2, 800, sim);
    // 37 measured, all at the blind start (see shareOneBucket); 0 after it.
    expect(refusedIn60s).toBeLessThanOrEqual(45);
    expect(refusedAfterStart).toBeLessThanOrEqual(3);
  });

  it('shares a bucket among three clients whose requests arrive with jitter', async () => {
    const jitter = (n: number) => (n * 7919) % 31; // 0–30 ms on the way in, deterministic
    const sim = new Simulation({ capacity: 40, leakPerSecond: 20 }, 50, jitter, 3);
    const { refusedIn60s, refusedAfterStart } = await shareOneBucket(3, 600, sim);
    // 78 measured: two blind bursts of 37 refused at the start, and 0 after it.
    expect(refusedIn60s).toBeLessThanOrEqual(90);
    expect(refusedAfterStart).toBeLessThanOrEqual(3);
  });
});
