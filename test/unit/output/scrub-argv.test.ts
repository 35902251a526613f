import { afterEach, describe, expect, it } from 'vitest';
import { addSecret, forgetSecrets, scrubArgv } from '../../../src/output/secrets.js';

// The command line the run ledger keeps: a --header value is hidden whole, however short, after its name.
describe('scrubArgv', () => {
  afterEach(() => forgetSecrets());

  it('hides the value of each secret flag, in both spellings, and keeps the rest', () => {
    expect(scrubArgv(['variants', 'sync', 'https://x/s.csv', '--header', 'X-Key: abc', '--header=Authorization: Bearer t', '--quiet'], ['header'])).toEqual([
      'variants',
      'sync',
      'https://x/s.csv',
      '--header',
      'X-Key: [REDACTED]',
      '--header=Authorization: [REDACTED]',
      '--quiet',
    ]);
  });

  it('hides a value without a name whole, leaves what follows -- alone, and still scrubs known secrets', () => {
    addSecret('a-long-known-token');
    expect(scrubArgv(['--header', 'garbage', '--', '--header'], ['header'])).toEqual(['--header', '[REDACTED]', '--', '--header']);
    expect(scrubArgv(['--token', 'a-long-known-token'])).toEqual(['--token', '[REDACTED]']);
  });
});
