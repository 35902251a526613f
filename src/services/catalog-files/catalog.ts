import { basename, dirname, resolve } from 'node:path';
import { slug } from '../../platform/slug.js';
import { BulkFile, type FileHeader } from '../bulk/bulk-file.js';
import type { RowError } from '../bulk/row-error.js';
import { MAX_IMAGES, MAX_VARIANTS } from '../../platform/catalog.js';
import { type Column, type Dialect, baselineDigest, detectDialect, mapColumns } from './dialects.js';
import type { Catalog, ReadCatalogOptions, RowBaseline, VariantSpec } from './catalog-model.js';
import { type ColumnIndex, type Draft, type Problem, type Row, type RowContext, type RowState, indexColumns } from './catalog-rows.js';
import { cellValue, compactVariant, readCell, settleShopifyPrice } from './catalog-cells.js';
import { readOptions } from './catalog-options.js';
import { settleImageDetails } from './catalog-images.js';
import { type RowCommand, readCommand } from './commands.js';

/**
 * The catalog file read and validated (docs/csv.md, "Catalog"): rows grouped into products, every value checked and
 * normalised, and every problem reported with file, line and column. Nothing here talks to the store;
 * checks that need the store (locations, custom fields, SKUs of other products) belong to the planner.
 */

export async function readCatalog(path: string, options: ReadCatalogOptions = {}): Promise<Catalog> {
  const file = options.name ?? basename(path);
  const errors: RowError[] = [];
  const catalog: Catalog = {
    file,
    dialect: 'canonical',
    products: [],
    errors,
    invalidProducts: [],
    ignoredColumns: [],
    locationColumns: [],
    customColumns: [],
    headers: [],
    rows: 0,
  };

  let columns: Column[] | undefined;
  let byKind: ReturnType<typeof indexColumns> | undefined;
  const drafts = new Map<string, Draft>();
  const skus = new Map<string, number>();
  const ignoredWithData = new Set<number>();
  const imagesBase = options.imagesDir !== undefined ? resolve(options.imagesDir) : path === '-' ? process.cwd() : dirname(resolve(path));
  const ctx: RowContext = { drafts, skus, ignoredRows: 0, imagesBase, ignoredWithData, fail: (e) => fail(e) };
  let headerBroken = false;

  const fail = (e: Omit<RowError, 'file'>): void => {
    errors.push({ file, ...e });
  };

  const opened = await BulkFile.open(path, options, file);
  if ('problem' in opened) {
    catalog.errors.push(opened.problem);
    return catalog;
  }
  catalog.source = opened;
  let headerLine = 1;
  for await (const event of opened.read()) {
    if (event.kind === 'problem') {
      errors.push(event.error);
      if (!columns || event.error.line <= headerLine) headerBroken = true;
      continue;
    }
    if (event.kind === 'header') {
      headerLine = event.header.line;
      columns = readHeader(event.header, catalog, options, fail);
      byKind = indexColumns(columns);
      if (!checkRequiredColumns(columns, catalog.dialect, headerLine, fail)) headerBroken = true;
      continue;
    }
    if (headerBroken || !columns) continue;
    catalog.rows++;
    readRow(event, columns!, byKind!, catalog.dialect, ctx);
  }
  catalog.ignoredRows = ctx.ignoredRows;

  if (!columns && errors.length === 0) fail({ line: 1, message: 'the file is empty; expected a header row' });
  if (columns && !headerBroken && catalog.rows === 0 && !errors.some((e) => e.line > headerLine)) {
    fail({ line: headerLine + 1, message: 'the file has a header but no rows; add a row per variant' });
  }

  // Reported once: an unknown column let through by --ignore-unknown-columns is listed from the header already.
  for (const index of ignoredWithData) {
    const header = columns!.find((c) => c.index === index)!.header;
    if (!catalog.ignoredColumns.includes(header)) catalog.ignoredColumns.push(header);
  }
  // The store holds at most MAX_VARIANTS per product: refused here, not after the first thousand are created.
  for (const [key, draft] of drafts) {
    if (draft.variantLines.length > MAX_VARIANTS) {
      fail({
        line: draft.variantLines[MAX_VARIANTS]!,
        key,
        message: `product "${key}" has ${draft.variantLines.length} variants; a product holds at most ${MAX_VARIANTS}`,
      });
      draft.invalid = true;
    }
    // A product deleted is not written too: which of the two was meant is the user's to say.
    const productDelete = draft.spec.deletes.find((d) => d.product);
    const others = [...draft.variantLines, ...draft.spec.deletes.filter((d) => !d.product).map((d) => d.line)].sort((a, b) => a - b);
    if (productDelete && others.length > 0) {
      fail({
        line: productDelete.line,
        key,
        message: `product "${key}" is deleted on this line but line ${others.join(', ')} also ${others.length === 1 ? 'names' : 'name'} it; keep only the DELETE row, or give the variants to delete their SKUs`,
      });
      draft.invalid = true;
    }
    // Nor more than MAX_IMAGES images: the 251st would be refused after 250 had been sent.
    if (draft.spec.images.length > MAX_IMAGES) {
      fail({ line: draft.spec.line, key, message: `product "${key}" has ${draft.spec.images.length} images; a product holds at most ${MAX_IMAGES}` });
      draft.invalid = true;
    }
  }
  const invalidKeys = new Set<string>();
  for (const error of errors) if (error.key && drafts.has(error.key)) invalidKeys.add(error.key);
  // A problem of the text itself (a NUL byte past the sniffed head) names a line, not a product.
  const unkeyedLines = new Set(errors.filter((e) => !e.key && e.line > headerLine).map((e) => e.line));
  if (unkeyedLines.size > 0) {
    for (const [key, draft] of drafts) if (draft.spec.lines.some((l) => unkeyedLines.has(l))) invalidKeys.add(key);
  }
  for (const [key, draft] of drafts) {
    if (draft.invalid || invalidKeys.has(key)) catalog.invalidProducts.push({ key, lines: draft.spec.lines });
    else catalog.products.push(draft.spec);
  }
  errors.sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
  catalog.headerBroken = headerBroken || !columns;
  return catalog;
}

