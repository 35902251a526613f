import { fileURLToPath } from 'node:url';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMapFlag } from '../../../../src/services/bulk/column-map.js';
import { formatRowError } from '../../../../src/services/bulk/row-error.js';
import { type Catalog } from '../../../../src/services/catalog-files/catalog-model.js';
import { readCatalog } from '../../../../src/services/catalog-files/catalog.js';

const dir = (sub: string) => fileURLToPath(new URL(`../../../fixtures/csv/${sub}/`, import.meta.url));
const malformed = (name: string) => `${dir('malformed')}${name}`;
const valid = (name: string) => `${dir('valid')}${name}`;

/** Each malformed file, with the line, the column (when the problem is in one cell) and what the message says. */
const CORPUS: Record<string, { line: number; column?: number; says: RegExp }> = {
  'bad-quote-closing.csv': { line: 3, column: 5, says: /text follows the closing quote/ },
  'bad-quote-opening.csv': { line: 2, column: 5, says: /a `"` inside a cell/ },
  'unclosed-quote-end.csv': { line: 3, says: /never closed/ },
  'bom-crlf-text-price.csv': { line: 3, column: 6, says: /"diez" is not a number/ },
  'semicolon-negative-stock.csv': { line: 4, column: 7, says: /stock "-2" is negative/ },
  'missing-sku-column.csv': { line: 1, says: /no "sku" column/ },
  'missing-key-columns.csv': { line: 1, says: /neither a "handle" nor a "name" column/ },
  'unknown-column.csv': { line: 1, column: 5, says: /unknown column "colour"/ },
  'duplicate-column.csv': { line: 1, column: 5, says: /appears twice \(also column 4\)/ },
  'empty-header-cell.csv': { line: 1, column: 3, says: /header cell is empty/ },
  'duplicate-sku.csv': { line: 3, column: 5, says: /SKU "REM-S" is already used on line 2/ },
  'conflicting-product-rows.csv': { line: 3, column: 2, says: /different name on line 2/ },
  'negative-stock.csv': { line: 2, column: 7, says: /stock "-1" is negative/ },
  'text-in-price.csv': { line: 2, column: 6, says: /"ten" is not a number/ },
  'decimal-stock.csv': { line: 2, column: 7, says: /not a whole number/ },
  'huge-cell.csv': { line: 2, column: 3, says: /102400 characters; the limit is 65535/ },
  'empty.csv': { line: 1, says: /the file is empty/ },
  'bom-only.csv': { line: 1, says: /the file is empty/ },
  'header-only.csv': { line: 2, says: /a header but no rows/ },
  'binary.csv': { line: 3, says: /binary data/ },
  'too-many-cells.csv': { line: 2, column: 8, says: /the cell holds "extra" but its column has no name in the header; name the column, or clear the cell/ },
  'too-few-cells.csv': { line: 2, column: 6, says: /5 cells but the header has 7/ },
  'empty-handle.csv': { line: 2, column: 1, says: /handle is empty/ },
  'bad-handle.csv': { line: 2, column: 1, says: /not a URL slug.*remera-azul/ },
  'bad-image-url.csv': { line: 2, column: 3, says: /"ftp:\/\/example.com\/b.jpg" is not an http\(s\) URL/ },
  'empty-category-level.csv': { line: 2, column: 3, says: /empty category level/ },
  'option-value-without-name.csv': { line: 2, column: 3, says: /option 1 has a value but no name/ },
  'inconsistent-option-names.csv': { line: 3, column: 3, says: /option 1 is "Talle" on line 2 and "Color" here/ },
  'duplicate-variant.csv': { line: 3, says: /already has the variant S on line 2/ },
  'missing-option-value.csv': { line: 3, column: 4, says: /value of option "Talle" is empty/ },
  'no-options-two-rows.csv': { line: 3, says: /has no options \(line 2\)/ },
  'negative-price.csv': { line: 2, column: 6, says: /"-10.00" is negative/ },
  'multiline-then-error.csv': { line: 5, column: 5, says: /"cinco" is not a number/ },
  'admin-es-bad-price.csv': { line: 2, column: 6, says: /"\$ 1.200" is not a number/ },
  'shopify-negative-inventory.csv': { line: 2, column: 7, says: /stock "-3" is negative/ },
  'value-column-without-name.csv': { line: 1, column: 3, says: /option value column without its option name column/ },
  'empty-name-no-handle.csv': { line: 3, column: 1, says: /name is empty/ },
  // Money is never rounded: more than two decimals is refused, in every dialect, with the likely intent.
  'price-three-decimals.csv': { line: 2, column: 6, says: /"2\.500" has 3 decimals \(read with "\." as the decimal mark: 2\.500\).*2500\? use 2500 or 2500\.00/ },
  'admin-es-price-thousands-dot.csv': { line: 2, column: 6, says: /"2\.500" has 3 decimals.*2500\? use 2500 or 2500\.00/ },
  'admin-pt-price-below-cent.csv': { line: 2, column: 5, says: /"0,004" has 3 decimals \(read with "," as the decimal mark: 0\.004\).*Write 0\.00 or 0\.01/ },
  'shopify-price-three-decimals.csv': { line: 2, column: 6, says: /"10\.005" has 3 decimals.*10005\? use 10005 or 10005\.00/ },
  'price-too-large.csv': { line: 2, column: 6, says: /"10000000000000" is too large/ },
  'option-values-differ-by-case.csv': { line: 3, column: 4, says: /option "Talle" is "S" on line 2 and "s" here; the store does not tell values apart by case/ },
  'too-many-variants.csv': { line: 1002, says: /product "remera" has 1001 variants; a product holds at most 1000/ },
  'too-many-images.csv': { line: 2, says: /product "taza" has 251 images; a product holds at most 250/ },
  'nul-after-64k.csv': { line: 3001, says: /binary data \(a NUL byte at character 8\)/ },
};

