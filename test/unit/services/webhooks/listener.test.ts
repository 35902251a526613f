import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  WebhookListener,
  type ListenerOptions,
  type Notification,
  type ReceivedNotification,
} from '../../../../src/services/webhooks/listener.js';

/** The receiver of `store webhooks listen`, driven over real loopback HTTP with hand-signed notifications. */

const SECRET = 'test-client-secret';
const STORE_ID = 1000001;

const sign = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');

interface Harness {
  listener: WebhookListener;
  url: string;
  seen: ReceivedNotification[];
  log: string[];
  described: Notification[];
  clock: { now: number };
}

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
});

async function start(options: Partial<ListenerOptions> = {}): Promise<Harness> {
  const clock = { now: Date.parse('2026-11-21T14:05:00Z') };
  const described: Notification[] = [];
  const listener = new WebhookListener({
    secret: SECRET,
    storeId: STORE_ID,
    now: () => clock.now,
    describe: async (n) => {
      described.push(n);
      return { summary: `summary of ${n.event} ${n.id}`, resource: { id: n.id } };
    },
    ...options,
  });
  const seen: ReceivedNotification[] = [];
  const log: string[] = [];
  listener.on('notification', (n) => seen.push(n));
  listener.on('refused', (r) => log.push(`refused ${r.status}`));
  listener.on('duplicate', (d) => log.push(`duplicate ${d.event} ${d.id}`));
  listener.on('ignored', (i) => log.push(`ignored ${i.event} ${i.id}`));
  listener.on('problem', (p) => log.push(`problem ${p.event} ${p.id}`));
  const { url } = await listener.start();
  running.push({ close: () => listener.stop() });
  return { listener, url, seen, log, described, clock };
}

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await res.arrayBuffer();
  return res.status;
}

function notification(event = 'order/created', id: number | string = 1000000123, storeId = STORE_ID): string {
  return JSON.stringify({ store_id: storeId, event, id });
}

