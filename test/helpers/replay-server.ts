/**
 * A plain replay of the platform (node:http, no mocking library): it serves the hand-written responses of
 * test/fixtures/platform/ (platform.md's documented shapes) for the paths the CLI reads, and records every
 * request, so a test can run `store` against "a store whose responses follow the documentation" and
 * count what it sent.
 *
 *   const store = await startReplayServer();
 *   await runInProcess(['orders', 'list'], { env: store.env() });
 *   store.writes()   // every request that was not a GET (a dry run must have none)
 *
 * Below /v1/{storeId}, GET only:
 *   /store                                   store.json, with the `x-main-language` header
 *   /products                                `q` (name, description, SKU), `handle`, `category_id`; other
 *                                            parameters ignored (there is no `sku` filter: the whole catalog
 *                                            comes back); `page`/`per_page` (max 200), x-total-count, Link
 *   /products/sku/{sku}                      the product holding that SKU, else 404
 *   /products/{id}, /products/{id}/variants(/{vid}), /products/{id}/images
 *   /products/variants/custom-fields         custom-fields.json
 *   /categories(/{id}), /locations, /webhooks
 *   /orders                                  `q` (number, or text in the customer's name or email), `status`,
 *                                            `payment_status`, `shipping_status` (`any` = no filter;
 *                                            `unshipped`/`shipped` read as `unfulfilled`/`fulfilled`)
 *   /orders/{id}                             order.json, order-older.json or the list's record
 *   /orders/{id}/fulfillment-orders(/{id})   per order (see FULFILLMENT_ORDERS)
 *   /metafields/orders?owner_id=…            per order (see METAFIELDS), `namespace`/`key` filters
 *   /customers                               customers.json: `q` (text in the name, email or identification),
 *                                            `email` (the whole address, case aside); /customers/{id}
 *                                            (customer.json for 55501234); /orders takes `customer_ids`
 * Every list that comes out empty is the platform's 404 `Last page is 0`, a page past the end `Last page is N`.
 * Anything else is a 404 in the platform's error body; writes are recorded and answered 405.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/platform/', import.meta.url));

/** A fixture's parsed JSON (a fresh copy each call, so a test may change it). */
export function fixture<T = any>(name: string): T {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, name.endsWith('.json') ? name : `${name}.json`), 'utf8')) as T;
}

export const STORE_ID = 1234567;

/** Which fixture answers `GET /orders/{id}/fulfillment-orders`; other orders have none (404 Last page is 0). */
export const FULFILLMENT_ORDERS: Record<string, string> = {
  '871254203': 'fulfillment-orders.json',
  '871254198': 'fulfillment-orders-dispatched.json',
};

/** Which fixture answers `GET /metafields/orders?owner_id={id}`; other orders have none. */
export const METAFIELDS: Record<string, string> = {
  '871254203': 'metafields-nfe-list.json',
  '871254198': 'metafields-nfe-key-link.json',
};

export interface ReplayRequest {
  method: string;
  /** Below /v1/{storeId} (e.g. `/orders`), or the whole path when outside it. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface ReplayServer {
  /** Host root, without /v1 (what STORE_API_URL takes). */
  url: string;
  storeId: number;
  token: string;
  requests: ReplayRequest[];
  /** Every request that was not a GET (or HEAD). */
  writes(): ReplayRequest[];
  /** The environment that points the real binary at this server, with its own temp XDG dirs. */
  env(name?: string): NodeJS.ProcessEnv;
  close(): Promise<void>;
}

type Json = any;

const REASONS: Record<number, string> = { 401: 'Unauthorized', 404: 'Not Found', 405: 'Method Not Allowed', 422: 'Unprocessable Entity' };

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** Every text of a localized value (or a plain string). */
function texts(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>).filter((v) => v !== null).map(String);
  return [String(value)];
}

const SHIPPING_ALIASES: Record<string, string> = { unshipped: 'unfulfilled', shipped: 'fulfilled' };
const shippingState = (value: unknown) => SHIPPING_ALIASES[text(value)] ?? text(value);

