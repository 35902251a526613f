import { afterEach, describe, expect, it } from 'vitest';
import { addSecret, forgetSecrets, hideUrlQueries, scrubArgv } from '../../../src/output/secrets.js';

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

  it("hides the query values of a feed URL (a token, a presigned URL's signature), keeping the names", () => {
    expect(scrubArgv(['variants', 'sync', 'https://erp.example/stock.csv?token=s3cr3t&format=csv', '--yes'])).toEqual([
      'variants',
      'sync',
      'https://erp.example/stock.csv?token=[REDACTED]&format=[REDACTED]',
      '--yes',
    ]);
    expect(hideUrlQueries('https://b.s3.amazonaws.com/f.csv?X-Amz-Credential=AK%2F1&X-Amz-Signature=ab12&flag#top')).toBe(
      'https://b.s3.amazonaws.com/f.csv?X-Amz-Credential=[REDACTED]&X-Amz-Signature=[REDACTED]&[REDACTED]#top',
    );
    // A file name, a URL without a query, and an API path are kept as they are.
    expect(scrubArgv(['stock.csv', 'https://x/s.csv', '/products?q=shirt'])).toEqual(['stock.csv', 'https://x/s.csv', '/products?q=shirt']);
  });

  it('hides a value without a name whole, leaves what follows -- alone, and still scrubs known secrets', () => {
    addSecret('a-long-known-token');
    expect(scrubArgv(['--header', 'garbage', '--', '--header'], ['header'])).toEqual(['--header', '[REDACTED]', '--', '--header']);
    expect(scrubArgv(['--token', 'a-long-known-token'])).toEqual(['--token', '[REDACTED]']);
  });
});
