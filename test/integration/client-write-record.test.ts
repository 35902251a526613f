import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type WriteOutcome, type WriteRecord } from '../../src/client/index.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * The HTTP core settles the ledger's record of a write from how its request ended (docs/ledger.md,
 * docs/decisions.md "Run ledger"): what a lost reply, a refusal and a connect error each mean.
 */

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function client(apiUrl?: string) {
  const server = await startTestServer({ rate: 'off' });
  servers.push(server);
  return createClient({
    apiUrl: apiUrl ?? server.url,
    storeId: server.storeId,
    token: server.token,
    appName: 'Ledger test',
    appId: '1',
    retryBaseMs: 5,
    timeoutMs: 300,
  });
}

function recorder(settledByCaller = false): WriteRecord & { settled: [WriteOutcome, string | undefined][] } {
  const settled: [WriteOutcome, string | undefined][] = [];
  return { settledByCaller, settled, settle: (outcome, reason) => settled.push([outcome, reason]) };
}

describe('a write request settles its record', () => {
  it('is refused, unsent, without one (every write is on the record)', async () => {
    const c = await client();
    await expect(c.request({ method: 'PUT', path: '/_echo/x', body: {} })).rejects.toThrow(/without its run ledger record/);
    await expect(c.request({ method: 'DELETE', path: '/_echo/x' })).rejects.toThrow(/without its run ledger record/);
    expect(servers[0]!.requests).toEqual([]);
    await c.request({ method: 'GET', path: '/_echo/x' });
  });

  it('confirmed on a 2xx, once', async () => {
    const c = await client();
    const record = recorder();
    await c.request({ method: 'PUT', path: '/_echo/x', body: { price: '1.00' }, record });
    expect(record.settled).toEqual([['confirmed', undefined]]);
  });

  it('not on a 2xx when its caller settles from the reply, but still on a failure', async () => {
    const c = await client();
    const record = recorder(true);
    await c.request({ method: 'PATCH', path: '/_echo/x', body: [], record });
    expect(record.settled).toEqual([]);
    await expect(c.request({ method: 'PATCH', path: '/_status/422', body: [], record })).rejects.toThrow();
    expect(record.settled.map(([o]) => o)).toEqual(['failed']);
  });

  it('failed on a 4xx, with the error as the reason', async () => {
    const c = await client();
    const record = recorder();
    const error = await c.request({ method: 'PUT', path: '/_status/422', body: {}, record }).catch((e: Error) => e);
    expect(record.settled).toEqual([['failed', (error as Error).message]]);
  });

  it('unknown on a 5xx after the retries: the store may have applied it', async () => {
    const c = await client();
    const record = recorder();
    await expect(c.request({ method: 'PUT', path: '/_status/503', body: {}, record })).rejects.toThrow();
    expect(record.settled.map(([o]) => o)).toEqual(['unknown']);
  });

  it('unknown when the connection is dropped after sending (a lost reply), even if a retry is then refused', async () => {
    const c = await client();
    const record = recorder();
    await expect(c.request({ method: 'POST', path: '/_reset/post-once', body: {}, record })).rejects.toThrow();
    expect(record.settled.map(([o]) => o)).toEqual(['unknown']);
  });

  it('unknown on a timeout', async () => {
    const c = await client();
    const record = recorder();
    await expect(c.request({ method: 'POST', path: '/_slow', query: { ms: 2000 }, body: {}, record })).rejects.toThrow();
    expect(record.settled.map(([o]) => o)).toEqual(['unknown']);
  });

  it('failed when the request never left this machine (connection refused)', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const c = await client(`http://127.0.0.1:${port}`);
    const record = recorder();
    await expect(c.request({ method: 'PUT', path: '/x', body: {}, record })).rejects.toThrow();
    expect(record.settled.map(([o]) => o)).toEqual(['failed']);
  });

  it('confirmed before the reply is read: a 2xx that is not JSON was still applied', async () => {
    const c = await client();
    const record = recorder();
    await expect(c.request({ method: 'POST', path: '/_html', body: {}, record })).rejects.toThrow(/not JSON/);
    expect(record.settled.map(([o]) => o)).toEqual(['confirmed']);
  });
});