function readHeader(
  header: FileHeader,
  catalog: Catalog,
  options: ReadCatalogOptions,
  fail: (e: Omit<RowError, 'file'>) => void,
): Column[] {
  // The names the columns are read under (--map applied); messages name each by the file's own header.
  const names = header.columns.map((c) => c.name);
  catalog.headers = names;
  catalog.dialect = detectDialect(names);
  const fields = mapColumns(catalog.dialect, names);
  const columns: Column[] = header.columns.map((c, i) => ({ index: c.index, header: c.header, field: fields[i]!.field }));
  for (const [i, column] of columns.entries()) {
    const n = column.index + 1;
    if (column.field === undefined) {
      const name = names[i]!;
      if (options.ignoreUnknownColumns) {
        column.field = { kind: 'ignored' };
        catalog.ignoredColumns.push(column.header);
      } else {
        fail({
          line: header.line,
          column: n,
          header: column.header,
          message: `unknown column "${name}"; see docs/csv.md for the columns, rename it with --map '${column.header}=COLUMN', or skip it with --ignore-unknown-columns`,
        });
      }
    }
    if (column.field?.kind === 'stock' && column.field.location) catalog.locationColumns.push(column.field.location);
    if (column.field?.kind === 'custom') catalog.customColumns.push(column.field.name);
  }
  return columns;
}

function checkRequiredColumns(
  columns: Column[],
  dialect: Dialect,
  line: number,
  fail: (e: Omit<RowError, 'file'>) => void,
): boolean {
  const kinds = new Set(columns.map((c) => c.field?.kind));
  let ok = true;
  if (!kinds.has('sku')) {
    const sku = dialect === 'shopify' ? 'Variant SKU' : 'sku';
    fail({ line, message: `no "${sku}" column; every row needs a SKU (the variant's key): add the column, or name yours with --map 'YOUR_COLUMN=${sku}'` });
    ok = false;
  }
  if (!kinds.has('handle') && !columns.some((c) => c.field?.kind === 'name')) {
    fail({ line, message: 'neither a "handle" nor a "name" column, so rows cannot be grouped into products; add one, or name yours with --map' });
    ok = false;
  }
  for (const column of columns) {
    const field = column.field;
    if (field?.kind === 'optionValue' && !columns.some((c) => c.field?.kind === 'optionName' && c.field.index === field.index)) {
      fail({ line, column: column.index + 1, header: column.header, message: 'an option value column without its option name column' });
      ok = false;
    }
  }
  return ok;
}

