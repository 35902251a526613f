import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { LeakyBucket, rateLimitHeaders, type BucketConfig } from './bucket.js';
import type { Clock } from '../platform/clock.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../platform/pagination.js';
import { MONEY_LIMIT } from '../platform/money.js';
import { planRate, STANDARD_RATE } from '../platform/rate-limit.js';
import type { Localized, TokenRecord } from './records.js';
import type { SandboxState, StoreData } from './state.js';

/**
 * The request pipeline shared by every API route (docs/api-rules.md §5.2–§5.8): User-Agent, authentication, the leaky
 * bucket, the JSON body rule, scopes, the error body, pagination, and the formats of money, timestamps and
 * localized fields. Route modules use the helpers below; the hooks are installed once by the server.
 */

export type ScopeName = 'products' | 'orders' | 'locations' | 'fulfillment_orders' | 'webhooks' | 'customers';
const SCOPE_NAMES: ScopeName[] = ['products', 'orders', 'locations', 'fulfillment_orders', 'webhooks', 'customers'];
export const ALL_SCOPES: string[] = SCOPE_NAMES.flatMap((s) => [`read_${s}`, `write_${s}`]);

/**
 * Every scope before the customers scopes existed (docs/platform.md §11): a token or app of a state written then
 * that held all of these held every scope, and is given the new ones when the sandbox starts (upgradeScopes).
 */
export const SCOPES_BEFORE_CUSTOMERS: string[] = ALL_SCOPES.filter((s) => !s.endsWith('_customers'));

/** Whether the request's token may read customers: `order.customer` is sent only then (docs/platform.md §11). */
export function canReadCustomers(req: FastifyRequest): boolean {
  return req.auth.scopes.includes('read_customers') || req.auth.scopes.includes('write_customers');
}

export interface AuthInfo {
  token: string;
  storeId: number;
  appId: string;
  scopes: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the pipeline on every API route before the handler runs. */
    auth: AuthInfo;
    /** The store of the path, already matched against the token. */
    store: StoreData;
  }
  interface FastifyContextConfig {
    /**
     * The scope a route needs (`read_` for GET/HEAD, `write_` otherwise). When absent it is derived from the
     * path (`/orders/…/fulfillment-orders…` → fulfillment_orders, `/metafields` → orders, `/categories` →
     * products, …); `null` means no scope.
     */
    scope?: ScopeName | null;
  }
}

export type FieldErrors = Record<string, string[]>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
    readonly fieldErrors?: FieldErrors,
    readonly headers?: Record<string, string>,
    /** Fields sent at the top level of the body, beside code/message/description (the batch endpoints' 422s). */
    readonly extra?: Record<string, unknown>,
    /** A body of its own instead of the §1 envelope (the fulfillment orders' 400, docs/platform.md §10). */
    readonly body?: Record<string, unknown>,
  ) {
    super(description);
  }
}

/**
 * The platform's own 422 envelope (docs/platform.md §8): `{code, message, description}` plus fields at the top level
 * (`"price": ["The price must be a number."]`, `"duplicate_variant_ids": […]`), without the sandbox's `errors` map.
 */
export function platform422(description: string, extra?: Record<string, unknown>): HttpError {
  return new HttpError(422, description, undefined, undefined, extra ?? {});
}

/** Throw this from a handler: `throw httpError(404, 'Product 12 not found')`. */
export function httpError(status: number, description: string, fieldErrors?: FieldErrors): HttpError {
  return new HttpError(status, description, fieldErrors);
}

/** A 422 about one field. */
export function invalid(field: string, problem: string): HttpError {
  return new HttpError(422, `${field}: ${problem}`, { [field]: [problem] });
}

export function notFound(what: string, id: unknown): HttpError {
  // An empty id (a path ending in `/orders/`) would read "Order  not found".
  const shown = id === undefined || id === null || String(id) === '' ? '(no id)' : String(id);
  return new HttpError(404, `${what} ${shown} not found`);
}

