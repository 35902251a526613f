/**
 * The sandbox server: one fastify instance on loopback serving
 *   - the API under `/{version}/:store_id` for each version of docs/platform.md §12 (`v1`, `2025-03`: the same
 *     routes, one bucket; api_url = the host root),
 *   - OAuth under `/apps/...` on the same host (auth_url = the same host root, see oauth.ts),
 *   - `GET /sandbox/status` (no auth): a health check that does not touch any bucket.
 *
 * Route modules plug in as context.ts describes; add each one to ROUTE_MODULES below.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.js';
import { RateLimiter, errorBody, handleError, httpError, installPipeline } from './http.js';
import { registerAdmin } from './admin.js';
import { registerOAuth } from './oauth.js';
import { API_VERSIONS } from '../platform/api-versions.js';
import * as categories from './routes/categories.js';
import * as customers from './routes/customers.js';
import * as customFields from './routes/custom-fields.js';
import * as faults from './routes/faults.js';
import * as fulfillmentOrders from './routes/fulfillment-orders.js';
import * as locations from './routes/locations.js';
import * as metafields from './routes/metafields.js';
import * as orders from './routes/orders.js';
import * as orderV1Actions from './routes/order-v1-actions.js';
import * as products from './routes/products.js';
import * as productImages from './routes/product-images.js';
import * as storeRoutes from './routes/store.js';
import * as variants from './routes/variants.js';
import * as webhooks from './routes/webhooks.js';

type RouteModule = { register(api: FastifyInstance, ctx: SandboxContext): void | Promise<void> };

/** Route modules, in registration order: faults first, so its hooks wrap every route. */
const ROUTE_MODULES: RouteModule[] = [
  faults,
  storeRoutes,
  locations,
  categories,
  products,
  productImages,
  variants,
  customFields,
  orders,
  orderV1Actions,
  fulfillmentOrders,
  metafields,
  customers,
  webhooks,
];

/** The largest request body accepted (413 above it); documented in docs/sandbox.md. */
export const BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Answers a request node's HTTP parser refused (bad framing, headers too large, a request that took too long)
 * with the error body of docs/api-rules.md §5.3 instead of fastify's own shape, then closes the connection, since the
 * rest of what the client sent on it cannot be trusted.
 */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(errorBody(status, `The HTTP request could not be read (${error.code ?? error.message})`));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export async function buildServer(ctx: SandboxContext): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT_BYTES, clientErrorHandler });
  // Bodies are read as text and parsed by the pipeline, so the 415/400 rules and the error body are ours.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.setErrorHandler(handleError);
  const observe = ctx.options.onRequest;
  if (observe) app.addHook('onRequest', async (req) => observe({ method: req.method, url: req.url }));
  // The store's clock, not this machine's (they differ under --clock-offset): what a client reads as the store's time.
  app.addHook('onRequest', async (_req, reply) => {
    reply.header('date', new Date(ctx.state.storeNow()).toUTCString());
  });
  app.setNotFoundHandler(async (req) => {
    throw httpError(404, `No route ${req.method} ${req.url.split('?')[0]}`);
  });

  const limiter = new RateLimiter(ctx.options.rate, ctx.clock);
  // One plugin per version, each with the whole pipeline and every route; the limiter (the buckets) is shared, as a
  // store's rate limit is the same whichever version a request names.
  for (const version of API_VERSIONS) {
    await app.register(
      async (api) => {
        installPipeline(api, { state: ctx.state, limiter });
        for (const mod of ROUTE_MODULES) await mod.register(api, ctx);
        api.setNotFoundHandler(async (req) => {
          throw httpError(404, `No route ${req.method} ${req.url.split('?')[0]}`);
        });
      },
      { prefix: `/${version}/:store_id` },
    );
  }

  webhooks.deliverWebhooks(app, ctx);
  registerOAuth(app, ctx);
  registerAdmin(app, ctx);

  app.get('/sandbox/status', async () => ({ status: 'ok', pid: process.pid, store_id: ctx.state.defaultStore()?.id }));
  return app;
}
