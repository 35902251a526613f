import http, { type ClientRequest, type RequestOptions as NativeRequestOptions } from 'node:http';
import https from 'node:https';
import { isLoopbackHost } from '../util/loopback.js';
import { UsageError } from '../errors.js';

/**
 * How a request leaves this machine: over what (a token or client secret sent over plain HTTP can be read by
 * anyone on the path, so plain HTTP is taken only on this machine — the sandbox, a test server, a tunnel's local
 * end — unless the user says otherwise), and Node's request function as the HTTP core hands it to got.
 */

/**
 * Throws a UsageError (exit 2) naming the host when `url` is http:// to anything but loopback, unless
 * `allowInsecureHttp` (--allow-insecure-http). `source` says where the URL came from: "--api-url",
 * "STORE_API_URL", 'profile "shop"'.
 */
export function refuseInsecureHttp(url: string, source: string, allowInsecureHttp = false): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return; // not a URL at all: the caller's own check says so
  }
  if (parsed.protocol !== 'http:' || allowInsecureHttp || isLoopbackHost(parsed.hostname)) return;
  throw new UsageError(
    `Refusing to send credentials over plain HTTP to ${parsed.host} (${source}): use https://, or pass --allow-insecure-http if that network is trusted.`,
  );
}

/**
 * Node ≥ 24.20 (nodejs/node#64847) reports a refused connection twice: as the request's 'error' (which got
 * retries) and then as ERR_SOCKET_CLOSED_BEFORE_CONNECTION to the pending end() callback, which got takes for
 * a new failure that cancels the retry it has scheduled (sindresorhus/got#2469; fixed in got 16, which needs
 * Node 22). The second report of a request that has already failed is dropped here.
 */
export function nativeRequest(url: URL, options: NativeRequestOptions): ClientRequest {
  const request = (url.protocol === 'https:' ? https : http).request(url, options);
  // got measures download progress against Content-Length, which for a compressed body counts the compressed
  // bytes: its progress would stop at "100 %" while a gzip bomb expands. Without it, every decompressed chunk is
  // reported and the reply limit is enforced on what is really held (this runs before got sees the response).
  request.once('response', (response) => {
    if (response.headers['content-encoding']) delete response.headers['content-length'];
  });
  const end = request.end;
  request.end = function (this: ClientRequest, ...args: unknown[]) {
    const at = args.findIndex((arg) => typeof arg === 'function');
    if (at >= 0) {
      const callback = args[at] as (error?: Error | null) => void;
      args[at] = (error?: Error | null) => {
        const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
        if (code === 'ERR_SOCKET_CLOSED_BEFORE_CONNECTION' && request.destroyed) return;
        callback(error);
      };
    }
    return (end as (...a: unknown[]) => ClientRequest).apply(this, args);
  } as ClientRequest['end'];
  return request;
}
