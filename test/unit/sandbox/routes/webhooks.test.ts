import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../src/platform/clock.js';
import { useSandbox } from '../../../helpers/sandbox.js';

const clock = new FakeClock(Date.parse('2026-11-20T12:00:00Z'));
const sb = useSandbox({ seed: 'demo', clock, webhookRetryBaseMs: 1000 });

/** A loopback receiver answering from a queue of statuses (then 200). */
const received: { headers: http.IncomingHttpHeaders; raw: string }[] = [];
const statuses: number[] = [];
let waiters: (() => void)[] = [];
const server = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (d) => (raw += d));
  req.on('end', () => {
    received.push({ headers: req.headers, raw });
    res.writeHead(statuses.shift() ?? 200).end();
    const ready = waiters;
    waiters = [];
    for (const w of ready) w();
  });
});
let url = '';

/** Resolves once `count` notifications in all have reached the receiver. */
async function receivedCount(count: number): Promise<void> {
  while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
}

/** Moves the sandbox clock until a retry arrives (the retry is scheduled once the failed answer is read). */
async function advanceUntil(count: number): Promise<void> {
  for (let i = 0; received.length < count && i < 200; i++) {
    clock.advance(1000);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await receivedCount(count);
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('webhook registration', () => {
  it.each([
    ['http://example.com/hook', 'url'],
    ['ftp://127.0.0.1/hook', 'url'],
    ['not a url', 'url'],
  ])('refuses url %s', async (target, field) => {
    const res = await sb.post('/webhooks', { event: 'order/created', url: target });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it('accepts https anywhere and http on loopback names', async () => {
    for (const target of ['https://erp.example.com/hooks', 'http://localhost:9/x', 'http://[::1]:9/x']) {
      const res = await sb.post('/webhooks', { event: 'product/created', url: target });
      expect(res.status, target).toBe(201);
      expect((await sb.del(`/webhooks/${res.body.id}`)).status).toBe(200);
    }
  });

  it('refuses headers the delivery sets itself and a duplicate registration', async () => {
    const bad = await sb.post('/webhooks', { event: 'order/paid', url, headers: { 'X-LinkedStore-Hmac-Sha256': 'forged' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['headers.X-LinkedStore-Hmac-Sha256']);
    const first = await sb.post('/webhooks', { event: 'order/paid', url });
    expect(first.status).toBe(201);
    const dup = await sb.post('/webhooks', { event: 'order/paid', url });
    expect(dup.status).toBe(422);
    expect((await sb.del(`/webhooks/${first.body.id}`)).status).toBe(200);
  });
});

describe('webhook delivery from the sandbox', () => {
  it('signs with the app secret, retries on the sandbox clock and stops after DELETE', async () => {
    const hook = (await sb.post('/webhooks', { event: 'order/created', url, headers: { 'X-Team': 'erp' } })).body;
    const order = (await sb.get('/orders', { query: { status: 'open', per_page: 1 } })).body[0];
    const store = sb.sandbox.state.store(sb.sandbox.storeId)!;
    const variant = store.products.list().flatMap((p) => p.variants).find((v) => !v.stock_management)!.id;
    statuses.push(500);
    const start = received.length;
    const created = await sb.post('/orders', { customer: { name: 'Eva' }, products: [{ variant_id: variant, quantity: 1 }] });
    expect(created.status).toBe(201);
    await receivedCount(start + 1);
    await advanceUntil(start + 2);

    const [first, retry] = received.slice(start);
    expect(JSON.parse(first!.raw)).toEqual({ store_id: sb.sandbox.storeId, event: 'order/created', id: created.body.id });
    const signature = createHmac('sha256', sb.sandbox.clientSecret).update(first!.raw).digest('hex');
    expect(first!.headers['x-linkedstore-hmac-sha256']).toBe(signature);
    expect(first!.headers['x-team']).toBe('erp');
    expect(retry!.headers['x-store-delivery-id']).toBe(first!.headers['x-store-delivery-id']);
    expect(retry!.raw).toBe(first!.raw);

    await sb.del(`/webhooks/${hook.id}`);
    const before = received.length;
    await sb.post('/orders', { customer: { name: 'Eva' }, products: [{ variant_id: variant, quantity: 1 }] });
    // An event that someone does receive proves the one before it was not sent.
    const tracked = (await sb.post('/webhooks', { event: 'order/cancelled', url })).body;
    await sb.post(`/orders/${order.id}/cancel`);
    await receivedCount(before + 1);
    expect(received.slice(before).map((r) => JSON.parse(r.raw).event)).toEqual(['order/cancelled']);
    await sb.del(`/webhooks/${tracked.id}`);
  });
});
