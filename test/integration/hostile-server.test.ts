import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HostileBehaviour, type HostileServer, startHostileServer } from '../helpers/hostile-server.js';
import { runCli } from '../helpers/run-cli.js';

/**
 * Issue 24: every behaviour of the hostile server (test/helpers/hostile-server.ts), replayed against the real
 * binary, ends within a bounded time with one clear sentence on stderr and the exit code of docs/exit-codes.md.
 * The bounds come from the CLI itself (a wait over 10 minutes refused, a reply over 32 MB refused, a walk
 * capped by x-total-count), not from the test's own timeout, which is only a safety net.
 */

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function replay(behaviour: HostileBehaviour, args: string[], env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []) {
  server = await startHostileServer(behaviour);
  const home = mkdtempSync(join(tmpdir(), 'store-hostile-'));
  const result = await runCli(args, {
    timeoutMs: 50_000,
    nodeArgs,
    env: {
      STORE_API_URL: server.url,
      STORE_ID: String(server.storeId),
      STORE_TOKEN: server.token,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_STATE_HOME: join(home, 'state'),
      XDG_DATA_HOME: join(home, 'data'),
      ...env,
    },
  });
  const lines = result.stderr.trimEnd().split('\n').filter(Boolean);
  return { ...result, lines, requests: server.requests };
}

/** Prints the process's peak memory (KB) on stderr as it exits: memory is what a gzip bomb attacks. */
const REPORT_MAX_RSS = [
  '--import',
  `data:text/javascript,process.on("exit",()=>process.stderr.write("maxrss "+process.resourceUsage().maxRSS+"\\n"))`,
];

