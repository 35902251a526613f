import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapHeader, parseMapFlag, readMapFile } from '../../../../src/services/bulk/column-map.js';

describe('--map and --map-file', () => {
  it('renames the file columns it names, case and accents aside, and leaves out a column mapped to nothing', () => {
    const mappings = parseMapFlag('codigo=sku, Existencia = stock,Descripción=');
    expect(mapHeader(['Código', 'Descripción', 'EXISTENCIA', 'Precio'], mappings, 'stock.csv')).toEqual(['sku', undefined, 'stock', 'Precio']);
  });

  it('refuses a name the file lacks, a column mapped twice and a pair without "="', () => {
    expect(() => mapHeader(['Código', 'Stock'], parseMapFlag('Cod=sku'), 'stock.csv')).toThrow(
      '--map: stock.csv has no column "Cod" (its columns: "Código", "Stock").',
    );
    expect(() => mapHeader(['Código'], parseMapFlag('Código=sku,codigo=stock'), 'f.csv')).toThrow('column "codigo" is mapped twice (also by --map)');
    expect(() => parseMapFlag('Código')).toThrow('"Código" must look like FILE_COLUMN=COLUMN');
    expect(() => parseMapFlag(' , ')).toThrow('--map needs pairs');
  });

  it('reads a map file line by line, in UTF-8 or Windows-1252, skipping comments and blank lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'map-'));
    const path = join(dir, 'erp.map');
    // "Código=sku" in Windows-1252 (ó is 0xF3), as Notepad's "ANSI" saves it.
    writeFileSync(path, Buffer.concat([Buffer.from('# ERP columns\r\nC'), Buffer.from([0xf3]), Buffer.from('digo=sku\r\n\r\nExistencia=stock\r\n')]));
    const mappings = await readMapFile(path);
    expect(mappings).toEqual([
      { from: 'Código', to: 'sku', source: '--map-file erp.map, line 2' },
      { from: 'Existencia', to: 'stock', source: '--map-file erp.map, line 4' },
    ]);
    await expect(readMapFile(join(dir, 'missing.map'))).rejects.toThrow(/--map-file: cannot read .*missing.map: no such file/);
  });
});
