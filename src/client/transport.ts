import { UsageError } from './errors.js';

/**
 * A token or client secret sent over plain HTTP can be read by anyone on the path. Plain HTTP is taken only
 * on this machine (the sandbox, a test server, a tunnel's local end) unless the user says otherwise.
 */

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  if (/^::ffff:127\.\d+\.\d+\.\d+$/.test(host)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

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
