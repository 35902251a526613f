import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS, eventResource, isDeletionEvent } from '../../../../src/api/webhooks.js';
import { UsageError } from '../../../../src/errors.js';
import {
  parseDocumentedEvent,
  parseHeaders,
  parseWebhookEvent,
  parseWebhookEvents,
  parseWebhookUrl,
  undocumentedEvent,
} from '../../../../src/services/webhooks/webhooks.js';

/** What the webhooks commands check before sending (exit 2, one sentence naming the argument or flag). */

function usage(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}

describe('webhook events', () => {
  it('are the 33 documented events of platform.md §7 and §11', () => {
    expect(WEBHOOK_EVENTS).toHaveLength(33);
    for (const event of ['order/packed', 'order/unpacked', 'customer/created', 'app/suspended', 'domain/updated', 'theme/updated', 'cart/updated', 'fulfillment_order/status_updated']) {
      expect(WEBHOOK_EVENTS).toContain(event);
    }
  });

  it('name their resource and whether it is gone', () => {
    expect(eventResource('fulfillment_order/tracking_event_created')).toBe('fulfillment_order');
    expect(eventResource('order/paid')).toBe('order');
    expect(isDeletionEvent('product/deleted')).toBe(true);
    expect(isDeletionEvent('fulfillment_order/tracking_event_deleted')).toBe(false);
  });

  it('accept every known event, in any case', () => {
    for (const event of WEBHOOK_EVENTS) expect(parseWebhookEvent(event)).toBe(event);
    expect(parseWebhookEvent(' Order/Created ')).toBe('order/created');
  });

  it('take any well-formed resource/action name: the platform adds events over time', () => {
    expect(parseWebhookEvent('order/shipped')).toBe('order/shipped');
    expect(parseWebhookEvent('subscription/renewed_2')).toBe('subscription/renewed_2');
    expect(undocumentedEvent('order/packed')).toBeUndefined();
    expect(undocumentedEvent('order/payed')).toBe('order/payed is not a documented event; did you mean order/paid or order/packed? Sending it anyway.');
    expect(undocumentedEvent('product/update')).toBe('product/update is not a documented event; did you mean product/updated? Sending it anyway.');
    expect(undocumentedEvent('invoice/created')).toBe('invoice/created is not a documented event; --help lists them. Sending it anyway.');
  });

  it('refuse a name that is not resource/action, naming the argument', () => {
    for (const bad of ['order', 'order/', '/created', 'order/created/now', 'order created', 'pedido/criação']) {
      expect(usage(() => parseWebhookEvent(bad, '--events')).message).toBe(
        `--events "${bad}" is not a webhook event name; events are resource/action, such as order/created or product/updated.`,
      );
    }
  });

  it('webhooks trigger takes only documented events (the sandbox knows those)', () => {
    expect(parseDocumentedEvent('theme/updated')).toBe('theme/updated');
    expect(usage(() => parseDocumentedEvent('order/shipped')).message).toBe('EVENT "order/shipped" is not a documented webhook event; --help lists them.');
    expect(usage(() => parseDocumentedEvent('orders/created')).message).toBe('EVENT "orders/created" is not a documented webhook event; did you mean order/created?');
  });

  it('--events takes repeated and comma-separated values, without duplicates', () => {
    expect(parseWebhookEvents(['order/created,order/paid', 'order/created', ' product/deleted '])).toEqual([
      'order/created',
      'order/paid',
      'product/deleted',
    ]);
    expect(usage(() => parseWebhookEvents([' , '])).message).toMatch(/^--events names no event/);
  });
});

describe('webhook URLs', () => {
  it('accept https anywhere and http on loopback', () => {
    for (const url of ['https://example.com/hooks', 'http://127.0.0.1:8080/x', 'http://localhost:3000/', 'http://[::1]:9/h']) {
      expect(parseWebhookUrl(url)).toBe(url);
    }
  });

  it('refuse plain http elsewhere, other schemes and non-URLs, naming the argument or flag', () => {
    expect(usage(() => parseWebhookUrl('http://example.com/hooks')).message).toBe(
      'URL "http://example.com/hooks" must use https; plain http is accepted only on loopback (127.0.0.1, ::1, localhost).',
    );
    expect(usage(() => parseWebhookUrl('ftp://example.com/x', '--url')).message).toMatch(/^--url "ftp:\/\/example.com\/x" is not a URL/);
    expect(usage(() => parseWebhookUrl('example.com/hooks')).message).toMatch(/^URL "example.com\/hooks" is not a URL/);
    expect(usage(() => parseWebhookUrl('http://128.0.0.1/x')).message).toMatch(/must use https/);
  });
});

describe('--header', () => {
  it('reads NAME=VALUE pairs; the value may hold = and be empty', () => {
    expect(parseHeaders(['X-Api-Key=abc=123', 'X-Empty=', 'X-Api-Key=second'])).toEqual({ 'X-Api-Key': 'second', 'X-Empty': '' });
  });

  it('refuses malformed pairs, bad names and the headers the delivery sets itself', () => {
    expect(usage(() => parseHeaders(['X-Api-Key'])).message).toBe('--header "X-Api-Key" is not NAME=VALUE, e.g. --header X-Api-Key=abc123.');
    expect(usage(() => parseHeaders(['=v'])).message).toMatch(/is not NAME=VALUE/);
    expect(usage(() => parseHeaders(['Bad Name=v'])).message).toBe('--header "Bad Name" is not a valid HTTP header name.');
    expect(usage(() => parseHeaders(['X-Linkedstore-Hmac-Sha256=forged'])).message).toMatch(/is set by the store on every notification/);
    expect(usage(() => parseHeaders(['Content-Type=text/plain'])).message).toMatch(/is set by the store/);
    expect(usage(() => parseHeaders(['X-A=line\nbreak'])).message).toMatch(/line break/);
  });
});