export function errorBody(
  status: number,
  description: string,
  fieldErrors?: FieldErrors,
  extra?: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = { code: status, message: STATUS_CODES[status] ?? 'Error', description };
  if (fieldErrors) body.errors = fieldErrors;
  if (extra) Object.assign(body, extra);
  return body;
}

function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  const body = error.body ?? errorBody(error.status, error.description, error.fieldErrors, error.extra);
  return reply.code(error.status).type('application/json').send(body);
}

/** Maps anything thrown in a route to the error body (installed as the server's error handler). */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof HttpError) return sendError(reply, error);
  const status = (error as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return sendError(reply, new HttpError(status, error.message));
  }
  request.log.error(error);
  return sendError(reply, new HttpError(500, 'Internal error of the sandbox'));
}

/** A 422 with every field error, described by the first one (`value.1.key must be …`). */
export function refuseFields(errors: FieldErrors): never {
  const [field, problems] = Object.entries(errors)[0]!;
  throw httpError(422, `${field} ${problems[0]}`, errors);
}

/** Validates a request body with a zod schema; problems become a 422 with field errors. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.join('.') : 'body';
    (errors[field] ??= []).push(issue.message);
  }
  const first = Object.entries(errors)[0]!;
  throw new HttpError(422, `Invalid ${first[0]}: ${first[1][0]}`, errors);
}

// ---------------------------------------------------------------------------------------------------------
// Formats

/** ISO 8601 with a +00:00 offset and whole seconds: `2026-11-21T14:05:00+00:00`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** A timestamp in one of the platform's two offset forms: `+00:00`, or `+0000` when `compact` (docs/platform.md §0). */
export function platformTime(ms: number, compact = false): string {
  const text = isoTime(ms);
  return compact ? text.replace(/\+00:00$/, '+0000') : text;
}

/**
 * Parses an ISO 8601 timestamp strictly (real calendar dates, valid offsets; without an offset, UTC);
 * undefined when invalid. `requireOffset` demands a time with an offset, as timestamps sent by clients must.
 */
export function parseTime(text: string, requireOffset = false): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, offset] = m;
  if (requireOffset && (h === undefined || offset === undefined)) return undefined;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (Number(h ?? 0) > 23 || Number(mi ?? 0) > 59 || Number(s ?? 0) > 59) return undefined;
  let offsetMinutes = 0;
  if (offset && offset.toUpperCase() !== 'Z') {
    const digits = offset.replace(':', '');
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5));
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (digits[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const ms = utcMs(year, month - 1, day, Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0));
  return ms + Math.floor(Number(`0${frac ?? ''}`) * 1000) - offsetMinutes * 60_000;
}

/** The timestamp query parameters of every list (docs/sandbox.md "Lists"). */
export const TIMESTAMP_QUERY_FIELDS = ['created_at', 'updated_at'] as const;

/**
 * One timestamp query parameter, read the one way every list reads it (docs/sandbox.md "Lists"): undefined when
 * absent or empty (the last value when repeated); a real calendar date or timestamp, offset optional (UTC
 * without); anything else, `2026-02-30` included, a 422 naming the parameter.
 */
export function timeQuery(query: Record<string, unknown>, name: string): number | undefined {
  const raw = query[name];
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (value === undefined || value === null || String(value) === '') return undefined;
  const ms = parseTime(String(value).trim(), false);
  if (ms === undefined) throw invalid(name, 'must be an ISO 8601 date or timestamp, e.g. 2026-11-21T14:05:00+00:00');
  return ms;
}

/**
 * The `created_at_min/max` and `updated_at_min/max` of a list's query, checked (422 on a value that is not a
 * date, or a min after its max) and as a test of one record; undefined when the query has none.
 */
