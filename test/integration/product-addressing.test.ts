import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { clientFor, cliEnv, requestRecorder, type TestSandbox } from '../helpers/sandbox.js';

/**
 * Products addressed like orders (issue 30): every command that takes a product takes its id, its handle or a
 * variant's SKU, and categories take an id or a name path — each with the fewest lookups (counted at the sandbox).
 */

const recorder = requestRecorder();
let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;

async function store(...args: string[]) {
  recorder.take();
  const result = await runInProcess(args, { env });
  const sent = recorder.take().map((r) => `${r.method} ${r.path}${r.query.has('handle') ? `?handle=${r.query.get('handle')}` : ''}`);
  return { ...result, sent };
}

interface ProductJson {
  id: number;
  handle: Record<string, string>;
  published: boolean;
  variants: { id: number; sku: string | null; price: string; stock: number | null }[];
}

async function product(id: number): Promise<ProductJson> {
  return (await api.get(`/products/${id}`)).body as ProductJson;
}

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0, onRequest: recorder.onRequest });
  api = clientFor(sandbox);
  env = cliEnv(sandbox, 'addressing');
});
afterAll(() => sandbox?.close());

describe('a PRODUCT argument is an id, a handle or a SKU', () => {
  it('products update by handle, by SKU and by id: the lookup is the read the update makes anyway', async () => {
    const byHandle = await store('products', 'update', 'camisa-oxford', '--no-published', '--json');
    expect(byHandle.code, byHandle.stderr).toBe(0);
    expect(byHandle.sent).toEqual(['GET /products?handle=camisa-oxford', 'PUT /products/1']);
    expect((await product(1)).published).toBe(false);

    const bySku = await store('products', 'update', 'GOR-TRU', '--price', '12000', '--json');
    expect(bySku.code, bySku.stderr).toBe(0);
    expect(bySku.sent).toEqual(['GET /products/sku/GOR-TRU', 'PUT /products/13']);
    expect((await product(13)).variants[0]!.price).toBe('12000.00');

    const byId = await store('products', 'update', '1', '--published');
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.sent).toEqual(['GET /products/1', 'PUT /products/1']);
  });

  it('an unknown product is one sentence naming the three ways, and nothing is written', async () => {
    const missing = await store('products', 'update', 'no-such-product', '--published');
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('Error: No product has the id, handle or SKU "no-such-product".');
    expect(missing.sent.filter((s) => !s.startsWith('GET'))).toEqual([]);
  });

  it('a SKU that is a dot segment is refused before any request (exit 2)', async () => {
    for (const ref of ['.', '..']) {
      const res = await store('products', 'delete', ref, '--yes');
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(`The SKU "${ref}" cannot be looked up`);
      expect(res.sent).toEqual([]);
    }
  });

  it('products delete by handle reads the product once and keeps it on the ledger', async () => {
    const res = await store('products', 'delete', 'tarjeta-de-regalo', '--yes', '--json');
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ id: 20, deleted: true });
    expect(res.sent).toEqual(['GET /products?handle=tarjeta-de-regalo', 'DELETE /products/20']);
    expect((await api.get('/products/20')).status).toBe(404);
  });

  it('products images add and variants create take a SKU or handle', async () => {
    const images = await store('products', 'images', 'add', 'ACC-CIN', 'https://example.com/belt.jpg', '--json');
    expect(images.code, images.stderr).toBe(0);
    expect(images.sent).toEqual(['GET /products/sku/ACC-CIN', 'POST /products/14/images']);

    const created = await store('variants', 'create', 'camisa-de-lino', '--option', 'Talle=XL', '--price', '38500', '--sku', 'CAM-LIN-XL', '--json');
    expect(created.code, created.stderr).toBe(0);
    expect(created.sent).toEqual(['GET /products?handle=camisa-de-lino', 'POST /products/2/variants']);
    expect((await product(2)).variants.map((v) => v.sku)).toContain('CAM-LIN-XL');
  });

  it('variants list: an id costs no lookup, a handle one, and an all-digit SKU is found after the 404 of the id', async () => {
    const byId = await store('variants', 'list', '3', '--json');
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.sent).toEqual(['GET /products/3/variants']);

    const byHandle = await store('variants', 'list', 'camisa-lenadora', '--json');
    expect(byHandle.code, byHandle.stderr).toBe(0);
    expect(byHandle.sent).toEqual(['GET /products?handle=camisa-lenadora', 'GET /products/3/variants']);
    expect(JSON.parse(byHandle.stdout)).toEqual(JSON.parse(byId.stdout));

    const made = await api.post('/products', { name: { es: 'Producto Numérico' }, variants: [{ sku: '777001', price: '10.00', stock: 3 }] });
    expect(made.status).toBe(201);
    const id = (made.body as ProductJson).id;
    const byDigits = await store('variants', 'list', '777001', '--json');
    expect(byDigits.code, byDigits.stderr).toBe(0);
    expect(byDigits.sent).toEqual(['GET /products/777001/variants', 'GET /products/sku/777001', `GET /products/${id}/variants`]);
    expect((JSON.parse(byDigits.stdout) as { sku: string }[]).map((v) => v.sku)).toEqual(['777001']);
  });

  it('variants get PRODUCT VARIANT_ID takes the product by handle', async () => {
    const [variant] = (await product(1)).variants;
    const res = await store('variants', 'get', 'camisa-oxford', String(variant!.id), '--json');
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ id: variant!.id, sku: variant!.sku });
    expect(res.sent[0]).toBe('GET /products?handle=camisa-oxford');
  });

  it('variants update and custom-fields set|unset take PRODUCT VARIANT_ID with the product by handle or SKU', async () => {
    const variant = (await product(1)).variants[1]!;
    const updated = await store('variants', 'update', 'camisa-oxford', String(variant.id), '--price', '33000', '--json');
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.sent[0]).toBe('GET /products?handle=camisa-oxford');
    expect(updated.sent).toContain(`PUT /products/1/variants/${variant.id}`);
    expect((await product(1)).variants[1]!.price).toBe('33000.00');

    const set = await store('variants', 'custom-fields', 'set', 'CAM-OXF-M-BLANCO', String(variant.id), 'Material=Lana', '--json');
    expect(set.code, set.stderr).toBe(0);
    expect(set.sent[0]).toBe('GET /products/sku/CAM-OXF-M-BLANCO');
    expect((JSON.parse(set.stdout) as { name: string; value: string }[]).map((v) => [v.name, v.value])).toContainEqual(['Material', 'Lana']);
    const unset = await store('variants', 'custom-fields', 'unset', 'camisa-oxford', String(variant.id), 'Material', '--json');
    expect(unset.code, unset.stderr).toBe(0);
    expect((JSON.parse(unset.stdout) as { name: string }[]).map((v) => v.name)).not.toContain('Material');
  });

  it("products list --sku shows the matched variant's own stock and price, not the product's total", async () => {
    const variant = (await product(1)).variants.find((v) => v.sku === 'CAM-OXF-M-BLANCO')!;
    const total = (await product(1)).variants.reduce((sum, v) => sum + (v.stock ?? 0), 0);
    expect(total).not.toBe(variant.stock);
    const res = await store('products', 'list', '--sku', 'CAM-OXF-M-BLANCO', '--csv');
    expect(res.code, res.stderr).toBe(0);
    const [header, row] = res.stdout.trim().split('\n');
    const cells = Object.fromEntries(header!.split(',').map((h, i) => [h, row!.split(',')[i]]));
    expect(cells).toMatchObject({ sku: 'CAM-OXF-M-BLANCO', price: variant.price, stock: String(variant.stock) });
  });
});

