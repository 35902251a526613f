import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS, createWebhook, isSandboxHost, type WebhookEvent } from '../../../../src/api/webhooks.js';
import { createClient, type StoreClient } from '../../../../src/client/index.js';
import { UsageError } from '../../../../src/errors.js';
import type { RunningSandbox } from '../../../../src/sandbox/index.js';
import { resourceDescriber } from '../../../../src/services/webhooks/listener.js';
import { triggerEvent } from '../../../../src/services/webhooks/trigger.js';
import { testLedger } from '../../../helpers/ledger.js';

const ledger = testLedger();

/**
 * Every event `store webhooks trigger` offers really comes out of the sandbox: one webhook per event points at a
 * receiver here, each trigger runs against the demo store, and the notification for the triggered record arrives.
 */

interface Received {
  store_id: number;
  event: string;
  id?: number | string;
  old_theme?: string;
  new_theme?: string;
}

let sandbox: RunningSandbox;
let client: StoreClient;
let server: http.Server;
const received: Received[] = [];
let arrived: () => void = () => {};

beforeAll(async () => {
  const { startSandbox } = await import('../../../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', webhookRetryBaseMs: 50, host: '127.0.0.1', port: 0 });
  client = createClient({
    apiUrl: sandbox.apiUrl,
    storeId: sandbox.storeId,
    token: sandbox.accessToken,
    appName: sandbox.appName,
    appId: sandbox.clientId,
  });
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const signature = createHmac('sha256', sandbox.clientSecret).update(body).digest('hex');
      if (req.headers['x-linkedstore-hmac-sha256'] === signature) received.push(JSON.parse(body) as Received);
      res.writeHead(200).end();
      arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  for (const event of WEBHOOK_EVENTS) await createWebhook(client, { event, url }, ledger.record('POST', '/webhooks'));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await sandbox?.close();
});

async function notificationOf(event: string, id: number | string | undefined): Promise<Received> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    // The fulfillment_order/* bodies name the shipment as fulfillment_id (platform.md §10).
    const found = received.find((r) => r.event === event && (r.id === id || (r as { fulfillment_id?: unknown }).fulfillment_id === id));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${event} ${id} arrived; got ${JSON.stringify(received)}`);
    await new Promise<void>((resolve) => {
      arrived = resolve;
      setTimeout(resolve, 200);
    });
  }
}

const triggerable = WEBHOOK_EVENTS.filter((e): e is Exclude<WebhookEvent, 'app/uninstalled'> => e !== 'app/uninstalled');

describe('triggerEvent', () => {
  it.each(triggerable.map((e) => [e]))('%s makes the sandbox emit it for the record it names', async (event) => {
    const result = await triggerEvent(client, ledger.recorder, event, () => new Date('2026-11-21T14:05:00Z'));
    expect(result.event).toBe(event);
    expect(result.resource.kind).toBe(event.split('/')[0]);
    expect(result.actions.length).toBeGreaterThan(0);
    const notification = await notificationOf(event, result.resource.id);
    expect(notification.store_id).toBe(sandbox.storeId);
    // The documented bodies: domain/updated has no id; theme/updated names the themes instead.
    if (event === 'domain/updated') expect(notification).toEqual({ store_id: sandbox.storeId, event });
    if (event === 'theme/updated') expect(notification).toEqual({ store_id: sandbox.storeId, event, old_theme: expect.any(String), new_theme: expect.any(String) });
    if (event.startsWith('fulfillment_order/')) {
      expect(notification).toMatchObject({ order_id: expect.any(Number), fulfillment_id: result.resource.id, status: event.endsWith('status_updated') ? 'PACKED' : 'DISPATCHED' });
      // As the listener hands it on: the fields beyond store_id, event and id under data.
      const { store_id, event: name, ...data } = notification;
      const view = await resourceDescriber(client)({ store_id, event: name, data });
      expect(view.summary).toContain(`shipment ${String(result.resource.id)} of order`);
    }
  });

  it('refuses app/uninstalled, which the sandbox never sends', async () => {
    await expect(triggerEvent(client, ledger.recorder, 'app/uninstalled')).rejects.toBeInstanceOf(UsageError);
  });
});

describe('resourceDescriber', () => {
  const describeIt = () => resourceDescriber(client);

  it('fetches an order and sums it up: number, status, total', async () => {
    const { resource } = await triggerEvent(client, ledger.recorder, 'order/paid');
    const view = await describeIt()({ store_id: sandbox.storeId, event: 'order/paid', id: resource.id });
    expect(view.summary).toMatch(/^#\d+ open\/paid \d+\.\d{2} [A-Z]{3}$/);
    expect(view.resource).toMatchObject({ id: resource.id, status: 'open', payment_status: 'paid' });
  });

  it('fetches products, categories and locations through their API modules', async () => {
    for (const kind of ['product', 'category', 'location'] as const) {
      const { resource } = await triggerEvent(client, ledger.recorder, `${kind}/created`, () => new Date('2026-11-21T15:00:00Z'));
      const view = await describeIt()({ store_id: sandbox.storeId, event: `${kind}/created`, id: resource.id });
      expect(view.summary).toContain('Webhook trigger 2026-11-21T15:00:00+00:00');
      expect(view.resource).toMatchObject({ id: resource.id });
    }
  });

  it('sums up events without an id from their body', async () => {
    expect(await describeIt()({ store_id: sandbox.storeId, event: 'domain/updated' })).toEqual({ summary: "the store's domain changed" });
    expect(await describeIt()({ store_id: sandbox.storeId, event: 'theme/updated', data: { old_theme: 'Rio', new_theme: 'Lima' } })).toEqual({
      summary: 'theme Rio → Lima',
    });
  });

  it('does not fetch deleted records, and says so when a record is already gone', async () => {
    const deleted = await describeIt()({ store_id: sandbox.storeId, event: 'product/deleted', id: 424242 });
    expect(deleted).toEqual({ summary: 'product deleted' });
    const gone = await describeIt()({ store_id: sandbox.storeId, event: 'category/updated', id: 424242 });
    expect(gone).toEqual({ summary: 'category 424242 no longer exists' });
  });
});

describe('isSandboxHost', () => {
  it('recognises the sandbox by its /sandbox/status', async () => {
    expect(await isSandboxHost(client, sandbox.apiUrl)).toBe(true);
  });

  it('is false for a loopback server without /sandbox/status, and asks nothing of a host off loopback', async () => {
    const plain = http.createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const apiUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
      const other = createClient({ apiUrl, storeId: 1, token: 't', appName: 'test', appId: '1', retries: 0 });
      expect(await isSandboxHost(other, apiUrl)).toBe(false);
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
    const before = client.stats().requests;
    expect(await isSandboxHost(client, 'https://api.example.com')).toBe(false);
    expect(client.stats().requests).toBe(before);
  });
});
