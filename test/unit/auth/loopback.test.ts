import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openBrowser } from '../../../src/auth/browser.js';
import { listenForCallback } from '../../../src/auth/loopback.js';
import { authorizeUrl, parseScopes } from '../../../src/auth/oauth.js';
import { AuthError } from '../../../src/client/errors.js';
import { UsageError } from '../../../src/errors.js';

const STATE = 'expected-state-value';

async function listener(exchange = async (code: string) => `token-for-${code}`) {
  return listenForCallback({ port: 0, state: STATE, exchange });
}

describe('loopback redirect listener', () => {
  it('exchanges the code of a redirect with the right state and tells the browser', async () => {
    const l = await listener();
    expect(l.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const res = await fetch(`${l.redirectUri}?code=abc&state=${STATE}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('logged in');
    await expect(l.result).resolves.toBe('token-for-abc');
  });

  it('refuses a redirect whose state does not match, and ends the login', async () => {
    let exchanged = false;
    const l = await listener(async () => {
      exchanged = true;
      return 'x';
    });
    const res = await fetch(`${l.redirectUri}?code=abc&state=forged`);
    expect(res.status).toBe(400);
    await expect(l.result).rejects.toThrow(/state that does not match/);
    await expect(l.result).rejects.toBeInstanceOf(AuthError);
    expect(exchanged).toBe(false);
  });

  it('reports a denied authorization', async () => {
    const l = await listener();
    await fetch(`${l.redirectUri}?error=access_denied&state=${STATE}`);
    await expect(l.result).rejects.toThrow(/not granted.*access_denied/);
  });

  it('shows a failed exchange in the browser and rejects with its error', async () => {
    const l = await listener(async () => {
      throw new AuthError('The authorization code was refused.');
    });
    const res = await fetch(`${l.redirectUri}?code=abc&state=${STATE}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('The authorization code was refused.');
    await expect(l.result).rejects.toThrow('The authorization code was refused.');
  });

  it('answers 404 elsewhere without ending the login', async () => {
    const l = await listener();
    expect((await fetch(l.redirectUri.replace('/callback', '/favicon.ico'))).status).toBe(404);
    await fetch(`${l.redirectUri}?code=late&state=${STATE}`);
    await expect(l.result).resolves.toBe('token-for-late');
  });

  it('names --port when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await listenForCallback({ port, state: STATE, exchange: async () => 'x' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(new RegExp(`Port ${port} .*--port`));
    } finally {
      blocker.close();
    }
  });

  it('gives up after the wait with one sentence', async () => {
    const l = await listenForCallback({ port: 0, state: STATE, exchange: async () => 'x', waitMs: 20 });
    await expect(l.result).rejects.toThrow(/No login came back from the browser/);
  });
});

describe('OAuth helpers', () => {
  it('builds the authorize URL of DESIGN.md §5.18', () => {
    const url = new URL(
      authorizeUrl({ authUrl: 'http://127.0.0.1:5/auth/', appId: '42', state: 's t', redirectUri: 'http://127.0.0.1:8976/callback' }),
    );
    expect(url.pathname).toBe('/auth/apps/42/authorize');
    expect(url.searchParams.get('state')).toBe('s t');
    expect(url.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:8976/callback');
  });

  it('reads scopes separated by commas or spaces', () => {
    expect(parseScopes('read_orders,write_products')).toEqual(['read_orders', 'write_products']);
    expect(parseScopes('read_orders write_products ')).toEqual(['read_orders', 'write_products']);
    expect(parseScopes('')).toEqual([]);
  });
});

describe('openBrowser', () => {
  it('does not try without a display, and tolerates a missing opener', async () => {
    expect(await openBrowser('http://127.0.0.1:1/', { PATH: process.env.PATH }, 'linux')).toBe(false);
    expect(await openBrowser('http://127.0.0.1:1/', { DISPLAY: ':0', PATH: '/nonexistent' }, 'linux')).toBe(false);
  });
});
