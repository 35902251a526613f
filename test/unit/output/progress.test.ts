import { describe, expect, it, vi } from 'vitest';
import { ProgressView, formatDuration } from '../../../src/output/progress.js';

function sink() {
  const lines: string[] = [];
  return { lines, stream: { write: (t: string) => lines.push(t), isTTY: false } as unknown as NodeJS.WriteStream };
}

const event = { phase: 'writing', done: 10, total: 100, writesDone: 50, writesTotal: 250, requests: 60, rateLimited: 1 };

describe('progress view', () => {
  it('estimates the time left from the bucket: free room at once, the rest at the leak rate', () => {
    const { stream } = sink();
    const bucket = { mode: 'paced' as const, level: 19, capacity: 40, leakPerSecond: 2, queued: 0, holdUntil: 0 };
    const view = new ProgressView({ stream, tty: false, quiet: false, label: 'import', bucket: () => bucket });
    // 200 writes left, 20 slots free now: 180 at 2/s.
    expect(view.eta(event)).toBe(90);
    expect(view.eta({ ...event, writesDone: 250 })).toBe(0);
  });

  it('logs one line per interval when not on a TTY, and nothing with --quiet', async () => {
    const out = sink();
    const view = new ProgressView({ stream: out.stream, tty: false, quiet: false, label: 'import', intervalMs: 0 });
    view.update(event);
    expect(out.lines[0]).toMatch(/^import: 10\/100 products, 50\/250 writes, [\d.]+ req\/s, 1 × 429, ETA /);
    const slow = sink();
    const hourly = new ProgressView({ stream: slow.stream, tty: false, quiet: false, label: 'import', intervalMs: 3_600_000 });
    hourly.update(event);
    expect(slow.lines).toEqual([]);
    const quiet = sink();
    new ProgressView({ stream: quiet.stream, tty: false, quiet: true, label: 'import', intervalMs: 0 }).update(event);
    expect(quiet.lines).toEqual([]);
  });

  it('off a TTY, logs at most one line every 10 s by default (cron logs stay short)', () => {
    vi.useFakeTimers();
    try {
      const out = sink();
      const view = new ProgressView({ stream: out.stream, tty: false, quiet: false, label: 'sync' });
      view.update(event);
      vi.advanceTimersByTime(9_999);
      view.update(event);
      expect(out.lines).toEqual([]);
      vi.advanceTimersByTime(1);
      view.update(event);
      view.update(event);
      expect(out.lines).toHaveLength(1);
      expect(out.lines[0]).toMatch(/^sync: 10\/100 products/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("draws a bar on a TTY: products done/total (writes are in the summary), requests per second and the ETA from the bucket", async () => {
    const { PassThrough } = await import('node:stream');
    const { SingleBar } = (await import('cli-progress')).default;
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 200 }) as unknown as NodeJS.WriteStream;
    let drawn = '';
    stream.on('data', (d: Buffer) => (drawn += d.toString()));
    const bucket = { mode: 'paced' as const, level: 19, capacity: 40, leakPerSecond: 2, queued: 0, holdUntil: 0 };
    const view = new ProgressView({ stream, tty: true, quiet: false, label: 'import', bucket: () => bucket, SingleBar });
    view.update({ ...event, phase: 'reading' });
    expect(drawn).toBe('');
    view.update(event);
    view.stop();
    // 200 writes left, 20 slots free now: 180 at 2/s = 1m30s.
    expect(drawn).toMatch(/import writing \[[^\]]*\] 10\/100 products \| [\d.]+ req\/s \| 1 × 429 \| ETA 1m30s/);
    const quiet = Object.assign(new PassThrough(), { isTTY: true }) as unknown as NodeJS.WriteStream;
    let none = '';
    quiet.on('data', (d: Buffer) => (none += d.toString()));
    const silent = new ProgressView({ stream: quiet, tty: true, quiet: true, label: 'import', bucket: () => bucket, SingleBar });
    silent.update(event);
    silent.stop();
    expect(none).toBe('');
  });

  it('formats durations', () => {
    expect(formatDuration(5)).toBe('5s');
    expect(formatDuration(125)).toBe('2m05s');
    expect(formatDuration(3 * 3600 + 60)).toBe('3h01m');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('?');
  });
});
