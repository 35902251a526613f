import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type StoreClient } from '../../src/client/index.js';
import { NotFoundError, ValidationError, AuthError } from '../../src/client/errors.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { testLedger } from '../helpers/ledger.js';

const ledger = testLedger();

/** The HTTP core against the real sandbox: the two sides agree on headers, pages, errors and the bucket. */
describe('createClient against the sandbox', () => {
  let sandbox: RunningSandbox;
  let client: StoreClient;

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 'demo', rate: { capacity: 10, leakPerSecond: 50 } });
    client = createClient({
      apiUrl: sandbox.apiUrl,
      storeId: sandbox.storeId,
      token: sandbox.accessToken,
      appName: sandbox.appName,
      appId: sandbox.clientId,
      profile: 'sandbox',
    });
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('pages through every product, following Link, with x-total-count', async () => {
    const pages = [];
    for await (const page of client.paginate<{ id: number }>('/products', {}, { perPage: 5 })) pages.push(page);
    const total = pages[0]!.total!;
    expect(total).toBeGreaterThan(5);
    expect(pages).toHaveLength(Math.ceil(total / 5));
    expect(pages.map((p) => p.page)).toEqual(pages.map((_, i) => i + 1));
    const ids = pages.flatMap((p) => p.items.map((o) => o.id));
    expect(new Set(ids).size).toBe(total);
  });

  it('maps the sandbox errors', async () => {
    await expect(client.get('/orders/1')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.get('/orders/1')).rejects.toThrow('Order 1 not found.');
    await expect(client.request({ method: 'POST', path: '/products', body: {}, record: ledger.record('POST', '/products') })).rejects.toBeInstanceOf(ValidationError);
    const wrong = createClient({ apiUrl: sandbox.apiUrl, storeId: sandbox.storeId, token: 'nope', appName: 'x', appId: 'y', profile: 'p' });
    await expect(wrong.get('/store')).rejects.toBeInstanceOf(AuthError);
  });

  it('keeps a burst within the bucket', async () => {
    const before = client.stats();
    const results = await Promise.all(Array.from({ length: 60 }, () => client.get('/store')));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(client.stats().rateLimited - before.rateLimited).toBeLessThanOrEqual(3);
  });
});