export function timeWindow(query: Record<string, unknown>): ((record: object) => boolean) | undefined {
  const bounds = TIMESTAMP_QUERY_FIELDS.map((field) => {
    const min = timeQuery(query, `${field}_min`);
    const max = timeQuery(query, `${field}_max`);
    if (min !== undefined && max !== undefined && min > max) {
      throw httpError(422, `${field}_min is after ${field}_max`, { [`${field}_min`]: [`must not be after ${field}_max`] });
    }
    return { field, min, max };
  }).filter((b) => b.min !== undefined || b.max !== undefined);
  if (bounds.length === 0) return undefined;
  return (record) =>
    bounds.every(({ field, min, max }) => {
      const value = (record as Record<string, unknown>)[field];
      // A record without that time (none in the sandbox's stores) is not judged by it.
      if (typeof value !== 'number') return true;
      // The platform keeps and shows times to the second: a bound is compared with the second a time falls in,
      // so a window ending at a record's own shown timestamp holds it (seeded times carry milliseconds).
      const second = Math.floor(value / 1000) * 1000;
      return (min === undefined || second >= min) && (max === undefined || second <= max);
    });
}

/** Date.UTC, but years 0–99 are those years (Date.UTC reads them as 1900–1999). */
function utcMs(year: number, monthIndex: number, day: number, h = 0, mi = 0, s = 0): number {
  const date = new Date(Date.UTC(2000, monthIndex, day, h, mi, s));
  date.setUTCFullYear(year, monthIndex, day);
  return date.getTime();
}

function daysInMonth(year: number, month: number): number {
  return new Date(utcMs(year, month, 0)).getUTCDate();
}

/** A money input (number or decimal string, `.` decimal mark) as a two-decimal string, or a 422 naming the field. */
export function parseMoney(value: unknown, field: string): string {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(Number(text))) {
    throw invalid(field, 'must be a non-negative decimal number');
  }
  // The platform's limit, and a safe one: beyond it a double no longer holds every cent, and from 1e21 toFixed
  // writes "1e+21", not a decimal string.
  if (Number(text) >= MONEY_LIMIT) throw invalid(field, `must be less than ${MONEY_LIMIT}`);
  return Number(text).toFixed(2);
}

/** A money input that may be null (to clear it). */
export function parseOptionalMoney(value: unknown, field: string): string | null {
  return value === null || value === '' ? null : parseMoney(value, field);
}

/**
 * A localized input (docs/api-rules.md §5.8): a plain string is stored under the store's main language; an object must use the
 * store's languages. `base` is the current value, so an object updates only the languages it names.
 */
export function toLocalized(store: StoreData, value: unknown, field: string, base: Localized = {}): Localized {
  if (typeof value === 'string') return { ...base, [store.record.main_language]: value };
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const result: Localized = { ...base };
    for (const [lang, text] of Object.entries(value as Record<string, unknown>)) {
      if (!store.record.languages.includes(lang)) {
        throw invalid(field, `uses language "${lang}"; the store's languages are ${store.record.languages.join(', ')}`);
      }
      if (typeof text !== 'string') throw invalid(`${field}.${lang}`, 'must be a string');
      result[lang] = text;
    }
    return result;
  }
  throw invalid(field, 'must be a string or an object keyed by language');
}

/** A localized output: one key per store language, '' where no text was given. */
export function showLocalized(store: StoreData, value: Localized): Localized {
  const result: Localized = {};
  for (const lang of store.record.languages) result[lang] = value[lang] ?? '';
  return result;
}

/** The text in the main language, or the first one given. */
export function mainText(store: StoreData, value: Localized): string {
  return value[store.record.main_language] || Object.values(value).find((t) => t !== '') || '';
}

/** A positive integer path parameter, or a 404 naming the resource. */
export function intParam(value: string | undefined, what: string): number {
  if (!value || !/^\d{1,15}$/.test(value)) throw notFound(what, value);
  return Number(value);
}