function readRow(record: Row, columns: Column[], idx: ColumnIndex, dialect: Dialect, ctx: RowContext): void {
  const { line, cells } = record;
  // The row's shape and text, checked by the file model (bulk-file.ts).
  const problems: Problem[] = record.problems.map(({ file: _file, ...p }) => p);
  const at = (column: Column, message: string) => problems.push({ line, column: column.index + 1, header: column.header, message });
  const cell = (column: Column | undefined): string => (column ? cellValue(cells[column.index] ?? '', column.field) : '');
  const command = readRowCommand(idx, cell, dialect, line, problems);
  if (command === 'IGNORE') {
    ctx.ignoredRows++;
    return;
  }
  const key = productKey(idx, cell, line, problems, at);
  if (command === 'DELETE') return readDeleteRow(key, idx, cell, line, problems, ctx);
  // Shopify lists extra images of a product on rows of their own: handle and Image Src, nothing else.
  const sku = cell(idx.sku);
  const shopifyImageRow =
    dialect === 'shopify' && sku === '' && idx.optionValues.every((c) => cell(c) === '') &&
    columns.every((c) => c.field?.kind !== 'shopifyPrice' || cell(c) === '');

  const draft = key ? draftOf(ctx.drafts, key, idx, line) : undefined;
  draft?.spec.lines.push(line);
  const row: RowState = {
    line,
    dialect,
    draft,
    variant: { line, sku, values: [], decimals: {}, texts: {}, stockAt: {}, custom: {} },
    optionNames: [],
    optionValues: [],
    at,
  };
  for (const column of columns) {
    const value = cell(column);
    if (column.field && value !== '') readCell(row, column, column.field, value, ctx);
  }
  settleShopifyPrice(row);
  settleImageDetails(row);
  if (command !== undefined && command !== 'MERGE') row.variant.command = command;
  if (command === 'REPLACE') row.variant.cleared = blankFields(columns, cell);
  if (idx.baseline) row.variant.baseline = readBaseline(cell(idx.baseline), columns, cell);

  if (!shopifyImageRow) {
    draft?.variantLines.push(line);
    if (draft) readOptions(draft, row, columns, idx, problems);
    // A blank SKU is a variant without SKU (docs/platform.md §3: `sku: null` exists); it is matched by its product's
    // handle and its option values, and its SKU is left as it is.
    if (sku !== '') {
      const earlier = ctx.skus.get(sku);
      if (earlier !== undefined) at(idx.sku!, `SKU "${sku}" is already used on line ${earlier}; SKUs must be unique in the file`);
      else ctx.skus.set(sku, line);
    }
  }

  for (const p of problems) ctx.fail({ ...p, key: key || undefined });
  if (problems.length > 0 && draft) draft.invalid = true;
  if (!shopifyImageRow && draft && problems.length === 0) draft.spec.variants.push(compactVariant(row.variant));
}

/** The row's `command` cell (commands.ts): undefined when blank, or when invalid (then a problem says why). */
function readRowCommand(
  idx: ColumnIndex,
  cell: (column: Column | undefined) => string,
  dialect: Dialect,
  line: number,
  problems: Problem[],
): RowCommand | undefined {
  const text = cell(idx.command);
  if (text === '') return undefined;
  const command = readCommand(text, dialect);
  if (typeof command === 'string') return command;
  problems.push({ line, column: idx.command!.index + 1, header: idx.command!.header, message: command.error });
  return undefined;
}

/**
 * A DELETE row: only its product key, SKU and option values are read (its other cells say nothing about what
 * goes). Without SKU and option values it deletes the product, otherwise the variant they name.
 */
function readDeleteRow(
  key: string,
  idx: ColumnIndex,
  cell: (column: Column | undefined) => string,
  line: number,
  problems: Problem[],
  ctx: RowContext,
): void {
  const sku = cell(idx.sku);
  const values = idx.optionValues.map((c) => cell(c));
  while (values.length > 0 && values[values.length - 1] === '') values.pop();
  if (sku !== '') {
    const earlier = ctx.skus.get(sku);
    if (earlier !== undefined) problems.push({ line, column: idx.sku!.index + 1, header: idx.sku!.header, message: `SKU "${sku}" is already used on line ${earlier}; SKUs must be unique in the file` });
    else ctx.skus.set(sku, line);
  }
  const draft = key ? draftOf(ctx.drafts, key, idx, line) : undefined;
  for (const p of problems) ctx.fail({ ...p, key: key || undefined });
  if (!draft) return;
  draft.spec.lines.push(line);
  if (problems.length > 0) draft.invalid = true;
  else draft.spec.deletes.push({ line, product: sku === '' && values.length === 0, sku, values });
}