describe('a CATEGORY argument is an id or a name path', () => {
  it('categories get by path reads the categories once and no single category', async () => {
    const res = await store('categories', 'get', 'Ropa > Camisas', '--json');
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ id: 2, path: 'Ropa > Camisas' });
    expect(res.sent.filter((s) => s.startsWith('GET /categories'))).toEqual(['GET /categories']);
  });

  it('an ambiguous name is refused naming the candidates; a longer path or the id settles it', async () => {
    const twin = await api.post('/categories', { name: { es: 'Ofertas' }, parent: 1 });
    expect(twin.status).toBe(201);
    const twinId = (twin.body as { id: number }).id;
    const ambiguous = await store('categories', 'delete', 'Ofertas', '--yes');
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('The category path "Ofertas" is ambiguous');
    expect(ambiguous.stderr).toContain('8 (Ofertas)');
    expect(ambiguous.stderr).toContain(`${twinId} (Ropa > Ofertas)`);
    expect(ambiguous.sent.filter((s) => !s.startsWith('GET'))).toEqual([]);

    const renamed = await store('categories', 'update', 'Ropa > Ofertas', '--name', 'Liquidación', '--json');
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(JSON.parse(renamed.stdout)).toMatchObject({ id: twinId, name: { es: 'Liquidación' } });

    const deleted = await store('categories', 'delete', 'Ropa > Liquidación', '--yes', '--json');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ id: twinId, deleted: true });
    expect(deleted.sent).toContain(`DELETE /categories/${twinId}`);
  });

  it('a numeric category id needs no lookup of the categories', async () => {
    const res = await store('categories', 'delete', '999', '--yes');
    expect(res.code).toBe(1);
    expect(res.sent).not.toContain('GET /categories');
  });
});
