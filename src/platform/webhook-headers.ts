import { createHmac } from 'node:crypto';

/**
 * The headers the platform sets on every webhook notification (docs/platform.md §7): the signature (hex HMAC-SHA256
 * of the raw body keyed with the app's client secret) and the delivery id (the same on every retry). Used by
 * the sandbox's delivery, the `webhooks listen` receiver and both checks of a webhook's custom headers.
 */

export const SIGNATURE_HEADER = 'x-linkedstore-hmac-sha256';

/** The value of SIGNATURE_HEADER for a raw body: what the store sends and what a receiver must recompute. */
export function webhookSignature(rawBody: string | Buffer, clientSecret: string | Buffer): string {
  return createHmac('sha256', clientSecret).update(rawBody).digest('hex');
}
export const DELIVERY_ID_HEADER = 'x-store-delivery-id';

/** Headers the delivery sets itself (lower case): a webhook's custom headers must not name them. */
export const RESERVED_WEBHOOK_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'host',
  'connection',
  'transfer-encoding',
  'user-agent',
  SIGNATURE_HEADER,
  DELIVERY_ID_HEADER,
]);

/** A header name is an HTTP token (RFC 9110 §5.1): what a webhook's custom header may be called. */
export function isHeaderName(name: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name);
}
