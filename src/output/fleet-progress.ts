import type { OutputStream } from './io.js';
import { truncateToWidth } from './format.js';

/**
 * A fleet's stores on a terminal (docs/fleet.md "Output"): one status line per store, drawn again in place as its
 * progress comes (the last line each store said: its run prints a progress line every 10 s when not on a terminal),
 * with the lines that must stay (errors, each store's end) written above the block. Not on a terminal every line
 * goes through as it comes instead (`live: false`).
 */
export class FleetProgress {
  private readonly status = new Map<string, string>();
  private drawn = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly stream: OutputStream,
    private readonly live: boolean,
  ) {}

  /** A store started: its line shows it. */
  start(store: string): void {
    if (!this.live) return;
    this.status.set(store, 'started');
    this.schedule();
  }

  /** A line of a store's stderr: an error stays (written above the block), anything else is its status. */
  line(store: string, text: string): void {
    if (!this.live || /^(Error|Warning)\b|^\{"error"/.test(text)) {
      this.keep(`[${store}] ${text}`);
      return;
    }
    this.status.set(store, text);
    this.schedule();
  }

  /** A store ended: its end line stays, its status line goes. */
  done(store: string, line: string): void {
    this.status.delete(store);
    this.keep(line);
  }

  /** Before the fleet's summary: the block is cleared. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.live) this.stream.write(this.clear());
  }

  private keep(line: string): void {
    this.stream.write(`${this.live ? this.clear() : ''}${line}\n`);
    if (this.live) this.schedule();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.draw();
    }, 100);
  }

  private draw(): void {
    const width = Math.max(20, (this.stream.columns ?? 80) - 1);
    const lines = [...this.status].map(([store, text]) => truncateToWidth(`[${store}] ${text}`, width));
    this.stream.write(`${this.clear()}${lines.map((l) => `${l}\n`).join('')}`);
    this.drawn = lines.length;
  }

  /** Moves up over the block drawn last and clears it. */
  private clear(): string {
    const up = this.drawn > 0 ? `\u001B[${this.drawn}A` : '';
    this.drawn = 0;
    return `${up}\r\u001B[J`;
  }
}
