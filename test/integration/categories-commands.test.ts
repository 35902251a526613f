import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv } from '../helpers/sandbox.js';

/** `store categories …` against the demo store (multilingual: es, pt, en; tree Ropa > Camisas …). */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runInProcess(args, { env });

interface CategoryJson {
  id: number;
  name: Record<string, string>;
  parent: number | null;
  path?: string;
}

beforeAll(async () => {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0 });
  env = cliEnv(sandbox, 'categories');
});
afterAll(() => sandbox?.close());

describe('store categories', () => {
  it('lists categories with their paths, as a tree, and as JSON', async () => {
    const [tsv, tree, treeJson, json] = await Promise.all([
      store('categories', 'list'),
      store('categories', 'list', '--tree'),
      store('categories', 'list', '--tree', '--json'),
      store('categories', 'list', '--json'),
    ]);
    expect(tsv.code).toBe(0);
    expect(tsv.stdout.split('\n')).toContain('2\tCamisas\t1\tRopa > Camisas');
    expect(tree.stdout.split('\n').slice(0, 3)).toEqual(['Ropa (1)', '  Camisas (2)', '  Pantalones (3)']);
    const nodes = JSON.parse(treeJson.stdout) as { id: number; children: { id: number }[] }[];
    expect(nodes.find((n) => n.id === 1)!.children.map((c) => c.id)).toEqual([2, 3, 4]);
    const rows = JSON.parse(json.stdout) as CategoryJson[];
    expect(rows.find((r) => r.id === 7)).toMatchObject({ parent: 6, path: 'Accesorios > Gorras', name: { pt: 'Bonés' } });
  });

  it('gets one category with its path; an unknown id or path is not found (exit 1)', async () => {
    const [one, missing, bad] = await Promise.all([
      store('categories', 'get', '2', '--json'),
      store('categories', 'get', '999'),
      store('categories', 'get', 'abc'),
    ]);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ id: 2, parent: 1, path: 'Ropa > Camisas' });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('Error: Category 999 not found.');
    // Text is a name path (issue 30): no category is named "abc".
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('No category matches the path "abc"');
  });

  it('creates under a parent given by path, with texts per language', async () => {
    const res = await store('categories', 'create', '--name', 'es=Camisetas', '--name', 'pt=Regatas', '--parent', 'Ropa > Remeras', '--json');
    expect(res.code).toBe(0);
    const created = JSON.parse(res.stdout) as CategoryJson;
    expect(created).toMatchObject({ parent: 4, name: { es: 'Camisetas', pt: 'Regatas' } });

    // A path in another language, and a plain value on a multilingual store (main language).
    const pt = await store('categories', 'create', '--name', 'Lisas', '--parent', 'Roupas > Camisetas > Regatas', '--json');
    expect(pt.code).toBe(0);
    expect(JSON.parse(pt.stdout)).toMatchObject({ parent: created.id, name: { es: 'Lisas' } });
  });

  it('says in one sentence when a parent path is ambiguous (exit 2) or matches nothing (exit 1)', async () => {
    const twin = await store('categories', 'create', '--name', 'Camisas', '--parent', 'Ofertas', '--json');
    expect(twin.code).toBe(0);
    const twinId = (JSON.parse(twin.stdout) as CategoryJson).id;
    const [ambiguous, missing] = await Promise.all([
      store('categories', 'create', '--name', 'Lino', '--parent', 'Camisas'),
      store('categories', 'create', '--name', 'Lino', '--parent', 'Ropa > Zapatos'),
    ]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr.trim()).toBe(
      `Error: The category path "Camisas" is ambiguous: it matches 2 (Ropa > Camisas), ${twinId} (Ofertas > Camisas); give the id or a longer path.`,
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('No category matches the path "Ropa > Zapatos"');
  });

  it('updates a category, keeping the languages not given; a cycle is refused naming the field (exit 2)', async () => {
    const res = await store('categories', 'update', '3', '--name', 'pt=Calças compridas', '--parent', 'none', '--json');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ id: 3, parent: null, name: { es: 'Pantalones', pt: 'Calças compridas', en: 'Trousers' } });

    const cycle = await store('categories', 'update', '1', '--parent', 'Ropa > Camisas');
    expect(cycle.code).toBe(2);
    expect(cycle.stderr).toContain('parent cannot be the category itself or one of its subcategories');

    const missing = await store('categories', 'update', '999', '--name', 'X');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Category 999 not found');
  });

  it('deletes with --yes; refuses without it off a terminal, and while subcategories exist', async () => {
    const [noYes, parent] = await Promise.all([
      store('categories', 'delete', '8'),
      store('categories', 'delete', '6', '--yes'),
    ]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    expect(parent.code).toBe(2);
    expect(parent.stderr).toContain('Cannot delete category 6: category 6 has subcategories (7)');

    const [missing, blank, token] = await Promise.all([
      store('categories', 'delete', '999', '--yes'),
      store('categories', 'create', '--name', ''),
      runInProcess(['categories', 'list'], { env: { ...env, STORE_TOKEN: 'not-the-token' } }),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('Error: Category 999 not found.');
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain("name can't be blank");
    expect(token.code).toBe(4);
    expect(token.stderr).toContain('The store rejected the token');

    const deleted = await store('categories', 'delete', '7', '--yes', '--json');
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ id: 7, deleted: true });
    expect((await store('categories', 'get', '7')).code).toBe(1);
  });
});
