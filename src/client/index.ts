/**
 * The HTTP core (docs/decisions.md "HTTP client"): the only module that uses got. One call of `request` is one logical
 * request: got's retry machinery repeats it on transient failures, and every attempt first waits for its
 * slot in the rate scheduler shared by every client of the same (api_url, store, app) in the process.
 */
import http from 'node:http';
import got, { type Got, HTTPError, type NormalizedOptions, RequestError, type Response } from 'got';
import type { Clock } from '../platform/clock.js';
import { ApiError, MAX_REPLY_BYTES, RateLimitError, errorFromResponse, formatBytes, networkError, replyTooLarge } from './errors.js';
import { StoreError, UsageError } from '../errors.js';
import { MAX_PER_PAGE } from '../platform/pagination.js';
import { RATE_LIMIT_HEADERS } from '../platform/rate-limit.js';
import { paginate, paginateById, readPage, type Page, type Query } from './pagination.js';
import { stringifyBody } from './json.js';
import { writeOutcome, type WriteRecord } from './write-record.js';
import { nativeRequest } from './transport.js';
import { bodyPreview, redactUrl, scrubSecrets } from './redact.js';
import {
  countRetry,
  isUnreachable,
  MAX_RATE_LIMITED_ATTEMPTS,
  NETWORK_ERROR_CODES,
  newRequestState,
  RETRY_STATUSES,
  replyLost,
  retryAfterSeconds,
  retryDelay,
  retryNotice,
  UNREACHABLE_RETRIES,
  type RequestState,
  type RetryOptions,
  type RetryPolicy,
} from './retry.js';
import { ANNOUNCED_WAIT_MS, MAX_WAIT_MS, RateScheduler, keepAliveClock, type ResponseHeaders } from './scheduler.js';
import { withoutTrailingSlash } from '../util/url.js';
import { checkedApiVersion } from './api-version.js';

export type { Page, Query, QueryValue } from './pagination.js';
export type { WriteOutcome, WriteRecord } from './write-record.js';
export type { ResponseHeaders } from './scheduler.js';
export { MAX_REPLY_BYTES };
/** Node's own limit on a reply's headers (http.maxHeaderSize), named in the error that meets it. */
const MAX_HEADER_BYTES = http.maxHeaderSize;

/** A wait the command should announce: how long, why, and the line that says so. */
export interface WaitNotice {
  seconds: number;
  /** The rate limit's pace or a Retry-After, a transient answer being retried, or a store that could not be reached. */
  kind: 'rate-limit' | 'retry' | 'unreachable';
  /** One line for stderr: "Could not reach 127.0.0.1:9 (connection refused); retrying in 2 s (2/3)". */
  message: string;
}

export interface ClientConfig {
  /** Host root, without the version. */
  apiUrl: string;
  /** The version every path goes through (docs/platform.md §12): `v1` (default) or `2025-03`; another is refused. */
  apiVersion?: string;
  storeId: string | number;
  token: string;
  appName: string;
  appId: string;
  /** Named in the 401 and 403 messages. */
  profile?: string;
  /** The token is STORE_TOKEN's (true) or a profile's STORE_TOKEN_<PROFILE> (its name): a 401 says the environment's token was rejected. */
  tokenFromEnv?: boolean | string;
  /** Receives one line per request, response and retry (token redacted); the caller prints it on stderr. */
  debug?: (line: string) => void;
  /**
   * Receives warnings about what the store sent (records left out of a list, a fallback taken); each
   * distinct warning once per client. The caller prints them on stderr.
   */
  warn?: (message: string) => void;
  /**
   * Told the store's main language when a response names it (`x-main-language`, docs/platform.md §1), so that
   * localized text in lists is shown in it without asking GET /store.
   */
  onMainLanguage?: (language: string) => void;
  /** Per attempt, from sending to the end of the response (default 30 s). */
  timeoutMs?: number;
  /** Retries of transient failures (network errors, 408, 5xx) per request (default 3); 429s are apart. */
  retries?: number;
  /** First retry delay, doubled at each retry, with jitter (default 500 ms). */
  retryBaseMs?: number;
  /** First retry delay of a store that could not be reached (default 1 s; one policy for every command: tests only). */
  unreachableRetryBaseMs?: number;
  /** Clock of the rate scheduler (tests). */
  clock?: Clock;
  /**
   * Told before a wait of ANNOUNCED_WAIT_MS or more (a Retry-After, the rate limit's pace, a retry's backoff),
   * once per wait; the caller prints one line on stderr so that a long pause is never silent.
   */
  onWait?: (wait: WaitNotice) => void;
  /** The largest decompressed reply body read (default MAX_REPLY_BYTES). */
  maxReplyBytes?: number;
}

