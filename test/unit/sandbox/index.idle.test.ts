import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/platform/clock.js';
import { startSandbox } from '../../../src/sandbox/index.js';

describe('sandbox idle timeout', () => {
  it('fires only after the full timeout without requests, counted from the last request', async () => {
    const clock = new FakeClock(0);
    let idle = 0;
    const sandbox = await startSandbox({ clock, idleTimeoutSeconds: 10, onIdle: () => idle++ });
    try {
      clock.advance(9_000);
      const res = await fetch(`${sandbox.apiUrl}/sandbox/status`);
      expect(res.status).toBe(200);
      clock.advance(9_000);
      expect(idle).toBe(0);
      clock.advance(999);
      expect(idle).toBe(0);
      clock.advance(1);
      expect(idle).toBe(1);
    } finally {
      await sandbox.close();
    }
  });

  it('closes the sandbox by default when idle', async () => {
    const clock = new FakeClock(0);
    const sandbox = await startSandbox({ clock, idleTimeoutSeconds: 5 });
    clock.advance(5_000);
    await sandbox.closed;
    await expect(fetch(`${sandbox.apiUrl}/sandbox/status`)).rejects.toThrow();
  });
});