describe('the malformed corpus', () => {
  it('has an expectation for every file, and at least 30 files', () => {
    const files = readdirSync(dir('malformed')).sort();
    expect(files).toEqual(Object.keys(CORPUS).sort());
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  for (const [name, expected] of Object.entries(CORPUS)) {
    it(`${name}: ${expected.says.source}`, async () => {
      const catalog = await readCatalog(malformed(name));
      expect(catalog.errors.length).toBeGreaterThan(0);
      const match = catalog.errors.find((e) => expected.says.test(e.message));
      expect(match, catalog.errors.map(formatRowError).join('\n')).toBeDefined();
      expect(match!.file).toBe(name);
      expect(match!.line).toBe(expected.line);
      if (expected.column !== undefined) expect(match!.column).toBe(expected.column);
      // The formatted sentence names file, line and column.
      const text = formatRowError(match!);
      expect(text).toContain(`${name}, line ${expected.line}`);
      if (expected.column !== undefined) expect(text).toContain(`column ${expected.column}`);
      // A product with a bad row is never part of what would be sent.
      for (const product of catalog.products) {
        for (const error of catalog.errors) expect(product.lines).not.toContain(error.line);
      }
    });
  }

  it('reports every error of a file, not just the first', async () => {
    const catalog = await readCatalog(malformed('bad-quote-opening.csv'));
    // The stray quote on line 2 and the text stock on line 3 are both reported.
    expect(catalog.errors.map((e) => e.line)).toEqual([2, 3]);
  });
});

function summary(catalog: Catalog) {
  return catalog.products.map((p) => ({
    key: p.key,
    name: p.name[''],
    description: p.description[''],
    categories: p.categories,
    optionNames: p.optionNames,
    variants: p.variants.map((v) => ({ sku: v.sku, values: v.values, stock: v.stock, ...v.decimals })),
  }));
}

describe('dialects', () => {
  it('reads a row without SKU (a variant the store holds with sku null): it is known by handle and option values', async () => {
    const catalog = await readCatalog(valid('without-sku.csv'));
    expect(catalog.errors).toEqual([]);
    expect(catalog.products[0]!.variants).toMatchObject([{ sku: '', values: ['S'], stock: 5 }]);
  });

  it('reads the canonical format', async () => {
    const catalog = await readCatalog(valid('canonical.csv'));
    expect(catalog.errors).toEqual([]);
    expect(catalog.dialect).toBe('canonical');
    expect(catalog.products.map((p) => p.key)).toEqual(['remera-lisa', 'taza-ceramica']);
    const [remera, taza] = catalog.products;
    expect(remera!.categories).toEqual([['Ropa', 'Remeras'], ['Ofertas']]);
    expect(remera!.images).toEqual([{ src: 'https://img.example.com/remera-1.jpg' }, { src: 'https://img.example.com/remera-2.jpg' }]);
    expect(remera!.optionNames).toEqual(['Talle', 'Color']);
    expect(remera!.variants.map((v) => v.values)).toEqual([['S', 'Blanco'], ['M', 'Blanco'], ['M', 'Negro']]);
    expect(remera!.variants[2]!.decimals).toEqual({ price: '12000.00', promotional_price: '10500.00', weight: '0.20' });
    expect(taza!.optionNames).toEqual([]);
    expect(taza!.variants).toHaveLength(1);
    expect(taza!.description['']).toBe('Taza de 350 ml, apta lavavajillas');
  });

  it('reads the Spanish admin export (BOM, CRLF, `;`, decimal commas) to the same catalog, reporting ignored columns once', async () => {
    const canonical = await readCatalog(valid('canonical.csv'));
    const admin = await readCatalog(valid('admin-es.csv'));
    expect(admin.errors).toEqual([]);
    expect(admin.dialect).toBe('admin-es');
    expect(summary(admin)).toEqual(summary(canonical));
    expect(admin.ignoredColumns.sort()).toEqual(
      ['Código de barras', 'Envío sin cargo', 'Marca', 'Mostrar en tienda', 'Producto Físico', 'Tags', 'Visibilidad'].sort(),
    );
  });

  it('reads the Portuguese admin export', async () => {
    const canonical = await readCatalog(valid('canonical.csv'));
    const admin = await readCatalog(valid('admin-pt.csv'));
    expect(admin.errors).toEqual([]);
    expect(admin.dialect).toBe('admin-pt');
    expect(summary(admin)).toEqual(summary(canonical));
    expect(admin.ignoredColumns).toContain('Exibir na loja');
  });

  it.each(['shopify.csv', 'shopify-new.csv'])(
    'reads a Shopify export (%s: older and newer header spellings): image rows, compare-at prices, grams, Default Title',
    async (name) => {
      const catalog = await readCatalog(valid(name));
      expect(catalog.errors).toEqual([]);
      expect(catalog.dialect).toBe('shopify');
      const canonical = await readCatalog(valid('canonical.csv'));
      // Shopify has no category column of ours: the rest is the same catalog.
      expect(summary(catalog).map((p) => ({ ...p, categories: undefined }))).toEqual(
        summary(canonical).map((p) => ({ ...p, categories: undefined })),
      );
      // Image Position is read with its Image Src.
      expect(catalog.products[0]!.images).toEqual([{ src: 'https://img.example.com/remera-1.jpg', position: 1 }, { src: 'https://img.example.com/remera-2.jpg', position: 2 }]);
      expect(catalog.ignoredColumns).toContain('Vendor');
      // Present but always empty: not worth a mention.
      expect(catalog.ignoredColumns).not.toContain(name === 'shopify.csv' ? 'Variant Barcode' : 'Barcode');
    },
  );

  it('groups rows by the slug of the name without a handle column', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = `${mkdtempSync(`${tmpdir()}/import-csv-`)}/by-name.csv`;
    writeFileSync(path, 'name,option1_name,option1_value,sku,stock:Depósito,custom:Material\nCamisa Ñandú,Talle,S,C-S,3,Lino\nCamisa Ñandú,Talle,M,C-M,,\n');
    const catalog = await readCatalog(path);
    expect(catalog.errors).toEqual([]);
    expect(catalog.products).toHaveLength(1);
    expect(catalog.products[0]!.key).toBe('camisa-nandu');
    expect(catalog.products[0]!.handleGiven).toBe(false);
    expect(catalog.locationColumns).toEqual(['Depósito']);
    expect(catalog.customColumns).toEqual(['Material']);
    expect(catalog.products[0]!.variants[0]!.stockAt).toEqual({ Depósito: 3 });
    expect(catalog.products[0]!.variants[1]!.stockAt).toEqual({});
    expect(catalog.products[0]!.variants[0]!.custom).toEqual({ Material: 'Lino' });
  });
});

describe('files as they come', () => {
  it('reads Windows-1252 and UTF-16 (with a byte order mark or without), each as the same catalog, saying how when it is not UTF-8', async () => {
    const notices: string[] = [];
    const onNotice = (n: string) => notices.push(n);
    const cp1252 = await readCatalog(valid('windows-1252.csv'), { onNotice });
    expect(cp1252.errors).toEqual([]);
    expect(cp1252.products[0]!.name['']).toBe('Camisa de algodón');
    expect(notices).toEqual(['windows-1252.csv is not UTF-8 (line 2 holds the byte 0xF3): read as Windows-1252, as Excel saves CSV on Windows (--encoding chooses another).']);
    notices.length = 0;
    const bom = await readCatalog(valid('utf16-bom.csv'), { onNotice });
    const noBom = await readCatalog(valid('utf16-no-bom.csv'), { onNotice });
    expect(summary(bom)).toEqual([{ key: 'remera', name: 'Remera', description: undefined, categories: undefined, optionNames: [], variants: [{ sku: 'REM-S', values: [], stock: undefined, price: '10.00' }] }]);
    expect(summary(noBom)).toEqual(summary(bom));
    // A byte order mark says it all; without one, how the file was read is said.
    expect(notices).toEqual(['utf16-no-bom.csv has no byte order mark but every other byte is NUL: read as UTF-16LE (--encoding chooses another).']);
  });

  it('--encoding utf-8 on a Windows-1252 file: the cells with other bytes are errors that say what to do', async () => {
    const catalog = await readCatalog(valid('windows-1252.csv'), { encoding: 'utf-8' });
    expect(catalog.errors.map(formatRowError)).toEqual([
      'windows-1252.csv, line 2, column 2 (name): the text is not valid UTF-8 (the file looks like Windows-1252 or Latin-1); leave out --encoding utf-8 to read it as Windows-1252, or save the file as UTF-8',
    ]);
  });

  it('skips blank rows and trailing nameless columns, says so once, and renames columns with --map', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    const path = join(dir, 'erp.csv');
    writeFileSync(path, 'Código;Nombre;Existencia;;\r\nCAM-1;Camisa;3;;\r\n;;;;\r\n\r\nCAM-2;Camisa 2;4;;\r\n');
    const notices: string[] = [];
    const catalog = await readCatalog(path, { map: parseMapFlag('Código=sku,Nombre=name,Existencia=stock'), onNotice: (n) => notices.push(n) });
    expect(catalog.errors).toEqual([]);
    expect(catalog.products.map((p) => [p.key, p.variants[0]!.sku, p.variants[0]!.stock])).toEqual([
      ['camisa', 'CAM-1', 3],
      ['camisa-2', 'CAM-2', 4],
    ]);
    expect(notices).toEqual(['erp.csv: columns 4–5 have no name in the header and are skipped.', 'erp.csv: 2 blank rows skipped (lines 3, 4).']);
    // An error names the column by the file's own header.
    writeFileSync(path, 'Código;Nombre;Existencia\nCAM-1;Camisa;tres\n');
    const invalid = await readCatalog(path, { map: parseMapFlag('Código=sku,Nombre=name,Existencia=stock') });
    expect(invalid.errors.map(formatRowError)).toEqual(['erp.csv, line 2, column 3 (Existencia): stock "tres" is not a number']);
  });
});