export async function startReplayServer(opts: { token?: string } = {}): Promise<ReplayServer> {
  const token = opts.token ?? 'replay-token-0123456789abcdef';
  const requests: ReplayRequest[] = [];
  let origin = '';

  const products: Json[] = fixture('products.json');
  const orders: Json[] = fixture('orders.json');
  const singleOrders: Json[] = [fixture('order.json'), fixture('order-older.json')];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', origin);
      const prefix = `/v1/${STORE_ID}`;
      const inside = url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
      const record: ReplayRequest = {
        method: req.method ?? 'GET',
        path: inside ? url.pathname.slice(prefix.length) || '/' : url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status: 0,
      };
      requests.push(record);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        record.status = status;
        reply(res, status, body, { 'x-main-language': 'pt', ...headers });
      };
      if (!inside) return send(404, fixture('error-not-found.json'));
      if (!hasToken(req.headers, token)) return send(401, fixture('error-401.json'));
      if (record.method !== 'GET' && record.method !== 'HEAD') {
        return send(405, { code: 405, message: REASONS[405], description: 'The replay store is read-only' });
      }
      route(record, url, send);
    });
  });

  type Send = (status: number, body: unknown, headers?: Record<string, string>) => void;

  function notFound(send: Send): void {
    send(404, fixture('error-not-found.json'));
  }

  /** A list the platform's way: pages, x-total-count, Link; empty → 404 Last page is 0. */
  function list(send: Send, url: URL, items: Json[]): void {
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('per_page') ?? 30);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 200) {
      return send(422, { per_page: ['must be between 1 and 200'] });
    }
    const last = Math.ceil(items.length / perPage);
    if (!Number.isInteger(page) || page < 1 || page > last) {
      return send(404, { code: 404, message: 'Not Found', description: `Last page is ${last}` });
    }
    const link = (n: number) => {
      const target = new URL(url.pathname, origin);
      for (const [k, v] of url.searchParams) target.searchParams.set(k, v);
      target.searchParams.set('page', String(n));
      target.searchParams.set('per_page', String(perPage));
      return target.toString();
    };
    const rels = [
      ...(page < last ? [`<${link(page + 1)}>; rel="next"`] : []),
      ...(page > 1 ? [`<${link(page - 1)}>; rel="prev"`] : []),
      `<${link(1)}>; rel="first"`,
      `<${link(last)}>; rel="last"`,
    ];
    send(200, items.slice((page - 1) * perPage, page * perPage), { 'x-total-count': String(items.length), link: rels.join(', ') });
  }

  function route(record: ReplayRequest, url: URL, send: Send): void {
    const q = url.searchParams;
    const segments = record.path.split('/').filter(Boolean).map(decodeURIComponent);
    // The deepest read the CLI makes is /orders/{id}/fulfillment-orders/{id}: four segments.
    if (segments.length > 4) return notFound(send);
    const [first, second, third, fourth] = segments;
    switch (first) {
      case 'store':
        return second ? notFound(send) : send(200, fixture('store.json'));
      case 'products': {
        if (second === 'variants' && third === 'custom-fields' && !fourth) return list(send, url, fixture('custom-fields.json'));
        if (second === 'sku' && third) {
          const product = products.find((p) => p.variants.some((v: Json) => text(v.sku) === third));
          return product ? send(200, product) : notFound(send);
        }
        if (!second) {
          let found = products;
          const term = q.get('q')?.toLowerCase();
          if (term) {
            found = found.filter((p) =>
              [...texts(p.name), ...texts(p.description), ...p.variants.map((v: Json) => text(v.sku))].some((t) => t.toLowerCase().includes(term)),
            );
          }
          if (q.has('handle')) found = found.filter((p) => texts(p.handle).includes(q.get('handle')!));
          if (q.has('category_id')) found = found.filter((p) => p.categories.some((c: Json) => text(c.id ?? c) === q.get('category_id')));
          return list(send, url, found);
        }
        const product = products.find((p) => text(p.id) === second);
        if (!product) return notFound(send);
        if (!third) return send(200, second === '101234567' ? fixture('product.json') : product);
        if (third === 'variants') {
          const variants: Json[] = second === '101234567' ? fixture('variants.json') : product.variants;
          if (!fourth) return list(send, url, variants);
          const variant = variants.find((v) => text(v.id) === fourth);
          return variant ? send(200, variant) : notFound(send);
        }
        if (third === 'images' && !fourth) return list(send, url, product.images);
        return notFound(send);
      }
      case 'categories': {
        const categories: Json[] = fixture('categories.json');
        if (!second) {
          const handle = q.get('handle');
          return list(send, url, handle === null ? categories : categories.filter((c) => texts(c.handle).includes(handle)));
        }
        const category = third ? undefined : categories.find((c) => text(c.id) === second);
        return category ? send(200, category) : notFound(send);
      }
      case 'locations':
        return second ? notFound(send) : list(send, url, fixture('locations.json'));
      case 'webhooks':
        return second ? notFound(send) : list(send, url, fixture('webhooks.json'));
      case 'orders': {
        if (!second) return list(send, url, filterOrders(q));
        const order = singleOrders.find((o) => text(o.id) === second) ?? orders.find((o) => text(o.id) === second);
        if (!order) return notFound(send);
        if (!third) return send(200, order);
        if (third === 'fulfillment-orders') {
          const file = FULFILLMENT_ORDERS[second];
          const fos: Json[] = file ? fixture(file) : [];
          if (!fourth) return list(send, url, fos);
          const fo = fos.find((f) => text(f.id) === fourth);
          return fo ? send(200, fo) : notFound(send);
        }
        return notFound(send);
      }
      case 'customers': {
        const customers: Json[] = fixture('customers.json');
        if (!second) {
          let found = customers;
          const term = q.get('q')?.trim().toLowerCase();
          if (term) found = found.filter((c) => [c.name, c.email, c.identification].some((t) => text(t).toLowerCase().includes(term)));
          const email = q.get('email')?.trim().toLowerCase();
          if (email) found = found.filter((c) => text(c.email).toLowerCase() === email);
          return list(send, url, found);
        }
        if (third) return notFound(send);
        if (second === '55501234') return send(200, fixture('customer.json'));
        const customer = customers.find((c) => text(c.id) === second);
        return customer ? send(200, customer) : notFound(send);
      }
      case 'metafields': {
        if (second !== 'orders' || third) return notFound(send);
        const owner = q.get('owner_id');
        const files = owner === null ? Object.values(METAFIELDS) : METAFIELDS[owner] ? [METAFIELDS[owner]!] : [];
        let found: Json[] = files.flatMap((f) => fixture(f));
        if (q.has('namespace')) found = found.filter((m) => m.namespace === q.get('namespace'));
        if (q.has('key')) found = found.filter((m) => m.key === q.get('key'));
        return list(send, url, found);
      }
      default:
        return notFound(send);
    }
  }

  function filterOrders(q: URLSearchParams): Json[] {
    const wanted = (name: string) => {
      const value = q.get(name);
      return value === null || value === '' || value === 'any' ? undefined : value;
    };
    let found = orders;
    const status = wanted('status');
    if (status) found = found.filter((o) => o.status === status);
    const payment = wanted('payment_status');
    if (payment) found = found.filter((o) => o.payment_status === payment);
    const shipping = wanted('shipping_status');
    if (shipping) found = found.filter((o) => shippingState(o.shipping_status) === shippingState(shipping));
    const customerIds = q.get('customer_ids');
    if (customerIds) found = found.filter((o) => customerIds.split(',').includes(text(o.customer?.id)));
    const term = q.get('q')?.trim().toLowerCase();
    if (term) {
      found = found.filter((o) =>
        /^\d+$/.test(term)
          ? text(o.number) === term
          : [o.customer?.name, o.customer?.email, o.contact_email].some((t) => text(t).toLowerCase().includes(term)),
      );
    }
    return found;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    storeId: STORE_ID,
    token,
    requests,
    writes: () => requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD'),
    env(name = 'replay') {
      const dir = mkdtempSync(join(tmpdir(), `store-${name}-`));
      return {
        STORE_TOKEN: token,
        STORE_ID: String(STORE_ID),
        STORE_API_URL: origin,
        STORE_APP_NAME: 'Contract Tests',
        STORE_APP_ID: '4321',
        XDG_CONFIG_HOME: join(dir, 'config'),
        XDG_STATE_HOME: join(dir, 'state'),
        XDG_DATA_HOME: join(dir, 'data'),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8' });
  res.end(payload);
}

function hasToken(headers: IncomingHttpHeaders, token: string): boolean {
  const values = [headers.authentication, headers.authorization].flat().filter((v): v is string => typeof v === 'string');
  return values.some((value) => /^bearer\s+(.+)$/i.exec(value)?.[1]?.trim() === token);
}
