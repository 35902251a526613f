import { describe, expect, it } from 'vitest';
import { bodyPreview, redactBody, redactUrl, scrubSecrets } from '../../../src/client/redact.js';

describe('redaction', () => {
  it('replaces secret fields in bodies, at any depth, but keeps numeric codes', () => {
    expect(
      redactBody({ client_id: 'app', client_secret: 's3cret', code: 'abc', grant_type: 'authorization_code', nested: [{ access_token: 't' }] }),
    ).toEqual({ client_id: 'app', client_secret: '[REDACTED]', code: '[REDACTED]', grant_type: 'authorization_code', nested: [{ access_token: '[REDACTED]' }] });
    expect(redactBody({ code: 422, description: 'x' })).toEqual({ code: 422, description: 'x' });
  });

  it('replaces secret query parameters', () => {
    expect(redactUrl('http://127.0.0.1:8976/callback?code=abc&state=xyz')).toBe('http://127.0.0.1:8976/callback?code=%5BREDACTED%5D&state=xyz');
  });

  it('previews bodies on one line and scrubs known secrets anywhere', () => {
    expect(bodyPreview('{"access_token":"tok","user_id":5}')).toBe('{"access_token":"[REDACTED]","user_id":5}');
    expect(bodyPreview('line one\n  line two')).toBe('line one line two');
    expect(bodyPreview({ text: 'x'.repeat(500) }, 20)).toBe(`{"text":"xxxxxxxxxxx…`);
    expect(scrubSecrets('bearer abcd1234 and abcd1234', ['abcd1234'])).toBe('bearer [REDACTED] and [REDACTED]');
  });
});
