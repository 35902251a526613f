import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

// `store api` end to end: the real binary, credentials from the environment (the cron way), against the
// loopback test server that enforces a real leaky bucket and sends the spec's headers, pages and errors.
let server: TestServer;
let env: NodeJS.ProcessEnv;
// /_echo sends the request headers back, the token among them: that output is the server's, not the CLI's.
let echoing: { env: NodeJS.ProcessEnv; serverEchoesSecrets: true };

beforeAll(async () => {
  server = await startTestServer({ rate: { capacity: 10, leakPerSecond: 20 }, lists: { orders: 450, webhooks: 0 } });
  const home = mkdtempSync(join(tmpdir(), 'store-api-'));
  env = {
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_DATA_HOME: join(home, 'data'),
    STORE_TOKEN: server.token,
    STORE_ID: String(server.storeId),
    STORE_API_URL: server.url,
    STORE_APP_NAME: 'Acme ERP',
    STORE_APP_ID: '4321',
  };
  echoing = { env, serverEchoesSecrets: true };
});
afterAll(() => server.close());

const jqEngineMajor = Number((createRequire(import.meta.url)('jq-wasm/package.json') as { version: string }).version.split('.')[0]);

function lastRequest() {
  return server.requests[server.requests.length - 1];
}

describe('store api', () => {
  it('sends the spec headers and prints the JSON body', async () => {
    const r = await runInProcess(['api', 'GET', '/_echo/hello', '-f', 'status=open', '-F', 'per_page=50'], echoing);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.method).toBe('GET');
    expect(body.path).toBe(`/v1/${server.storeId}/_echo/hello`);
    expect(body.query).toEqual({ status: 'open', per_page: '50' });
    // The token went to the server; echoed back, it is not printed (issue 16: only `auth token` prints it).
    expect(server.requests.at(-1)!.headers.authentication).toBe(`bearer ${server.token}`);
    expect(body.headers.authentication).toBe('bearer [REDACTED]');
    expect(body.headers['user-agent']).toBe('Acme ERP (4321)');
    expect(body.headers.accept).toBe('application/json');
    expect(body.headers['content-type']).toBeUndefined();
  });

  it('builds a typed, nested JSON body from -f and -F on POST', async () => {
    const r = await runInProcess(
      ['api', 'POST', '/_echo', '-f', 'name=Camisa', '-F', 'price=25', '-F', 'active=true', '-F', 'parent=null',
        '-f', 'address[city]=Rosario', '-F', 'categories[]=1', '-F', 'categories[]=2',
        '-F', 'products[][variant_id]=7', '-F', 'products[][quantity]=2', '-F', 'products[][variant_id]=8'],
      echoing,
    );
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.headers['content-type']).toBe('application/json');
    expect(body.body).toEqual({ name: 'Camisa', price: 25, active: true, parent: null, address: { city: 'Rosario' }, categories: [1, 2],
      products: [{ variant_id: 7, quantity: 2 }, { variant_id: 8 }] });
  });

  it('reads the body from --input FILE and from standard input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-api-input-'));
    const file = join(dir, 'body.json');
    writeFileSync(file, JSON.stringify({ event: 'order/created', url: 'https://example.com/hook' }));
    const fromFile = await runInProcess(['api', 'PUT', '/_echo', '--input', file], echoing);
    expect(JSON.parse(fromFile.stdout).body).toEqual({ event: 'order/created', url: 'https://example.com/hook' });
    const fromStdin = await runInProcess(['api', 'PATCH', '/_echo', '--input', '-'], { ...echoing, input: '[{"id":"a","priority":0}]' });
    expect(JSON.parse(fromStdin.stdout).body).toEqual([{ id: 'a', priority: 0 }]);
  });

  it('names the line and column of invalid JSON in --input and sends nothing', async () => {
    const before = server.requests.length;
    const dir = mkdtempSync(join(tmpdir(), 'store-api-bad-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{\n  "name": "Camisa",\n  "price": ,\n}\n');
    const r = await runInProcess(['api', 'POST', '/products', '--input', file], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--input ${file}: invalid JSON at line 3, column 12`);
    expect(server.requests.length).toBe(before);
  });

  it('--paginate fetches every page with per_page 200 and prints one array', async () => {
    const before = server.requests.length;
    const r = await runInProcess(['api', 'GET', '/orders', '--paginate'], { env });
    expect(r.code).toBe(0);
    const items = JSON.parse(r.stdout) as { id: number }[];
    expect(items).toHaveLength(450);
    expect(new Set(items.map((o) => o.id)).size).toBe(450);
    const pages = server.requests.slice(before).filter((q) => q.path.endsWith('/orders') && q.status !== 429);
    expect(pages).toHaveLength(3);
    expect(pages.every((q) => q.query.per_page === '200')).toBe(true);
  });

  it('like gh api: the method is optional (GET, or POST with fields), the path may drop its slash, --jq filters', async () => {
    const first = await runInProcess(['api', '/orders', '--jq', '.[0].id'], { env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const ids = JSON.parse((await runInProcess(['api', 'GET', 'orders'], { env })).stdout) as { id: number }[];
    expect(first.stdout).toBe(`${ids[0]!.id}\n`);
    expect(lastRequest()!.path).toBe(`/v1/${server.storeId}/orders`);

    const posted = await runInProcess(['api', '_echo', '-f', 'name=Camisa', '--jq', '.method'], echoing);
    expect(posted.stdout).toBe('POST\n');
    const asked = await runInProcess(['api', '/_echo', '-X', 'delete', '-f', 'id=7', '--jq', '[.method, .query.id] | @tsv'], echoing);
    expect(asked.stdout).toBe('DELETE\t7\n');
    const twice = await runInProcess(['api', 'PUT', '/_echo', '-X', 'POST'], { env });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe('Error: The method is given twice (PUT and --method POST); give one.\n');
    const none = await runInProcess(['api', 'GET'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('Error: Missing argument PATH (see `store api --help`).\n');
  });

  it('--paginate --jq filters the one merged array; --slurp keeps the pages apart, as gh does', async () => {
    const merged = await runInProcess(['api', '/orders', '--paginate', '--jq', 'length'], { env });
    expect(merged.stdout).toBe('450\n');
    const slurped = await runInProcess(['api', '/orders', '--paginate', '--slurp', '--jq', 'map(length) | @csv'], { env });
    expect(slurped.stdout).toBe('200,200,50\n');
    const alone = await runInProcess(['api', '/orders', '--slurp'], { env });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--paginate');
  });

  it('a --jq error is one sentence, exit 2', async () => {
    const r = await runInProcess(['api', '/orders', '--jq', '.[0].id | error("stop")'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('{"error":{"message":"--jq .[0].id | error(\\"stop\\"): stop.","exit_code":2}}\n');
  });

  // jq-wasm 1.0.1 drops the error once something was printed (and sets the process's exit code to jq's 5).
  it.runIf(jqEngineMajor >= 2)('a --jq error after output keeps what jq printed, then the error', async () => {
    const r = await runInProcess(['api', '/orders', '--jq', '.[0].id, error("stop")'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^\d+\n$/);
    expect(r.stderr).toContain('--jq .[0].id, error(\\"stop\\"): stop.');
  });

  it('--paginate on an empty list prints []', async () => {
    const r = await runInProcess(['api', 'GET', '/webhooks', '--paginate'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('--include prints the status line and the rate-limit headers', async () => {
    const r = await runInProcess(['api', 'GET', '/orders', '--include'], { env });
    expect(r.code).toBe(0);
    const [head, body] = r.stdout.split('\n\n');
    expect(head.split('\n')[0]).toBe('HTTP/1.1 200');
    expect(head).toMatch(/^x-rate-limit-limit: 10$/m);
    expect(head).toMatch(/^x-total-count: 450$/m);
    expect(JSON.parse(body)).toHaveLength(30);
  });

  it('maps HTTP errors to one sentence and the exit codes of DESIGN.md §7, printing the body', async () => {
    const notFound = await runInProcess(['api', 'GET', '/orders/999'], { env });
    expect(notFound.code).toBe(1);
    expect(JSON.parse(notFound.stdout).code).toBe(404);
    expect(notFound.stderr.trim().split('\n')).toHaveLength(1);

    const invalid = await runInProcess(['api', 'POST', '/products', '-F', 'price=abc'], { env });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain("name can't be blank");
    expect(invalid.stderr).toContain('price must be a number');

    const unauthorized = await runInProcess(['api', 'GET', '/orders'], { env: { ...env, STORE_TOKEN: 'wrong' } });
    expect(unauthorized.code).toBe(4);
    expect(unauthorized.stderr).toContain('The store rejected the token from the environment (STORE_TOKEN)');
    expect(unauthorized.stderr).not.toContain('wrong');
  });

  it('refuses an unknown method and a malformed field before sending anything', async () => {
    const before = server.requests.length;
    const method = await runInProcess(['api', 'FETCH', '/orders'], { env });
    expect(method.code).toBe(2);
    expect(method.stderr).toContain('Unknown method "FETCH"');
    const field = await runInProcess(['api', 'POST', '/products', '-f', 'name'], { env });
    expect(field.code).toBe(2);
    expect(field.stderr).toContain('--raw-field "name" must look like key=value');
    expect(server.requests.length).toBe(before);
  });

  it('an unreadable --input, a reply that is not JSON and a refused connection each get one sentence and their exit code', async () => {
    const before = server.requests.length;
    const missing = await runInProcess(['api', 'POST', '/products', '--input', '/nonexistent/body.json'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('--input: cannot read /nonexistent/body.json: no such file.');
    const directory = await runInProcess(['api', 'POST', '/products', '--input', tmpdir()], { env });
    expect(directory.code).toBe(2);
    expect(directory.stderr.trim().split('\n')).toHaveLength(1);
    expect(directory.stderr).toContain(`--input: cannot read ${tmpdir()}: it is a directory.`);
    expect(server.requests.length).toBe(before);

    const html = await runInProcess(['api', 'GET', '/_html'], { env });
    expect(html.code).toBe(1);
    expect(html.stderr.trim().split('\n')).toHaveLength(1);
    expect(html.stderr).toMatch(/not JSON \(200, text\/html\)/);

    // A port that was just bound and released answers nothing: the connection is refused.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const refused = await runInProcess(['api', 'GET', '/orders'], { env: { ...env, STORE_API_URL: `http://127.0.0.1:${closed}` } });
    expect(refused.code).toBe(1);
    // One retry line per attempt (the one retry policy of client/retry.ts, issue 31), then the one sentence.
    const lines = refused.stderr.trim().split('\n');
    expect(lines.slice(0, -1)).toEqual(
      [1, 2, 3].map((n) => `Could not reach 127.0.0.1:${closed} (connection refused); retrying in ${2 ** (n - 1)} s (${n}/3)`),
    );
    expect(lines.at(-1)).toContain(`127.0.0.1:${closed}`);
    expect(refused.stderr).toMatch(/ECONNREFUSED|refused/);
  });

  it('--debug logs every request and response line on stderr without the token', async () => {
    const r = await runInProcess(['api', 'GET', '/orders', '--paginate', '--debug'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/GET .*\/orders/);
    expect(r.stderr).not.toContain(server.token);
    expect(r.stdout).not.toContain(server.token);
  });

  // Separate processes: each has its own scheduler, and only the server's bucket is shared.
  it('a burst of concurrent invocations sharing one bucket all succeed: nothing is dropped', async () => {
    const runs = await Promise.all(Array.from({ length: 6 }, () => runCli(['api', 'GET', '/orders', '-F', 'per_page=200', '--paginate'], { env })));
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveLength(450);
    }
  });
});