export interface RequestOptions extends RetryOptions {
  method: string;
  /** Relative to /{version}/{store_id} (e.g. /orders/123), or an absolute URL on the same host. */
  path: string;
  query?: Query;
  /** Sent as JSON; `undefined` sends no body and no Content-Type. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The ledger's record of what this write changes: every method but GET and HEAD carries one. */
  record?: WriteRecord;
}

export interface ApiResponse<T> {
  status: number;
  headers: ResponseHeaders;
  body: T; // the parsed JSON body; undefined when the body is empty
}

export interface ClientStats {
  /** Attempts sent, retries included. */
  requests: number;
  retries: number;
  /** 429 responses met. */
  rateLimited: number;
  /** Attempts that write (not GET or HEAD), retries included: a fleet's summary counts them per store. */
  writes: number;
}

export interface StoreClient {
  /** `{apiUrl}/{apiVersion}/{storeId}` */
  readonly baseUrl: string;
  /** Any request; one that writes (not GET or HEAD) carries its run ledger record (docs/ledger.md). */
  request<T = unknown>(options: RequestOptions): Promise<ApiResponse<T>>;
  get<T = unknown>(path: string, query?: Query): Promise<ApiResponse<T>>;
  /** Every page of a list, in order (per_page 200 unless given). */
  paginate<T = unknown>(path: string, query?: Query, options?: { perPage?: number }): AsyncIterable<Page<T>>;
  /** Every page of a list taking `since_id`, walked by id (`paginateById`): a record deleted meanwhile hides no other. */
  paginateById<T = unknown>(path: string, query?: Query, options?: { perPage?: number }): AsyncIterable<Page<T>>;
  /** Every item of a list. */
  all<T = unknown>(path: string, query?: Query): Promise<T[]>;
  /** One page of a list; the platform's empty-list 404 ("Last page is 0") is an empty page. */
  page<T = unknown>(path: string, query?: Query): Promise<Page<T>>;
  /** A warning about what the store sent, shown once (stderr, by the command). */
  warn(message: string): void;
  stats(): ClientStats;
}

const schedulers = new WeakMap<Clock, Map<string, RateScheduler>>();

