/**
 * A hostile store for the "bounded, clear, nothing lost" tests (issue 24): a loopback node:http server, written
 * from docs/platform.md and not importing the sandbox, whose every route misbehaves in one way a real server or
 * a proxy might. Each test points a command (STORE_API_URL = `url`) at one behaviour and checks that it ends
 * within a bounded time with one clear sentence.
 *
 *   const server = await startHostileServer('gzip-bomb');
 *   … STORE_API_URL=server.url STORE_ID=server.storeId STORE_TOKEN=server.token store orders list …
 *   server.requests   // how many requests it received
 *   await server.close();
 *
 * Behaviours (every path under /v1/{storeId} answers the same way):
 *   huge-retry-after       429 with `Retry-After: 999999999`.
 *   negative-retry-after   429 with `Retry-After: -5` to every request.
 *   negative-then-ok       429 with `Retry-After: -5` to the first 2 requests, then one order.
 *   slow-retry-after       429 with `Retry-After: 6` to the first request, then one order.
 *   huge-reset             200 with one order, `x-rate-limit-limit: 40`, `-remaining: 0`, `-reset: 99999999999`.
 *   gzip-bomb              200, `Content-Encoding: gzip`, a body that expands to `bombBytes` (default 2 GiB) of
 *                          zeros, compressed on the fly as it is sent (nothing held in memory but one chunk).
 *   huge-page              200 with a 31 MB page (just under the reply limit) of 2 million tiny records.
 *   endless-body           200, no Content-Length, no compression: a JSON array that never ends (made as it is sent).
 *   endless-pages          every page has one order and links to page N+1, while x-total-count says 3.
 *   endless-pages-no-total the same without x-total-count.
 *   endless-full-pages     every page is full (per_page orders, one a second going back from 2026-01-01, read
 *                          from `created_at_max` on: orders without end), while x-total-count says 20,000 — the
 *                          orders reader's windows by `created_at_max` never run out (no Link header: orders are
 *                          read by page number, docs/platform.md §9).
 *   never-answer           reads the request and never answers (the socket stays open until close()).
 *   unreadable-records     200 with 3 "orders", none readable (ids that are not ids).
 *   rate-limit-zero        like endless-pages, with `x-rate-limit-limit: 0`, `-remaining: 0`, `-reset: 0`.
 *   huge-headers           200 with a 64 KiB header.
 *   huge-error             422 whose description is 1 MB of text.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';

export type HostileBehaviour =
  | 'huge-retry-after'
  | 'negative-retry-after'
  | 'negative-then-ok'
  | 'slow-retry-after'
  | 'huge-reset'
  | 'gzip-bomb'
  | 'endless-body'
  | 'huge-page'
  | 'endless-pages'
  | 'endless-pages-no-total'
  | 'endless-full-pages'
  | 'never-answer'
  | 'unreadable-records'
  | 'rate-limit-zero'
  | 'huge-headers'
  | 'huge-error';

export interface HostileServer {
  /** Host root, without /v1. */
  url: string;
  storeId: number;
  token: string;
  /** Requests received so far. */
  readonly requests: number;
  close(): Promise<void>;
}

const ORDER_FIELDS = {
  token: 'tok',
  store_id: 1,
  contact_name: 'Ada',
  contact_email: 'ada@example.com',
  currency: 'USD',
  total: '10.00',
  status: 'open',
  payment_status: 'paid',
  shipping_status: 'unpacked',
  created_at: '2026-01-01T10:00:00+0000',
  updated_at: '2026-01-01T10:00:00+0000',
  products: [],
};

