import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv } from '../helpers/sandbox.js';
import { hasScript, runOnTerminal } from '../helpers/terminal.js';

/** `store locations …` run as a user would, against an in-process sandbox on loopback. */

async function sandboxEnv(plan: string): Promise<{ sandbox: RunningSandbox; env: NodeJS.ProcessEnv }> {
  const { startSandbox } = await import('../../src/sandbox/index.js');
  const sandbox = await startSandbox({ seed: 'demo', plan, rate: 'off', host: '127.0.0.1', port: 0 });
  const env = cliEnv(sandbox, 'locations');
  return { sandbox, env };
}

interface LocationJson {
  id: string;
  store_id: string;
  name: Record<string, string>;
  priority: number;
  is_default: boolean;
  allows_pickup: boolean;
  address: Record<string, unknown>;
}

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
const store = (...args: string[]) => runInProcess(args, { env });

async function listJson(): Promise<LocationJson[]> {
  const res = await store('locations', 'list', '--json');
  expect(res.code).toBe(0);
  return JSON.parse(res.stdout) as LocationJson[];
}

beforeAll(async () => {
  ({ sandbox, env } = await sandboxEnv('enterprise'));
});
afterAll(() => sandbox?.close());

describe('store locations', () => {
  it('lists locations in priority order, as a table when piped (TSV) and as JSON', async () => {
    const tsv = await store('locations', 'list');
    expect(tsv.code).toBe(0);
    const lines = tsv.stdout.trim().split('\n');
    expect(lines[0]).toBe('priority\tid\tname\tdefault\tpickup\tcity');
    expect(lines[1]).toMatch(/^0\t\w{26}\tDepósito Central\tyes\t\tBuenos Aires$/);
    const json = await listJson();
    expect(json.map((l) => l.priority)).toEqual([0, 1, 2]);
  });

  it('reorder leaves the priorities exactly in the order given, and the next list shows that order', async () => {
    const before = await listJson();
    const wanted = [before[2]!, before[0]!, before[1]!];
    const res = await store('locations', 'reorder', wanted[0]!.id, 'Depósito Central', wanted[2]!.id, '--json');
    expect(res.code).toBe(0);
    expect((JSON.parse(res.stdout) as LocationJson[]).map((l) => l.id)).toEqual(wanted.map((l) => l.id));
    const after = await listJson();
    expect(after.map((l) => [l.id, l.priority])).toEqual(wanted.map((l, i) => [l.id, i]));
  });

  it('reorder with only some locations puts them first and keeps the others in their order', async () => {
    const before = await listJson();
    const res = await store('locations', 'reorder', before[2]!.id);
    expect(res.code).toBe(0);
    const after = await listJson();
    expect(after.map((l) => l.id)).toEqual([before[2]!.id, before[0]!.id, before[1]!.id]);
  });

  it('reorder without locations off a terminal asks for them (exit 2), and an unknown one is not found', async () => {
    const [none, twice, unknown] = await Promise.all([
      store('locations', 'reorder'),
      store('locations', 'reorder', 'Local Palermo', 'local palermo'),
      store('locations', 'reorder', 'Mendoza'),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Give the location ids or names in priority order');
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('named twice');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Location "Mendoza" not found');
  });

  it('creates, updates (keeping what is not given), makes default and deletes a location', async () => {
    const created = await store('locations', 'create', '--name', 'Depósito Norte', '--city', 'Rosario', '--street', 'San Martín', '--pickup', '--json');
    expect(created.code).toBe(0);
    const location = JSON.parse(created.stdout) as LocationJson;
    expect(location).toMatchObject({ name: { es_AR: 'Depósito Norte' }, allows_pickup: true, is_default: false, priority: 3 });
    expect(location.address).toMatchObject({ city: 'Rosario', street: 'San Martín' });

    const updated = await store('locations', 'update', 'Depósito Norte', '--name', 'pt=Depósito Norte', '--number', '120', '--no-pickup', '--json');
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({
      name: { es_AR: 'Depósito Norte', pt_BR: 'Depósito Norte' },
      allows_pickup: false,
      address: { city: 'Rosario', street: 'San Martín', number: '120' },
    });

    const table = await store('locations', 'set-default', location.id);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`${location.id}\\tDepósito Norte\\tyes`));

    const refused = await store('locations', 'delete', location.id, '--yes');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Cannot delete location "Depósito Norte": the default location cannot be deleted');

    expect((await store('locations', 'set-default', 'Depósito Central')).code).toBe(0);
    const deleted = await store('locations', 'delete', 'Depósito Norte', '--yes', '--json');
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ id: location.id, deleted: true });
    expect((await listJson()).some((l) => l.id === location.id)).toBe(false);
  });

  it('create and update take --priority and --region (CODE=NAME, a code or a name)', async () => {
    const created = await store(
      'locations', 'create', '--name', 'Depósito Salta', '--city', 'Salta', '--region', 'NOA=Noroeste', '--priority', '7', '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    const location = JSON.parse(created.stdout) as LocationJson;
    expect(location).toMatchObject({ priority: 7, address: { city: 'Salta', region: { code: 'NOA', name: 'Noroeste' } } });

    const renamed = await store('locations', 'update', 'Depósito Salta', '--region', 'Norte Grande', '--priority', '8', '--json');
    expect(renamed.code, renamed.stderr).toBe(0);
    // A name alone keeps the code; the other address parts stay.
    expect(JSON.parse(renamed.stdout)).toMatchObject({ priority: 8, address: { city: 'Salta', region: { code: 'NOA', name: 'Norte Grande' } } });

    const shown = await store('locations', 'update', location.id, '--region', 'NEA');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/Priority\s+8/);
    expect(shown.stdout).toMatch(/Region\s+NEA Norte Grande/);

    expect((await store('locations', 'delete', location.id, '--yes')).code).toBe(0);
  });

  it('a bad --priority or --region is refused before anything is sent (exit 2, naming the flag)', async () => {
    const before = await listJson();
    const cases: [string[], string][] = [
      [['create', '--name', 'X', '--priority', '-1'], '--priority must be a whole number, 0 or more (got "-1").'],
      [['create', '--name', 'X', '--priority', 'first'], '--priority must be a whole number, 0 or more (got "first").'],
      [['update', 'Local Palermo', '--priority', '1.5'], '--priority must be a whole number, 0 or more (got "1.5").'],
      [['update', 'Local Palermo', '--region', 'NOA='], '--region "NOA=" needs a code and a name around "=", e.g. --region NOA=Noroeste.'],
      [['create', '--name', 'X', '--region', ' '], '--region is empty; give a code (NOA), a name (Noroeste) or both as NOA=Noroeste.'],
    ];
    const runs = await Promise.all(cases.map(([args]) => store('locations', ...args, '--debug')));
    for (const [i, r] of runs.entries()) {
      expect(r.code, cases[i]![0].join(' ')).toBe(2);
      expect(r.stderr).toContain(cases[i]![1]);
      expect(r.stderr).not.toMatch(/→ (GET|POST|PUT)/);
    }
    expect(await listJson()).toEqual(before);
  });

  it('shows a name keyed by locale in the main language, whatever key comes first (platform.md §7)', async () => {
    const { clientFor } = await import('../helpers/sandbox.js');
    const api = clientFor(sandbox);
    const created = await api.post<{ id: string }>('/locations', { name: { en_US: 'North warehouse', es_AR: 'Depósito Norte 2' } });
    const list = await store('locations', 'list');
    const row = list.stdout.split('\n').find((line) => line.includes(created.body.id))!;
    expect(row.split('\t')[2]).toBe('Depósito Norte 2');
    const json = (await listJson()).find((l) => l.id === created.body.id)!;
    expect(json).toMatchObject({ store_id: String(sandbox.storeId), name: { en_US: 'North warehouse', es_AR: 'Depósito Norte 2' } });
    await api.del(`/locations/${created.body.id}`);
  });

  it('delete needs --yes off a terminal (exit 2 naming --yes) and deletes nothing', async () => {
    const res = await store('locations', 'delete', 'Local Palermo');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--yes');
    expect((await listJson()).some((l) => l.name.es_AR === 'Local Palermo')).toBe(true);
  });

  it('a location that holds stock cannot be deleted; an unknown one is not found (exit 1)', async () => {
    const [holding, missing, noDefault] = await Promise.all([
      store('locations', 'delete', 'Local Palermo', '--yes'),
      store('locations', 'update', '01JD3Z6Q8R5M2K7N4P9T0V1W2X', '--city', 'X'),
      store('locations', 'set-default', 'Mendoza'),
    ]);
    expect(noDefault.code).toBe(1);
    expect(noDefault.stderr).toContain('Location "Mendoza" not found');
    expect(holding.code).toBe(2);
    expect(holding.stderr).toContain('still holds stock');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Location "01JD3Z6Q8R5M2K7N4P9T0V1W2X" not found');
  });

  it('a blank name is refused before sending (exit 2); a rejected token says so (exit 4)', async () => {
    const [blank, token] = await Promise.all([
      store('locations', 'update', 'Local Palermo', '--name', ' ', '--debug'),
      runInProcess(['locations', 'list'], { env: { ...env, STORE_TOKEN: 'not-the-token' } }),
    ]);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('--name must not be empty in the main language (es_AR)');
    expect(blank.stderr).not.toMatch(/→ PUT/);
    expect((await listJson()).some((l) => l.name.es_AR === 'Local Palermo')).toBe(true);
    expect(token.code).toBe(4);
    expect(token.stderr).toContain('The store rejected the token');
    expect(token.stdout).toBe('');
  });

  it('a multilingual name with an unknown language is refused before sending (exit 2)', async () => {
    const res = await store('locations', 'create', '--name', 'fr=Dépôt');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--name fr=…: the store has no language "fr"');
  });
});

