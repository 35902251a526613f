import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, cliEnv, requestRecorder } from '../helpers/sandbox.js';
import { startBulkStore } from '../helpers/bulk-store-server.js';

/**
 * Feeds at a URL (issue 30): `products import URL` and `variants sync URL` download the feed with a conditional
 * GET and run it as a file; the second run of an unchanged feed sends nothing to the store (counted at the
 * sandbox) and exits 0 saying so. The feed server is a plain http server on 127.0.0.1.
 */

const TOKEN = 'Bearer feed-secret-0123456789';
const recorder = requestRecorder();
let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let state: string;
let server: Server;
let base: string;
/** What the feed server serves, by path; each feed's ETag is its content's hash. */
const feeds = new Map<string, string>();
const feedRequests: { path: string; ifNoneMatch?: string; authorization?: string }[] = [];

function serve(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://feed').pathname;
  feedRequests.push({ path, ifNoneMatch: req.headers['if-none-match'], authorization: req.headers.authorization });
  if (path === '/to-http') {
    res.writeHead(302, { location: `${base}/stock.csv` }).end();
    return;
  }
  if (path === '/huge.csv') {
    // Declares more than the bound: refused before a byte of the body is read.
    res.writeHead(200, { 'content-length': String(600 * 1024 * 1024), 'content-type': 'text/csv' });
    res.write('sku,stock\n');
    setTimeout(() => res.destroy(), 200);
    return;
  }
  if (path.startsWith('/private/') && req.headers.authorization !== TOKEN) {
    res.writeHead(401).end();
    return;
  }
  const body = feeds.get(path);
  if (body === undefined) {
    res.writeHead(404).end();
    return;
  }
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { etag }).end();
    return;
  }
  res.writeHead(200, { etag, 'last-modified': 'Wed, 25 Nov 2026 10:00:00 GMT', 'content-type': 'text/csv' }).end(body);
}

async function store(...args: string[]) {
  recorder.take();
  const result = await runInProcess(args, { env });
  return { ...result, sent: recorder.take() };
}

/** The variant holding `sku`, as the API returns it. */
async function variant(sku: string): Promise<{ sku: string; stock: number | null; price: string; inventory_levels?: { stock: number }[] }> {
  const res = await clientFor(sandbox).get(`/products/sku/${encodeURIComponent(sku)}`);
  expect(res.status).toBe(200);
  return (res.body as { variants: { sku: string; stock: number | null; price: string }[] }).variants.find((v) => v.sku === sku)!;
}