function order(id: number): Record<string, unknown> {
  return { id, number: 100 + id, ...ORDER_FIELDS };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A stream of `bytes` zeros in 64 KiB chunks, made as they are read. */
function zeros(bytes: number): Readable {
  const chunk = Buffer.alloc(64 * 1024);
  let left = bytes;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

export async function startHostileServer(
  behaviour: HostileBehaviour,
  options: { storeId?: number; token?: string; bombBytes?: number } = {},
): Promise<HostileServer> {
  const storeId = options.storeId ?? 4242;
  const token = options.token ?? 'hostile-token-0123456789';
  let requests = 0;
  const sockets = new Set<Socket>();

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    requests += 1;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const page = Number(url.searchParams.get('page') ?? 1) || 1;
    const host = `http://${req.headers.host}`;
    const next = () => {
      const link = new URL(url.pathname, host);
      url.searchParams.forEach((value, key) => link.searchParams.set(key, value));
      link.searchParams.set('page', String(page + 1));
      return `<${link}>; rel="next"`;
    };
    switch (behaviour) {
      case 'huge-retry-after':
        return json(res, 429, { code: 429, message: 'Too Many Requests' }, { 'retry-after': '999999999' });
      case 'negative-retry-after':
        return json(res, 429, { code: 429, message: 'Too Many Requests' }, { 'retry-after': '-5' });
      case 'negative-then-ok':
        if (requests <= 2) return json(res, 429, { code: 429, message: 'Too Many Requests' }, { 'retry-after': '-5' });
        return json(res, 200, [order(1)], { 'x-total-count': '1' });
      case 'slow-retry-after':
        if (requests <= 1) return json(res, 429, { code: 429, message: 'Too Many Requests' }, { 'retry-after': '6' });
        return json(res, 200, [order(1)], { 'x-total-count': '1' });
      case 'huge-reset':
        return json(res, 200, [order(1)], {
          'x-total-count': '1',
          'x-rate-limit-limit': '40',
          'x-rate-limit-remaining': '0',
          'x-rate-limit-reset': '99999999999',
        });
      case 'gzip-bomb': {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-total-count': '1' });
        const source = zeros(options.bombBytes ?? 2 * 1024 ** 3);
        const gzip = createGzip({ level: 9 });
        source.pipe(gzip).pipe(res);
        res.on('close', () => {
          source.destroy();
          gzip.destroy();
        });
        return;
      }
      case 'huge-page': {
        res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '1' });
        const chunk = Buffer.from('{"id":1234567},'.repeat(4096));
        let left = Math.floor((31 * 1024 * 1024) / chunk.length);
        const body = new Readable({
          read() {
            if (left-- > 0) this.push(chunk);
            else {
              this.push('{"id":1}]');
              this.push(null);
            }
          },
        });
        body.push('[');
        body.pipe(res);
        return;
      }
      case 'endless-body': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const item = Buffer.from(`${JSON.stringify(order(1))},`.repeat(200));
        const body = new Readable({
          read() {
            this.push(item);
          },
        });
        body.push('[');
        body.pipe(res);
        res.on('close', () => body.destroy());
        return;
      }
      case 'endless-pages':
        return json(res, 200, [order(page)], { 'x-total-count': '3', link: next() });
      case 'endless-pages-no-total':
        return json(res, 200, [order(page)], { link: next() });
      case 'endless-full-pages': {
        const perPage = Number(url.searchParams.get('per_page') ?? 30) || 30;
        const newest = Date.UTC(2026, 0, 1);
        const max = Date.parse(url.searchParams.get('created_at_max') ?? '');
        // Order k (from 0) is created k seconds before `newest`: the first at or before created_at_max.
        const skip = Number.isNaN(max) ? 0 : Math.max(0, Math.ceil((newest - max) / 1000));
        const first = skip + (page - 1) * perPage;
        const orders = Array.from({ length: perPage }, (_, i) => ({
          ...order(first + i + 1),
          created_at: new Date(newest - (first + i) * 1000).toISOString(),
        }));
        return json(res, 200, orders, { 'x-total-count': '20000' });
      }
      case 'rate-limit-zero':
        return json(res, 200, [order(page)], {
          'x-total-count': '3',
          link: next(),
          'x-rate-limit-limit': '0',
          'x-rate-limit-remaining': '0',
          'x-rate-limit-reset': '0',
        });
      case 'never-answer':
        req.resume();
        return;
      case 'unreadable-records':
        return json(res, 200, [{ id: 'not-an-id' }, { id: 'x' }, { id: { nested: true } }], { 'x-total-count': '3' });
      case 'huge-headers':
        return json(res, 200, [order(1)], { 'x-filler': 'a'.repeat(64 * 1024) });
      case 'huge-error':
        return json(res, 422, { code: 422, message: 'Unprocessable Entity', description: 'no '.repeat(350_000) });
    }
  };

  const server = createServer({ maxHeaderSize: 1024 * 1024 }, handle);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    storeId,
    token,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
