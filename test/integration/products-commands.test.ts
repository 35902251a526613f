import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv, imageNames, requestRecorder } from '../helpers/sandbox.js';
import { hasScript, runOnTerminal } from '../helpers/terminal.js';

/** `store products …` against a demo store (multilingual) and an empty one (Spanish only). */

const recorder = requestRecorder();

async function sandboxEnv(seed: 'demo' | 'empty'): Promise<{ sandbox: RunningSandbox; env: NodeJS.ProcessEnv }> {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  const sandbox = await startSandbox({ seed, rate: 'off', host: '127.0.0.1', port: 0, onRequest: recorder.onRequest });
  const env = cliEnv(sandbox, 'products');
  return { sandbox, env };
}

interface ProductJson {
  id: number;
  name: Record<string, string>;
  handle: Record<string, string>;
  categories: { id: number; name: Record<string, string> }[];
  attributes: unknown[];
  images: { id: number; src: string; position: number }[];
  variants: { id: number; price: string; sku: string | null; stock: number; inventory_levels: { location_id: string; stock: number }[] }[];
}

let demo: { sandbox: RunningSandbox; env: NodeJS.ProcessEnv };
const store = (...args: string[]) => runInProcess(args, { env: demo.env });

beforeAll(async () => {
  demo = await sandboxEnv('demo');
});
afterAll(() => demo?.sandbox.close());

