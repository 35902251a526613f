import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv, clientFor, requestRecorder, writesOf } from '../helpers/sandbox.js';

/**
 * Issue 30, "Done when" — the `command` column: a catalog with UPDATE, NEW, DELETE (product and variant) and
 * IGNORE rows does exactly what each row says; the wrong-command rows are failed rows of a report that, fixed,
 * imports cleanly; undo of the run makes the deleted records again; --max-deletes brakes with exit 5 and 0 writes.
 */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;
const recorder = requestRecorder();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'catalog-commands-'));
  sandbox = await startSandbox({ seed: 'empty', rate: 'off', onRequest: recorder.onRequest });
  env = cliEnv(sandbox, 'catalog-commands');
  const api = clientFor(sandbox);
  const talle = (t: string, sku: string, price: number) => ({ values: [{ es: t }], sku, price, stock: 5 });
  const seed = [
    { name: 'Camisa', handle: 'camisa', attributes: [{ es: 'Talle' }], variants: [talle('S', 'C-S', 20), talle('M', 'C-M', 20), talle('L', 'C-L', 20)] },
    { name: 'Buzo', handle: 'buzo', variants: [{ sku: 'B-1', price: 40, stock: 2 }] },
    { name: 'Gorra', handle: 'gorra', variants: [{ sku: 'G-1', price: 15, stock: 9 }] },
    { name: 'Media', handle: 'media', variants: [{ sku: 'ME-1', price: 3, stock: 9 }] },
    { name: 'Bufanda', handle: 'bufanda', variants: [{ sku: 'BU-1', price: 8, stock: 9 }] },
  ];
  for (const body of seed) {
    const res = await api.post('/products', body);
    expect(res.status, res.text).toBe(201);
  }
});
afterAll(() => sandbox?.close());

const products = () => sandbox.state.defaultStore()!.products.list();
const product = (handle: string) => products().find((p) => Object.values(p.handle as Record<string, string>).includes(handle) || p.handle === handle);
const variant = (sku: string) => products().flatMap((p) => p.variants).find((v) => v.sku === sku);

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function store(args: string[]) {
  recorder.take();
  const r = await runInProcess(args, { env });
  return { ...r, writes: writesOf(recorder.take()) };
}

const CATALOG = [
  'handle,name,option1_name,option1_value,sku,price,stock,command',
  'camisa,Camisa,Talle,S,C-S,25,5,update',
  'camisa,Camisa,Talle,XL,C-XL,30,2,NEW',
  'camisa,,,,C-L,,,Delete',
  'buzo,,,,,,,DELETE',
  'gorra,Gorra,,,G-1,99,1,IGNORE',
  'medias,Medias,,,M-1,5,10,UPDATE',
  'camisa,Camisa,Talle,M,C-M,21,3,NEW',
  'nueva,Nueva,,,N-1,12,4,NEW',
  'ropa,Ropa,,,R-1,12,4,BORRAR',
  '',
].join('\n');