/** The last value of a query parameter as text; undefined when absent or empty. */
export function queryParam(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  if (last === undefined || last === null || String(last) === '') return undefined;
  return String(last);
}

/**
 * The fields a `fields=` query names (docs/platform.md §8: `fields=id,variants`; products and customers), or undefined for the whole record.
 * Names are a comma list; unknown names are ignored and `id` is always sent, so a record stays addressable.
 */
export function requestedFields(query: unknown): Set<string> | undefined {
  const raw = (query as Record<string, unknown> | undefined)?.fields;
  const text = Array.isArray(raw) ? raw.join(',') : raw;
  if (typeof text !== 'string') return undefined;
  const names = text.split(',').map((n) => n.trim()).filter((n) => n !== '');
  return names.length === 0 ? undefined : new Set(['id', ...names]);
}

/** Only the requested fields of a presented record (all of them without `fields=`). */
export function withFields<R extends object>(record: R, fields: Set<string> | undefined): Partial<R> {
  if (!fields) return record;
  return Object.fromEntries(Object.entries(record).filter(([name]) => fields.has(name))) as Partial<R>;
}

// ---------------------------------------------------------------------------------------------------------
// Pagination (docs/api-rules.md §5.4)


/**
 * Answers one page of `all` (those in the query's `created_at`/`updated_at` windows), setting x-total-count and
 * Link (absolute next/prev/first/last). Only the page's items go through `present`, so a 100,000-item list costs
 * one slice.
 */
