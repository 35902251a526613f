import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { catalog, csvOf, syncFeed } from '../helpers/bulk-catalog.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, cliEnv, type TestSandbox } from '../helpers/sandbox.js';

/**
 * Issue 31, "Walks past the cap never lose a record that matched the whole time": `orders export`,
 * `orders list --all` and the catalog reads of `products import` and `variants sync` against a sandbox whose
 * records change between two pages of the walk (the sandbox awaits `onRequest` before it answers, so the change
 * lands exactly there). A walk by page number loses, for each record that leaves the list from a page already
 * read, the record that moves up from the next page into it.
 */

interface OrderJson {
  id: number;
  status: string;
  created_at: string;
}

/** On the `nth` list request of a walk (1-based; GET /orders unless `list` says), runs `change` before the sandbox answers it. */
function changeBeforeListing(nth: number, change: () => Promise<void>, list = /^\/v1\/\d+\/orders\?/) {
  let lists = 0;
  let armed = false;
  return {
    arm: () => {
      lists = 0;
      armed = true;
    },
    onRequest: async ({ method, url }: { method: string; url: string }) => {
      if (!armed || method !== 'GET' || !list.test(url)) return;
      lists += 1;
      if (lists !== nth) return;
      armed = false;
      await change();
    },
  };
}

describe('orders export and orders list --all, while orders leave the filter during the walk', () => {
  let sandbox: RunningSandbox;
  let api: TestSandbox;
  let env: NodeJS.ProcessEnv;
  /** What the change before the second page does; set by each test. */
  let change: () => Promise<void> = async () => undefined;
  const trigger = changeBeforeListing(2, () => change());

  beforeAll(async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    // 2,000 orders over the last year: most closed; several pages of 200 whatever the filter.
    sandbox = await startSandbox({ seed: 'empty', rate: 'off', host: '127.0.0.1', port: 0, orders: 2000, onRequest: trigger.onRequest });
    api = clientFor(sandbox);
    env = cliEnv(sandbox, 'stable-walks');
  });
  afterAll(() => sandbox?.close());

  async function listed(query: Record<string, string>): Promise<OrderJson[]> {
    const all: OrderJson[] = [];
    for (let page = 1; ; page++) {
      const res = await api.get<OrderJson[]>('/orders', { query: { ...query, page, per_page: 200 } });
      if (res.status === 404) return all;
      all.push(...res.body);
      if (res.body.length < 200) return all;
    }
  }

  it('orders export --status closed: 60 closed orders of the first page reopened meanwhile hide no order that stayed closed', async () => {
    const closedBefore = await listed({ status: 'closed' });
    expect(closedBefore.length).toBeGreaterThan(600);
    const reopened = closedBefore.slice(0, 60).map((o) => o.id);
    change = async () => {
      for (const id of reopened) expect((await api.post(`/orders/${id}/open`)).status).toBe(200);
    };
    trigger.arm();
    const r = await runInProcess(['orders', 'export', '--status', 'closed', '--ndjson', '-'], { env });
    expect(r.code, r.stderr).toBe(0);
    const exported = new Set(r.stdout.trim().split('\n').map((line) => Number((JSON.parse(line) as { order_id: string }).order_id)));
    const stayedClosed = closedBefore.filter((o) => !reopened.includes(o.id)).map((o) => o.id);
    expect(stayedClosed.filter((id) => !exported.has(id))).toEqual([]);
    // Put back for the next test.
    for (const id of reopened) await api.post(`/orders/${id}/close`);
  });

  it('orders list --all --payment-status paid: orders of the first page cancelled (refunded) meanwhile hide no order that stayed paid', async () => {
    const paidBefore = await listed({ payment_status: 'paid' });
    expect(paidBefore.length).toBeGreaterThan(600);
    const cancelled = paidBefore.slice(0, 30).map((o) => o.id);
    change = async () => {
      for (const id of cancelled) expect((await api.post(`/orders/${id}/cancel`, { restock: false })).status).toBe(200);
    };
    trigger.arm();
    const r = await runInProcess(['orders', 'list', '--all', '--payment-status', 'paid', '--json', 'id'], { env });
    expect(r.code, r.stderr).toBe(0);
    const ids = (JSON.parse(r.stdout) as { id: number }[]).map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    const stayedPaid = paidBefore.filter((o) => !cancelled.includes(o.id)).map((o) => o.id);
    const listedIds = new Set(ids);
    expect(stayedPaid.filter((id) => !listedIds.has(id))).toEqual([]);
  });
});

describe('the catalog reads of products import and variants sync, while a product is deleted during the read', () => {
  let sandbox: RunningSandbox;
  let api: TestSandbox;
  let env: NodeJS.ProcessEnv;
  let file: string;
  let feed: string;
  const rows = catalog(450, 1);
  let victim = 0;
  const trigger = changeBeforeListing(2, async () => {
    expect((await api.del(`/products/${victim}`)).status).toBe(200);
  }, /^\/v1\/\d+\/products\?/);

  beforeAll(async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    sandbox = await startSandbox({ seed: 'empty', rate: 'off', host: '127.0.0.1', port: 0, onRequest: trigger.onRequest });
    api = clientFor(sandbox);
    env = cliEnv(sandbox, 'stable-catalog');
    const dir = mkdtempSync(join(tmpdir(), 'store-stable-catalog-'));
    file = join(dir, 'catalog.csv');
    writeFileSync(file, csvOf(rows));
    feed = join(dir, 'feed.csv');
    writeFileSync(feed, syncFeed(rows.map((r) => ({ sku: r.sku, stock: Number(r.stock) + 1 }))));
    const created = await runInProcess(['products', 'import', file, '--quiet'], { env });
    expect(created.code, created.stderr).toBe(0);
  }, 120_000);
  afterAll(() => sandbox?.close());

  /** The first product the store lists: read on the first page, deleted before the second is asked for. */
  async function firstProduct(): Promise<number> {
    return (await api.get<{ id: number }[]>('/products', { query: { per_page: 1 } })).body[0]!.id;
  }

  it('products import: no product of the second page is missed, so none is planned as a create ("handle already used")', async () => {
    victim = await firstProduct();
    trigger.arm();
    const r = await runInProcess(['products', 'import', file, '--quiet'], { env });
    expect(r.stderr).not.toMatch(/handle/i);
    expect(r.code, r.stderr).toBe(0);
  });

  it('variants sync: every SKU of the second page is found in the store (none reported missing)', async () => {
    victim = await firstProduct();
    // Every SKU the store holds for the whole run: all but those of the product deleted during the read.
    const held = new Set<string>();
    for (let since = 0; ; ) {
      const page = (await api.get<{ id: number; variants: { sku: string }[] }[]>('/products', { query: { since_id: since, per_page: 200 } })).body;
      if (!Array.isArray(page) || page.length === 0) break;
      for (const p of page) if (p.id !== victim) for (const v of p.variants) held.add(v.sku);
      since = page.at(-1)!.id;
    }
    trigger.arm();
    const r = await runInProcess(['variants', 'sync', feed, '--quiet'], { env });
    const reportedMissing = [...r.stderr.matchAll(/SKU-\d+-\d+/g)].map((m) => m[0]).filter((sku) => held.has(sku));
    expect(reportedMissing).toEqual([]);
  });
});
