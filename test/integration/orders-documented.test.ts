import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';

/**
 * `store orders …` against a plain replay server that answers in the documented forms of platform.md §4 and
 * §1 (not the sandbox): numeric strings, nulls, `+0000` offsets, the older single-order shape with `price`,
 * a record the client cannot read, and the empty list as 404 "Last page is 0".
 */

const STORE_ID = 7001;
const documented = {
  id: 450000123,
  number: 182,
  token: 'a1b2',
  store_id: STORE_ID,
  status: 'open',
  payment_status: 'authorized',
  shipping_status: 'unpacked',
  currency: 'BRL',
  subtotal: '150.00',
  discount: null,
  total: '165.50',
  gateway: 'pagseguro',
  gateway_name: 'PagSeguro',
  payment_details: { method: 'credit_card', credit_card_company: 'visa', installments: '3' },
  shipping: 'correios',
  shipping_option: 'PAC',
  shipping_cost_customer: '15.50',
  shipping_tracking_number: null,
  shipping_tracking_url: null,
  customer: { id: '77012', name: 'Ana Lima', email: 'ana@example.com', phone: null },
  products: [{ id: '901', product_id: '1234', variant_id: '5678', name: 'Camisa (M)', quantity: '2', price: '75.00' }],
  owner_note: null,
  created_at: '2022-02-23T12:25:18+0000',
  updated_at: '2022-02-23T12:30:00+0000',
  landing_url: 'https://example.com/?utm=x',
};
/** The older single-order shape: `price`, no `total`. */
const older = {
  id: 123456789,
  number: 96,
  status: 'closed',
  payment_status: 'paid',
  shipping_status: 'shipped',
  currency: 'ARS',
  price: '42.00',
  shipping: 'oca',
  shipping_option: 'OCA a domicilio',
  shipping_tracking_number: 'OC123',
  shipping_tracking_url: 'https://oca.example/OC123',
  customer: { id: 5, name: 'Bruno Díaz', email: 'bruno@example.com' },
  products: [{ id: 1, product_id: 2, variant_id: 3, name: 'Gorra', quantity: 1, price: '42.00' }],
  created_at: '2013-01-03T09:11:51-03:00',
};
const odd = { id: 'not-an-id', number: 97 };

let server: Server;
let env: NodeJS.ProcessEnv;
const paths: string[] = [];

function send(res: import('node:http').ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
const lastPage0 = { code: 404, message: 'Not Found', description: 'Last page is 0' };

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    paths.push(`${req.method} ${url.pathname}${url.search}`);
    const path = url.pathname.replace(`/v1/${STORE_ID}`, '');
    if (path === '/orders') {
      const q = url.searchParams.get('q');
      if (url.searchParams.get('status') === 'closed' && !q) return send(res, 404, lastPage0);
      const list = q === '182' ? [documented] : q ? [] : [documented, odd, older];
      if (list.length === 0) return send(res, 404, lastPage0);
      return send(res, 200, list, { 'x-total-count': String(list.length) });
    }
    const one = /^\/orders\/(\d+)$/.exec(path);
    if (one) {
      const found = [documented, older].find((o) => String(o.id) === one[1]);
      return found ? send(res, 200, found) : send(res, 404, { code: 404, message: 'Not Found', description: null });
    }
    if (/^\/orders\/\d+\/fulfillment-orders$/.test(path) || path.startsWith('/metafields')) return send(res, 404, lastPage0);
    return send(res, 404, { code: 404, message: 'Not Found', description: `No route ${path}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = mkdtempSync(join(tmpdir(), 'store-orders-documented-'));
  env = {
    STORE_TOKEN: 'replay-token',
    STORE_ID: String(STORE_ID),
    STORE_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    STORE_APP_NAME: 'Replay test',
    STORE_APP_ID: '9001',
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
  };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const store = (...args: string[]) => runInProcess(args, { env });

describe('orders on documented responses', () => {
  it('list reads numeric strings, nulls and +0000 (written +00:00, one form), leaves the odd record out with one warning, exits 0', async () => {
    const r = await store('orders', 'list', '--csv');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      'id,number,status,payment_status,shipping_status,created_at,customer,total,currency',
      '450000123,182,open,authorized,unpacked,2022-02-23T12:25:18+00:00,Ana Lima <ana@example.com>,165.50,BRL',
      '123456789,96,closed,paid,shipped,2013-01-03T09:11:51-03:00,Bruno Díaz <bruno@example.com>,42.00,ARS',
    ]);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('could not be read'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('1 order record could not be read and was left out (record not-an-id');
    const json = JSON.parse((await store('orders', 'list', '--json')).stdout);
    expect(json[0]).toMatchObject({ id: 450000123, customer: { id: 77012 }, products: [{ variant_id: 5678, quantity: 2 }], landing_url: 'https://example.com/?utm=x' });
  });

  it('an empty list (404 "Last page is 0") is "No orders match." and exit 0', async () => {
    const r = await store('orders', 'list', '--status', 'closed');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe('No orders match.');
  });

  it('get shows payment from gateway/payment_details and the total of the older shape from price', async () => {
    const r = await store('orders', 'get', '450000123');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^payment\s+authorized — PagSeguro, credit card visa, 3 installments$/m);
    expect(r.stdout).toMatch(/^shipping\s+unpacked — PAC \(correios\), 15\.50$/m);
    expect(r.stdout).toMatch(/^total\s+165\.50 BRL$/m);
    expect(r.stdout).toMatch(/^5678\t\tCamisa \(M\)\t2\t75\.00$/m);
    const olderShape = await store('orders', 'get', '123456789');
    expect(olderShape.code).toBe(0);
    expect(olderShape.stdout).toMatch(/^total\s+42\.00 ARS$/m);
    expect(olderShape.stdout).toMatch(/^tracking\s+OC123 https:\/\/oca\.example\/OC123$/m);
    expect(olderShape.stdout).toMatch(/^shipping\s+shipped — OCA a domicilio \(oca\)$/m);
  });

  it('get 182: the store answers 404 for that id, q finds order number 182, stderr says which order is shown', async () => {
    paths.length = 0;
    const r = await store('orders', 'get', '182', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).order.id).toBe(450000123);
    expect(r.stderr.trim()).toBe('Order number 182 is order 450000123; showing it.');
    expect(paths.some((p) => p === `GET /v1/${STORE_ID}/orders/182` || p.startsWith(`GET /v1/${STORE_ID}/orders/182?`))).toBe(true);
    expect(paths.some((p) => p.startsWith(`GET /v1/${STORE_ID}/orders?`) && p.includes('q=182'))).toBe(true);
    const missing = await store('orders', 'get', '183');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('not found');
    expect(missing.stderr).not.toContain('showing');
  });
});