describe('a hostile server: every wait, reply and walk is bounded', () => {
  it('a Retry-After of 999999999 s fails at once in one sentence (exit 1): no wait, no timer overflow', async () => {
    const r = await replay('huge-retry-after', ['orders', 'list']);
    expect(r.code).toBe(1);
    expect(r.lines).toEqual([
      'Error: The store asked to wait 999999999 s before GET /v1/4242/orders (rate limit), longer than the 600 s this CLI waits; try again later.',
    ]);
    expect(r.requests).toBe(1);
  });

  it('a negative Retry-After is a wait of 0, never shown negative', async () => {
    const r = await replay('negative-then-ok', ['orders', 'list', '--json', 'id']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }]);
    expect(r.stderr).toBe('');
  });

  it('a long Retry-After is announced on stderr in one line, then the list comes', async () => {
    const r = await replay('slow-retry-after', ['orders', 'list', '--json', 'id']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }]);
    expect(r.lines).toEqual(['The store asked to wait 6 s (rate limit); waiting — Ctrl-C to stop.']);
  });

  it('a 200 with x-rate-limit-reset 99999999999 is read, and the command ends at once', async () => {
    const r = await replay('huge-reset', ['orders', 'list', '--json', 'id']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }]);
    expect(r.stderr).toBe('');
  });

  it('a gzip bomb (2 GB expanded) is refused as too large while it streams: one sentence, exit 1, memory bounded', async () => {
    const r = await replay('gzip-bomb', ['orders', 'list'], {}, REPORT_MAX_RSS);
    expect(r.code).toBe(1);
    const [error, rss] = r.lines;
    expect(error).toBe("Error: The store's reply to GET /v1/4242/orders was too large: more than 32 MB (the most this CLI reads in one reply).");
    expect(r.lines).toHaveLength(2);
    expect(Number(rss!.replace('maxrss ', ''))).toBeLessThan(500 * 1024);
  });

  it('a body that never ends is refused as too large at 32 MB, not read for ever', async () => {
    const r = await replay('endless-body', ['orders', 'list'], {}, REPORT_MAX_RSS);
    expect(r.code).toBe(1);
    expect(r.lines[0]).toBe("Error: The store's reply to GET /v1/4242/orders was too large: more than 32 MB (the most this CLI reads in one reply).");
    expect(r.lines).toHaveLength(2);
    expect(Number(r.lines[1]!.replace('maxrss ', ''))).toBeLessThan(500 * 1024);
  });

  it('a page of two million records (31 MB, under the reply limit) is read for one page\'s worth, with one warning', async () => {
    const r = await replay('huge-page', ['orders', 'list', '--json', 'id'], {}, REPORT_MAX_RSS);
    expect(r.code).toBe(0);
    // Every record of that page carries the same id, and an order is listed once (orders are read by created_at
    // windows that re-read their boundary second, so the reader skips ids already listed): one order shown.
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1234567 }]);
    expect(r.requests).toBe(1);
    expect(r.lines[0]).toMatch(/^Warning: The store sent \d+ records in one page of GET \/orders, more than a page holds; only the first 200 were read\.$/);
    expect(r.lines).toHaveLength(2);
    expect(Number(r.lines[1]!.replace('maxrss ', ''))).toBeLessThan(500 * 1024);
  });

  it('headers larger than Node reads are "too large", not "could not reach"', async () => {
    const r = await replay('huge-headers', ['orders', 'list']);
    expect(r.code).toBe(1);
    expect(r.lines).toEqual(["Error: The store's reply to GET /v1/4242/orders was too large: its headers passed 16 KB."]);
  });

  it('a 1 MB error description is cut to one readable sentence', async () => {
    const r = await replay('huge-error', ['orders', 'list']);
    expect(r.code).toBe(2);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]!.length).toBeLessThan(1100);
    expect(r.lines[0]).toMatch(/^Error: Invalid request: no no .*…\.$/);
  });

  // Orders are read by page number, not by Link (docs/platform.md §9: a page with fewer than per_page orders is
  // the last one): the endless-pages behaviours, one order a page with a Link to the next, end an orders walk at
  // their first page, which is the platform's rule, not a bound. What bounds an orders walk against a store that
  // keeps offering pages is the page cap, shown by endless-full-pages below; `api --paginate` (the generic walk,
  // which follows Link) shows the x-total-count stop and the cap without a total.
  it('pagination that never ends: an orders walk ends at a short page (no Link needed), in one request, silently', async () => {
    const r = await replay('endless-pages', ['orders', 'list', '--all', '--json', 'id']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }]);
    expect(r.stderr).toBe('');
    expect(r.requests).toBe(1);
  });

  it('pagination that never ends stops at x-total-count with one warning (the generic walk, following Link: `api --paginate`; a products walk goes by since_id)', async () => {
    const r = await replay('endless-pages', ['api', 'GET', '/products', '--paginate', '--jq', 'map({id})']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(r.lines).toEqual([
      'Warning: The store kept offering pages of GET /products after the 3 records its x-total-count announced; stopped after 3 pages (3 records read).',
    ]);
    expect(r.requests).toBe(3);
  });

  it('pagination that never ends and never says its size stops at the walk cap with one warning', async () => {
    const r = await replay('endless-pages-no-total', ['api', 'GET', '/products', '--paginate', '--jq', 'map({id})']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1000);
    expect(r.lines).toEqual([
      'Warning: The store kept offering pages of GET /products; stopped after 1000 pages (1000 records read), the most read from a list that does not say its size.',
    ]);
    expect(r.requests).toBe(1000);
  });

  it('an orders walk whose windows never run out (full pages, ever older, past x-total-count) stops at the cap from it', async () => {
    const r = await replay('endless-full-pages', ['orders', 'list', '--all', '--json', 'id']);
    expect(r.code).toBe(0);
    // ceil(1.1 × 20,000 / 200) + 2 = 112 pages: the first window's 50, then windows further back each a full 50.
    expect(r.lines).toEqual([
      'Warning: The store kept offering pages of GET /orders; stopped after 112 pages (22400 records read), the most read from a list of that x-total-count.',
    ]);
    expect(r.requests).toBe(112);
    const ids = (JSON.parse(r.stdout) as { id: number }[]).map((o) => o.id);
    // Each window re-reads its boundary second: those orders are listed once.
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(22_000);
  });

  it('a rate limit of 0 is unknown, not unlimited: the endless walk still ends at x-total-count', async () => {
    const r = await replay('rate-limit-zero', ['api', 'GET', '/products', '--paginate', '--jq', 'map({id})']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
    expect(r.lines).toHaveLength(1);
    expect(r.requests).toBe(3);
  });

  it('a rate limit of 0 with an orders walk: the short page ends it, one request', async () => {
    const r = await replay('rate-limit-zero', ['orders', 'list', '--all', '--json', 'id']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }]);
    expect(r.stderr).toBe('');
    expect(r.requests).toBe(1);
  });

  it('a server that never answers: the real attempts and elapsed time, exit 1', async () => {
    const r = await replay('never-answer', ['orders', 'list'], { STORE_HTTP_TIMEOUT: '0.5' });
    expect(r.code).toBe(1);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatch(/^Error: Could not reach 127\.0\.0\.1:\d+: no answer after 4 attempts over \d+ s\.$/);
    expect(r.requests).toBe(4);
  });

  it('a list of which no record can be read is an error naming the first problem, not "No orders match."', async () => {
    const r = await replay('unreadable-records', ['orders', 'list']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.lines).toEqual(['Error: None of the 3 order records the store sent could be read (record not-an-id: Invalid input at id).']);
  });
});
