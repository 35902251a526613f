import { isLoopbackHost } from '../util/loopback.js';
import { UsageError } from '../errors.js';

/**
 * A token or client secret sent over plain HTTP can be read by anyone on the path. Plain HTTP is taken only
 * on this machine (the sandbox, a test server, a tunnel's local end) unless the user says otherwise.
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
