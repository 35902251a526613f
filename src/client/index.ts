/**
 * The HTTP core (DESIGN.md §3): the only module that uses got. One call of `request` is one logical
 * request: got's retry machinery repeats it on transient failures, and every attempt first waits for its
 * slot in the rate scheduler shared by every client of the same (api_url, store, app) in the process.
 */
import got, { HTTPError, RequestError, type Response } from 'got';
import type { Clock } from '../platform/clock.js';
import { ApiError, StoreError, UsageError, errorFromResponse, networkError } from './errors.js';
import { MAX_PER_PAGE } from '../platform/pagination.js';
import { paginate, readPage, type Page, type Query } from './pagination.js';
import { bodyPreview, redactUrl, scrubSecrets } from './redact.js';
import { RateScheduler, keepAliveClock, type ResponseHeaders } from './scheduler.js';

export type { Page, Query, QueryValue } from './pagination.js';
export type { ResponseHeaders } from './scheduler.js';

export interface ClientConfig {
  /** Host root, without /v1. */
  apiUrl: string;
  storeId: string | number;
  token: string;
  appName: string;
  appId: string;
  /** Named in the 401 and 403 messages. */
  profile?: string;
  /** The token is STORE_TOKEN's: a 401 says the environment's token was rejected. */
  tokenFromEnv?: boolean;
  /** Receives one line per request, response and retry (token redacted); the caller prints it on stderr. */
  debug?: (line: string) => void;
  /**
   * Receives warnings about what the store sent (records left out of a list, a fallback taken); each
   * distinct warning once per client. The caller prints them on stderr.
   */
  warn?: (message: string) => void;
  /**
   * Told the store's main language when a response names it (`x-main-language`, platform.md §1), so that
   * localized text in lists is shown in it without asking GET /store.
   */
  onMainLanguage?: (language: string) => void;
  /** Per attempt, from sending to the end of the response (default 30 s). */
  timeoutMs?: number;
  /** Retries of transient failures (network errors, 408, 5xx) per request (default 3); 429s are apart. */
  retries?: number;
  /** First retry delay, doubled at each retry, with jitter (default 500 ms). */
  retryBaseMs?: number;
  /** Clock of the rate scheduler (tests). */
  clock?: Clock;
}

export interface RequestOptions {
  method: string;
  /** Relative to /v1/{store_id} (e.g. /orders/123), or an absolute URL on the same host. */
  path: string;
  query?: Query;
  /** Sent as JSON; `undefined` sends no body and no Content-Type. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ApiResponse<T> {
  status: number;
  headers: ResponseHeaders;
  /** The parsed JSON body; undefined when the body is empty. */
  body: T;
}

export interface ClientStats {
  /** Attempts sent, retries included. */
  requests: number;
  retries: number;
  /** 429 responses met. */
  rateLimited: number;
}

export interface StoreClient {
  /** `{apiUrl}/v1/{storeId}` */
  readonly baseUrl: string;
  request<T = unknown>(options: RequestOptions): Promise<ApiResponse<T>>;
  get<T = unknown>(path: string, query?: Query): Promise<ApiResponse<T>>;
  post<T = unknown>(path: string, body?: unknown, query?: Query): Promise<ApiResponse<T>>;
  put<T = unknown>(path: string, body?: unknown, query?: Query): Promise<ApiResponse<T>>;
  patch<T = unknown>(path: string, body?: unknown, query?: Query): Promise<ApiResponse<T>>;
  delete<T = unknown>(path: string, query?: Query): Promise<ApiResponse<T>>;
  /** Every page of a list, in order (per_page 200 unless given). */
  paginate<T = unknown>(path: string, query?: Query, options?: { perPage?: number }): AsyncIterable<Page<T>>;
  /** Every item of a list. */
  all<T = unknown>(path: string, query?: Query): Promise<T[]>;
  /** One page of a list; the platform's empty-list 404 ("Last page is 0") is an empty page. */
  page<T = unknown>(path: string, query?: Query): Promise<Page<T>>;
  /** A warning about what the store sent, shown once (stderr, by the command). */
  warn(message: string): void;
  stats(): ClientStats;
}

