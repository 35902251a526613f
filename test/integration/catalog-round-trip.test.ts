import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { type TestSandbox, clientFor, cliEnv, requestRecorder, writesOf } from '../helpers/sandbox.js';

/**
 * Round trips of a catalog through `products export` and `products import` against the demo sandbox: odd text
 * (CR, LF, CRLF, leading and trailing line breaks, formulas after a line break) reads back byte-identical.
 */

let sandbox: RunningSandbox;
let api: TestSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;
const recorder = requestRecorder();

const ODD_NAMES = ['Bare\rCR', 'Line\nfeed', 'Windows\r\nbreak', '\nLeading break', 'Trailing break\r\n', 'Harmless\n=1+1', 'Tab\n\t=2', '=HYPERLINK("x")'];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'round-trip-'));
  sandbox = await startSandbox({ seed: 'demo', rate: 'off', onRequest: recorder.onRequest });
  api = clientFor(sandbox);
  env = cliEnv(sandbox, 'round-trip');
  for (const [i, name] of ODD_NAMES.entries()) {
    const r = await api.post('/products', { name: { es: name }, handle: { es: `odd-${i}` }, sku: `ODD-${i}`, price: '10.00' });
    expect(r.status, r.text).toBe(201);
  }
});
afterAll(async () => {
  await sandbox?.close();
});

describe('odd text round trips', () => {
  it('exports names with CR, LF, CRLF and formulas after a line break so that the import reads them back with 0 writes', async () => {
    for (const format of ['canonical', 'admin']) {
      const file = join(dir, `odd-${format}.csv`);
      const exported = await runInProcess(['products', 'export', file, '--format', format], { env });
      expect(exported.code, exported.stderr).toBe(0);
      recorder.take();
      const imported = await runInProcess(['products', 'import', file], { env });
      expect(imported.code, imported.stderr).toBe(0);
      expect(writesOf(recorder.take()), format).toEqual([]);
      expect(imported.stdout).toMatch(/0 created, 0 updated/);
    }
  });

  it('opens in a spreadsheet-compatible reader with every name in its own cell and no line of any cell starting a formula', async () => {
    const text = readFileSync(join(dir, 'odd-canonical.csv'), 'utf8');
    const rows: string[][] = parse(text, { relax_column_count: false });
    const header = rows[0]!;
    const name = header.findIndex((h) => h === 'name' || h === 'name:es');
    const sku = header.indexOf('sku');
    const bySku = new Map(rows.slice(1).map((r) => [r[sku]!, r[name]!]));
    for (const [i, original] of ODD_NAMES.entries()) {
      const cell = bySku.get(`ODD-${i}`)!;
      // The reader sees the name's line breaks exactly; only a quote before a formula was added.
      expect(cell.replaceAll("'", '')).toBe(original.replaceAll("'", ''));
    }
    for (const row of rows) {
      for (const cell of row) {
        if (/^-?\d+(\.\d+)?$/.test(cell)) continue;
        for (const line of cell.split(/\r\n|\r|\n/)) expect(line, JSON.stringify(cell)).not.toMatch(/^[=+\-@\t]/);
        expect(cell).not.toMatch(/^\r/);
      }
    }
  });
});
