/**
 * A tiny loopback store for HTTP-level tests (node:http, no framework). It is deliberately not the
 * sandbox: it exposes the protocol corners (rate limit, pagination, error shapes, faults) with routes
 * that make each one easy to hit, and records everything it received.
 *
 *   const server = await startTestServer({ rate: { capacity: 10, leakPerSecond: 50 } });
 *   const client = createClient({ apiUrl: server.url, storeId: server.storeId, token: server.token, ... });
 *   ...; server.requests  // RecordedRequest[] in arrival order
 *   await server.close();
 *
 * Every path is under /v1/{storeId}. Checks made on every request, in this order:
 *   - token: `Authentication: bearer <token>` or `Authorization: Bearer <token>` (scheme in any case),
 *     else 401 {code, message, description};
 *   - `User-Agent` present, else 400; a non-empty body needs `Content-Type: application/json`, else 415;
 *   - the leaky bucket (unless `rate: 'off'`): a refused request gets 429 with `Retry-After`. Every response
 *     under /v1 carries x-rate-limit-limit / -remaining / -reset (not with `rate: 'off'`).
 *
 * Routes (below /v1/{storeId}):
 *   GET  /{list}                 each list of `lists` (default { orders: 450 }): items {id, number, name},
 *                                `page` from 1 and `per_page` (default 30, max 200 → 422), x-total-count,
 *                                Link with absolute next/prev/first/last (unless `links: false`);
 *                                a page past the end → 404
 *                                "Last page is N"; an empty list answers page 1 with [].
 *   GET  /{list}/{id}            one item, or 404 "Order 123 not found" style.
 *   POST /products               201 with the body and an id; 422 {errors: {name: ["can't be blank"],
 *                                price: ["must be a number"]}} when name is missing / price is not numeric.
 *   ANY  /_echo[/anything]       200 {method, path, query, headers, body}: what the server received.
 *   ANY  /_status/{code}         answers that status with {code, message, description}; query
 *                                `description=…`, `errors=<JSON field map>`, `retry_after=N` (header),
 *                                `body=<raw text>` replaces the whole body, `content_type=` its type.
 *   ANY  /_flaky/{key}           `fail=N` (default 1) `status=S` (default 500): the first N requests for
 *                                that key get S, later ones 200 echo. Counts per key for the server's life.
 *   ANY  /_reset/{key}           `fail=N` (default 1): the first N requests for that key have their
 *                                connection destroyed without an answer; later ones 200 echo.
 *   ANY  /_slow                  `ms=N`: waits N ms, then 200 echo.
 *   ANY  /_html                  200 with an HTML page (a reply that is not JSON).
 *   anything else                404 {code: 404, message: "Not Found", description: "No route …"}.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STANDARD_RATE } from '../../src/platform/rate-limit.js';
import { LeakyBucket, rateLimitHeaders, type BucketConfig } from '../../src/sandbox/bucket.js';
import { systemClock, type Clock } from '../../src/platform/clock.js';

export interface TestServerOptions {
  /** The bucket (default 40 requests, 2/s, as the spec); 'off' removes the limit and its headers. */
  rate?: BucketConfig | 'off';
  /** The bucket's clock (default: real time). */
  clock?: Clock;
  storeId?: number;
  token?: string;
  /** List resources and their sizes (default { orders: 450 }). */
  lists?: Record<string, number>;
  /** false: lists send no Link header, like a server that only numbers its pages (default true). */
  links?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. /v1/1234/orders */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, the raw text when it is not JSON, undefined when empty. */
  body: unknown;
  /** The status answered; 0 when the connection was destroyed (or not yet answered). */
  status: number;
}