describe.skipIf(!hasScript)('store locations on a terminal', () => {
  const DOWN = '\u001B[B';

  it('reorder without ids asks which location comes next, and applies that order', async () => {
    const before = await listJson();
    const res = await runOnTerminal(['locations', 'reorder'], env, [
      { when: 'Which location comes first?', send: DOWN },
      { when: `❯ ${before[1]!.name.es_AR}`, send: '\r' },
      { when: 'Which location comes next?', send: '\r' },
    ]);
    expect(res.code).toBe(0);
    const after = await listJson();
    expect(after.map((l) => l.id)).toEqual([before[1]!.id, before[0]!.id, before[2]!.id]);
  });

  it('delete asks for confirmation and deletes nothing when the answer is no', async () => {
    const created = JSON.parse((await store('locations', 'create', '--name', 'Efímero', '--json')).stdout) as LocationJson;
    const no = await runOnTerminal(['locations', 'delete', created.id], env, [{ when: `Delete location "Efímero" (id ${created.id}`, send: 'n\r' }]);
    expect(no.code).toBe(0);
    expect(no.output).toContain('Nothing deleted.');
    expect((await listJson()).some((l) => l.id === created.id)).toBe(true);
    const yes = await runOnTerminal(['locations', 'delete', created.id], env, [{ when: `Delete location "Efímero" (id ${created.id}`, send: 'y\r' }]);
    expect(yes.code).toBe(0);
    expect((await listJson()).some((l) => l.id === created.id)).toBe(false);
  });
});

describe('store locations create over the plan limit', () => {
  let limited: { sandbox: RunningSandbox; env: NodeJS.ProcessEnv };
  beforeAll(async () => {
    limited = await sandboxEnv('b');
  });
  afterAll(() => limited?.sandbox.close());

  it('names the plan and its limit (exit 2)', async () => {
    const res = await runInProcess(['locations', 'create', '--name', 'Tercera'], { env: limited.env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('The store\'s plan "b" allows 2 locations');
    expect(res.stdout).toBe('');
  });
});