describe('store products', () => {
  it('lists one page, a given page, a SKU, and every page as CSV', async () => {
    const [first, page2, bySku, csv, byCategory, noCategory] = await Promise.all([
      store('products', 'list', '--json'),
      store('products', 'list', '--page', '2', '--per-page', '5'),
      store('products', 'list', '--sku', 'ACC-CIN', '--json'),
      store('products', 'list', '--all', '--csv'),
      store('products', 'list', '--category', 'Accesorios > Gorras', '--json'),
      store('products', 'list', '--category', 'Ropa > Zapatos'),
    ]);
    expect((JSON.parse(byCategory.stdout) as ProductJson[]).map((p) => p.name.es)).toEqual(['Gorra Clásica', 'Gorra Trucker']);
    expect(noCategory.code).toBe(1);
    expect(noCategory.stderr).toContain('No category matches the path "Ropa > Zapatos"');
    expect(first.code).toBe(0);
    expect((JSON.parse(first.stdout) as ProductJson[]).map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(page2.stdout.trim().split('\n').slice(1).map((l) => Number(l.split('\t')[0]))).toEqual([6, 7, 8, 9, 10]);
    expect(page2.stderr).toContain('Page 2 of 4 (20 products)');
    expect((JSON.parse(bySku.stdout) as ProductJson[]).map((p) => p.name.es)).toEqual(['Cinturón de Cuero']);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('id,name,handle,sku,price,stock,variants');
    expect(lines).toHaveLength(21);
  });

  it('--sku is one GET /products/sku/{sku} (no sku= query, which the platform ignores); an unknown SKU matches nothing, exit 0', async () => {
    recorder.take();
    const found = await store('products', 'list', '--sku', 'CAM-OXF-M-BLANCO', '--json');
    const sent = recorder.take();
    expect(found.code, found.stderr).toBe(0);
    expect((JSON.parse(found.stdout) as ProductJson[]).map((p) => p.name.es)).toEqual(['Camisa Oxford']);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /products/sku/CAM-OXF-M-BLANCO']);
    const missing = await store('products', 'list', '--sku', 'NO-SUCH');
    const missingSent = recorder.take();
    expect(missing.code).toBe(0);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('No products match');
    expect(missingSent.map((r) => r.path)).toEqual(['/products/sku/NO-SUCH']);
    for (const r of [...sent, ...missingSent]) expect(r.query.has('sku')).toBe(false);
  });

  it("--q is the store's search of name, description and SKU", async () => {
    recorder.take();
    const [byName, bySku, byDescription, none, blank] = await Promise.all([
      store('products', 'list', '--q', 'gorra', '--json'),
      store('products', 'list', '--q', 'ZAP-BOT', '--json'),
      store('products', 'list', '--q', 'Wool Scarf from', '--json'),
      store('products', 'list', '--q', 'paraguas'),
      store('products', 'list', '--q', ' '),
    ]);
    const names = (r: { stdout: string }) => (JSON.parse(r.stdout) as ProductJson[]).map((p) => p.name.es);
    expect(names(byName)).toEqual(['Gorra Clásica', 'Gorra Trucker']);
    expect(names(bySku)).toEqual(['Botas de Cuero']);
    expect(names(byDescription)).toEqual(['Bufanda de Lana']);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('No products match');
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('--q needs some text');
    const queries = recorder.take().filter((r) => r.path === '/products').map((r) => r.query.get('q'));
    expect(queries.sort()).toEqual(['Wool Scarf from', 'ZAP-BOT', 'gorra', 'paraguas']);
  });

  it('--limit shows at most N products from the first page on, across pages, and excludes --page', async () => {
    const [all, three, many, both] = await Promise.all([
      store('products', 'list', '--all', '--json'),
      store('products', 'list', '--limit', '3'),
      store('products', 'list', '--limit', '250', '--json'),
      store('products', 'list', '--limit', '3', '--page', '2'),
    ]);
    const ids = (JSON.parse(all.stdout) as ProductJson[]).map((p) => p.id);
    expect(three.code).toBe(0);
    expect(three.stdout.trim().split('\n').slice(1).map((l) => Number(l.split('\t')[0]))).toEqual(ids.slice(0, 3));
    expect(three.stderr).toContain(`The first 3 of ${ids.length} products`);
    // More than the store holds: every product once, no error.
    expect((JSON.parse(many.stdout) as ProductJson[]).map((p) => p.id)).toEqual(ids);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--page=2 cannot also be provided when using --limit');
  });

  it('gets one product with its variants; an unknown id is not found (exit 1)', async () => {
    const [one, missing] = await Promise.all([store('products', 'get', '1'), store('products', 'get', '999')]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^ID +1\nName +Camisa Oxford\n/);
    expect(one.stdout).toContain('Options     Talle, Color');
    expect(one.stdout).toMatch(/\nCategories +Camisas \(\d+\)\n/);
    expect(one.stdout).toMatch(/\nid\toptions\tsku\tprice\tpromotional_price\tstock\n1\tS \/ Blanco\tCAM-OXF-S-BLANCO\t32000.00\t/);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('Error: No product has the id, handle or SKU "999".');
  });

  it('creates a product without variation: money with a comma, stock per location by name, category path, image', async () => {
    const res = await store(
      'products', 'create',
      '--name', 'es=Taza', '--name', 'pt=Xícara',
      '--price', '12,50', '--sku', 'TAZA-1',
      '--stock-at', 'Depósito Central=10', '--stock-at', 'Local Palermo=3',
      '--category', 'Accesorios',
      '--image', 'https://example.com/taza.jpg',
      '--json',
    );
    expect(res.code).toBe(0);
    const product = JSON.parse(res.stdout) as ProductJson;
    expect(product.name).toMatchObject({ es: 'Taza', pt: 'Xícara' });
    // The platform sends categories as full records (platform.md §3).
    expect(product.categories).toEqual([expect.objectContaining({ id: 6 })]);
    expect(imageNames(product.images.map((i) => i.src))).toEqual(['taza']);
    expect(product.variants).toHaveLength(1);
    expect(product.variants[0]).toMatchObject({ price: '12.50', sku: 'TAZA-1', stock: 13 });
    expect(product.variants[0]!.inventory_levels.map((l) => l.stock).sort()).toEqual([10, 3]);

    const updated = await store('products', 'update', String(product.id), '--name', 'pt=Caneca', '--price', '15', '--stock', '4', '--json');
    expect(updated.code).toBe(0);
    const after = JSON.parse(updated.stdout) as ProductJson;
    expect(after.name).toMatchObject({ es: 'Taza', pt: 'Caneca' });
    expect(after.variants[0]).toMatchObject({ price: '15.00', stock: 7 });

    const uncategorized = await store('products', 'update', String(product.id), '--category', 'none', '--json');
    expect(JSON.parse(uncategorized.stdout)).toMatchObject({ categories: [] });

    const images = await store('products', 'images', 'add', String(product.id), 'https://example.com/a.jpg', 'https://example.com/b.jpg', '--json');
    expect(images.code).toBe(0);
    expect((JSON.parse(images.stdout) as { position: number }[]).map((i) => i.position)).toEqual([2, 3]);
  });

  it('checks money, stock and locations before sending, naming the flag (exit 2)', async () => {
    const results = await Promise.all([
      store('products', 'create', '--name', 'X', '--price', '1.234,50'),
      store('products', 'create', '--name', 'X', '--stock', '-1'),
      store('products', 'create', '--name', 'X', '--stock', '2.5'),
      store('products', 'create', '--name', 'X', '--stock-at', 'Mendoza=2'),
      store('products', 'images', 'add', '1', 'https://example.com/ok.jpg', 'ftp://example.com/x.jpg'),
    ]);
    expect(results.map((r) => r.code)).toEqual([2, 2, 2, 1, 2]);
    expect(results[0]!.stderr).toContain('--price "1.234,50" is not a decimal number');
    expect(results[1]!.stderr).toContain('--stock must not be negative');
    expect(results[2]!.stderr).toContain('--stock must be a whole number');
    expect(results[3]!.stderr).toContain('Location "Mendoza" not found');
    expect(results[4]!.stderr).toContain('"ftp://example.com/x.jpg" is not an http(s) URL');
    // Nothing was sent: product 1 still has its one seeded image.
    const one = JSON.parse((await store('products', 'get', '1', '--json')).stdout) as ProductJson;
    expect(one.images).toHaveLength(1);
  });

  it('reports the store refusing a field (422 → exit 2) and a product with options getting a price', async () => {
    const [dupHandle, withOptions, missingImage] = await Promise.all([
      store('products', 'create', '--name', 'Otra camisa', '--handle', 'camisa-oxford'),
      store('products', 'update', '1', '--price', '100'),
      store('products', 'images', 'add', '999', 'https://example.com/x.jpg'),
    ]);
    expect(dupHandle.code).toBe(2);
    expect(dupHandle.stderr).toContain('handle "camisa-oxford" is already used by product 1');
    expect(withOptions.code).toBe(2);
    expect(withOptions.stderr).toContain('Product 1 has options (Talle, Color)');
    expect(missingImage.code).toBe(1);
    expect(missingImage.stderr).toContain('Product 999 not found');
  });

  it('deletes only with --yes off a terminal', async () => {
    const [noYes, missing, tooMany] = await Promise.all([
      store('products', 'delete', '20'),
      store('products', 'delete', '999', '--yes'),
      store('products', 'list', '--per-page', '500'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No product has the id, handle or SKU "999"');
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('per-page');
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    expect((await store('products', 'get', '20')).code).toBe(0);
    const deleted = await store('products', 'delete', '20', '--yes');
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toContain('Deleted product 20.');
    expect((await store('products', 'get', '20')).code).toBe(1);
  });
});

describe.skipIf(!hasScript)('store products delete on a terminal', () => {
  it('asks first: "no" keeps the product, "yes" deletes it', async () => {
    // The question names the product: its name, handle, a SKU and its id.
    const no = await runOnTerminal(['products', 'delete', '19'], demo.env, [{ when: 'Delete product "', send: 'n\r' }]);
    expect(no.code).toBe(0);
    expect(no.output.replace(/\s+/g, ' ')).toMatch(/Delete product "[^"]+" \([a-z0-9-]+(, SKU \S+)?, id 19\) with its \d+ variants? and \d+ images?\?/);
    expect(no.output).toContain('Nothing deleted.');
    expect((await store('products', 'get', '19')).code).toBe(0);
    const yes = await runOnTerminal(['products', 'delete', '19'], demo.env, [{ when: 'Delete product "', send: 'y\r' }]);
    expect(yes.code).toBe(0);
    expect((await store('products', 'get', '19')).code).toBe(1);
  });
});

describe('store products on a one-language store', () => {
  let plain: { sandbox: RunningSandbox; env: NodeJS.ProcessEnv };
  beforeAll(async () => {
    plain = await sandboxEnv('empty');
  });
  afterAll(() => plain?.sandbox.close());

  it('sends a plain name and puts --stock at the default location', async () => {
    const res = await runInProcess(['products', 'create', '--name', 'Gorra', '--price', '4500', '--stock', '20', '--json'], { env: plain.env });
    expect(res.code).toBe(0);
    const product = JSON.parse(res.stdout) as ProductJson;
    expect(product.name).toEqual({ es: 'Gorra' });
    expect(product.handle).toEqual({ es: 'gorra' });
    expect(product.variants[0]).toMatchObject({ price: '4500.00', stock: 20 });
  });

  it('takes a plain category name, reads es= as the one language, and refuses a second language', async () => {
    const [category, keyed, twoLanguages] = await Promise.all([
      runInProcess(['categories', 'create', '--name', 'Camisas', '--json'], { env: plain.env }),
      runInProcess(['products', 'create', '--name', 'es=Camisa', '--json'], { env: plain.env }),
      runInProcess(['products', 'create', '--name', 'es=Camisa', '--name', 'pt=Camisa', '--debug'], { env: plain.env }),
    ]);
    expect(category.code).toBe(0);
    expect(JSON.parse(category.stdout)).toMatchObject({ name: { es: 'Camisas' }, parent: null });
    expect(keyed.code).toBe(0);
    expect(JSON.parse(keyed.stdout)).toMatchObject({ name: { es: 'Camisa' } });
    expect(twoLanguages.code).toBe(2);
    expect(twoLanguages.stderr).toContain('--name is given twice; this store has one language (es)');
    expect(twoLanguages.stderr).not.toMatch(/→ POST/);
  });
});