/** The stock of `sku` at each location (a sync's `stock` column sets the default location's). */
async function levels(sku: string): Promise<number[]> {
  const found = await variant(sku);
  return (found.inventory_levels ?? []).map((l) => l.stock);
}

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0, onRequest: recorder.onRequest });
  state = mkdtempSync(join(tmpdir(), 'feed-url-'));
  env = { ...cliEnv(sandbox, 'feeds'), XDG_STATE_HOME: join(state, 'state'), TMPDIR: join(state) };
  server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sandbox?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('a feed at a URL', () => {
  it('products import URL imports it; the second run of the unchanged feed sends nothing to the store and exits 0', async () => {
    feeds.set('/catalog.csv', 'handle,name,sku,price,stock\nremera-del-feed,Remera del Feed,FEED-REM-1,1500,7\n');
    const first = await store('products', 'import', `${base}/catalog.csv?token=in-the-query`);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`Downloaded ${base}/catalog.csv`);
    expect(first.stderr).not.toContain('in-the-query');
    expect(await variant('FEED-REM-1')).toMatchObject({ price: '1500.00', stock: 7 });

    const second = await store('products', 'import', `${base}/catalog.csv?token=in-the-query`, '--json');
    expect(second.code, second.stderr).toBe(0);
    expect(second.sent).toEqual([]);
    expect(second.stderr).toContain(`${base}/catalog.csv has not changed since the last clean run`);
    expect(second.stderr).toContain('nothing was sent to the store');
    expect(JSON.parse(second.stdout)).toMatchObject({ feed: `${base}/catalog.csv`, unchanged: true, requests: 0 });
    // The conditional GET: the second download asked with the first one's ETag and got a 304.
    expect(feedRequests.filter((r) => r.path === '/catalog.csv').at(-1)!.ifNoneMatch).toMatch(/^"[0-9a-f]{16}"$/);

    // The feed's private copy is gone (TMPDIR is the test's own directory).
    expect(readdirSync(state).filter((name) => name.startsWith('store-feed-'))).toEqual([]);

    // The run ledger keeps the command line with the query's values hidden, as every message shows the URL.
    const runs = await store('runs', 'list', '--command', 'products import', '--json');
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toContain(`${base}/catalog.csv?token=[REDACTED]`);
    expect(runs.stdout).not.toContain('in-the-query');
    const ledger = readFileSync(join(state, 'state', 'store', 'ledger.db'));
    expect(ledger.includes('in-the-query')).toBe(false);
  });

  it('variants sync URL syncs it; changed, it is downloaded and synced again; --refetch runs an unchanged one anyway', async () => {
    const sku = 'CAM-OXF-M-BLANCO';
    feeds.set('/stock.csv', `sku,stock\n${sku},41\n`);
    const first = await store('variants', 'sync', `${base}/stock.csv`);
    expect(first.code, first.stderr).toBe(0);
    expect(await levels(sku)).toContain(41);

    const unchanged = await store('variants', 'sync', `${base}/stock.csv`);
    expect(unchanged.code, unchanged.stderr).toBe(0);
    expect(unchanged.sent).toEqual([]);
    expect(unchanged.stderr).toContain('has not changed');

    feeds.set('/stock.csv', `sku,stock\n${sku},39\n`);
    const changed = await store('variants', 'sync', `${base}/stock.csv`);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.sent.length).toBeGreaterThan(0);
    expect(await levels(sku)).toContain(39);

    const forced = await store('variants', 'sync', `${base}/stock.csv`, '--refetch');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.sent.length).toBeGreaterThan(0);
    expect(forced.stderr).not.toContain('has not changed');
  });

  it('a run that failed, or a dry run, keeps no validators: the next run downloads and runs the feed again', async () => {
    feeds.set('/partial.csv', 'sku,stock\nCAM-OXF-L-BLANCO,12\nNO-SUCH-SKU,3\n');
    const failed = await store('variants', 'sync', `${base}/partial.csv`);
    expect(failed.code).toBe(3);
    const again = await store('variants', 'sync', `${base}/partial.csv`);
    expect(again.code).toBe(3);
    expect(again.stderr).not.toContain('has not changed');
    expect(again.sent.length).toBeGreaterThan(0);

    feeds.set('/dry.csv', 'sku,stock\nCAM-OXF-L-BLANCO,13\n');
    const dry = await store('variants', 'sync', `${base}/dry.csv`, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    const real = await store('variants', 'sync', `${base}/dry.csv`);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stderr).not.toContain('has not changed');
    expect(await levels('CAM-OXF-L-BLANCO')).toContain(13);
  });

  it('refuses plain http off this machine, a redirect to http, and a feed over the bound, before the store is asked anything', async () => {
    const offMachine = await store('variants', 'sync', 'http://feeds.example.com/stock.csv');
    expect(offMachine.code).toBe(2);
    expect(offMachine.stderr.trim()).toBe('Error: Refusing to download http://feeds.example.com/stock.csv over plain HTTP: use https:// (http:// is taken only from this machine).');
    expect(offMachine.sent).toEqual([]);

    const redirected = await store('variants', 'sync', `${base}/to-http`);
    expect(redirected.code).toBe(1);
    expect(redirected.stderr).toContain('redirects are followed only to https');
    expect(redirected.sent).toEqual([]);

    const huge = await store('products', 'import', `${base}/huge.csv`);
    expect(huge.code).toBe(1);
    expect(huge.stderr).toContain('is larger than 512 MB, the most a feed may be');
    expect(huge.sent).toEqual([]);
    expect(readdirSync(state).filter((name) => name.startsWith('store-feed-'))).toEqual([]);
  });

  it('--header carries the credentials to the feed, and its value is in no output, no ledger and no state file', async () => {
    feeds.set('/private/stock.csv', 'sku,stock\nGOR-TRU,17\n');
    const refused = await store('variants', 'sync', `${base}/private/stock.csv`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('answered 401');
    expect(refused.stderr).toContain('--header');

    const res = await store('variants', 'sync', `${base}/private/stock.csv`, '--header', `Authorization: ${TOKEN}`, '--debug');
    expect(res.code, res.stderr).toBe(0);
    expect(feedRequests.at(-1)!.authorization).toBe(TOKEN);
    expect(await levels('GOR-TRU')).toContain(17);
    for (const text of [res.stdout, res.stderr]) expect(text).not.toContain('feed-secret');

    const shown = await store('runs', 'show', 'last', '--json');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Authorization: [REDACTED]');
    expect(shown.stdout).not.toContain('feed-secret');
    // Every file the command keeps (ledger, journals, the feed's validators) is free of it.
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
    const kept = files(join(state, 'state'));
    expect(kept.some((f) => f.includes(`${join('store', 'feeds')}`))).toBe(true);
    for (const file of kept) expect(readFileSync(file).includes('feed-secret'), file).toBe(false);

    const local = await store('variants', 'sync', join(state, 'nothing.csv'), '--header', 'X-Key: abc');
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('--header is for a feed at a URL');
    expect(existsSync(join(state, 'nothing.csv'))).toBe(false);
  });
});

describe('a feed at a URL, against the independent store of platform.md', () => {
  it('imports the feed, and the second run of it sends 0 requests to the store', async () => {
    const independent = await startBulkStore();
    try {
      const bulkEnv = {
        STORE_TOKEN: independent.token,
        STORE_ID: String(independent.storeId),
        STORE_API_URL: independent.url,
        XDG_CONFIG_HOME: join(state, 'independent', 'config'),
        XDG_STATE_HOME: join(state, 'independent', 'state'),
        XDG_DATA_HOME: join(state, 'independent', 'data'),
      };
      feeds.set('/independent.csv', 'handle,name,sku,price,stock\ntaza-del-feed,Taza del Feed,FEED-TAZA,2500,9\ntaza-grande,Taza Grande,FEED-TAZA-G,3100,4\n');
      const first = await runInProcess(['products', 'import', `${base}/independent.csv`], { env: bulkEnv });
      expect(first.code, first.stderr).toBe(0);
      expect(independent.products.flatMap((p) => p.variants.map((v) => [v.sku, v.price, v.stock]))).toEqual([
        ['FEED-TAZA', '2500.00', 9],
        ['FEED-TAZA-G', '3100.00', 4],
      ]);
      const before = independent.requests.length;
      const second = await runInProcess(['products', 'import', `${base}/independent.csv`], { env: bulkEnv });
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toContain('has not changed since the last clean run');
      expect(independent.requests.length - before).toBe(0);
    } finally {
      await independent.close();
    }
  });
});
