import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/platform/clock.js';
import { startTestSandbox } from '../helpers/sandbox.js';

/**
 * The store's clock (docs/sandbox.md "The store's clock"): records are stamped, and every answer's `Date` header
 * set, by the store's clock, which `clockOffsetMs` (`--clock-offset`) and `POST /sandbox/clock` put off the
 * machine's: the skew between a client's machine and the store, or a store server running ahead.
 */

const MACHINE = Date.UTC(2026, 10, 21, 14, 0, 0);
const TEN_MINUTES = 10 * 60_000;

async function adminClock(apiUrl: string, body?: unknown): Promise<{ status: number; body: { now: string; offset_ms: number } }> {
  const res = await fetch(`${apiUrl}/sandbox/clock`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { now: string; offset_ms: number } };
}

describe("the sandbox's store clock", () => {
  it('answers carry the Date of the store clock (a list, an empty list 404, a 401), not the machine clock', async () => {
    const t = await startTestSandbox({ seed: 'empty', clock: new FakeClock(MACHINE), clockOffsetMs: -TEN_MINUTES });
    try {
      const storeTime = new Date(MACHINE - TEN_MINUTES).toUTCString();
      const empty = await t.get('/orders');
      expect(empty.status).toBe(404);
      expect(empty.headers.get('date')).toBe(storeTime);
      expect((await t.get('/store')).headers.get('date')).toBe(storeTime);
      expect((await t.get('/orders', { token: 'wrong' })).headers.get('date')).toBe(storeTime);
    } finally {
      await t.close();
    }
  });

  it('POST /sandbox/clock moves the store clock: a record changed then is stamped by it, and GET /sandbox/clock says so', async () => {
    const t = await startTestSandbox({ seed: 'demo', clock: new FakeClock(MACHINE) });
    try {
      const [order] = (await t.get<{ id: number }[]>('/orders', { query: { per_page: 1 } })).body;
      const ahead = await adminClock(t.sandbox.apiUrl, { offset_ms: TEN_MINUTES });
      expect(ahead).toEqual({ status: 200, body: { now: new Date(MACHINE + TEN_MINUTES).toISOString(), offset_ms: TEN_MINUTES } });
      const touched = await t.put<{ updated_at: string }>(`/orders/${order!.id}`, { owner_note: 'from a server ahead' });
      expect(Date.parse(touched.body.updated_at)).toBe(MACHINE + TEN_MINUTES);
      expect(touched.headers.get('date')).toBe(new Date(MACHINE + TEN_MINUTES).toUTCString());

      expect((await adminClock(t.sandbox.apiUrl, { offset_ms: 0 })).body.offset_ms).toBe(0);
      expect((await adminClock(t.sandbox.apiUrl)).body).toEqual({ now: new Date(MACHINE).toISOString(), offset_ms: 0 });
      const again = await t.put<{ updated_at: string }>(`/orders/${order!.id}`, { owner_note: 'back in time' });
      expect(Date.parse(again.body.updated_at)).toBe(MACHINE);
    } finally {
      await t.close();
    }
  });

  it('POST /sandbox/clock refuses what is not a whole number of milliseconds within a year (422 naming offset_ms)', async () => {
    const t = await startTestSandbox();
    try {
      for (const offset_ms of ['10m', 1.5, 400 * 24 * 3_600_000]) {
        const res = await fetch(`${t.sandbox.apiUrl}/sandbox/clock`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ offset_ms }),
        });
        expect(res.status, String(offset_ms)).toBe(422);
        expect(JSON.stringify(await res.json())).toContain('offset_ms');
      }
      expect((await adminClock(t.sandbox.apiUrl)).body.offset_ms).toBe(0);
    } finally {
      await t.close();
    }
  });
});