export function paginate<T, R>(req: FastifyRequest, reply: FastifyReply, all: T[], present: (item: T) => R): R[] {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const page = pageNumber(query.page, 'page', 1, Number.MAX_SAFE_INTEGER);
  const perPage = pageNumber(query.per_page, 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE);
  // Every list takes the same timestamp windows, read by one parser: garbage is a 422 on every list alike.
  const inWindow = timeWindow(query);
  const items = inWindow ? all.filter((item) => inWindow(item as object)) : all;
  const total = items.length;
  // The platform answers an empty list (or a filter that matches nothing) with 404 "Last page is 0"
  // (docs/platform.md §1), and a page past the end with "Last page is N".
  const last = Math.ceil(total / perPage);
  if (page > last) throw httpError(404, `Last page is ${last}`);
  reply.header('x-total-count', String(total));
  const [pathname, rawQuery = ''] = req.url.split('?', 2) as [string, string?];
  const base = `${req.protocol}://${req.host}${pathname}`;
  const link = (p: number, rel: string) => {
    const params = new URLSearchParams(rawQuery);
    params.set('page', String(p));
    params.set('per_page', String(perPage));
    return `<${base}?${params.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page < last) links.push(link(page + 1, 'next'));
  if (page > 1) links.push(link(page - 1, 'prev'));
  links.push(link(1, 'first'), link(last, 'last'));
  reply.header('link', links.join(', '));
  return items.slice((page - 1) * perPage, page * perPage).map(present);
}

function pageNumber(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const text = Array.isArray(value) ? String(value[value.length - 1]) : String(value);
  if (!/^\d+$/.test(text) || Number(text) < 1) throw invalid(name, 'must be an integer of at least 1');
  const n = Number(text);
  if (n > max) throw invalid(name, `must be at most ${max}`);
  return n;
}

// ---------------------------------------------------------------------------------------------------------
// Rate limit (docs/api-rules.md §5.5)

export type RateOption = BucketConfig | 'off' | undefined;

/** One leaky bucket per (store, app); plans `next` and `evolution` get ×10. */
export class RateLimiter {
  private readonly buckets = new Map<string, LeakyBucket>();

  constructor(
    private readonly rate: RateOption,
    private readonly clock: Clock,
  ) {}

  get enabled(): boolean {
    return this.rate !== 'off';
  }

  bucket(store: StoreData, appId: string): LeakyBucket | undefined {
    if (this.rate === 'off') return undefined;
    const config = planRate(store.record.plan, this.rate ?? STANDARD_RATE);
    const key = `${store.id}:${appId}`;
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = new LeakyBucket(config, this.clock)));
    return bucket;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The hooks

export interface PipelineDeps {
  state: SandboxState;
  limiter: RateLimiter;
}

/** Installs the pipeline on a `/{version}/:store_id` plugin instance. */
export function installPipeline(api: FastifyInstance, deps: PipelineDeps): void {
  api.decorateRequest('auth', null as unknown as AuthInfo);
  api.decorateRequest('store', null as unknown as StoreData);

  api.addHook('onRequest', async (req, reply) => {
    if (!req.headers['user-agent']) {
      throw httpError(400, 'The User-Agent header is required: send "<app name> (<app id>)"');
    }
    const token = bearerToken(req);
    if (!token) {
      throw httpError(401, 'Missing access token: send "Authentication: bearer <token>"');
    }
    const record: TokenRecord | undefined = deps.state.tokens.get(token);
    if (!record) throw httpError(401, 'Invalid access token');
    const pathStore = (req.params as { store_id?: string }).store_id;
    if (pathStore !== String(record.store_id)) {
      throw httpError(401, `The access token does not give access to store ${pathStore}`);
    }
    const store = deps.state.store(record.store_id);
    if (!store) throw httpError(401, 'Invalid access token');
    req.auth = { token, storeId: record.store_id, appId: record.app_id, scopes: record.scopes };
    req.store = store;
    // The platform names the store's main language on every response (docs/platform.md §1).
    reply.header('x-main-language', store.record.main_language);
    const bucket = deps.limiter.bucket(store, record.app_id);
    if (bucket) {
      const decision = bucket.take();
      reply.headers(rateLimitHeaders(decision));
      if (!decision.allowed) {
        throw httpError(429, `Rate limit exceeded; retry in ${decision.retryAfterSeconds} s`);
      }
    }
  });

  api.addHook('preValidation', async (req) => {
    const raw = req.body;
    if (typeof raw === 'string') {
      if (raw.trim() === '') {
        req.body = undefined;
      } else {
        const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (type !== 'application/json') {
          throw httpError(415, 'A request body must be JSON with Content-Type: application/json');
        }
        try {
          req.body = JSON.parse(raw);
        } catch {
          throw httpError(400, 'The request body is not valid JSON');
        }
      }
    }
    const scope = requiredScope(req);
    if (scope) {
      const write = req.method !== 'GET' && req.method !== 'HEAD';
      const needed = `${write ? 'write' : 'read'}_${scope}`;
      const has = req.auth.scopes.includes(needed) || (!write && req.auth.scopes.includes(`write_${scope}`));
      if (!has) throw httpError(403, `This request needs the scope ${needed}, which the access token does not have`);
    }
  });
}

function bearerToken(req: FastifyRequest): string | undefined {
  for (const name of ['authentication', 'authorization']) {
    const value = req.headers[name];
    const match = typeof value === 'string' ? /^bearer\s+(\S+)\s*$/i.exec(value) : null;
    if (match) return match[1];
  }
  return undefined;
}

function requiredScope(req: FastifyRequest): ScopeName | null {
  const configured = req.routeOptions.config?.scope;
  if (configured !== undefined) return configured;
  const url = req.routeOptions.url;
  if (!url) return null;
  const rest = url.replace(/^\/[^/]+\/:store_id\/?/, '');
  const first = rest.split('/')[0];
  switch (first) {
    case 'locations':
      return 'locations';
    case 'categories':
    case 'products':
      return 'products';
    case 'orders':
      return rest.includes('/fulfillment-orders') ? 'fulfillment_orders' : 'orders';
    case 'metafields':
      return 'orders';
    case 'webhooks':
      return 'webhooks';
    case 'customers':
      return 'customers';
    default:
      return null;
  }
}
