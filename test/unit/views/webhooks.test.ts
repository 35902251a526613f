import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../../src/output/format.js';
import type { ReceivedNotification } from '../../../src/services/webhooks/listener.js';
import { notificationLine, readyLine } from '../../../src/views/webhooks.js';

const notification = (over: Partial<ReceivedNotification>): ReceivedNotification => ({
  store_id: 1,
  event: 'order/created',
  id: 1000000123,
  received_at: '2026-11-25T14:05:09.123+00:00',
  summary: '#196 open/paid 16700.00 ARS',
  ...over,
});

describe('webhooks listen lines', () => {
  it('one ready line: where, how many registered, how to quit', () => {
    expect(readyLine('http://127.0.0.1:4567/webhooks', 30, { register: true })).toBe(
      'Ready! Listening on http://127.0.0.1:4567/webhooks, 30 webhooks registered (Ctrl-C to quit)',
    );
    expect(readyLine('http://127.0.0.1:4567/webhooks', 1, { register: true, forwardTo: 'http://localhost:3000/h' })).toBe(
      'Ready! Listening on http://127.0.0.1:4567/webhooks, 1 webhook registered, forwarding to http://localhost:3000/h (Ctrl-C to quit)',
    );
    expect(readyLine('http://127.0.0.1:4567/webhooks', 0, { register: false })).toContain('register it with `store webhooks add EVENT URL`');
  });

  it('on a terminal: fits the width, id whole, summary cut with …', () => {
    const long = notification({
      event: 'fulfillment_order/tracking_event_created',
      id: '01JD3Z6Q8R5M2K7N4P9T0V1W2X',
      summary: 'tracking event created, a long summary that cannot fit',
    });
    for (const n of [notification({}), long, notification({ summary: 'x'.repeat(200) }), notification({ id: undefined, event: 'domain/updated' })]) {
      const line = notificationLine(n, 80);
      expect(line.endsWith('\n')).toBe(true);
      expect(line.trimEnd().length).toBeLessThanOrEqual(80);
      expect(line).toContain(n.id === undefined ? ' - ' : String(n.id));
      expect(line).toMatch(/^\d{2}:\d{2}:\d{2} {2}/);
    }
    expect(notificationLine(notification({ summary: 'x'.repeat(200) }), 80)).toMatch(/x…\n$/);
    // Wide characters take two columns: the line still fits.
    const wide = notificationLine(notification({ summary: `Pedido de 田中 ${'🎁'.repeat(60)}` }), 80);
    expect(displayWidth(wide.trimEnd())).toBeLessThanOrEqual(80);
    expect(wide).toMatch(/…\n$/);
    expect(notificationLine(notification({}), 80)).toMatch(/ {2}order\/created {9}1000000123 {2}#196 open\/paid 16700\.00 ARS\n$/);
  });

  it('piped: tab-separated, the ISO time, nothing cut', () => {
    const n = notification({ summary: 'x'.repeat(200) });
    expect(notificationLine(n)).toBe(`2026-11-25T14:05:09.123+00:00\torder/created\t1000000123\t${'x'.repeat(200)}\n`);
  });
});
