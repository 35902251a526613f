import { createWriteStream } from 'node:fs';
import { isLoopbackHost } from '../util/loopback.js';
import { StoreError, UsageError } from '../errors.js';
import { formatBytes, networkError } from './errors.js';

/**
 * The one way `store` downloads a file that is not the store's (a feed published at a URL: `products import
 * URL`, `variants sync URL`). Plain HTTP only on this machine, redirects only to https, a conditional GET
 * (ETag, Last-Modified), a bounded size counted after decompression, and credentials only in headers the
 * caller gives — which are never part of a message, and are not sent on to another origin by a redirect.
 */

export interface DownloadRequest {
  url: string;
  /** Headers to send (`--header`): they may hold credentials. */
  headers?: Record<string, string>;
  /** The validators of the last download kept, for a conditional GET. */
  etag?: string;
  lastModified?: string;
  /** The most bytes read (decompressed); past it the download stops with an error. */
  maxBytes: number;
  /** Where the body is written. */
  to: string;
  signal?: AbortSignal;
  /** Time without a byte that ends the download (default 60 s). */
  idleTimeoutMs?: number;
}

export type DownloadResult =
  /** 304: the feed has not changed since the validators were kept; nothing was written. */
  | { status: 'unchanged' }
  | { status: 'downloaded'; bytes: number; etag?: string; lastModified?: string };

const MAX_REDIRECTS = 5;
/** Network failures, 408, 429 and 5xx are tried again, this many times, after 1 s and 2 s. */
const RETRIES = 2;

/** A feed that could not be downloaded (not found, refused, too large): one sentence, exit 1. */
export class DownloadError extends StoreError {
  constructor(message: string) {
    super(message, 1);
  }
}

/** The URL as messages show it: scheme, host and path, never the query (it may hold a token). */
export function shownUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** Whether `text` is a URL a bulk command downloads rather than a file name. */
export function isFeedUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

/**
 * The URL, checked before anything is sent: https, or http to this machine; no user:password part, since the
 * URL is shown and recorded where a header is not.
 */
export function checkFeedUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`"${text}" is not a URL.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(
      `Give the feed's credentials with --header (e.g. --header 'Authorization: Basic …'), not in the URL: a URL is shown in messages and kept in records.`,
    );
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  if (url.protocol === 'http:') throw new UsageError(`Refusing to download ${shownUrl(url)} over plain HTTP: use https:// (http:// is taken only from this machine).`);
  throw new UsageError(`${shownUrl(url)}: only https:// URLs (and http:// on this machine) can be read.`);
}

/** `Name: value` headers of `--header`, checked: a name, a colon, a value on one line. */
export function parseHeaders(raws: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const raw of raws) {
    const colon = raw.indexOf(':');
    const name = colon > 0 ? raw.slice(0, colon).trim() : '';
    // The value is not quoted back: it is usually a credential.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError('--header must look like "Name: value", e.g. --header \'Authorization: Bearer …\'.');
    const value = raw.slice(colon + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new UsageError(`--header ${name}: the value must be on one line.`);
    headers[name] = value;
  }
  return headers;
}

/** Downloads `request.url` to `request.to`, or answers that it has not changed (a 304 to the validators given). */
export async function download(request: DownloadRequest): Promise<DownloadResult> {
  let url = checkFeedUrl(request.url);
  const origin = url.origin;
  for (let redirects = 0; ; redirects++) {
    const sameOrigin = url.origin === origin;
    const response = await fetchWithRetries(url, headersFor(request, sameOrigin), request.signal);
    if (response.status >= 300 && response.status < 400 && response.status !== 304) {
      await response.body?.cancel().catch(() => undefined);
      const location = response.headers.get('location');
      if (!location) throw new DownloadError(`${shownUrl(url)} answered ${response.status} without saying where to go.`);
      if (redirects >= MAX_REDIRECTS) throw new DownloadError(`${shownUrl(url)}: more than ${MAX_REDIRECTS} redirects.`);
      const next = new URL(location, url);
      if (next.protocol !== 'https:') throw new DownloadError(`${shownUrl(url)} redirects to ${shownUrl(next)}; redirects are followed only to https.`);
      url = next;
      continue;
    }
    if (response.status === 304) {
      await response.body?.cancel().catch(() => undefined);
      // A 304 to a request without validators would be a broken server: nothing to keep the old copy for.
      if (request.etag === undefined && request.lastModified === undefined) throw new DownloadError(`${shownUrl(url)} answered 304 to a request that had no validators.`);
      return { status: 'unchanged' };
    }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      throw new DownloadError(statusSentence(url, response.status, response.statusText));
    }
    const length = Number(response.headers.get('content-length') ?? NaN);
    const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
    if (!encoded && Number.isFinite(length) && length > request.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(url, request.maxBytes);
    }
    const bytes = await writeBody(response, url, request);
    return {
      status: 'downloaded',
      bytes,
      etag: response.headers.get('etag') ?? undefined,
      lastModified: response.headers.get('last-modified') ?? undefined,
    };
  }
}