/** The process-wide scheduler of one (api_url, store, app): every client and command shares its bucket. */
export function schedulerFor(apiUrl: string, storeId: string | number, appId: string, clock: Clock = keepAliveClock): RateScheduler {
  let byKey = schedulers.get(clock);
  if (!byKey) {
    byKey = new Map();
    schedulers.set(clock, byKey);
  }
  const key = `${withoutTrailingSlash(apiUrl)}|${storeId}|${appId}`;
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

function appendQuery(url: URL, query: Query | undefined): void {
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    url.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
}

export function createClient(config: ClientConfig): StoreClient {
  const core = new HttpCore(config);
  const request = <T>(options: RequestOptions) => core.request<T>(options);
  const warn = (message: string) => core.warnOnce(message);
  return {
    baseUrl: core.baseUrl,
    request,
    get: (path, query) => request({ method: 'GET', path, query }),
    page: (path, query) => readPage(request, path, query, warn),
    warn,
    paginate: (path, query, options) => paginate(request, path, query, { perPage: options?.perPage ?? MAX_PER_PAGE, warn }),
    paginateById: (path, query, options) => paginateById(request, path, query, { perPage: options?.perPage ?? MAX_PER_PAGE, warn }),
    async all<T>(path: string, query?: Query): Promise<T[]> {
      const items: T[] = [];
      for await (const page of paginate<T>(request, path, query, { warn })) items.push(...page.items);
      return items;
    },
    stats: () => ({ ...core.counters }),
  };
}

/**
 * One client's connection to the store: a got instance whose every attempt first waits for its slot in the
 * shared rate scheduler and then reports back how it ended, the retry bookkeeping, and the mapping of
 * failures to the CLI's errors.
 */
class HttpCore {
  readonly baseUrl: string;
  readonly counters: ClientStats = { requests: 0, retries: 0, rateLimited: 0, writes: 0 };
  private readonly origin: string;
  private readonly scheduler: RateScheduler;
  private readonly policy: RetryPolicy;
  private readonly debug?: (line: string) => void;
  private readonly http: Got;
  private readonly warned = new Set<string>();
  private mainLanguage?: string;
  /** The end (scheduler clock) of the last wait announced, so that one wait is told once. */
  private announcedUntil = -Infinity;
  /**
   * The highest retry of an unreachable store said since the store last answered: each is said once, however
   * short its wait, and not again by the other requests that fail with it.
   */
  private unreachableTold = 0;

  constructor(private readonly config: ClientConfig) {
    const apiRoot = withoutTrailingSlash(config.apiUrl);
    this.baseUrl = `${apiRoot}/${checkedApiVersion(config.apiVersion)}/${config.storeId}`;
    this.origin = new URL(apiRoot).origin;
    this.scheduler = schedulerFor(apiRoot, config.storeId, config.appId, config.clock ?? keepAliveClock);
    this.policy = { maxRetries: config.retries ?? 3, retryBaseMs: config.retryBaseMs ?? 500, unreachableBaseMs: config.unreachableRetryBaseMs };
    if (config.debug) this.debug = (line: string) => config.debug!(scrubSecrets(line, [config.token]));
    this.http = this.pacedGot();
  }

  /** One notice per wait (the scheduler and got may both report the same one). */
  private announceWait(ms: number, until: number, kind: WaitNotice['kind'], message: string): void {
    if (until <= this.announcedUntil + 1000) return;
    this.announcedUntil = until;
    this.config.onWait?.({ seconds: Math.ceil(ms / 1000), kind, message });
  }

  /** A store that cannot be reached is said at every retry; a busy one only when the wait is long. */
  private announceRetry(state: RequestState, error: RequestError): void {
    const ms = state.nextDelayMs;
    const message = retryNotice(state, error, ms, this.policy);
    if (!isUnreachable(error)) {
      if (ms >= ANNOUNCED_WAIT_MS) this.announceWait(ms, Date.now() + ms, 'retry', message);
      return;
    }
    if (state.unreachable < this.unreachableTold) return;
    this.unreachableTold = state.unreachable + 1;
    this.config.onWait?.({ seconds: Math.ceil(ms / 1000), kind: 'unreachable', message });
  }

  warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.config.warn?.(message);
  }

  async request<T = unknown>(options: RequestOptions): Promise<ApiResponse<T>> {
    const method = options.method.toUpperCase();
    // Every write is on the run ledger before it is sent (docs/ledger.md; `ready`: committed by the ledger's thread).
    if (!options.record && method !== 'GET' && method !== 'HEAD') throw new Error(`${method} ${options.path} was about to be sent without its run ledger record (a bug: docs/ledger.md).`);
    if (options.record?.ready) await options.record.ready;
    const url = this.resolveUrl(options.path, options.query);
    if (options.body !== undefined && (method === 'GET' || method === 'HEAD')) {
      throw new UsageError(`A ${method} request cannot carry a body; send the fields as query parameters.`);
    }
    const state = { ...newRequestState(), halveOn429: options.halveOn429 };
    const maxBytes = this.config.maxReplyBytes ?? MAX_REPLY_BYTES;
    let tooLarge = false;
    let response: Response<string>;
    const pending = this.http(url, {
      method: method as 'GET',
      headers: options.headers,
      context: { state },
      ...(options.body !== undefined ? { json: options.body } : {}),
    });
    // Counted as it streams (decompressed): the reply is dropped the moment it passes the limit.
    pending.on('downloadProgress', ({ transferred }) => {
      if (transferred <= maxBytes || tooLarge) return;
      tooLarge = true;
      pending.cancel();
    });
    const record = options.record;
    try {
      response = await pending;
    } catch (error) {
      if (tooLarge) {
        this.settle(state, undefined);
        const failure = replyTooLarge(method, url, maxBytes);
        record?.settle('unknown', failure.message);
        throw failure;
      }
      const failure = this.failure(error, state, method, url.toString());
      record?.settle(writeOutcome(error, state), failure.message);
      throw failure;
    }
    if (response.statusCode >= 300 && response.statusCode < 400) {
      const failure = redirected(response, method, url.toString());
      record?.settle('failed', failure.message);
      throw failure;
    }
    // Confirmed before the body is read: the store has done it, whatever its reply looks like.
    if (record && !record.settledByCaller) record.settle('confirmed');
    this.noteMainLanguage(response.headers['x-main-language']);
    return { status: response.statusCode, headers: response.headers, body: parseJson<T>(response, method, url.toString()) };
  }

  /** got with the store's headers, no redirects, the retry policy, and the scheduler around every attempt. */
  private pacedGot(): Got {
    const { config, policy } = this;
    return got.extend({
      headers: {
        authentication: `bearer ${config.token}`,
        'user-agent': `${config.appName} (${config.appId})`,
        accept: 'application/json',
      },
      timeout: { request: config.timeoutMs ?? 30_000 },
      // A redirect would carry the Authentication header, which got does not know to strip, to another host.
      followRedirect: false,
      stringifyJson: stringifyBody,
      request: nativeRequest,
      retry: {
        limit: policy.maxRetries + UNREACHABLE_RETRIES + MAX_RATE_LIMITED_ATTEMPTS,
        methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
        statusCodes: [...RETRY_STATUSES],
        errorCodes: [...NETWORK_ERROR_CODES],
        calculateDelay: ({ error, retryAfter }) => {
          const state = stateOf(error.options.context);
          state.nextDelayMs = retryDelay(state, error, retryAfter, policy);
          if (state.nextDelayMs > 0) this.announceRetry(state, error);
          return state.nextDelayMs;
        },
      },
      hooks: {
        beforeRequest: [(options) => this.beforeAttempt(stateOf(options.context), options)],
        afterResponse: [
          (response) => {
            this.afterAttempt(stateOf(response.request.options.context), response);
            return response;
          },
        ],
        beforeRetry: [(error, retryCount) => this.noteRetry(stateOf(error.options.context), error, retryCount)],
      },
    });
  }

  /** Waits for the attempt's slot in the rate scheduler. */
  private async beforeAttempt(state: RequestState, options: NormalizedOptions): Promise<void> {
    const queuedAt = Date.now();
    state.ticket = await this.scheduler.acquire(state.ticket, (ms, until) =>
      this.announceWait(ms, until, 'rate-limit', `The store asked to wait ${Math.ceil(ms / 1000)} s (rate limit); waiting — Ctrl-C to stop.`),
    );
    state.awaitingOutcome = true;
    state.attempts += 1;
    this.counters.requests += 1;
    if (options.method !== 'GET' && options.method !== 'HEAD') this.counters.writes += 1;
    if (this.debug) {
      // got has already turned `json` into the string `body` by now.
      const body = typeof options.body === 'string' && options.body !== '' ? ` ${bodyPreview(options.body)}` : '';
      const waited = Date.now() - queuedAt;
      const held = waited >= 500 ? ` (held ${(waited / 1000).toFixed(1)} s by the rate limit)` : '';
      this.debug(`→ ${options.method} ${redactUrl(String(options.url))}${body}${held}`);
    }
  }

  private afterAttempt(state: RequestState, response: Response): void {
    this.settle(state, response);
    this.unreachableTold = 0;
    if (response.statusCode === 429) {
      this.counters.rateLimited += 1;
      state.rateLimited += 1;
      const wait = retryAfterSeconds(response.headers);
      // A wait longer than the CLI accepts ends the request (one sentence) instead of holding every request.
      if (wait !== undefined && wait * 1000 > MAX_WAIT_MS) state.refusedWait = wait;
      else this.scheduler.on429(wait);
    }
    this.debug?.(responseLine(response));
  }

  /** Tells the scheduler how an attempt ended, once: with the response's headers, or without a response. */
  private settle(state: RequestState, response: { statusCode: number; headers: ResponseHeaders } | undefined): void {
    if (!state.awaitingOutcome) return;
    state.awaitingOutcome = false;
    // A gateway's 5xx page without rate headers says nothing about the bucket: it must not unpace the store.
    const informative = response && (response.statusCode < 500 || response.headers[RATE_LIMIT_HEADERS.limit] !== undefined);
    if (informative) this.scheduler.observe(response.headers);
    else this.scheduler.sendFailed();
  }

  private noteRetry(state: RequestState, error: RequestError, retryCount: number): void {
    this.settle(state, error.response);
    if (replyLost(error)) state.lostReplies += 1;
    this.counters.retries += 1;
    countRetry(state, error);
    const status = error.response?.statusCode;
    const after = status === 429 ? '429, in line for the rate limit' : `${status ?? error.code}, waited ${state.nextDelayMs}ms`;
    this.debug?.(`↻ retry ${retryCount} of ${error.options.method} ${redactUrl(String(error.options.url))} after ${after}`);
  }

  private resolveUrl(path: string, query: Query | undefined): URL {
    let url: URL;
    if (/^https?:\/\//i.test(path)) {
      url = new URL(path);
      if (url.origin !== this.origin) {
        throw new UsageError(`Refusing to send the store's token to ${url.host}: the URL must be on ${new URL(this.origin).host}.`);
      }
    } else {
      url = new URL(`${this.baseUrl}${path.startsWith('/') ? path : `/${path}`}`);
    }
    appendQuery(url, query);
    return url;
  }

  private noteMainLanguage(header: string | string[] | undefined): void {
    const language = (Array.isArray(header) ? header[0] : header)?.trim();
    if (!language || language === this.mainLanguage) return;
    this.mainLanguage = language;
    this.config.onMainLanguage?.(language);
  }

  private failure(error: unknown, state: RequestState, method: string, url: string): Error {
    const { config } = this;
    if (error instanceof StoreError) return error;
    if (error instanceof HTTPError) {
      this.settle(state, error.response);
      if (state.refusedWait !== undefined) {
        return new RateLimitError(
          `The store asked to wait ${Math.ceil(state.refusedWait)} s before ${method} ${new URL(url).pathname} (rate limit), longer than the ${MAX_WAIT_MS / 1000} s this CLI waits; try again later.`,
          { status: 429, method, url, headers: error.response.headers },
        );
      }
      return errorFromResponse(method, url, error.response.statusCode, error.response.body, {
        profile: config.profile,
        tokenFromEnv: config.tokenFromEnv,
        headers: error.response.headers,
        retryAfterSeconds: retryAfterSeconds(error.response.headers),
      });
    }
    if (error instanceof RequestError) {
      this.settle(state, error.response);
      this.debug?.(`✗ ${method} ${redactUrl(url)}: ${error.code}`);
      if (error.code === 'HPE_HEADER_OVERFLOW') {
        return new ApiError(
          `The store's reply to ${method} ${new URL(url).pathname} was too large: its headers passed ${formatBytes(MAX_HEADER_BYTES)}.`,
          { status: 0, method, url },
        );
      }
      if (error.name === 'TimeoutError') {
        // The truth over every attempt, not the one attempt's limit: "no answer after 4 attempts over 124 s".
        const attempts = Math.max(1, state.attempts);
        const seconds = Math.round((Date.now() - state.startedAt) / 1000);
        return networkError(url, undefined, `no answer after ${attempts} attempt${attempts === 1 ? '' : 's'} over ${seconds} s`);
      }
      const attempts = state.attempts > 1 ? ` after ${state.attempts} attempts over ${Math.round((Date.now() - state.startedAt) / 1000)} s` : '';
      return networkError(url, error.code, error.message, attempts);
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

function responseLine(response: Response): string {
  const { method, url } = response.request.options;
  const ms = response.timings.phases.total ?? 0;
  const remaining = response.headers[RATE_LIMIT_HEADERS.remaining];
  const rate = remaining !== undefined ? ` remaining=${remaining}` : '';
  const ok = response.statusCode < 300;
  const body = ok ? '' : ` ${bodyPreview(response.body)}`;
  return `← ${response.statusCode} ${method} ${redactUrl(String(url))} ${ms}ms${rate}${body}`;
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