describe('products import: the command column', () => {
  let runId: string;

  it('a wrong command word is an invalid row: nothing is sent', async () => {
    const r = await store(['products', 'import', file('bad-word.csv', CATALOG)]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('bad-word.csv, line 10, column 8 (command): "BORRAR" is not a command; write NEW, MERGE, UPDATE, REPLACE, DELETE or IGNORE');
    expect(r.writes).toHaveLength(0);
  });

  it('the dry run lists the deletes first', async () => {
    const path = file('catalog.csv', CATALOG.replace('ropa,Ropa,,,R-1,12,4,BORRAR\n', ''));
    const r = await store(['products', 'import', path, '--dry-run']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.writes).toHaveLength(0);
    const plan = r.stdout.slice(r.stdout.indexOf('To delete'));
    expect(plan).toMatch(/^To delete \(2\):\n {2}camisa C-L \(line 4\): variant \d+\n {2}buzo \(line 5\): product \d+\n/);
    expect(r.stdout.indexOf('To delete')).toBeLessThan(r.stdout.indexOf('To create'));
  });

  it('each row does what its command says; the wrong-command rows are the failed rows of the report', async () => {
    const report = join(dir, 'failed.csv');
    const r = await store(['products', 'import', join(dir, 'catalog.csv'), '--report', report]);
    expect(r.code, r.stderr).toBe(3);
    expect(variant('C-S')?.price).toBe('25.00');
    expect(variant('C-XL')?.price).toBe('30.00');
    expect(variant('C-L')).toBeUndefined();
    expect(product('camisa')?.variants.map((v) => v.sku).sort()).toEqual(['C-M', 'C-S', 'C-XL']);
    expect(product('buzo')).toBeUndefined();
    expect(variant('G-1')?.price).toBe('15.00');
    expect(product('medias')).toBeUndefined();
    expect(variant('C-M')?.price).toBe('20.00');
    expect(variant('N-1')?.price).toBe('12.00');
    expect(r.stdout).toMatch(/1 deleted/);
    expect(r.stdout).toMatch(/variants: +1 deleted/);
    expect(r.stdout).toMatch(/ignored: +1 row \(command IGNORE\)/);
    expect(r.stderr).toContain('catalog.csv, line 7 (M-1): product medias is not in the store; UPDATE changes only what exists (write NEW or MERGE to create it)');
    expect(r.stderr).toMatch(/catalog\.csv, line 8 \(C-M\): SKU C-M is already in the store \(variant \d+\); NEW only creates/);
    const lines = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('handle,name,option1_name,option1_value,sku,price,stock,command,line,error,stage');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 9).join(','))).toEqual([
      'medias,Medias,,,M-1,5,10,UPDATE,7',
      'camisa,Camisa,Talle,M,C-M,21,3,NEW,8',
    ]);
    const runs = await runInProcess(['runs', 'list', '--json'], { env });
    runId = (JSON.parse(runs.stdout) as { id: string; command: string }[]).find((x) => x.command === 'products import')!.id;

    // Fixed (medias is NEW, C-M an UPDATE), the report is the next input and imports cleanly.
    const fixed = file('fixed.csv', readFileSync(report, 'utf8').replace(',UPDATE,7,', ',NEW,7,').replace(',NEW,8,', ',UPDATE,8,'));
    const again = await store(['products', 'import', fixed]);
    expect(again.code, again.stderr).toBe(0);
    expect(variant('M-1')?.price).toBe('5.00');
    expect(variant('C-M')?.price).toBe('21.00');
    // Run again, the catalog's deletes are gone already: nothing to do for them.
    const rerun = await store(['products', 'import', fixed, '--dry-run']);
    expect(rerun.stdout).toMatch(/0 created, 0 updated, 1 unchanged/);
  });

  it('undo of the run makes the deleted product and variant again', async () => {
    const undo = await store(['undo', runId, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(product('buzo')?.variants.map((v) => v.sku)).toEqual(['B-1']);
    expect(variant('C-L')?.price).toBe('20.00');
    expect(variant('C-S')?.price).toBe('20.00');
  });

  it('--max-deletes brakes before the first write (exit 5)', async () => {
    const path = file('deletes.csv', 'handle,sku,command\nmedia,,DELETE\nbufanda,,DELETE\n');
    const r = await store(['products', 'import', path, '--max-deletes', '1']);
    expect(r.code, r.stderr).toBe(5);
    expect(r.writes).toHaveLength(0);
    expect(r.stdout + r.stderr).toMatch(/--max-deletes 1: the plan deletes 2 records/);
    expect(product('media')).toBeDefined();
    expect(product('bufanda')).toBeDefined();
  });

  it('REPLACE: the blank cells clear their field; the variants no REPLACE row names go', async () => {
    const api = clientFor(sandbox);
    const c = variant('C-S')!;
    await api.put(`/products/${c.product_id}/variants/${c.id}`, { cost: '7.00', promotional_price: '18.00' });
    const path = file('replace.csv', 'handle,option1_name,option1_value,sku,price,promotional_price,cost,command\ncamisa,Talle,S,C-S,22,,,REPLACE\ncamisa,Talle,M,C-M,22,,,replace\n');
    const r = await store(['products', 'import', path]);
    expect(r.code, r.stderr).toBe(0);
    expect(product('camisa')?.variants.map((v) => v.sku).sort()).toEqual(['C-M', 'C-S']);
    expect(variant('C-S')).toMatchObject({ price: '22.00', promotional_price: null, cost: null });
  });
});

describe('docs/examples/catalog-commands.csv', () => {
  it('imports cleanly into the demo sandbox, each row as its command says', async () => {
    const demo = await startSandbox({ seed: 'demo', rate: 'off' });
    try {
      const demoEnv = cliEnv(demo, 'catalog-commands-demo');
      const r = await runInProcess(['products', 'import', join(__dirname, '../../docs/examples/catalog-commands.csv')], { env: demoEnv });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/products: +1 created, 1 updated, 1 deleted, 0 unchanged, 0 failed/);
      const all = demo.state.defaultStore()!.products.list();
      const skus = all.flatMap((p) => p.variants.map((v) => v.sku));
      expect(skus).toEqual(expect.arrayContaining(['CAM-LIN-S', 'CAM-LIN-XL', 'ACC-LLA', 'ACC-CIN']));
      expect(skus).not.toContain('CAM-LIN-L');
      expect(skus).not.toContain('GOR-TRU');
    } finally {
      await demo.close();
    }
  });
});
