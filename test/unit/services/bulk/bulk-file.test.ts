import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BulkFile, type BulkFileEvent } from '../../../../src/services/bulk/bulk-file.js';
import { parseMapFlag } from '../../../../src/services/bulk/column-map.js';
import { type ReportRow, writeReport } from '../../../../src/services/bulk/report.js';
import { formatRowError } from '../../../../src/services/bulk/row-error.js';

const dir = mkdtempSync(join(tmpdir(), 'bulk-file-'));
let n = 0;
function file(content: string | Buffer, name = `f${n++}.csv`): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function open(path: string, options: Parameters<typeof BulkFile.open>[1] = {}): Promise<BulkFile> {
  const opened = await BulkFile.open(path, options);
  if ('problem' in opened) throw new Error(opened.problem.message);
  return opened;
}

async function events(bulk: BulkFile): Promise<BulkFileEvent[]> {
  const out: BulkFileEvent[] = [];
  for await (const e of bulk.read()) out.push(e);
  return out;
}

describe('the bulk file model', () => {
  it('reads the header and the rows; skips blank rows (before the header too) and trailing nameless columns, saying so once each', async () => {
    const notices: string[] = [];
    const bulk = await open(file('\n;;;\nsku;stock;;\nA;1;;\n;;;\n\nB;2\n'), { onNotice: (x) => notices.push(x) });
    const read = await events(bulk);
    expect(read).toEqual([
      { kind: 'header', header: { line: 3, columns: [{ index: 0, header: 'sku', name: 'sku' }, { index: 1, header: 'stock', name: 'stock' }] } },
      { kind: 'row', line: 4, cells: ['A', '1', '', ''], problems: [] },
      // A row that stops at the last named column is whole: the nameless ones are not columns.
      { kind: 'row', line: 7, cells: ['B', '2'], problems: [] },
    ]);
    expect(notices.map((x) => x.replace(/f\d+/, 'f'))).toEqual([
      'f.csv: columns 3–4 have no name in the header and are skipped.',
      'f.csv: 4 blank rows skipped (lines 1, 2, 5, 6).',
    ]);
    expect(bulk.delimiter).toBe(';');
  });

  it('reports data under no column name, too few cells, a nameless column in the middle and a name twice', async () => {
    const bulk = await open(file('sku,stock,,\nA,1,,x\nB\n', 'shape.csv'));
    const rows = (await events(bulk)).flatMap((e) => (e.kind === 'row' ? e.problems : []));
    expect(rows.map(formatRowError)).toEqual([
      'shape.csv, line 2, column 4: the cell holds "x" but its column has no name in the header; name the column, or clear the cell',
      'shape.csv, line 3, column 2: the row has 1 cells but the header has 2 columns; a row has a cell for every column (blank for none)',
    ]);
    const header = await open(file('sku,,stock,SKU\n', 'header.csv'));
    const problems = (await events(header)).flatMap((e) => (e.kind === 'problem' ? [formatRowError(e.error)] : []));
    expect(problems).toEqual([
      'header.csv, line 1, column 2: the header cell is empty; give the column a name, or delete the column',
      'header.csv, line 1, column 4 (SKU): the column appears twice (also column 1); keep one of them',
    ]);
  });

  it('reads columns under the names --map gives, leaves out one mapped to nothing, and reads a tab-separated file', async () => {
    const bulk = await open(file('Código\tDescripción\tExistencia\nA\tCamisa\t3\n'), { map: parseMapFlag('Código=sku,Descripción=,Existencia=stock') });
    const [header] = await events(bulk);
    expect(header).toEqual({ kind: 'header', header: { line: 1, columns: [{ index: 0, header: 'Código', name: 'sku' }, { index: 2, header: 'Existencia', name: 'stock' }] } });
    expect(bulk.delimiter).toBe('\t');
  });
});

describe('--report', () => {
  const rows: ReportRow[] = [
    { line: 2, key: 'A', stage: 'validation', reason: 'stock "tres" is not a number', column: 2, header: 'Existencia' },
    { line: 2, key: 'A', stage: 'validation', reason: 'the price is negative', column: 3, header: 'Precio' },
    { line: 4, key: 'C', stage: 'request', reason: 'the store answered 500' },
    { line: 0, key: 'Z-9', stage: 'request', reason: 'zeroing failed' },
  ];

  it("repeats each failed row's own cells, then line, error and stage, with the input's delimiter and encoding", async () => {
    // Windows-1252 ("Código", "Camisón"), ";", CRLF, a formula-looking cell and a trailing nameless column.
    const input = file(Buffer.from('C\xf3digo;Existencia;Precio;;\r\nA;tres;-5;;\r\nB;1;10;;\r\nC;=1+1;20;;\r\n', 'latin1'), 'erp.csv');
    const bulk = await open(input, { map: parseMapFlag('Código=sku,Existencia=stock,Precio=price') });
    for await (const _ of bulk.read());
    const report = join(dir, 'erp-report.csv');
    await writeReport(report, { file: bulk, keyColumn: 'sku' }, rows);
    expect(readFileSync(report, 'utf8')).toBe(
      '\uFEFFCódigo;Existencia;Precio;line;error;stage\n' +
        'A;tres;-5;2;"column 2 (Existencia): stock ""tres"" is not a number | column 3 (Precio): the price is negative";validation\n' +
        "C;'=1+1;20;4;the store answered 500;request\n" +
        'Z-9;;;;zeroing failed;request\n',
    );
    // Fed back in (fixed or not), the report is read as the input was: its own columns, not line, error and stage.
    const again = await open(report, { map: parseMapFlag('Código=sku,Existencia=stock,Precio=price') });
    const read = await events(again);
    expect(read[0]).toEqual({
      kind: 'header',
      header: { line: 1, columns: [{ index: 0, header: 'Código', name: 'sku' }, { index: 1, header: 'Existencia', name: 'stock' }, { index: 2, header: 'Precio', name: 'price' }] },
    });
    expect(read.filter((e) => e.kind === 'row').map((e) => (e.kind === 'row' ? e.cells.slice(0, 3) : []))).toEqual([
      ['A', 'tres', '-5'],
      ['C', "'=1+1", '20'],
      ['Z-9', '', ''],
    ]);
    // Its report is the same shape again: the line, error and stage columns are replaced, not added.
    const second = join(dir, 'erp-report-2.csv');
    await writeReport(second, { file: again, keyColumn: 'sku' }, [{ line: 2, key: 'A', stage: 'validation', reason: 'still wrong' }]);
    expect(readFileSync(second, 'utf8')).toBe('\uFEFFCódigo;Existencia;Precio;line;error;stage\nA;tres;-5;2;still wrong;validation\n');
  });

  it("repeats every row of a product that was not done, so that it comes back whole", async () => {
    const input = file('handle,sku,stock\ncamisa,C-S,1\ncamisa,C-M,x\nmedias,M-1,2\n', 'catalog.csv');
    const bulk = await open(input);
    for await (const _ of bulk.read());
    const report = join(dir, 'catalog-report.csv');
    await writeReport(report, { file: bulk }, [{ line: 3, key: 'camisa', stage: 'validation', reason: 'stock "x" is not a number', column: 3, header: 'stock', lines: [2, 3] }]);
    expect(readFileSync(report, 'utf8')).toBe(
      'handle,sku,stock,line,error,stage\ncamisa,C-S,1,2,not done: its product failed on line 3,validation\ncamisa,C-M,x,3,"column 3 (stock): stock ""x"" is not a number",validation\n',
    );
  });
});
