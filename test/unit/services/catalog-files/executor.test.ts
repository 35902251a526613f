import { describe, expect, it } from 'vitest';
import { AuthError, NetworkError, ServerError, ValidationError } from '../../../../src/client/errors.js';
import type { RequestOptions, StoreClient } from '../../../../src/client/index.js';
import { executePlan } from '../../../../src/services/catalog-files/executor.js';
import type { Plan, ProductPlan } from '../../../../src/services/catalog-files/plan-model.js';
import { testLedger } from '../../../helpers/ledger.js';

const ledger = testLedger();

/**
 * The executor against a small in-memory store that implements the StoreClient interface, with scripted
 * faults: "lost" commits the request and then fails like a reset connection; "5xx" fails before committing.
 */

type Fault = 'lost' | '5xx' | '422' | '401';

function fakeStore(faults: Record<string, Fault[]> = {}) {
  const products: { id: number; name: string; handle: { es: string }; variants: object[]; images: object[]; categories: number[] }[] = [];
  const categories: { id: number; name: string; parent: number | null }[] = [];
  const log: string[] = [];
  let nextId = 1;
  const reply = (body: unknown) => ({ status: 200, headers: {}, body });
  const handle = (opts: RequestOptions) => {
    const { method, path } = opts;
    const body = (opts.body ?? {}) as Record<string, unknown>;
    if (method === 'POST' && path === '/categories') {
      const c = { id: nextId++, name: body.name as string, parent: (body.parent as number | null) ?? null };
      categories.push(c);
      return reply(c);
    }
    if (method === 'GET' && path === '/categories') return reply(categories);
    if (method === 'POST' && path === '/products') {
      const id = nextId++;
      const variants = body.sku ? [{ id: nextId++, product_id: id, sku: body.sku }] : [];
      const p = { id, name: body.name as string, handle: { es: body.handle as string }, variants, images: [], categories: (body.categories as number[]) ?? [] };
      products.push(p);
      return reply(p);
    }
    if (method === 'GET' && path === '/products') return reply(products.filter((p) => p.handle.es === opts.query?.handle));
    if (method === 'PATCH' && path === '/products/stock-price') {
      // Answered per variant: a variant of a product the store has succeeds.
      return reply(
        (opts.body as { id: number; variants: { id: number }[] }[]).map((entry) => ({
          id: entry.id,
          variants: entry.variants.map((v) => ({ id: v.id, success: products.some((x) => x.id === entry.id) })),
        })),
      );
    }
    const m = /^\/products\/(\d+)(\/variants|\/images)?$/.exec(path);
    const p = m ? products.find((x) => x.id === Number(m[1])) : undefined;
    if (p && method === 'GET' && !m![2]) return reply(p);
    if (p && method === 'POST' && m![2] === '/variants') {
      const v = { id: nextId++, product_id: p.id, sku: body.sku };
      p.variants.push(v);
      return reply(v);
    }
    if (p && method === 'POST' && m![2] === '/images') {
      const i = { id: nextId++, product_id: p.id, src: body.src };
      p.images.push(i);
      return reply(i);
    }
    throw new Error(`unexpected ${method} ${path}`);
  };
  const client: Pick<StoreClient, 'stats' | 'warn'> & {
    request(opts: RequestOptions): Promise<{ body: unknown }>;
    paginate(path: string): AsyncIterable<unknown>;
    page(path: string, query?: Record<string, unknown>): Promise<unknown>;
  } = {
    async request(opts: RequestOptions) {
      const key = `${opts.method} ${opts.path}`;
      log.push(key);
      const fault = faults[key]?.shift();
      const url = `http://store.test/v1/1${opts.path}`;
      if (fault === '5xx') throw new ServerError('The store failed.', { status: 503, method: opts.method, url });
      if (fault === '422') throw new ValidationError('Invalid request: attributes must name the product\'s options.', { status: 422, method: opts.method, url });
      if (fault === '401') throw new AuthError('The store rejected the token.', { status: 401, method: opts.method, url });
      const result = handle(opts);
      if (fault === 'lost') throw new NetworkError('Could not reach store.test: connection reset.', 'store.test', 'ECONNRESET');
      return result;
    },
    async page(path: string, query?: Record<string, unknown>) {
      const { body } = await client.request({ method: 'GET', path, query: query as RequestOptions['query'] });
      return { items: body as unknown[], page: 1 };
    },
    async *paginate(path: string) {
      const { body } = await client.request({ method: 'GET', path });
      yield { items: body as unknown[], page: 1 };
    },
    warn: () => {},
    stats: () => ({ requests: log.length, retries: 0, rateLimited: 0 }),
  };
  return { client: client as unknown as StoreClient, products, categories, log };
}

function productPlan(key: string, steps: ProductPlan['steps']): ProductPlan {
  return { key, line: 2, lines: [2], action: 'create', steps, variantUpdates: [], rowFailures: [] };
}

function planOf(products: ProductPlan[], categories: Plan['categories'] = []): Plan {
  return { categories, products, fatal: [], writes: categories.length + products.reduce((n, p) => n + p.steps.length, 0) };
}

const withVariants = (key: string) =>
  productPlan(key, [
    { kind: 'createProduct', body: { name: key, handle: key }, categories: ['ropa'] },
    { kind: 'createVariant', sku: `${key}-S`, line: 2, body: { sku: `${key}-S`, attributes: [{ name: 'Talle', value: 'S' }] } },
    { kind: 'createVariant', sku: `${key}-M`, line: 3, body: { sku: `${key}-M`, attributes: [{ name: 'Talle', value: 'M' }] } },
    { kind: 'addImage', src: `https://img.test/${key}.jpg` },
  ]);
