import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type BulkStore, type BulkRequest, startBulkStore } from '../helpers/bulk-store-server.js';
import { BIN } from '../helpers/run-cli.js';
import { type Row, catalog, csvOf, expectCatalogIn, syncFeed } from '../helpers/bulk-catalog.js';
import { runInProcess } from '../helpers/run-in-process.js';

/**
 * The bulk commands against a store written from docs/platform.md alone (test/helpers/bulk-store-server.ts):
 * each job sends no more writes than the documented minimum (+1 for a batch boundary) and leaves the store
 * exactly as the file says, value by value.
 */

let dir: string;
let store: BulkStore | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bulk-economy-'));
});
afterEach(async () => {
  await store?.close();
  store = undefined;
});

function env(s: BulkStore, state = 'state') {
  return {
    STORE_TOKEN: s.token,
    STORE_ID: String(s.storeId),
    STORE_API_URL: s.url,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_STATE_HOME: join(dir, state),
    XDG_DATA_HOME: join(dir, 'data'),
  };
}

function file(name: string, text: string): string {
  const path = join(dir, `${name}-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(path, text);
  return path;
}

/** The writes a run sent (what arrived while `run` ran). */
async function counted(s: BulkStore, run: () => Promise<{ code: number | null; stdout: string; stderr: string }>) {
  const before = s.requests.length;
  const r = await run();
  const sent = s.requests.slice(before);
  return { ...r, sent, writes: sent.filter((q) => q.method !== 'GET') };
}

const route = (q: BulkRequest) => `${q.method} ${q.path.replace(/^\/v1\/\d+/, '').replace(/\/\d+/g, '/{id}')}`;
const routes = (writes: BulkRequest[]) => writes.map(route);

describe('products import at the documented minimum', () => {
  it('a new catalog: one POST per product with its variants and 9 images, the other images one by one, each category once', async () => {
    store = await startBulkStore();
    const s = store;
    const rows = catalog(30);
    const r = await counted(s, () => runInProcess(['products', 'import', file('new', csvOf(rows))], { env: env(s) }));
    expect(r.code, r.stderr).toBe(0);
    // 3 categories (Ropa, Ropa > Remeras, Hogar) + 30 products + 3 images past the 9 of the first product.
    expect(routes(r.writes).filter((w) => w === 'POST /categories')).toHaveLength(3);
    expect(routes(r.writes).filter((w) => w === 'POST /products')).toHaveLength(30);
    expect(routes(r.writes).filter((w) => w === 'POST /products/{id}/images')).toHaveLength(3);
    expect(r.writes).toHaveLength(36);
    const first = r.writes.find((w) => route(w) === 'POST /products') as { body: { variants: unknown[]; images: unknown[] } };
    expect(first.body.variants).toHaveLength(3);
    expect(first.body.images).toHaveLength(9);
    expectCatalogIn(s.products, rows);
    // Reads: the catalog asks only for the fields the planner compares, 200 a page.
    const list = r.sent.find((q) => q.method === 'GET' && /\/products$/.test(q.path))!;
    expect(list.query.per_page).toBe('200');
    expect(list.query.fields?.split(',')).toEqual(expect.arrayContaining(['id', 'handle', 'variants', 'images']));
    expect(list.query.fields).not.toMatch(/seo|created_at/);
  });

  it('images renamed by the store (platform.md §12): a re-import sends no image request, also for a local file', async () => {
    store = await startBulkStore();
    const s = store;
    const photo = join(dir, 'frente.jpg');
    writeFileSync(photo, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32)]));
    const rows = catalog(3);
    rows[0]!.images = `${rows[0]!.images}|frente.jpg`;
    const path = join(dir, 'renamed.csv');
    writeFileSync(path, csvOf(rows));
    const first = await counted(s, () => runInProcess(['products', 'import', path], { env: env(s) }));
    expect(first.code, first.stderr).toBe(0);
    // The file went as its content; every stored src is the store's own CDN URL.
    const upload = first.writes.find((w) => (w.body as { filename?: string }).filename === 'frente.jpg');
    expect(upload && route(upload)).toBe('POST /products/{id}/images');
    expect(s.products.flatMap((p) => p.images.map((i) => i.src)).every((src) => src.includes('cloudfront.net'))).toBe(true);
    const again = await counted(s, () => runInProcess(['products', 'import', path], { env: env(s) }));
    expect(again.code, again.stderr).toBe(0);
    expect(again.writes).toHaveLength(0);
  });

  it('a re-import with changes: prices and stock 50 per stock-price across products, cost one PATCH per product, a new variant one POST', async () => {
    store = await startBulkStore();
    const s = store;
    const rows = catalog(40);
    expect((await runInProcess(['products', 'import', file('base', csvOf(rows))], { env: env(s) })).code).toBe(0);
    // 80 price/stock changes on 80 variants of 40 products, cost on 2 products, one new size.
    for (const [i, row] of rows.entries()) {
      if (i % 3 === 0) row.price = `${Number(row.price.split('.')[0]) + 1}.90`;
      if (i % 3 === 1) row.stock = String(Number(row.stock) + 5);
    }
    rows[0]!.cost = '40.10';
    rows[4]!.cost = '41.20';
    rows.splice(3, 0, { handle: 'prod-0', name: '', images: '', size: 'XL', sku: 'SKU-0-3', price: '99.00', cost: '', stock: '4' });
    const r = await counted(s, () => runInProcess(['products', 'import', file('changed', csvOf(rows))], { env: env(s) }));
    expect(r.code, r.stderr).toBe(0);
    const w = routes(r.writes);
    // prod-0 and prod-1 take one PATCH each (their price/stock changes ride in it); the other 38 products' 76
    // changes go in ⌈76/50⌉ = 2 stock-price requests; the new variant is one POST.
    expect(w.filter((x) => x === 'PATCH /products/{id}/variants')).toHaveLength(2);
    expect(w.filter((x) => x === 'PATCH /products/stock-price')).toHaveLength(2);
    expect(w.filter((x) => x === 'POST /products/{id}/variants')).toHaveLength(1);
    expect(r.writes).toHaveLength(5);
    // Price goes as a JSON number written from its decimal text.
    const batch = r.writes.find((x) => route(x) === 'PATCH /products/stock-price')!;
    expect(batch.raw).toMatch(/"price":1\d\d\.90[,}]/);
    expectCatalogIn(s.products, rows);
    // Nothing left to do.
    const again = await counted(s, () => runInProcess(['products', 'import', file('changed-again', csvOf(rows))], { env: env(s) }));
    expect(again.writes).toEqual([]);
  });
});

async function seeded(products: number, sizes: number, options: Parameters<typeof startBulkStore>[0] = {}): Promise<BulkStore> {
  const s = await startBulkStore(options);
  const r = await runInProcess(['products', 'import', file('seed', csvOf(catalog(products, sizes)))], { env: env(s, 'seed-state') });
  expect(r.code, r.stderr).toBe(0);
  return s;
}

describe('products import with a failed variant', () => {
  it('a variant the store fails inside a stock-price batch is a failed row with its line (exit 3); the next run sends it alone', async () => {
    store = await startBulkStore();
    const s = store;
    const rows = catalog(6, 2);
    expect((await runInProcess(['products', 'import', file('fail-base', csvOf(rows))], { env: env(s, 'fail-state') })).code).toBe(0);
    for (const row of rows) row.price = '55.50';
    const bad = s.variantBySku('SKU-2-1')!;
    s.failVariants.add(bad.id);
    const path = file('fail-changed', csvOf(rows));
    const r = await counted(s, () => runInProcess(['products', 'import', path], { env: env(s, 'fail-state') }));
    expect(r.code).toBe(3);
    expect(routes(r.writes)).toEqual(['PATCH /products/stock-price']);
    // SKU-2-1 is the file's 6th row: line 7.
    expect(r.stderr).toContain('line 7 (SKU-2-1)');
    expect(r.stdout).toMatch(/0 created, 5 updated, 0 unchanged, 1 failed/);
    expect(bad.price).not.toBe('55.50');
    s.failVariants.clear();
    const again = await counted(s, () => runInProcess(['products', 'import', path, '--resume'], { env: env(s, 'fail-state') }));
    expect(again.code, again.stderr).toBe(0);
    expect(again.writes.map((w) => w.body)).toEqual([[{ id: bad.product_id, variants: [{ id: bad.id, price: 55.5 }] }]]);
    expectCatalogIn(s.products, rows);
  });
});

describe('products import killed and resumed', () => {
  it('SIGKILL during the creates; --resume creates nothing twice, and plans again what changed in the store since', async () => {
    store = await startBulkStore();
    const s = store;
    const rows = catalog(20, 2);
    const path = file('import-killed', csvOf(rows));
    const stateEnv = env(s, 'import-killed-state');
    const child = spawn(process.execPath, [BIN, 'products', 'import', path], { env: { ...process.env, ...stateEnv, NO_COLOR: '1' }, stdio: 'ignore' });
    s.onWrite = (request) => {
      // 12 creates go at once; the 16th arrives only after 4 answered ones were journaled done.
      if (route(request) === 'POST /products' && s.products.length >= 16) child.kill('SIGKILL');
    };
    expect(await new Promise((resolve) => child.on('close', (_code, signal) => resolve(signal)))).toBe('SIGKILL');
    s.onWrite = undefined;
    const created = s.products.length;
    expect(created).toBeGreaterThanOrEqual(16);
    expect(created).toBeLessThanOrEqual(20);
    // Meanwhile someone changes the price of a product the killed run had finished (journaled done).
    const journals = join(dir, 'import-killed-state', 'store', 'imports');
    const journal = readFileSync(join(journals, readdirSync(journals).find((f) => f.startsWith('import-'))!), 'utf8');
    const done = journal.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { t: string; key?: string }).find((e) => e.t === 'done')!;
    s.variantBySku(`SKU-${done.key!.slice(5)}-1`)!.price = '1.00';
    const r = await counted(s, () => runInProcess(['products', 'import', path, '--resume'], { env: stateEnv }));
    expect(r.code, r.stderr).toBe(0);
    // The products not yet created, each one POST; the changed price one stock-price request.
    expect(routes(r.writes).filter((w) => w === 'POST /products')).toHaveLength(20 - created);
    expect(routes(r.writes).filter((w) => w === 'PATCH /products/stock-price')).toHaveLength(1);
    expect(r.stdout).toMatch(/resumed: +1 product the interrupted run finished differ/);
    expectCatalogIn(s.products, rows);
  });
});

describe('products import on an older store', () => {
  it('a store without the batch endpoints gets one PUT per changed variant, said once; a new product is still one POST', async () => {
    store = await startBulkStore({ olderStore: true });
    const s = store;
    const rows = catalog(4, 2);
    expect((await runInProcess(['products', 'import', file('older-base', csvOf(rows))], { env: env(s) })).code).toBe(0);
    rows[0]!.cost = '5.50';
    rows[3]!.price = '1.90';
    rows[5]!.stock = '44';
    const r = await counted(s, () => runInProcess(['products', 'import', file('older-changed', csvOf(rows))], { env: env(s) }));
    expect(r.code, r.stderr).toBe(0);
    // prod-0's PATCH answers 404 and its variant goes by PUT (the product exists: the endpoint is missing); the
    // stock-price batch, in flight at the same time, answers 405; from then on every variant is one PUT.
    const patches = r.writes.filter((w) => w.method === 'PATCH');
    expect(patches.map((w) => w.status).sort()).toEqual([404, 405]);
    expect(routes(r.writes).filter((w) => w === 'PUT /products/{id}/variants/{id}')).toHaveLength(3);
    expect(r.stderr.match(/one request per variant/g)).toHaveLength(1);
    expectCatalogIn(s.products, rows);
  });
});

describe('variants sync at the documented minimum', () => {
  it('120 changed variants across 40 products: 3 stock-price requests, every value in the store', async () => {
    store = await seeded(40, 3);
    const s = store;
    const feed = s.products.flatMap((p) => p.variants).map((v, i) => ({ sku: v.sku!, stock: 50 + i, price: `${19 + (i % 5)}.90` }));
    const r = await counted(s, () => runInProcess(['variants', 'sync', file('sync', syncFeed(feed))], { env: env(s) }));
    expect(r.code, r.stderr).toBe(0);
    expect(routes(r.writes)).toEqual(['PATCH /products/stock-price', 'PATCH /products/stock-price', 'PATCH /products/stock-price']);
    expect(r.writes.map((w) => (w.body as { variants: unknown[] }[]).reduce((n, p) => n + p.variants.length, 0))).toEqual([50, 50, 20]);
    expect(r.writes[0]!.raw).toContain('"price":19.90');
    for (const f of feed) {
      const v = s.variantBySku(f.sku)!;
      expect(v.stock, f.sku).toBe(f.stock);
      expect(v.price, f.sku).toBe(f.price);
    }
    expect(r.stdout).toMatch(/120 updated, 0 unchanged/);
  });

  it('a multi-location sync names the location of every level and sets each one', async () => {
    store = await seeded(12, 3, { locations: ['Depósito', 'Tienda'] });
    const s = store;
    const feed = s.products.flatMap((p) => p.variants).map((v, i) => ({ sku: v.sku!, cols: { a: i, b: 100 - i } }));
    const r = await counted(s, () => runInProcess(['variants', 'sync', file('multi', syncFeed(feed, 'sku,stock:Depósito,stock:Tienda'))], { env: env(s) }));
    expect(r.code, r.stderr).toBe(0);
    expect(routes(r.writes)).toEqual(['PATCH /products/stock-price']);
    for (const p of r.writes[0]!.body as { variants: { inventory_levels: { location_id?: string }[] }[] }[]) {
      for (const v of p.variants) for (const level of v.inventory_levels) expect(level.location_id).toMatch(/^loc-[12]$/);
    }
    for (const f of feed) {
      const v = s.variantBySku(f.sku)!;
      expect(v.inventory_levels.find((l) => l.location_id === 'loc-1')?.stock, f.sku).toBe(f.cols.a);
      expect(v.inventory_levels.find((l) => l.location_id === 'loc-2')?.stock, f.sku).toBe(f.cols.b);
    }
  });

  it('a failed variant inside a successful batch is a failed row with its line, exit 3; --resume retries only it', async () => {
    store = await seeded(10, 3);
    const s = store;
    const feed = s.products.flatMap((p) => p.variants).map((v, i) => ({ sku: v.sku!, stock: 200 + i }));
    const bad = s.variantBySku(feed[7]!.sku)!;
    s.failVariants.add(bad.id);
    const report = join(dir, 'failed.csv');
    const path = file('partial', syncFeed(feed, 'sku,stock'));
    const r = await counted(s, () => runInProcess(['variants', 'sync', path, '--report', report], { env: env(s, 'partial-state') }));
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`line 9 (${feed[7]!.sku})`);
    expect(readFileSync(report, 'utf8')).toMatch(new RegExp(`^sku,stock,line,error,stage\n${feed[7]!.sku},207,9,.*,request\n$`));
    expect(r.stdout).toMatch(/29 updated, 0 unchanged, 1 failed\n/);
    expect(bad.stock).not.toBe(207);
    s.failVariants.clear();
    const again = await counted(s, () => runInProcess(['variants', 'sync', path, '--resume'], { env: env(s, 'partial-state') }));
    expect(again.code, again.stderr).toBe(0);
    expect(routes(again.writes)).toEqual(['PATCH /products/stock-price']);
    expect(again.writes[0]!.body).toEqual([{ id: bad.product_id, variants: [{ id: bad.id, inventory_levels: [{ location_id: 'loc-1', stock: 207 }] }] }]);
    expect(again.stdout).toMatch(/1 updated, 29 unchanged/);
    for (const f of feed) expect(s.variantBySku(f.sku)!.stock).toBe(f.stock);
  });

  it('a 422 on a batch is split until the bad row stands alone; the other rows are written', async () => {
    store = await seeded(20, 3);
    const s = store;
    const feed = s.products.flatMap((p) => p.variants).slice(0, 50).map((v) => ({ sku: v.sku!, price: '77.70' }));
    s.rejectVariants.add(s.variantBySku(feed[20]!.sku)!.id);
    const r = await counted(s, () => runInProcess(['variants', 'sync', file('bisect', syncFeed(feed, 'sku,price'))], { env: env(s) }));
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`line 22 (${feed[20]!.sku})`);
    // 1 batch, then halves down to the one row: at most 1 + 2·⌈log2 50⌉ requests.
    expect(r.writes.length).toBeLessThanOrEqual(13);
    for (const [i, f] of feed.entries()) expect(s.variantBySku(f.sku)!.price === '77.70', f.sku).toBe(i !== 20);
  });

  it('an older store without the batch endpoints gets one PUT per variant, said once on stderr', async () => {
    store = await seeded(3, 2, { olderStore: true });
    const s = store;
    const feed = s.products.flatMap((p) => p.variants).map((v, i) => ({ sku: v.sku!, stock: 9 + i }));
    const r = await counted(s, () => runInProcess(['variants', 'sync', file('older', syncFeed(feed, 'sku,stock'))], { env: env(s) }));
    expect(r.code, r.stderr).toBe(0);
    expect(routes(r.writes)).toEqual(['PATCH /products/stock-price', ...feed.map(() => 'PUT /products/{id}/variants/{id}')]);
    expect(r.stderr.match(/one request per variant/g)).toHaveLength(1);
    for (const f of feed) expect(s.variantBySku(f.sku)!.stock).toBe(f.stock);
  });

  it('a sync killed with SIGKILL after its first writes finishes exactly with --resume', async () => {
    store = await seeded(60, 3);
    const s = store;
    const feed = s.products.flatMap((p) => p.variants).map((v, i) => ({ sku: v.sku!, stock: 500 + i, price: `${i}.50` }));
    const path = file('killed', syncFeed(feed));
    const seedWrites = s.writes().length;
    const stateEnv = env(s, 'killed-state');
    // The binary, killed while the store applies its second batch (applied, never answered).
    const child = spawn(process.execPath, [BIN, 'variants', 'sync', path], { env: { ...process.env, ...stateEnv, NO_COLOR: '1' }, stdio: 'ignore' });
    s.onWrite = (_request, count) => {
      if (count >= 2) child.kill('SIGKILL');
    };
    const exit = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    s.onWrite = undefined;
    expect(exit).toBe('SIGKILL');
    const firstRun = s.writes().length - seedWrites;
    const r = await counted(s, () => runInProcess(['variants', 'sync', path, '--resume'], { env: stateEnv }));
    expect(r.code, r.stderr).toBe(0);
    for (const f of feed) {
      expect(s.variantBySku(f.sku)!.stock, f.sku).toBe(f.stock);
      expect(Number(s.variantBySku(f.sku)!.price), f.sku).toBe(Number(f.price));
    }
    // 180 variants are 4 batches at best; both runs together send at most one more (the batch cut off).
    expect(firstRun + r.writes.length).toBeLessThanOrEqual(Math.ceil(feed.length / 50) + 1);
    expect(routes(r.writes).every((w) => w === 'PATCH /products/stock-price')).toBe(true);
  });
});