/** Statuses worth repeating for idempotent methods (DESIGN.md §3). */
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** The request never left this machine: safe to repeat even a POST. */
const CONNECT_ERROR_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
const NETWORK_ERROR_CODES = new Set([...CONNECT_ERROR_CODES, 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);
/** Timeout phases that end before any byte of the request is written. */
const CONNECT_TIMEOUT_EVENTS = new Set(['lookup', 'connect', 'secureConnect']);
/** 429s are normally absorbed by the scheduler; this only stops a server that refuses for ever. */
const MAX_RATE_LIMITED_ATTEMPTS = 20;
const MAX_RETRY_DELAY_MS = 30_000;

/** The life of one logical request across its attempts (shared with got's hooks through `context`). */
interface RequestState {
  ticket?: number;
  /** Retries for transient failures (429s not included). */
  retries: number;
  rateLimited: number;
  /** An attempt was sent and the scheduler has not yet heard how it ended. */
  awaitingOutcome: boolean;
  nextDelayMs: number;
  /** The failure got last weighed for a retry, and whether it chose to retry it. */
  lastFailure?: { error: RequestError; retrying: boolean };
}

/**
 * Node ≥ 24.20 (nodejs/node#64847) also fails got's pending write with this code when a connection is refused,
 * and that second error cancels the retry got had already scheduled for the first (sindresorhus/got#2469).
 */
const CLOSED_BEFORE_CONNECTION = 'ERR_SOCKET_CLOSED_BEFORE_CONNECTION';

const schedulers = new WeakMap<Clock, Map<string, RateScheduler>>();

/** The process-wide scheduler of one (api_url, store, app): every client and command shares its bucket. */
export function schedulerFor(apiUrl: string, storeId: string | number, appId: string, clock: Clock = keepAliveClock): RateScheduler {
  let byKey = schedulers.get(clock);
  if (!byKey) {
    byKey = new Map();
    schedulers.set(clock, byKey);
  }
  const key = `${apiUrl.replace(/\/+$/, '')}|${storeId}|${appId}`;
  let scheduler = byKey.get(key);
  if (!scheduler) {
    scheduler = new RateScheduler({ clock });
    byKey.set(key, scheduler);
  }
  return scheduler;
}

function stateOf(context: Record<string, unknown>): RequestState {
  return context.state as RequestState;
}

function retryAfterSeconds(headers: ResponseHeaders): number | undefined {
  const raw = headers['retry-after'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

function isConnectError(error: RequestError): boolean {
  if (error.name === 'TimeoutError') return CONNECT_TIMEOUT_EVENTS.has((error as RequestError & { event?: string }).event ?? '');
  return CONNECT_ERROR_CODES.has(error.code);
}

function appendQuery(url: URL, query: Query | undefined): void {
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    url.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
}

export function createClient(config: ClientConfig): StoreClient {
  const apiRoot = config.apiUrl.replace(/\/+$/, '');
  const baseUrl = `${apiRoot}/v1/${config.storeId}`;
  const origin = new URL(apiRoot).origin;
  const scheduler = schedulerFor(apiRoot, config.storeId, config.appId, config.clock ?? keepAliveClock);
  const maxRetries = config.retries ?? 3;
  const retryBaseMs = config.retryBaseMs ?? 500;
  const counters: ClientStats = { requests: 0, retries: 0, rateLimited: 0 };
  const warned = new Set<string>();
  const debug = config.debug ? (line: string) => config.debug!(scrubSecrets(line, [config.token])) : undefined;

  /** Tells the scheduler how an attempt ended, once: with the response's headers, or without a response. */
  function settle(state: RequestState, response: { statusCode: number; headers: ResponseHeaders } | undefined): void {
    if (!state.awaitingOutcome) return;
    state.awaitingOutcome = false;
    // A gateway's 5xx page without rate headers says nothing about the bucket: it must not unpace the store.
    const informative = response && (response.statusCode < 500 || response.headers['x-rate-limit-limit'] !== undefined);
    if (informative) scheduler.observe(response.headers);
    else scheduler.sendFailed();
  }

  function retryDelay(state: RequestState, error: RequestError, retryAfterMs: number | undefined): number {
    const status = error.response?.statusCode;
    if (status === 429) return state.rateLimited < MAX_RATE_LIMITED_ATTEMPTS ? 1 : 0; // the scheduler holds it
    if (state.retries >= maxRetries) return 0;
    const method = error.options.method.toUpperCase();
    if (status !== undefined) {
      if (method === 'POST' || !RETRY_STATUSES.has(status)) return 0;
    } else if (method === 'POST' ? !isConnectError(error) : !NETWORK_ERROR_CODES.has(error.code)) {
      return 0;
    }
    // Exponential backoff with jitter, so clients that failed together do not retry together.
    const backoff = retryBaseMs * 2 ** state.retries * (0.5 + Math.random() / 2);
    return Math.round(Math.min(MAX_RETRY_DELAY_MS, Math.max(backoff, retryAfterMs ?? 0, 1)));
  }

  function noteRetry(state: RequestState, error: RequestError, retryCount: number): void {
    settle(state, error.response);
    counters.retries += 1;
    if (error.response?.statusCode !== 429) state.retries += 1;
    const status = error.response?.statusCode;
    const after = status === 429 ? '429, in line for the rate limit' : `${status ?? error.code}, waited ${state.nextDelayMs}ms`;
    debug?.(`↻ retry ${retryCount} of ${error.options.method} ${redactUrl(String(error.options.url))} after ${after}`);
  }

  const http = got.extend({
    headers: {
      authentication: `bearer ${config.token}`,
      'user-agent': `${config.appName} (${config.appId})`,
      accept: 'application/json',
    },
    timeout: { request: config.timeoutMs ?? 30_000 },
    // A redirect would carry the Authentication header, which got does not know to strip, to another host.
    followRedirect: false,
    retry: {
      limit: maxRetries + MAX_RATE_LIMITED_ATTEMPTS,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
      statusCodes: [...RETRY_STATUSES],
      errorCodes: [...NETWORK_ERROR_CODES],
      calculateDelay: ({ error, retryAfter }) => {
        const state = stateOf(error.options.context);
        state.nextDelayMs = retryDelay(state, error, retryAfter);
        state.lastFailure = { error, retrying: state.nextDelayMs > 0 };
        return state.nextDelayMs;
      },
    },
    hooks: {
      beforeRequest: [
        async (options) => {
          const state = stateOf(options.context);
          const queuedAt = Date.now();
          state.ticket = await scheduler.acquire(state.ticket);
          state.awaitingOutcome = true;
          counters.requests += 1;
          if (debug) {
            // got has already turned `json` into the string `body` by now.
            const body = typeof options.body === 'string' && options.body !== '' ? ` ${bodyPreview(options.body)}` : '';
            const waited = Date.now() - queuedAt;
            const held = waited >= 500 ? ` (held ${(waited / 1000).toFixed(1)} s by the rate limit)` : '';
            debug(`→ ${options.method} ${redactUrl(String(options.url))}${body}${held}`);
          }
        },
      ],
      afterResponse: [
        (response) => {
          const state = stateOf(response.request.options.context);
          settle(state, response);
          if (response.statusCode === 429) {
            counters.rateLimited += 1;
            state.rateLimited += 1;
            scheduler.on429(retryAfterSeconds(response.headers));
          }
          debug?.(responseLine(response));
          return response;
        },
      ],
      beforeRetry: [(error, retryCount) => noteRetry(stateOf(error.options.context), error, retryCount)],
    },
  });

  function resolveUrl(path: string, query: Query | undefined): URL {
    let url: URL;
    if (/^https?:\/\//i.test(path)) {
      url = new URL(path);
      if (url.origin !== origin) {
        throw new UsageError(`Refusing to send the store's token to ${url.host}: the URL must be on ${new URL(origin).host}.`);
      }
    } else {
      url = new URL(`${baseUrl}${path.startsWith('/') ? path : `/${path}`}`);
    }
    appendQuery(url, query);
    return url;
  }

  async function request<T = unknown>(options: RequestOptions): Promise<ApiResponse<T>> {
    const method = options.method.toUpperCase();
    const url = resolveUrl(options.path, options.query);
    if (options.body !== undefined && (method === 'GET' || method === 'HEAD')) {
      throw new UsageError(`A ${method} request cannot carry a body; send the fields as query parameters.`);
    }
    const state: RequestState = { retries: 0, rateLimited: 0, awaitingOutcome: false, nextDelayMs: 0 };
    let response: Response<string> | undefined;
    for (let attempt = 0; !response; attempt += 1) {
      try {
        response = await http(url, {
          method: method as 'GET',
          headers: options.headers,
          context: { state },
          ...(options.body !== undefined ? { json: options.body } : {}),
        });
      } catch (error) {
        const cancelled = cancelledFailure(error, state);
        if (!cancelled) throw failure(error, state, method, url.toString());
        if (!cancelled.retrying) throw failure(cancelled.error, state, method, url.toString());
        // Make the retry got had scheduled (same delay, same bookkeeping), then go round again.
        state.lastFailure = undefined;
        await new Promise((resolve) => setTimeout(resolve, state.nextDelayMs));
        noteRetry(state, cancelled.error, attempt + 1);
      }
    }
    if (response.statusCode >= 300 && response.statusCode < 400) throw redirected(response, method, url.toString());
    noteMainLanguage(response.headers['x-main-language']);
    return { status: response.statusCode, headers: response.headers, body: parseJson<T>(response, method, url.toString()) };
  }

  let mainLanguage: string | undefined;
  function noteMainLanguage(header: string | string[] | undefined): void {
    const language = (Array.isArray(header) ? header[0] : header)?.trim();
    if (!language || language === mainLanguage) return;
    mainLanguage = language;
    config.onMainLanguage?.(language);
  }

  /** The failure got was handling when Node's extra ERR_SOCKET_CLOSED_BEFORE_CONNECTION cut it short, if that happened. */
  function cancelledFailure(error: unknown, state: RequestState): RequestState['lastFailure'] {
    const code = (error as { code?: unknown } | undefined)?.code;
    if (code !== CLOSED_BEFORE_CONNECTION || !state.lastFailure || state.lastFailure.error.code === CLOSED_BEFORE_CONNECTION) return undefined;
    return state.lastFailure;
  }

  function failure(error: unknown, state: RequestState, method: string, url: string): Error {
    if (error instanceof StoreError) return error;
    if (error instanceof HTTPError) {
      settle(state, error.response);
      return errorFromResponse(method, url, error.response.statusCode, error.response.body, {
        profile: config.profile,
        tokenFromEnv: config.tokenFromEnv,
        headers: error.response.headers,
        retryAfterSeconds: retryAfterSeconds(error.response.headers),
      });
    }
    if (error instanceof RequestError) {
      settle(state, error.response);
      debug?.(`✗ ${method} ${redactUrl(url)}: ${error.code}`);
      const detail =
        error.name === 'TimeoutError' ? `no response within ${Math.round((config.timeoutMs ?? 30_000) / 1000)} s` : undefined;
      return networkError(url, error.name === 'TimeoutError' ? undefined : error.code, detail ?? error.message);
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  function responseLine(response: Response): string {
    const { method, url } = response.request.options;
    const ms = response.timings.phases.total ?? 0;
    const remaining = response.headers['x-rate-limit-remaining'];
    const rate = remaining !== undefined ? ` remaining=${remaining}` : '';
    const ok = response.statusCode < 300;
    const body = ok ? '' : ` ${bodyPreview(response.body)}`;
    return `← ${response.statusCode} ${method} ${redactUrl(String(url))} ${ms}ms${rate}${body}`;
  }

  const client: StoreClient = {
    baseUrl,
    request,
    get: (path, query) => request({ method: 'GET', path, query }),
    post: (path, body, query) => request({ method: 'POST', path, body, query }),
    put: (path, body, query) => request({ method: 'PUT', path, body, query }),
    patch: (path, body, query) => request({ method: 'PATCH', path, body, query }),
    delete: (path, query) => request({ method: 'DELETE', path, query }),
    page: (path, query) => readPage(request, path, query),
    warn: (message) => {
      if (warned.has(message)) return;
      warned.add(message);
      config.warn?.(message);
    },
    paginate: (path, query, options) => paginate(request, path, query, { perPage: options?.perPage ?? MAX_PER_PAGE }),
    async all<T>(path: string, query?: Query): Promise<T[]> {
      const items: T[] = [];
      for await (const page of paginate<T>(request, path, query)) items.push(...page.items);
      return items;
    },
    stats: () => ({ ...counters }),
  };
  return client;
}

/**
 * The store API never redirects a correct request; a 3xx is a wrong host or path (http:// to an https-only
 * host, a proxy's login page). Redirects are not followed, since the token would go with them: the status
 * and where it points are the error (exit 1).
 */
function redirected(response: Response<string>, method: string, url: string): ApiError {
  const location = response.headers.location;
  let target = ' without a Location';
  if (location) {
    try {
      target = ` to ${redactUrl(new URL(location, url).toString())}`;
    } catch {
      target = ` to ${redactUrl(location)}`;
    }
  }
  return new ApiError(
    `The store answered ${method} ${new URL(url).pathname} with ${response.statusCode} (a redirect${target}); redirects are not followed, so the token stays with this host. Check the API URL.`,
    { status: response.statusCode, method, url, headers: response.headers },
  );
}

function parseJson<T>(response: Response<string>, method: string, url: string): T {
  const text = response.body;
  if (text.trim() === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    const type = response.headers['content-type'] ?? 'no content type';
    throw new ApiError(
      `The store answered ${method} ${new URL(url).pathname} with something that is not JSON (${response.statusCode}, ${type}).`,
      { status: response.statusCode, method, url, body: text, headers: response.headers },
    );
  }
}
