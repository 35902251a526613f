import { describe, expect, it } from 'vitest';
import { useCliSandbox } from '../helpers/cli-sandbox.js';

/**
 * Issue 28: category and location writes, and custom fields, are on the record like any other write, with their
 * values before — and `store undo` takes them back: a field still as the run left it goes back, a record the run
 * created goes, one it deleted comes back (new id, said), and what no write takes back is listed with why.
 */

const cli = useCliSandbox('undo-settings');

async function lastRun(command: string): Promise<string> {
  const r = await cli.run('runs', 'list', '--json');
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { id: string; command: string }[]).find((run) => run.command === command)!.id;
}
async function undo(command: string) {
  const r = await cli.run('undo', await lastRun(command), '--yes');
  expect(r.code, r.stderr).toBe(0);
  return r;
}
const text = (localized: Record<string, string>) => Object.values(localized)[0];

describe('store undo of category writes', () => {
  it('an update goes back; a category created goes; one deleted comes back with a new id', async () => {
    const categories = (await cli.api.get('/categories', { query: { per_page: 200 } })).body as { id: number; name: Record<string, string>; parent: number | null }[];
    const leaf = categories.find((c) => c.parent !== null && !categories.some((x) => x.parent === c.id))!;
    const name = text(leaf.name);
    expect((await cli.run('categories', 'update', String(leaf.id), '--name', 'Renamed')).code).toBe(0);
    expect(text((await cli.api.get(`/categories/${leaf.id}`)).body.name)).toBe('Renamed');
    await undo('categories update');
    expect(text((await cli.api.get(`/categories/${leaf.id}`)).body.name)).toBe(name);

    const created = await cli.run('categories', 'create', '--name', 'Temporada', '--json');
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { id: number }).id;
    await undo('categories create');
    expect((await cli.api.get(`/categories/${id}`)).status).toBe(404);

    expect((await cli.run('categories', 'delete', String(leaf.id), '--yes')).code).toBe(0);
    const back = await undo('categories delete');
    expect(back.stderr).toMatch(new RegExp(`category ${leaf.id} .* made again with a new id`));
    const after = (await cli.api.get('/categories', { query: { per_page: 200 } })).body as { id: number; name: Record<string, string>; parent: number | null }[];
    expect(after.find((c) => text(c.name) === name && c.parent === leaf.parent)).toBeDefined();
  });
});

describe('store undo of location writes', () => {
  it('a rename, a new default and a new order go back', async () => {
    const locations = () => cli.api.get('/locations').then((r) => r.body as { id: string; name: Record<string, string>; is_default: boolean; priority: number }[]);
    const before = await locations();
    expect(before.length).toBeGreaterThan(1);
    const main = before.find((l) => l.is_default)!;
    const other = before.find((l) => !l.is_default)!;

    expect((await cli.run('locations', 'update', other.id, '--name', 'Depósito Nuevo')).code).toBe(0);
    await undo('locations update');
    expect(text((await locations()).find((l) => l.id === other.id)!.name)).toBe(text(other.name));

    expect((await cli.run('locations', 'set-default', other.id)).code).toBe(0);
    expect((await locations()).find((l) => l.is_default)!.id).toBe(other.id);
    await undo('locations set-default');
    expect((await locations()).find((l) => l.is_default)!.id).toBe(main.id);

    const order = (ls: { id: string; priority: number }[]) => [...ls].sort((a, b) => a.priority - b.priority).map((l) => l.id);
    expect((await cli.run('locations', 'reorder', ...[...order(before)].reverse())).code).toBe(0);
    expect(order(await locations())).toEqual([...order(before)].reverse());
    await undo('locations reorder');
    expect(order(await locations())).toEqual(order(before));
  });
});

describe('store undo of custom fields', () => {
  it("a variant's value goes back; a definition's description too; a field created or a value added is listed as kept", async () => {
    const fields = (await cli.api.get('/products/variants/custom-fields')).body as { id: string; name: string; value_type: string; description: string | null }[];
    const field = fields.find((f) => f.value_type === 'text')!;
    const products = (await cli.api.get('/products', { query: { per_page: 50 } })).body as { id: number; variants: { id: number; custom_fields?: { id: string; value: unknown }[] }[] }[];
    const product = products[0]!;
    const variant = product.variants[0]!;
    const valueOf = async () =>
      ((await cli.api.get(`/products/${product.id}/variants/${variant.id}/custom-fields`)).body as { id: string; value: unknown }[]).find((v) => v.id === field.id)?.value ?? null;
    const was = await valueOf();
    expect((await cli.run('variants', 'custom-fields', 'set', String(product.id), String(variant.id), `${field.name}=Cambiado`)).code).toBe(0);
    expect(await valueOf()).toBe('Cambiado');
    await undo('variants custom-fields set');
    expect(await valueOf()).toBe(was);

    expect((await cli.run('variants', 'custom-fields', 'update', field.id, '--description', 'Otra')).code).toBe(0);
    await undo('variants custom-fields update');
    const now = ((await cli.api.get('/products/variants/custom-fields')).body as { id: string; description: string | null }[]).find((f) => f.id === field.id)!;
    expect(now.description ?? null).toBe(field.description ?? null);

    const made = await cli.run('variants', 'custom-fields', 'create', '--name', 'Temporada de venta', '--type', 'text');
    expect(made.code, made.stderr).toBe(0);
    const kept = await undo('variants custom-fields create');
    expect(kept.stderr).toMatch(/a custom field the run created is kept/);
  });
});