function headersFor(request: DownloadRequest, sameOrigin: boolean): Record<string, string> {
  // Another origin gets none of the caller's headers: they may be the first origin's credentials.
  const headers: Record<string, string> = { ...(sameOrigin ? request.headers : {}), 'user-agent': 'store-cli' };
  if (sameOrigin && request.etag !== undefined) headers['if-none-match'] = request.etag;
  if (sameOrigin && request.lastModified !== undefined) headers['if-modified-since'] = request.lastModified;
  return headers;
}

async function fetchWithRetries(url: URL, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    let response: Response | undefined;
    let failure: StoreError | undefined;
    try {
      response = await fetch(url, { headers, redirect: 'manual', signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(60_000)]) : AbortSignal.timeout(60_000) });
    } catch (error) {
      if (signal?.aborted) throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const timedOut = (error as Error).name === 'TimeoutError';
      failure = networkError(url.toString(), timedOut ? 'ETIMEDOUT' : cause?.code, cause?.message);
    }
    const retryable = failure !== undefined || (response !== undefined && (response.status === 408 || response.status === 429 || response.status >= 500));
    if (!retryable || attempt >= RETRIES) {
      if (failure) throw failure;
      return response!;
    }
    await response?.body?.cancel().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** attempt));
  }
}

function statusSentence(url: URL, status: number, statusText: string): string {
  const what = `${shownUrl(url)} answered ${status}${statusText ? ` ${statusText}` : ''}`;
  if (status === 401 || status === 403) return `${what}: give the feed's credentials with --header (e.g. --header 'Authorization: Bearer …').`;
  if (status === 404) return `${what}: no feed there; check the URL.`;
  return `${what}.`;
}

function tooLarge(url: URL, maxBytes: number): DownloadError {
  return new DownloadError(`${shownUrl(url)} is larger than ${formatBytes(maxBytes)}, the most a feed may be; download it yourself and give the file.`);
}

/** The body into `request.to`, refused past maxBytes while it streams; a stall of idleTimeoutMs ends it. */
async function writeBody(response: Response, url: URL, request: DownloadRequest): Promise<number> {
  const out = createWriteStream(request.to, { mode: 0o600 });
  const closed = new Promise<void>((resolve, reject) => {
    out.on('close', resolve);
    out.on('error', reject);
  });
  const reader = response.body?.getReader();
  let bytes = 0;
  const idle = request.idleTimeoutMs ?? 60_000;
  try {
    if (reader) {
      for (;;) {
        let timer: NodeJS.Timeout | undefined;
        const stalled = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new DownloadError(`${shownUrl(url)} sent nothing for ${Math.round(idle / 1000)} s; the download was stopped.`)), idle);
        });
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await Promise.race([reader.read(), stalled]);
        } catch (error) {
          if (error instanceof DownloadError) throw error;
          throw networkError(url.toString(), (error as { cause?: { code?: string } }).cause?.code, 'the connection broke during the download');
        } finally {
          clearTimeout(timer);
        }
        if (chunk.done) break;
        bytes += chunk.value.byteLength;
        if (bytes > request.maxBytes) throw tooLarge(url, request.maxBytes);
        if (!out.write(chunk.value)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
    }
  } catch (error) {
    await reader?.cancel().catch(() => undefined);
    out.destroy();
    await closed.catch(() => undefined);
    throw error;
  }
  out.end();
  await closed;
  return bytes;
}
