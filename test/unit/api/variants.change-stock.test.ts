import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeStock } from '../../../src/api/variants.js';
import { ValidationError } from '../../../src/client/errors.js';
import { createClient, type StoreClient } from '../../../src/client/index.js';
import { fixture } from '../../helpers/replay-server.js';

/**
 * platform.md §12, relative stock, from the client's side: `changeStock` sends the documented body and reads the
 * documented answer (test/fixtures/platform/variants-stock*.json) and the documented 422, served by a plain
 * node:http store that answers what the fixtures hold — not by our sandbox.
 */

let server: Server;
/** The ledger's side of each write: what the HTTP core settled it as. */
const settled: string[] = [];
const record = { settle: (outcome: string) => void settled.push(outcome) };
let client: StoreClient;
const received: { method: string; url: string; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = text ? JSON.parse(text) : undefined;
      received.push({ method: req.method!, url: req.url!, body });
      const send = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.method !== 'POST' || !/^\/v1\/1234567\/products\/\d+\/variants\/stock$/.test(req.url!)) return send(404, fixture('error-not-found.json'));
      if (body?.action !== 'replace' && body?.action !== 'variation') return send(422, fixture('error-422-stock-action.json'));
      if (body.id === 'numeric-strings') return send(200, [{ id: '401234600', stock: '12' }, { id: 'odd' }]);
      if (body.id === 'wrapped') return send(200, { variants: [{ id: 401234600, stock: null }] });
      return send(200, fixture('variants-stock.json'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = createClient({ apiUrl: `http://127.0.0.1:${port}`, storeId: 1234567, token: 't', appName: 'Stock unit', appId: '1', retries: 0, warn: () => {} });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('changeStock (POST /products/{id}/variants/stock)', () => {
  it('sends {action, value, id} as documented and reads the variants the store updated', async () => {
    const request = fixture('variants-stock-request.json');
    const changed = await changeStock(client, 101234600, { action: request.action, value: request.value, variantId: request.id }, record);
    expect(received.at(-1)).toMatchObject({ method: 'POST', url: '/v1/1234567/products/101234600/variants/stock', body: request });
    expect(changed).toEqual([{ id: 401234600, stock: 298 }]);
    expect(settled.at(-1)).toBe('confirmed');
  });

  it('without a variant, no id is sent; replace null (infinite) is sent as null', async () => {
    await changeStock(client, 101234600, { action: 'replace', value: null }, record);
    expect(received.at(-1)!.body).toEqual({ action: 'replace', value: null });
  });

  it('reads numeric strings, an answer wrapped in {variants}, and leaves an odd record out', async () => {
    expect(await changeStock(client, 1, { action: 'variation', value: 1, variantId: 'numeric-strings' as never }, record)).toEqual([{ id: 401234600, stock: 12 }]);
    expect(await changeStock(client, 1, { action: 'replace', value: null, variantId: 'wrapped' as never }, record)).toEqual([{ id: 401234600, stock: null }]);
  });

  it("the documented 422 is a ValidationError carrying the store's sentence", async () => {
    const error = await changeStock(client, 1, { action: 'add' as never, value: 1 }, record).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(String((error as Error).message)).toContain("Valid actions are 'replace', 'variation'.");
    expect(settled.at(-1)).toBe('failed');
  });
});
