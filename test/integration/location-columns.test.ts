import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { type TestSandbox, clientFor, cliEnv, requestRecorder, writesOf } from '../helpers/sandbox.js';

/**
 * Issue 31, "Two locations with one name" and "Two columns for one location": a `stock:<location>` column that
 * two locations answer to, or two columns that name one location, cannot be resolved without guessing which
 * value wins. Both are refused before any write, naming both locations (with their ids) or both columns.
 */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;
const recorder = requestRecorder();
const store = async (...args: string[]) => {
  recorder.take();
  const r = await runInProcess(args, { env });
  return { ...r, writes: writesOf(recorder.take()) };
};

interface Location {
  id: string;
  name: Record<string, string>;
  is_default: boolean;
}
let locations: Location[];
const named = (name: string) => locations.filter((l) => Object.values(l.name).includes(name));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'location-columns-'));
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', onRequest: recorder.onRequest });
  api = clientFor(sandbox);
  env = cliEnv(sandbox, 'location-columns');
  // A second "Local Palermo": a new shop opened under the same name.
  const created = await store('locations', 'create', '--name', 'Local Palermo', '--city', 'Buenos Aires', '--street', 'Thames', '--json');
  expect(created.code, created.stderr).toBe(0);
  locations = (await api.get('/locations')).body as Location[];
});
afterAll(async () => {
  await sandbox?.close();
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('variants sync', () => {
  it('a column naming two locations is refused, naming both with their ids; nothing is written', async () => {
    const palermo = named('Local Palermo');
    expect(palermo).toHaveLength(2);
    const r = await store('variants', 'sync', file('two-palermos.csv', 'sku,stock:Local Palermo\nCAM-LIN-S,4\n'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `two-palermos.csv: column "stock:Local Palermo" names 2 locations of the store, "Local Palermo" (id ${palermo[0]!.id}) and "Local Palermo" (id ${palermo[1]!.id}); name one by its id. Nothing was sent.`,
    );
    expect(r.writes).toEqual([]);
    // By its id, the same column is one location and is written.
    const byId = await store('variants', 'sync', file('palermo-by-id.csv', `sku,stock:${palermo[1]!.id}\nCAM-LIN-S,4\n`));
    expect(byId.code, byId.stderr).toBe(0);
  });

  it('two columns for one location (by name and by id, or stock and the default location) are refused, naming both', async () => {
    const central = named('Depósito Central')[0]!;
    expect(central.is_default).toBe(true);
    const nameAndId = await store('variants', 'sync', file('name-and-id.csv', `sku,stock:Depósito Central,stock:${central.id}\nCAM-LIN-S,4,5\n`));
    expect(nameAndId.code).toBe(2);
    expect(nameAndId.stderr).toContain(
      `name-and-id.csv: columns "stock:Depósito Central" and "stock:${central.id}" both name the location "Depósito Central" (id ${central.id}); keep one. Nothing was sent.`,
    );
    const plain = await store('variants', 'sync', file('plain-and-default.csv', 'sku,stock,stock:Depósito Central\nCAM-LIN-S,4,5\n'));
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain(`plain-and-default.csv: columns "stock" and "stock:Depósito Central" both name the location "Depósito Central" (id ${central.id}); keep one.`);
    const byCase = await store('variants', 'sync', file('by-case.csv', 'sku,stock:Depósito Córdoba,stock:DEPÓSITO CÓRDOBA\nCAM-LIN-S,4,5\n'));
    expect(byCase.code).toBe(2);
    // Names differing only in case are one column twice, which the file model already refuses.
    expect(byCase.stderr).toContain('by-case.csv, line 1, column 3 (stock:DEPÓSITO CÓRDOBA): the column appears twice (also column 2); keep one of them');
    expect([...nameAndId.writes, ...plain.writes, ...byCase.writes]).toEqual([]);
  });
});

describe('products import', () => {
  it('refuses the same: an ambiguous name and two columns for one location', async () => {
    const palermo = named('Local Palermo');
    const ambiguous = await store('products', 'import', file('catalog-palermo.csv', 'handle,name,sku,price,stock:Local Palermo\nremera-x,Remera X,REM-X,10,3\n'));
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(
      `catalog-palermo.csv: column "stock:Local Palermo" names 2 locations of the store, "Local Palermo" (id ${palermo[0]!.id}) and "Local Palermo" (id ${palermo[1]!.id}); name one by its id.`,
    );
    const central = named('Depósito Central')[0]!;
    const twice = await store('products', 'import', file('catalog-twice.csv', `handle,name,sku,price,stock:Depósito Central,stock:${central.id}\nremera-x,Remera X,REM-X,10,3,4\n`));
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(`columns "stock:Depósito Central" and "stock:${central.id}" both name the location "Depósito Central" (id ${central.id}); keep one.`);
    expect([...ambiguous.writes, ...twice.writes]).toEqual([]);
  });
});
