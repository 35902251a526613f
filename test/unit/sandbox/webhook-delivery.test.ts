import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/platform/clock.js';
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER } from '../../../src/platform/webhook-headers.js';
import { WebhookDeliverer, type DeliveryRecord } from '../../../src/sandbox/webhook-delivery.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  res: http.ServerResponse;
}

/** A loopback receiver whose answers the test decides request by request. */
async function startReceiver(answer: (req: Received, index: number) => void) {
  const received: Received[] = [];
  const arrivals: ((r: Received) => void)[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const entry = { headers: req.headers, body, res };
      received.push(entry);
      answer(entry, received.length - 1);
      arrivals.shift()?.(entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Resolves with the next request to arrive. */
    nextRequest: () => new Promise<Received>((resolve) => arrivals.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function makeDeliverer(clock: FakeClock, retryBaseMs = 100) {
  const attempts: ((r: DeliveryRecord) => void)[] = [];
  const deliverer = new WebhookDeliverer({
    clock,
    retryBaseMs,
    onAttempt: (record) => attempts.shift()?.(record),
  });
  cleanups.push(() => deliverer.close());
  return {
    deliverer,
    nextAttempt: () => new Promise<DeliveryRecord>((resolve) => attempts.push(resolve)),
  };
}

describe('webhook delivery', () => {
  it('signs the raw body with the client secret and sends the registered headers', async () => {
    const receiver = await startReceiver((r) => r.res.writeHead(200).end());
    cleanups.push(receiver.close);
    const clock = new FakeClock();
    const { deliverer, nextAttempt } = makeDeliverer(clock);
    const attempt = nextAttempt();
    deliverer.deliver(
      { url: receiver.url, headers: { 'X-Custom': 'abc' }, secret: 'shh-secret' },
      { store_id: 123, event: 'order/created', id: 1234567890 },
    );
    const record = await attempt;
    expect(record.state).toBe('delivered');
    const [request] = receiver.received;
    expect(JSON.parse(request.body)).toEqual({ store_id: 123, event: 'order/created', id: 1234567890 });
    const expected = createHmac('sha256', 'shh-secret').update(request.body).digest('hex');
    expect(request.headers[SIGNATURE_HEADER]).toBe(expected);
    expect(request.headers['x-custom']).toBe('abc');
    expect(request.headers['content-type']).toBe('application/json');
    expect(deliverer.pending()).toBe(0);
  });

  it('retries after 500 twice with growing delays and the same delivery id', async () => {
    const receiver = await startReceiver((r, i) => r.res.writeHead(i < 2 ? 500 : 200).end());
    cleanups.push(receiver.close);
    const clock = new FakeClock();
    const { deliverer, nextAttempt } = makeDeliverer(clock, 100);
    let attempt = nextAttempt();
    const id = deliverer.deliver({ url: receiver.url, secret: 's' }, { store_id: 1, event: 'order/paid', id: 1000000001 });
    expect((await attempt).lastStatus).toBe(500);

    // Nothing happens before the first delay has passed.
    clock.advance(99);
    expect(receiver.received).toHaveLength(1);
    attempt = nextAttempt();
    clock.advance(1);
    expect((await attempt).lastStatus).toBe(500);

    // The second retry waits twice the base.
    clock.advance(199);
    expect(receiver.received).toHaveLength(2);
    attempt = nextAttempt();
    clock.advance(1);
    const last = await attempt;
    expect(last).toMatchObject({ state: 'delivered', attempts: 3, lastStatus: 200, deliveryId: id });

    const ids = receiver.received.map((r) => r.headers[DELIVERY_ID_HEADER]);
    expect(ids).toEqual([id, id, id]);
    const signatures = new Set(receiver.received.map((r) => r.headers[SIGNATURE_HEADER]));
    expect(signatures.size).toBe(1);
  });

  it('treats no answer within 3 s as a failure and retries', async () => {
    const receiver = await startReceiver((r, i) => {
      if (i > 0) r.res.writeHead(204).end();
    });
    cleanups.push(receiver.close);
    const clock = new FakeClock();
    const { deliverer, nextAttempt } = makeDeliverer(clock, 50);
    const arrived = receiver.nextRequest();
    deliverer.deliver({ url: receiver.url, secret: 's' }, { store_id: 1, event: 'location/created', id: '01HZY' });
    await arrived;
    let attempt = nextAttempt();
    clock.advance(3000);
    const timedOut = await attempt;
    expect(timedOut.state).toBe('pending');
    expect(timedOut.lastStatus).toBeUndefined();
    expect(timedOut.lastError).toMatch(/no answer/);

    attempt = nextAttempt();
    clock.advance(50);
    expect(await attempt).toMatchObject({ state: 'delivered', attempts: 2, lastStatus: 204 });
  });

  it('gives up after the last attempt', async () => {
    const receiver = await startReceiver((r) => r.res.writeHead(503).end());
    cleanups.push(receiver.close);
    const clock = new FakeClock();
    const deliverer = new WebhookDeliverer({ clock, retryBaseMs: 10, maxAttempts: 3 });
    cleanups.push(() => deliverer.close());
    deliverer.deliver({ url: receiver.url, secret: 's' }, { store_id: 1, event: 'order/updated', id: 1 });
    const idle = deliverer.whenIdle();
    for (let i = 0; deliverer.pending() > 0 && i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      clock.advance(1000);
    }
    await idle;
    expect(receiver.received).toHaveLength(3);
    expect(deliverer.records()[0]).toMatchObject({ state: 'failed', attempts: 3, lastStatus: 503 });
  });
});