export interface TestServer {
  /** Host root, without /v1: what a profile stores as api_url. */
  url: string;
  storeId: number;
  token: string;
  requests: RecordedRequest[];
  /** The bucket enforced (undefined with rate 'off'), to fill it from "another client". */
  bucket?: LeakyBucket;
  close(): Promise<void>;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const SINGULAR: Record<string, string> = { orders: 'Order', products: 'Product', categories: 'Category' };

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const storeId = options.storeId ?? 1234;
  const token = options.token ?? `test-token-${Math.random().toString(36).slice(2)}`;
  const lists = options.lists ?? { orders: 450 };
  const bucket = options.rate === 'off' ? undefined : new LeakyBucket(options.rate ?? STANDARD_RATE, options.clock ?? systemClock);
  const requests: RecordedRequest[] = [];
  const faultCounts = new Map<string, number>();
  const pendingTimers = new Set<NodeJS.Timeout>();
  let origin = '';

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', origin);
      const record: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: parseBody(raw),
        status: 0,
      };
      requests.push(record);
      handle(req, res, url, raw, record);
    });
  });

  function send(res: ServerResponse, record: RecordedRequest, status: number, body: unknown, headers: Record<string, string> = {}): void {
    record.status = status;
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { ...headers, ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}) });
    res.end(text);
  }

  function errorBody(status: number, description: string, errors?: Record<string, string[]>) {
    return { code: status, message: REASONS[status] ?? 'Error', description, ...(errors ? { errors } : {}) };
  }

  function countFault(key: string): number {
    const seen = (faultCounts.get(key) ?? 0) + 1;
    faultCounts.set(key, seen);
    return seen;
  }

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, raw: string, record: RecordedRequest): void {
    const prefix = `/v1/${storeId}`;
    if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) {
      send(res, record, 404, errorBody(404, `No route ${record.method} ${url.pathname}`));
      return;
    }
    const rate: Record<string, string> = bucket ? rateLimitHeaders(bucket.peek()) : {};
    if (!hasToken(req.headers, token)) {
      send(res, record, 401, errorBody(401, 'Invalid access token'), rate);
      return;
    }
    if (!req.headers['user-agent']) {
      send(res, record, 400, errorBody(400, 'Missing User-Agent header'), rate);
      return;
    }
    if (raw.length > 0 && !/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      send(res, record, 415, errorBody(415, 'The body must be JSON with Content-Type: application/json'), rate);
      return;
    }
    let headers = rate;
    if (bucket) {
      const decision = bucket.take();
      headers = rateLimitHeaders(decision);
      if (!decision.allowed) {
        send(res, record, 429, errorBody(429, 'Rate limit exceeded'), headers);
        return;
      }
    }
    route(req, res, url, record, url.pathname.slice(prefix.length).split('/').filter(Boolean), headers);
  }

  function route(req: IncomingMessage, res: ServerResponse, url: URL, record: RecordedRequest, segments: string[], headers: Record<string, string>): void {
    const q = url.searchParams;
    const echo = { method: record.method, path: record.path, query: record.query, headers: record.headers, body: record.body };
    const [first, second] = segments;
    const method = record.method;

    if (first === '_echo') return send(res, record, 200, echo, headers);
    if (first === '_html') {
      record.status = 200;
      res.writeHead(200, { ...headers, 'content-type': 'text/html' });
      res.end('<!doctype html><html><body><h1>Welcome</h1></body></html>');
      return;
    }
    if (first === '_status' && second) {
      const status = Number(second);
      const extra: Record<string, string> = { ...headers };
      if (q.has('retry_after')) extra['retry-after'] = q.get('retry_after')!;
      if (q.has('body')) {
        record.status = status;
        res.writeHead(status, { ...extra, 'content-type': q.get('content_type') ?? 'application/json' });
        res.end(q.get('body'));
        return;
      }
      const errors = q.has('errors') ? (JSON.parse(q.get('errors')!) as Record<string, string[]>) : undefined;
      return send(res, record, status, errorBody(status, q.get('description') ?? REASONS[status] ?? 'Error', errors), extra);
    }
    if (first === '_flaky' && second) {
      const seen = countFault(`flaky:${second}`);
      if (seen <= Number(q.get('fail') ?? 1)) {
        const status = Number(q.get('status') ?? 500);
        return send(res, record, status, errorBody(status, `Failure ${seen} of ${second}`), headers);
      }
      return send(res, record, 200, echo, headers);
    }
    if (first === '_reset' && second) {
      if (countFault(`reset:${second}`) <= Number(q.get('fail') ?? 1)) {
        req.socket.destroy();
        return;
      }
      return send(res, record, 200, echo, headers);
    }
    if (first === '_slow') {
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        if (!res.destroyed) send(res, record, 200, echo, headers);
      }, Number(q.get('ms') ?? 1000));
      pendingTimers.add(timer);
      return;
    }
    if (first === 'products' && !second && method === 'POST') {
      return createProduct(res, record, headers);
    }
    if (first && lists[first] !== undefined && method === 'GET') {
      if (second) return getItem(res, record, first, second, headers);
      return listPage(res, record, url, first, lists[first]!, headers);
    }
    send(res, record, 404, errorBody(404, `No route ${method} ${record.path}`), headers);
  }

  function item(list: string, index: number) {
    return { id: 1_000_000_000 + index, number: 100 + index, name: `${list} ${index}` };
  }

  function getItem(res: ServerResponse, record: RecordedRequest, list: string, id: string, headers: Record<string, string>): void {
    const index = Number(id) - 1_000_000_000;
    if (Number.isInteger(index) && index >= 1 && index <= lists[list]!) return send(res, record, 200, item(list, index), headers);
    const name = SINGULAR[list] ?? list;
    send(res, record, 404, errorBody(404, `${name} ${id} not found`), headers);
  }

  function listPage(res: ServerResponse, record: RecordedRequest, url: URL, list: string, total: number, headers: Record<string, string>): void {
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('per_page') ?? 30);
    const errors: Record<string, string[]> = {};
    if (!Number.isInteger(page) || page < 1) errors.page = ['must be an integer of at least 1'];
    if (!Number.isInteger(perPage) || perPage < 1) errors.per_page = ['must be an integer of at least 1'];
    else if (perPage > 200) errors.per_page = ['must be at most 200'];
    if (Object.keys(errors).length > 0) return send(res, record, 422, errorBody(422, 'Invalid pagination', errors), headers);

    const last = Math.max(1, Math.ceil(total / perPage));
    if (page > last) return send(res, record, 404, errorBody(404, `Last page is ${last}`), headers);
    const items = [];
    for (let i = (page - 1) * perPage + 1; i <= Math.min(total, page * perPage); i++) items.push(item(list, i));

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
    const linkHeader: Record<string, string> = options.links === false ? {} : { link: rels.join(', ') };
    send(res, record, 200, items, { ...headers, 'x-total-count': String(total), ...linkHeader });
  }

  function createProduct(res: ServerResponse, record: RecordedRequest, headers: Record<string, string>): void {
    const body = (typeof record.body === 'object' && record.body !== null ? record.body : {}) as Record<string, unknown>;
    const errors: Record<string, string[]> = {};
    if (typeof body.name !== 'string' || body.name.trim() === '') errors.name = ["can't be blank"];
    if (body.price !== undefined && !Number.isFinite(Number(body.price))) errors.price = ['must be a number'];
    if (Object.keys(errors).length > 0) return send(res, record, 422, errorBody(422, 'Invalid product', errors), headers);
    send(res, record, 201, { id: 1000 + requests.length, ...body }, headers);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    storeId,
    token,
    requests,
    bucket,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of pendingTimers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function hasToken(headers: IncomingHttpHeaders, token: string): boolean {
  const values = [headers.authentication, headers.authorization].flat().filter((v): v is string => typeof v === 'string');
  return values.some((value) => {
    const match = value.match(/^bearer\s+(.+)$/i);
    return match !== null && match[1]!.trim() === token;
  });
}

function parseBody(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
