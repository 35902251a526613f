import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BulkStore, startBulkStore } from '../helpers/bulk-store-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { serverEnv } from '../helpers/server-env.js';

/**
 * Issue 30's "Done when" for the `command` column against the independent store of platform.md
 * (test/helpers/bulk-store-server.ts), not the sandbox: UPDATE, NEW, DELETE (product and variant) and IGNORE rows
 * do exactly what each says, the wrong-command rows are failed rows of a report that, fixed, imports cleanly, and
 * undo makes the deleted records again.
 */

let bulk: BulkStore;
let dir: string;

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const env = (): NodeJS.ProcessEnv => serverEnv(bulk, dir);
const store = (...args: string[]) => runInProcess(args, { env: env() });
const product = (handle: string) => bulk.products.find((p) => Object.values(p.handle).includes(handle));
const variant = (sku: string) => bulk.variantBySku(sku);
let seen = 0;
/** The write requests since the last call, as `METHOD /path` below the store. */
const writeLines = () => {
  const all = bulk.writes().map((r) => `${r.method} ${r.path.replace(/^\/v1\/\d+/, '')}`);
  const fresh = all.slice(seen);
  seen = all.length;
  return fresh;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'catalog-commands-independent-'));
  bulk = await startBulkStore();
  const seed = [
    'handle,name,option1_name,option1_value,sku,price,stock',
    'camisa,Camisa,Talle,S,C-S,20,5',
    'camisa,Camisa,Talle,M,C-M,20,5',
    'camisa,Camisa,Talle,L,C-L,20,5',
    'buzo,Buzo,,,B-1,40,2',
    'gorra,Gorra,,,G-1,15,9',
    '',
  ].join('\n');
  const seeded = await runInProcess(['products', 'import', file('seed.csv', seed)], { env: { ...env(), XDG_STATE_HOME: join(dir, 'seed-state') } });
  expect(seeded.code, seeded.stderr).toBe(0);
  writeLines();
});
afterAll(() => bulk?.close());

describe('products import: the command column against the independent store', () => {
  it('each row does what its command says; the report of the wrong ones, fixed, imports cleanly; undo makes the deletes again', async () => {
    const catalog = [
      'handle,name,option1_name,option1_value,sku,price,stock,command',
      'camisa,Camisa,Talle,S,C-S,25,5,UPDATE',
      'camisa,Camisa,Talle,XL,C-XL,30,2,NEW',
      'camisa,,,,C-L,,,DELETE',
      'buzo,,,,,,,DELETE',
      'gorra,Gorra,,,G-1,99,1,IGNORE',
      'medias,Medias,,,M-1,5,10,UPDATE',
      'camisa,Camisa,Talle,M,C-M,21,3,NEW',
      '',
    ].join('\n');
    const buzoId = product('buzo')!.id;
    const lId = variant('C-L')!.id;
    const camisaId = product('camisa')!.id;

    const dry = await store('products', 'import', file('catalog.csv', catalog), '--dry-run');
    expect(dry.code, dry.stderr).toBe(3);
    expect(writeLines()).toEqual([]);
    expect(dry.stdout.indexOf('To delete')).toBeGreaterThanOrEqual(0);
    expect(dry.stdout.indexOf('To delete')).toBeLessThan(dry.stdout.indexOf('To create'));

    const report = join(dir, 'failed.csv');
    const r = await store('products', 'import', join(dir, 'catalog.csv'), '--report', report);
    expect(r.code, r.stderr).toBe(3);
    expect(variant('C-S')?.price).toBe('25.00');
    expect(variant('C-XL')?.price).toBe('30.00');
    expect(variant('C-L')).toBeUndefined();
    expect(product('buzo')).toBeUndefined();
    expect(variant('G-1')?.price).toBe('15.00');
    expect(product('medias')).toBeUndefined();
    expect(variant('C-M')?.price).toBe('20.00');
    // The deletes are the documented requests, one each; nothing was sent for the ignored and the failed rows.
    const sent = writeLines();
    expect(sent.filter((w) => w.startsWith('DELETE')).sort()).toEqual([`DELETE /products/${buzoId}`, `DELETE /products/${camisaId}/variants/${lId}`].sort());
    const lines = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 9).join(','))).toEqual([
      'medias,Medias,,,M-1,5,10,UPDATE,7',
      'camisa,Camisa,Talle,M,C-M,21,3,NEW,8',
    ]);

    const fixed = file('fixed.csv', readFileSync(report, 'utf8').replace(',UPDATE,7,', ',NEW,7,').replace(',NEW,8,', ',UPDATE,8,'));
    const again = await store('products', 'import', fixed);
    expect(again.code, again.stderr).toBe(0);
    expect(variant('M-1')?.price).toBe('5.00');
    expect(variant('C-M')?.price).toBe('21.00');

    const runs = JSON.parse((await store('runs', 'list', '--json')).stdout) as { id: string; command: string; exit_code: number }[];
    const runId = runs.find((x) => x.command === 'products import' && x.exit_code === 3)!.id;
    const undo = await store('undo', runId, '--yes');
    expect(undo.code, undo.stderr).toBe(0);
    expect(product('buzo')?.variants.map((v) => v.sku)).toEqual(['B-1']);
    expect(variant('C-L')?.price).toBe('20.00');
    expect(variant('C-S')?.price).toBe('20.00');
    expect(variant('C-XL')).toBeUndefined();
  });
});