describe('line breaks inside quoted cells', () => {
  it('keeps CR, LF, CRLF and leading or trailing breaks of a quoted cell exactly, and counts lines as an editor does', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { readCsv } = await import('../../../../src/services/bulk/csv.js');
    const path = join(mkdtempSync(join(tmpdir(), 'csv-breaks-')), 'breaks.csv');
    // Records end in CRLF (the admin dialect); cells hold every kind of break.
    writeFileSync(path, 'a,b\r\n"x\ry","\r\nlead"\r\n"trail\r\n",plain\r\n"a""\nb",z\rlast,row\r\n');
    const records: { line: number; cells: string[] }[] = [];
    for await (const e of readCsv(path)) if (e.kind === 'record') records.push({ line: e.line, cells: e.cells });
    expect(records).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x\ry', '\r\nlead'] },
      { line: 5, cells: ['trail\r\n', 'plain'] },
      { line: 7, cells: ['a"\nb', 'z'] },
      { line: 9, cells: ['last', 'row'] },
    ]);
  });
});

describe('the baseline column of an export', () => {
  async function read(text: string) {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const path = join(mkdtempSync(join(tmpdir(), 'baseline-')), 'catalog.csv');
    writeFileSync(path, text);
    return readCatalog(path);
  }
  const baseline = (cells: Record<string, string>) => `"${JSON.stringify({ p: 4, v: 16, c: cells }).replaceAll('"', '""')}"`;

  it('marks the cells still holding their exported text as unedited, and only those', async () => {
    const catalog = await read(`handle,name,sku,price,stock,baseline\nremera,Remera,REM-1,120.00,30,${baseline({ name: 'Remera', price: '100.00', stock: '30' })}\n`);
    const v = catalog.products[0]!.variants[0]!;
    expect(v.baseline).toMatchObject({ product: 4, variant: 16 });
    expect(v.baseline!.unedited.map((u) => [u.header, u.exported])).toEqual([['name', 'Remera'], ['stock', '30']]);
  });

  it('keeps a long text as its digest: the same text is unedited, an edited one is not', async () => {
    const { baselineDigest } = await import('../../../../src/services/catalog-files/dialects.js');
    const long = 'Una remera de algodón peinado, corte clásico.';
    const cells = { description: { d: baselineDigest(long) }, name: { d: baselineDigest('A name longer than the limit') } } as unknown as Record<string, string>;
    const catalog = await read(`handle,name,description,sku,baseline\nremera,A name longer than the limit!,"${long}",REM-1,${baseline(cells)}\n`);
    expect(catalog.products[0]!.variants[0]!.baseline!.unedited.map((u) => [u.header, u.exported])).toEqual([['description', long]]);
  });

  it('is no baseline (the file wins) when blank or mangled', async () => {
    const rows = ['remera,Remera,REM-1,100.00,30,', 'remera-2,Remera,REM-2,100.00,30,{not json', 'remera-3,Remera,REM-3,100.00,30,"{""p"":""x""}"'];
    const catalog = await read(`handle,name,sku,price,stock,baseline\n${rows.join('\n')}\n`);
    expect(catalog.errors).toEqual([]);
    expect(catalog.products.map((p) => p.variants[0]!.baseline)).toEqual([undefined, undefined, undefined]);
  });
});

describe('the command column', () => {
  it('is read in the admin dialect as "Comando", with its Spanish words; DELETE and IGNORE rows are not read further', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'catalog-command-'));
    const path = join(folder, 'admin.csv');
    writeFileSync(
      path,
      [
        'Identificador de URL;Nombre;SKU;Precio;Comando',
        'remera;Remera;REM-1;10;Actualizar',
        'buzo;;;;ELIMINAR',
        'gorra;Gorra;GOR-1;no es un precio;ignorar',
        'campera;Campera;CAM-1;20;',
        '',
      ].join('\n'),
    );
    const catalog = await readCatalog(path);
    expect(catalog.errors).toEqual([]);
    expect(catalog.dialect).toBe('admin-es');
    expect(catalog.ignoredRows).toBe(1);
    expect(catalog.products.map((p) => [p.key, p.variants.map((v) => v.command ?? 'MERGE'), p.deletes.map((d) => d.product)])).toEqual([
      ['remera', ['UPDATE'], []],
      ['buzo', [], [true]],
      ['campera', ['MERGE'], []],
    ]);
  });
});
