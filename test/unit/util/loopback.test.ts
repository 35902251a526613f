import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../../src/util/loopback.js';

describe('isLoopbackHost, on the hostnames URL gives', () => {
  const host = (url: string) => new URL(url).hostname;

  it('takes localhost, 127.0.0.0/8 and ::1 in every spelling URL accepts, the IPv4-mapped form included', () => {
    for (const url of ['http://localhost:8080', 'http://api.localhost', 'http://127.0.0.1', 'http://127.1.2.3', 'http://[::1]', 'http://[0:0:0:0:0:0:0:1]', 'http://[::ffff:127.0.0.1]']) {
      expect(isLoopbackHost(host(url)), url).toBe(true);
    }
  });

  it('refuses every other host', () => {
    for (const url of ['http://example.com', 'http://128.0.0.1', 'http://10.0.0.1', 'http://[::2]', 'http://[::ffff:10.0.0.1]', 'http://localhost.example.com']) {
      expect(isLoopbackHost(host(url)), url).toBe(false);
    }
  });
});
