import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/platform/clock.js';
import { errorShape, startTestSandbox } from '../helpers/sandbox.js';
import { REDIRECT_URI, exchangeCode } from './support.js';

/** The sandbox's own options (DESIGN.md §6): auto-approve, idle timeout, faults, plans. */

describe('DESIGN.md §6 sandbox options', () => {
  it('§6 --auto-approve: GET authorize redirects at once with a code that exchanges', async () => {
    const t = await startTestSandbox({ autoApprove: true });
    try {
      const url = `${t.sandbox.authUrl}/apps/${t.sandbox.clientId}/authorize?state=auto&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`;
      const res = await fetch(url, { redirect: 'manual' });
      await res.text();
      expect(res.status).toBeGreaterThanOrEqual(300);
      expect(res.status).toBeLessThan(400);
      const location = new URL(res.headers.get('location')!);
      expect(location.searchParams.get('state')).toBe('auto');
      expect((await exchangeCode(t, location.searchParams.get('code')!)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('§5.18: without redirect_uri the code goes to the app\'s registered redirect URL', async () => {
    const t = await startTestSandbox({ autoApprove: true });
    try {
      const res = await fetch(`${t.sandbox.authUrl}/apps/${t.sandbox.clientId}/authorize?state=s`, { redirect: 'manual' });
      await res.text();
      const location = new URL(res.headers.get('location')!);
      expect(location.searchParams.get('code')).toBeTruthy();
    } finally {
      await t.close();
    }
  });

  it('§5.18: a redirect_uri that is not loopback is refused (no code leaves for another host)', async () => {
    const t = await startTestSandbox({ autoApprove: true });
    try {
      const url = `${t.sandbox.authUrl}/apps/${t.sandbox.clientId}/authorize?state=s&redirect_uri=${encodeURIComponent('https://evil.example.com/cb')}`;
      const res = await fetch(url, { redirect: 'manual' });
      await res.text();
      const location = res.headers.get('location');
      expect(location === null || !location.startsWith('https://evil.example.com')).toBe(true);
      expect(res.status).toBeGreaterThanOrEqual(400);
    } finally {
      await t.close();
    }
  });

  it('§5.18: an unknown app id → no authorization (4xx)', async () => {
    const t = await startTestSandbox();
    try {
      const res = await fetch(`${t.sandbox.authUrl}/apps/999999/authorize?state=s&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`, { redirect: 'manual' });
      await res.text();
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    } finally {
      await t.close();
    }
  });

  it('§6 --idle-timeout: the sandbox stops by itself after that long without requests, not before', async () => {
    const clock = new FakeClock(Date.parse('2026-11-21T12:00:00Z'));
    const t = await startTestSandbox({ clock, idleTimeoutSeconds: 60 });
    let closed = false;
    void t.sandbox.closed.then(() => (closed = true));
    try {
      clock.advance(50_000);
      expect((await t.get('/store')).status).toBe(200);
      clock.advance(50_000);
      await new Promise((r) => setImmediate(r));
      expect(closed).toBe(false);
      expect((await t.get('/store')).status).toBe(200);
      clock.advance(61_000);
      await t.sandbox.closed;
      expect(closed).toBe(true);
      await expect(t.get('/store')).rejects.toThrow();
    } finally {
      await t.close();
    }
  });

  it('§6 --faults 5xx=1: every API request gets a 5xx with the error body; OAuth is never faulted', async () => {
    const t = await startTestSandbox({ faults: '5xx=1,seed=3' });
    try {
      for (let i = 0; i < 5; i++) {
        const res = await t.get('/store');
        expect([500, 502, 503, 504]).toContain(res.status);
        expect(res.body).toMatchObject(errorShape(res.status));
      }
      const oauth = await exchangeCode(t, 'nope');
      expect(oauth.body.error).toBe('invalid_grant');
    } finally {
      await t.close();
    }
  });

  it('§6 --faults 5xx: nothing is committed by a faulted request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-faults-'));
    const faulted = await startTestSandbox({ stateDir: dir, faults: '5xx=1' });
    expect((await faulted.post('/categories', { name: 'Never' })).status).toBeGreaterThanOrEqual(500);
    await faulted.close();
    const clean = await startTestSandbox({ stateDir: dir });
    try {
      expect((await clean.get('/categories')).body).toMatchObject({ code: 404, description: 'Last page is 0' });
    } finally {
      await clean.close();
    }
  });

  it('§6 --faults reset=1: the connection is dropped before handling (no answer, nothing committed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-faults-'));
    const faulted = await startTestSandbox({ stateDir: dir, faults: 'reset=1' });
    await expect(faulted.post('/categories', { name: 'Never' })).rejects.toThrow();
    await faulted.close();
    const clean = await startTestSandbox({ stateDir: dir });
    try {
      expect((await clean.get('/categories')).body).toMatchObject({ code: 404, description: 'Last page is 0' });
    } finally {
      await clean.close();
    }
  });

  it('§6 --faults lost=1: committed but response lost (no answer, the change is there)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-faults-'));
    const faulted = await startTestSandbox({ stateDir: dir, faults: 'lost=1' });
    await expect(faulted.post('/categories', { name: 'Committed' })).rejects.toThrow();
    await faulted.close();
    const clean = await startTestSandbox({ stateDir: dir });
    try {
      const names = (await clean.get('/categories')).body.map((c: any) => Object.values(c.name)[0]);
      expect(names).toEqual(['Committed']);
    } finally {
      await clean.close();
    }
  });

  it('§6 --faults: an invalid spec is refused at start', async () => {
    await expect(startTestSandbox({ faults: 'explode=1' })).rejects.toThrow(/explode/);
    await expect(startTestSandbox({ faults: '5xx=0.8,reset=0.5' })).rejects.toThrow();
  });

  it('§5.9: an unknown plan is refused at start', async () => {
    await expect(startTestSandbox({ plan: 'platinum' })).rejects.toThrow(/platinum/);
  });
});