describe('WebhookListener', () => {
  it('accepts a correctly signed notification, describes it, then answers 200', async () => {
    const h = await start();
    const body = notification();
    expect(await post(h.url, body, { 'x-linkedstore-hmac-sha256': sign(body), 'x-store-delivery-id': 'd-1' })).toBe(200);
    expect(h.seen).toEqual([
      {
        received_at: '2026-11-21T14:05:00+00:00',
        store_id: STORE_ID,
        event: 'order/created',
        id: 1000000123,
        delivery_id: 'd-1',
        summary: 'summary of order/created 1000000123',
        resource: { id: 1000000123 },
      },
    ]);
  });

  it('accepts the signature in upper case hex too', async () => {
    const h = await start();
    const body = notification();
    expect(await post(h.url, body, { 'x-linkedstore-hmac-sha256': sign(body).toUpperCase() })).toBe(200);
    expect(h.seen).toHaveLength(1);
  });

  it.each([
    ['missing', undefined],
    ['made with another secret', sign(notification(), 'another-secret')],
    ['of another body', sign(notification('order/paid'))],
    ['truncated', sign(notification()).slice(0, 20)],
    ['not hex at all', 'definitely-not-a-signature'],
  ])('refuses a %s signature with 401 and shows nothing', async (_what, signature) => {
    const h = await start();
    const headers: Record<string, string> = signature === undefined ? {} : { 'x-linkedstore-hmac-sha256': signature };
    expect(await post(h.url, notification(), headers)).toBe(401);
    expect(h.seen).toEqual([]);
    expect(h.described).toEqual([]);
    expect(h.log).toEqual(['refused 401']);
  });

  it.each([
    ['not JSON', 'store_id=1'],
    ['an array', '[]'],
    ['without store_id', JSON.stringify({ event: 'order/created', id: 1 })],
    ['with a store_id that is not a number', JSON.stringify({ store_id: 'tienda', event: 'order/created', id: 1 })],
    ['without event', JSON.stringify({ store_id: STORE_ID, id: 1 })],
    ['with a malformed event', JSON.stringify({ store_id: STORE_ID, event: 'order created', id: 1 })],
    ['with an empty id', JSON.stringify({ store_id: STORE_ID, event: 'order/created', id: ' ' })],
    ['with a fractional id', JSON.stringify({ store_id: STORE_ID, event: 'order/created', id: 1.5 })],
  ])('refuses a correctly signed body %s with 400', async (_what, body) => {
    const h = await start();
    expect(await post(h.url, body, { 'x-linkedstore-hmac-sha256': sign(body) })).toBe(400);
    expect(h.seen).toEqual([]);
  });

  it('accepts a body without id (domain/updated) and keeps the other fields (theme/updated); store_id may be a numeric string', async () => {
    const h = await start();
    const domain = JSON.stringify({ store_id: STORE_ID, event: 'domain/updated' });
    const theme = JSON.stringify({ store_id: String(STORE_ID), event: 'theme/updated', old_theme: 'Rio', new_theme: 'Lima' });
    expect(await post(h.url, domain, { 'x-linkedstore-hmac-sha256': sign(domain) })).toBe(200);
    expect(await post(h.url, theme, { 'x-linkedstore-hmac-sha256': sign(theme) })).toBe(200);
    expect(h.seen).toEqual([
      expect.objectContaining({ store_id: STORE_ID, event: 'domain/updated', summary: 'summary of domain/updated undefined' }),
      expect.objectContaining({ store_id: STORE_ID, event: 'theme/updated', data: { old_theme: 'Rio', new_theme: 'Lima' } }),
    ]);
    expect(h.seen[0]).not.toHaveProperty('id');
    // The same body again, without a delivery id, is a duplicate.
    expect(await post(h.url, domain, { 'x-linkedstore-hmac-sha256': sign(domain) })).toBe(200);
    expect(h.log).toEqual(['duplicate domain/updated undefined']);
  });

  it('accepts string ids (locations and fulfillment orders are ULIDs)', async () => {
    const h = await start();
    const body = notification('location/created', '01JD3Z6Q8R5M2K7N4P9T0V1W2X');
    expect(await post(h.url, body, { 'x-linkedstore-hmac-sha256': sign(body) })).toBe(200);
    expect(h.seen.map((n) => n.id)).toEqual(['01JD3Z6Q8R5M2K7N4P9T0V1W2X']);
  });

  it('refuses other methods with 405', async () => {
    const h = await start();
    const res = await fetch(h.url);
    expect(res.status).toBe(405);
  });

  it('shows a delivery once however often the store sends it', async () => {
    const h = await start();
    const body = notification();
    const headers = { 'x-linkedstore-hmac-sha256': sign(body), 'x-store-delivery-id': 'same' };
    expect(await post(h.url, body, headers)).toBe(200);
    expect(await post(h.url, body, headers)).toBe(200);
    h.clock.now += 60 * 60 * 1000;
    expect(await post(h.url, body, headers)).toBe(200);
    expect(h.seen).toHaveLength(1);
    expect(h.described).toHaveLength(1);
    expect(h.log).toEqual(['duplicate order/created 1000000123', 'duplicate order/created 1000000123']);
  });

  it('treats two deliveries of one event and id as distinct when their delivery ids differ', async () => {
    const h = await start();
    const body = notification('order/updated');
    expect(await post(h.url, body, { 'x-linkedstore-hmac-sha256': sign(body), 'x-store-delivery-id': 'a' })).toBe(200);
    expect(await post(h.url, body, { 'x-linkedstore-hmac-sha256': sign(body), 'x-store-delivery-id': 'b' })).toBe(200);
    expect(h.seen.map((n) => n.delivery_id)).toEqual(['a', 'b']);
  });

  it('without a delivery id, drops the same event and id within the window and shows it again after', async () => {
    const h = await start({ duplicateWindowMs: 5_000 });
    const body = notification('order/paid');
    const headers = { 'x-linkedstore-hmac-sha256': sign(body) };
    expect(await post(h.url, body, headers)).toBe(200);
    h.clock.now += 4_999;
    expect(await post(h.url, body, headers)).toBe(200);
    expect(h.seen).toHaveLength(1);
    h.clock.now += 1;
    expect(await post(h.url, body, headers)).toBe(200);
    expect(h.seen).toHaveLength(2);
  });

  it('answers 503 when the resource cannot be fetched, so the store retries, and shows the retry once', async () => {
    let failures = 1;
    const h = await start({
      describe: async (n) => {
        if (failures-- > 0) throw new Error('The store failed on GET /orders/1000000123 (500 Internal Server Error).');
        return { summary: `fetched ${n.id}` };
      },
    });
    const body = notification();
    const headers = { 'x-linkedstore-hmac-sha256': sign(body), 'x-store-delivery-id': 'retry-me' };
    expect(await post(h.url, body, headers)).toBe(503);
    expect(h.seen).toEqual([]);
    expect(await post(h.url, body, headers)).toBe(200);
    expect(h.seen.map((n) => n.summary)).toEqual(['fetched 1000000123']);
    expect(h.log).toEqual(['problem order/created 1000000123']);
  });

  it('ignores (with 200) notifications of another store and events not listened to', async () => {
    const h = await start({ events: ['order/created'] });
    const other = notification('order/created', 1, 999);
    expect(await post(h.url, other, { 'x-linkedstore-hmac-sha256': sign(other) })).toBe(200);
    const unwanted = notification('product/created', 5);
    expect(await post(h.url, unwanted, { 'x-linkedstore-hmac-sha256': sign(unwanted) })).toBe(200);
    expect(h.seen).toEqual([]);
    expect(h.log).toEqual(['ignored order/created 1', 'ignored product/created 5']);
  });

  it('forwards the original headers and raw body; while the target fails it answers 502 and shows the event once', async () => {
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const answers = [500, 500, 200];
    const target = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    running.push({ close: () => new Promise<void>((resolve) => target.close(() => resolve())) });
    const h = await start({ forwardTo: `http://127.0.0.1:${(target.address() as AddressInfo).port}/hook` });

    // Spacing a re-serialisation would lose: the forwarded body must be byte for byte what was signed.
    const body = '{"store_id": 1000001, "event": "order/created", "id": 1000000123}';
    const headers = { 'x-linkedstore-hmac-sha256': sign(body), 'x-store-delivery-id': 'fwd', 'x-custom': 'kept' };
    expect(await post(h.url, body, headers)).toBe(502);
    expect(await post(h.url, body, headers)).toBe(502);
    expect(await post(h.url, body, headers)).toBe(200);
    expect(await post(h.url, body, headers)).toBe(200);

    expect(h.seen).toHaveLength(1);
    expect(received).toHaveLength(3);
    for (const r of received) {
      expect(r.body).toBe(body);
      expect(r.headers['x-linkedstore-hmac-sha256']).toBe(sign(body));
      expect(r.headers['x-store-delivery-id']).toBe('fwd');
      expect(r.headers['x-custom']).toBe('kept');
    }
  });
});
