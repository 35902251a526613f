import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';

/**
 * Secrets never printed, by any path: every command of the oclif manifest runs (with --debug) against a
 * hostile server that puts the token it received everywhere it can: in every field of a record, in 422
 * descriptions and field errors, in headers (Set-Cookie, X-Echo, Location) and in the echoed request. Only
 * `store auth token`, whose job is printing it, may show it.
 */

const TOKEN = `tok_${'9f3a'.repeat(8)}_echo`;
let url: string;
let close: () => Promise<void>;
let dir: string;

/** Arguments that get a command past its own checks to the server where possible. */
const ARG_VALUES: Record<string, string> = {
  method: 'GET',
  path: '/orders',
  name: 'Camisas',
  order_id: '1000000001',
  fulfillment_order_id: '01JD3Z6Q8R5M2K7N4P9T0V1W2X',
  id: '12',
  location: '01JD3Z6Q8R5M2K7N4P9T0V1W2X',
  product_id: '12',
  product: '12',
  product_or_sku: '12',
  category: '12',
  variant_id: '34',
  event: 'order/created',
  url: 'https://example.com/hook',
  event_id: '01JD3Z6Q8R5M2K7N4P9T0V1W2X',
  field: 'Material',
  assignment: 'Material=Algodón',
};

/** Long-running or local-only commands: serve and listen never end by themselves; reset only touches the local sandbox. */
// The servers run until stopped: `store mcp` until its host closes stdin (test/integration/mcp*.test.ts drive it).
const SKIPPED = new Set(['sandbox:serve', 'webhooks:listen', 'mcp', 'sandbox:reset', 'auth:token']);

function echoRecord(req: IncomingMessage): Record<string, unknown> {
  const said = `the token was ${TOKEN}`;
  return {
    id: 12,
    number: 100,
    name: { es: said },
    handle: { es: said },
    description: said,
    message: said,
    status: said,
    token: TOKEN,
    access_token: TOKEN,
    customer: { name: said, email: said },
    echo: { method: req.method, url: req.url, headers: req.headers },
  };
}

function answer(req: IncomingMessage, res: ServerResponse): void {
  const headers = {
    'content-type': 'application/json',
    'set-cookie': `session=${TOKEN}`,
    'x-echo-authentication': String(req.headers.authentication ?? req.headers.authorization ?? ''),
  };
  if (req.method !== 'GET') {
    res.writeHead(422, headers);
    res.end(JSON.stringify({ code: 422, message: 'Unprocessable Entity', description: `refused ${TOKEN}`, errors: { name: [`is ${TOKEN}`] } }));
    return;
  }
  const last = (req.url ?? '').split('?')[0]!.split('/').pop() ?? '';
  const collection = !/^\d+$|^[0-9A-HJKMNP-TV-Z]{26}$/.test(last) && last !== 'store';
  res.writeHead(200, { ...headers, 'x-total-count': '1' });
  res.end(JSON.stringify(collection ? [echoRecord(req)] : echoRecord(req)));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'secrets-echo-'));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});
afterAll(async () => {
  await close?.();
});

describe('a server that echoes the token back', () => {
  it('never gets it printed by any command (stdout, stderr, --debug)', async () => {
    const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8')) as {
      commands: Record<string, { args: Record<string, { required?: boolean }>; flags: Record<string, unknown> }>;
    };
    const csv = join(dir, 'file.csv');
    writeFileSync(csv, 'handle,name,sku,price,stock\nuno,Uno,U-1,10,1\n');
    const env = {
      STORE_TOKEN: TOKEN,
      STORE_ID: '1234',
      STORE_API_URL: url,
      STORE_APP_NAME: 'Echo',
      STORE_APP_ID: '4321',
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_STATE_HOME: join(dir, 'state'),
      XDG_DATA_HOME: join(dir, 'data'),
    };
    const ids = Object.keys(manifest.commands).filter((id) => !SKIPPED.has(id) && 'debug' in manifest.commands[id]!.flags);
    expect(ids.length).toBeGreaterThan(40);
    const runs: { id: string; args: string[] }[] = ids.map((id) => {
      const command = manifest.commands[id]!;
      const args = [...id.split(':'), ...Object.keys(command.args).map((name) => (name === 'file' ? csv : (ARG_VALUES[name] ?? 'x')))];
      if ('yes' in command.flags) args.push('--yes');
      if (id === 'api') args.push('-i');
      // Without --once a follower polls until it is stopped.
      if (id === 'orders:follow') args.push('--once');
      if (id === 'auth:login') args.push('--with-token', '--store-id', '1234', '--api-url', url, '--profile', 'echo');
      return { id, args: [...args, '--debug'] };
    });
    const leaks: string[] = [];
    for (const { id, args } of runs) {
      const r = await runInProcess(args, { env, input: id === 'auth:login' ? TOKEN : '' });
      for (const [stream, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const) {
        if (text.includes(TOKEN)) leaks.push(`store ${args.join(' ')} printed the token on ${stream}:\n${text}`);
      }
    }
    expect(leaks).toEqual([]);
  }, 600_000);

  it('store api shows what the server said with the token and credential headers redacted', async () => {
    const r = await runInProcess(['api', 'GET', '/store', '-i'], {
      env: { STORE_TOKEN: TOKEN, STORE_ID: '1234', STORE_API_URL: url, XDG_CONFIG_HOME: join(dir, 'config2') },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^set-cookie: \[REDACTED\]$/m);
    expect(r.stdout).toMatch(/^x-echo-authentication: \[REDACTED\]$/m);
    expect(r.stdout).toContain('the token was [REDACTED]');
    expect(r.stdout).not.toContain(TOKEN);
  });
});
