import type { SchedulerSnapshot } from '../client/scheduler.js';
import type { BulkProgress } from '../services/bulk/progress.js';
import type { OutputStream } from './io.js';

/**
 * How a bulk command shows its progress events (docs/decisions.md, "Bulk commands"): a cli-progress bar on
 * a TTY, else one log line every 10 s (cron logs stay short), nothing with --quiet. The stream is injected:
 * services emit events, only the command decides where they go.
 */

export interface ProgressViewOptions {
  stream: OutputStream;
  tty: boolean;
  quiet: boolean;
  label: string;
  /** What the bar counts: "products" (import), "variants" (sync). */
  unit?: string;
  /** The rate scheduler's view of the bucket, for the ETA. */
  bucket?: () => SchedulerSnapshot | undefined;
  intervalMs?: number;
  /** cli-progress's SingleBar, loaded by the caller when the stream is a TTY (so drawing stays synchronous). */
  SingleBar?: new (options: object) => unknown;
}

interface Bar {
  start(total: number, value: number, payload: object): void;
  setTotal(total: number): void;
  update(value: number, payload: object): void;
  stop(): void;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

export class ProgressView {
  private readonly started = Date.now();
  private lastLog = Date.now();
  private bar: Bar | undefined;
  private barPhase: string | undefined;

  constructor(private readonly opts: ProgressViewOptions) {}

  /** Requests per second so far. */
  rate(event: BulkProgress): number {
    const seconds = (Date.now() - this.started) / 1000;
    return seconds > 0 ? event.requests / seconds : 0;
  }

  /**
   * Seconds left: writes still to send, less what the bucket's free room takes at once, at its leak rate;
   * without a rate limit, at the pace seen so far.
   */
  eta(event: BulkProgress): number {
    const left = Math.max(0, event.writesTotal - event.writesDone);
    if (left === 0) return 0;
    const bucket = this.opts.bucket?.();
    if (bucket && bucket.mode === 'paced' && bucket.leakPerSecond > 0) {
      const room = Math.max(0, bucket.capacity - bucket.level - 1);
      return Math.max(0, left - room) / bucket.leakPerSecond;
    }
    const rate = this.rate(event);
    return rate > 0 ? left / rate : Number.POSITIVE_INFINITY;
  }

  /** A line said while the bar may be on screen: the bar's line is cleared first, and drawn again at the next update. */
  log(line: string): void {
    this.opts.stream.write(`${this.bar ? '\r\u001B[2K' : ''}${line}\n`);
  }

  update(event: BulkProgress): void {
    // After stop() (the end, or a stop signal) no bar is drawn again: it would land inside the lines that follow.
    if (this.opts.quiet || this.stopped) return;
    if (this.opts.tty && this.opts.SingleBar) {
      this.drawBar(event);
      return;
    }
    const now = Date.now();
    if (now - this.lastLog >= (this.opts.intervalMs ?? 10_000)) {
      this.lastLog = now;
      this.opts.stream.write(`${this.line(event)}\n`);
    }
  }

  line(event: BulkProgress): string {
    const what =
      event.phase === 'writing'
        ? `${event.done}/${event.total ?? '?'} ${this.opts.unit ?? 'products'}, ${event.writesDone}/${event.writesTotal} writes`
        : event.phase === 'fetching'
          ? `reading the store: ${event.done}${event.total !== undefined ? `/${event.total}` : ''} ${this.opts.unit ?? 'products'}`
          : 'reading the file';
    const eta = event.phase === 'writing' ? `, ETA ${formatDuration(this.eta(event))}` : '';
    return `${this.opts.label}: ${what}, ${this.rate(event).toFixed(1)} req/s, ${event.rateLimited} × 429${eta}`;
  }

  private drawBar(event: BulkProgress): void {
    if (event.phase !== 'writing' && (event.phase !== 'fetching' || event.total === undefined)) return;
    // The bar counts products, the unit people think in (a product may take several writes); the writes are
    // in the summary, and the ETA is still reckoned from the writes left.
    const total = event.total ?? 0;
    const value = event.done;
    const payload = {
      phase: event.phase === 'writing' ? 'writing' : 'reading store',
      rate: this.rate(event).toFixed(1),
      limited: event.rateLimited,
      etaText: event.phase === 'writing' ? formatDuration(this.eta(event)) : '-',
    };
    if (!this.bar || this.barPhase !== event.phase) {
      this.bar?.stop();
      this.bar = new this.opts.SingleBar!({
        format: `${this.opts.label} {phase} [{bar}] {value}/{total} ${this.opts.unit ?? 'products'} | {rate} req/s | {limited} × 429 | ETA {etaText}`,
        stream: this.opts.stream,
        hideCursor: true,
        clearOnComplete: false,
      }) as unknown as Bar;
      this.bar.start(total, value, payload);
      this.barPhase = event.phase;
      return;
    }
    this.bar.setTotal(total);
    this.bar.update(value, payload);
  }

  stop(): void {
    this.stopped = true;
    this.bar?.stop();
    this.bar = undefined;
  }

  private stopped = false;
}