const ropa = [{ ref: 'ropa', name: 'Ropa', parent: null, depth: 0, line: 2 }];

describe('executePlan', () => {
  it('runs every step once: categories first, then each product in order', async () => {
    const store = fakeStore();
    const result = await executePlan(store.client, planOf([withVariants('a'), withVariants('b')], ropa), { recorder: ledger.recorder, concurrency: 4 });
    expect(result.products.map((p) => p.outcome)).toEqual(['created', 'created']);
    expect(store.log.filter((l) => l.startsWith('POST'))).toHaveLength(1 + 2 * 4);
    expect(store.log[0]).toBe('POST /categories');
    expect(store.products.map((p) => p.categories)).toEqual([[store.categories[0]!.id], [store.categories[0]!.id]]);
    expect(store.products.map((p) => p.variants.length)).toEqual([2, 2]);
  });

  it('a create whose answer was lost is found by handle, SKU or URL and not sent again', async () => {
    const store = fakeStore({
      'POST /categories': ['lost'],
      'POST /products': ['lost'],
      'POST /products/2/variants': ['lost'],
      'POST /products/2/images': ['lost'],
    });
    const result = await executePlan(store.client, planOf([withVariants('a')], ropa), { recorder: ledger.recorder, createAttempts: 3 });
    expect(result.products[0]).toMatchObject({ outcome: 'created', failures: [] });
    expect(store.categories).toHaveLength(1);
    expect(store.products).toHaveLength(1);
    expect(store.products[0]!.variants).toHaveLength(2);
    expect(store.products[0]!.images).toHaveLength(1);
    // Each lost create was looked up, never re-sent.
    expect(store.log.filter((l) => l === 'POST /products')).toHaveLength(1);
    expect(store.log).toContain('GET /products');
    expect(store.log).toContain('GET /categories');
  });

  it('a create refused before it was committed (5xx) is looked up, not found, and sent again', async () => {
    const store = fakeStore({ 'POST /products': ['5xx', '5xx'] });
    const result = await executePlan(store.client, planOf([productPlan('a', [{ kind: 'createProduct', body: { name: 'a', handle: 'a', sku: 'A' } }])]), { recorder: ledger.recorder });
    expect(result.products[0]!.outcome).toBe('created');
    expect(store.log).toEqual(['POST /products', 'GET /products', 'POST /products', 'GET /products', 'POST /products']);
    expect(store.products).toHaveLength(1);
  });

  it('a refused step fails its product with the reason and stops its later steps; other products go on', async () => {
    const store = fakeStore({ 'POST /products/1/variants': ['422'] });
    const result = await executePlan(store.client, planOf([withVariants('a'), withVariants('b')].map((p) => ({ ...p, steps: p.steps.map((s) => (s.kind === 'createProduct' ? { ...s, categories: undefined } : s)) }))), { recorder: ledger.recorder,
      concurrency: 1,
    });
    expect(result.products[0]).toMatchObject({
      outcome: 'failed',
      failures: [{ line: 2, key: 'a-S', stage: 'request', reason: "Invalid request: attributes must name the product's options" }],
    });
    expect(store.products[0]!.images).toEqual([]);
    expect(result.products[1]!.outcome).toBe('created');
  });

  it('an authentication error stops the whole run', async () => {
    const store = fakeStore({ 'POST /products': ['401'] });
    await expect(executePlan(store.client, planOf([withVariants('a'), withVariants('b')], ropa), { recorder: ledger.recorder, concurrency: 1 })).rejects.toBeInstanceOf(AuthError);
    expect(store.products).toHaveLength(0);
  });

  it('sends the variant updates of every product together after the steps, and journals a product done once they are', async () => {
    const store = fakeStore();
    await executePlan(store.client, planOf([productPlan('a', [{ kind: 'createProduct', body: { name: 'a', handle: 'a', sku: 'A' } }])]), { recorder: ledger.recorder });
    const journal: { t: string; key?: string }[] = [];
    const update = (key: string, productId: number, variantId: number, line: number): ProductPlan => ({
      ...productPlan(key, []),
      action: 'update',
      productId,
      variantUpdates: [{ sku: `${key}-1`, line, variantId, body: { price: '9.90' }, changes: [{ field: 'price', from: '1.00', to: '9.90' }] }],
    });
    store.log.length = 0;
    const result = await executePlan(store.client, planOf([update('a', 1, 2, 2), update('gone', 99, 100, 3)]), { recorder: ledger.recorder,
      journal: { append: (e: { t: string }) => journal.push(e), appendAll: (es: { t: string }[]) => journal.push(...es) } as never,
    });
    // One request for both products' variants; the variant of a product the store lacks is a failed row.
    expect(store.log).toEqual(['PATCH /products/stock-price']);
    expect(result.products.map((p) => p.outcome)).toEqual(['updated', 'failed']);
    expect(result.products[1]!.failures).toEqual([{ line: 3, key: 'gone-1', stage: 'request', reason: expect.stringMatching(/success": false/) }]);
    expect(journal.filter((e) => e.t === 'done')).toEqual([
      { t: 'done', key: 'a', outcome: 'updated' },
      { t: 'done', key: 'gone', outcome: 'failed' },
    ]);
  });

  it('an aborted signal stops before the next step and reports the run as interrupted', async () => {
    const store = fakeStore();
    const controller = new AbortController();
    controller.abort();
    const result = await executePlan(store.client, planOf([withVariants('a')], ropa), { recorder: ledger.recorder, signal: controller.signal });
    expect(result.interrupted).toBe(true);
    expect(store.log).toEqual([]);
  });
});