/** REPLACE: the variant fields whose column the file has and the row leaves blank (price and stock aside: a variant always has them). */
function blankFields(columns: Column[], cell: (column: Column | undefined) => string): NonNullable<VariantSpec['cleared']> {
  const cleared: NonNullable<VariantSpec['cleared']> = [];
  for (const column of columns) {
    const field = column.field;
    if (field?.kind !== 'decimal' && field?.kind !== 'text') continue;
    if (field.field === 'price' || cell(column) !== '' || cleared.includes(field.field)) continue;
    cleared.push(field.field);
  }
  return cleared;
}

/**
 * The row's `baseline` cell (JSON written by export: `p` product and `v` variant ids, `c` the exported text of
 * the columns the store can change). A blank or mangled cell is no baseline: the file wins. Whether the row
 * still names that product and variant (not a row copied to make another) is checked against the store
 * (baseline.ts).
 */
function readBaseline(
  text: string,
  columns: Column[],
  cell: (column: Column | undefined) => string,
): RowBaseline | undefined {
  if (text === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const b = parsed as { p?: unknown; v?: unknown; c?: unknown };
  if (typeof b !== 'object' || b === null || !Number.isSafeInteger(b.p) || !Number.isSafeInteger(b.v)) return undefined;
  if (typeof b.c !== 'object' || b.c === null) return undefined;
  const unedited: RowBaseline['unedited'] = [];
  for (const [header, exported] of Object.entries(b.c as Record<string, unknown>)) {
    const column = columns.find((c) => c.header === header);
    if (!column?.field) continue;
    const text = cell(column);
    // A long text is kept as its digest: the cell is unedited when its digest is the same.
    const digest = typeof exported === 'object' && exported !== null ? (exported as { d?: unknown }).d : undefined;
    if (text === exported || (typeof digest === 'string' && text !== '' && baselineDigest(text) === digest)) unedited.push({ header, field: column.field, exported: text });
  }
  return { product: b.p as number, variant: b.v as number, unedited };
}

/** The key of the product the row belongs to: its handle, or without a handle column the slug of its name. */
function productKey(
  idx: ColumnIndex,
  cell: (column: Column | undefined) => string,
  line: number,
  problems: Problem[],
  at: (column: Column, message: string) => void,
): string {
  const handle = cell(idx.handle);
  if (idx.handle) {
    if (handle === '') problems.push({ line, column: idx.handle.index + 1, header: idx.handle.header, message: 'the handle is empty; every row names its product' });
    else if (handle !== slug(handle)) at(idx.handle, `the handle "${handle}" is not a URL slug (lower case letters, digits and "-"; e.g. "${slug(handle)}")`);
    return handle;
  }
  const nameColumn = idx.names[0]!;
  const mainName = cell(idx.names.find((c) => c.field?.kind === 'name' && c.field.lang === '') ?? nameColumn);
  const key = slug(mainName);
  if (mainName === '') problems.push({ line, column: nameColumn.index + 1, header: nameColumn.header, message: 'the name is empty; without a handle column the name is the product key' });
  else if (key === '') problems.push({ line, column: nameColumn.index + 1, header: nameColumn.header, message: `the name "${mainName}" gives an empty handle; add a handle column` });
  return key;
}

/** The product being gathered under `key`, started on its first row. */
function draftOf(drafts: Map<string, Draft>, key: string, idx: ColumnIndex, line: number): Draft {
  let draft = drafts.get(key);
  if (!draft) {
    draft = {
      spec: {
        key,
        handleGiven: Boolean(idx.handle),
        line,
        lines: [],
        name: {},
        description: {},
        images: [],
        optionNames: [],
        optionsGiven: idx.optionNames.length > 0,
        variants: [],
        deletes: [],
      },
      invalid: false,
      firstSeen: new Map(),
      combos: new Map(),
      spellings: new Map(),
      variantLines: [],
    };
    drafts.set(key, draft);
  }
  return draft;
}
