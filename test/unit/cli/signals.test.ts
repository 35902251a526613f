import { describe, expect, it } from 'vitest';
import { watchStopSignals } from '../../../src/cli/signals.js';

describe('watchStopSignals', () => {
  it('hands each stop signal to its handler with how many came, resolves the first, and gives them back on dispose', async () => {
    const seen: [string, number][] = [];
    const before = process.listenerCount('SIGINT');
    const signals = watchStopSignals((signal, count) => seen.push([signal, count]));
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    expect(signals.received()).toBeUndefined();
    expect(signals.exitCode()).toBe(130);
    process.emit('SIGTERM');
    process.emit('SIGINT');
    expect(await signals.first).toBe('SIGTERM');
    expect(seen).toEqual([
      ['SIGTERM', 1],
      ['SIGINT', 2],
    ]);
    // The exit code names the first signal.
    expect(signals.received()).toBe('SIGTERM');
    expect(signals.exitCode()).toBe(143);
    signals.dispose();
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});
