import { basename } from 'node:path';
import { slug } from '../../platform/slug.js';
import { unescapeFormula } from '../../output/format.js';
import { readMoney } from '../common/money.js';
import { readCsv } from '../bulk/csv.js';
import type { RowError } from '../bulk/row-error.js';
import { MAX_IMAGES, MAX_VARIANTS } from '../../platform/catalog.js';
import {
  type Column,
  type ColumnField,
  type DecimalField,
  type Dialect,
  type TextField,
  baselineDigest,
  categorySeparator,
  detectDialect,
  mapColumns,
} from './dialects.js';

/**
 * The catalog file read and validated (docs/csv.md, "Catalog"): rows grouped into products, every value checked and
 * normalised, and every problem reported with file, line and column. Nothing here talks to the store;
 * checks that need the store (locations, custom fields, SKUs of other products) belong to the planner.
 */

export interface VariantSpec {
  line: number;
  /** '' when the row gives no SKU: the variant is then known by its product and option values. */
  sku: string;
  /** Option values, in the order of the product's option names. */
  values: string[];
  decimals: Partial<Record<DecimalField, string>>;
  texts: Partial<Record<TextField, string>>;
  /** Stock at the default location. */
  stock?: number;
  /** Stock per location, keyed by the location's name or id as written in the header. */
  stockAt: Record<string, number>;
  /** Custom field values, keyed by field name. */
  custom: Record<string, string>;
  /** The row's `baseline` cell, when it came from `products export` and still names this row (baseline.ts). */
  baseline?: RowBaseline;
}

/**
 * What `products export` wrote in a row's `baseline` cell: the store's product and variant, and the columns
 * whose cell still holds the exported text (the user did not edit them), with that text.
 */
export interface RowBaseline {
  product: number;
  variant: number;
  unedited: { header: string; field: ColumnField; exported: string }[];
}

export interface ProductSpec {
  /** The product's key: its handle, or the slug of its name without a handle column. */
  key: string;
  /** True when the handle came from a handle column (then it is also sent on create). */
  handleGiven: boolean;
  line: number;
  lines: number[];
  /** Non-blank names by language; '' is the store's main language. */
  name: Record<string, string>;
  description: Record<string, string>;
  /** Category paths (levels from the root), when the cell is not blank. */
  categories?: string[][];
  images: string[];
  /** Option names; empty for a product without variations. */
  optionNames: string[];
  /** False when the file has no option columns: rows are variants known by SKU, options unknown. */
  optionsGiven: boolean;
  variants: VariantSpec[];
}

export interface Catalog {
  file: string;
  dialect: Dialect;
  /** Valid products, in the order of their first row. */
  products: ProductSpec[];
  errors: RowError[];
  /** Keys of products left out because one of their rows is invalid. */
  invalidProducts: { key: string; lines: number[] }[];
  /** Columns read but not imported (no API counterpart, or unknown with --ignore-unknown-columns). */
  ignoredColumns: string[];
  /** Header names of `stock:<location>` and `custom:<field>` columns, for the planner to resolve. */
  locationColumns: string[];
  customColumns: string[];
  /** The header row's cells, trimmed (what `--only` names). */
  headers: string[];
  rows: number;
}

export interface ReadCatalogOptions {
  ignoreUnknownColumns?: boolean;
}

/** A cell longer than this is almost certainly a broken file (a quote that swallowed many lines). */
const MAX_CELL_LENGTH = 65_535;

const DECIMAL = /^\d+(?:[.,]\d+)?$/;
const INTEGER = /^\d+$/;

interface Row {
  line: number;
  cells: string[];
}

interface Draft {
  spec: ProductSpec;
  invalid: boolean;
  /** Line on which each product-level value was first given, for conflict messages. */
  firstSeen: Map<string, { value: string; line: number }>;
  combos: Map<string, number>;
  /** First spelling of each option value, keyed by option index and lower case: the store compares without case. */
  spellings: Map<string, { value: string; line: number }>;
  /** Lines of the rows that are variants (not Shopify's image-only rows). */
  variantLines: number[];
}

export async function readCatalog(path: string, options: ReadCatalogOptions = {}): Promise<Catalog> {
  const file = basename(path);
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
  let headerBroken = false;

  const fail = (e: Omit<RowError, 'file'>): void => {
    errors.push({ file, ...e });
  };

  for await (const event of readCsv(path)) {
    if (event.kind === 'problem') {
      const column = event.column !== undefined ? event.column + 1 : undefined;
      fail({ line: event.line, column, header: column ? columns?.[column - 1]?.header : undefined, message: event.message });
      if (!columns || event.line <= 1) headerBroken = true;
      continue;
    }
    if (!columns) {
      columns = readHeader(event, catalog, options, fail);
      byKind = indexColumns(columns);
      if (!checkRequiredColumns(columns, catalog.dialect, event.line, fail)) headerBroken = true;
      continue;
    }
    if (headerBroken) continue;
    catalog.rows++;
    readRow(event, columns, byKind!, catalog.dialect, { drafts, skus, ignoredWithData, fail });
  }

  if (!columns && errors.length === 0) fail({ line: 1, message: 'the file is empty; expected a header row' });
  if (columns && !headerBroken && catalog.rows === 0 && !errors.some((e) => e.line > 1)) {
    fail({ line: 2, message: 'the file has a header but no rows' });
  }

  // Reported once: an unknown column let through by --ignore-unknown-columns is listed from the header already.
  for (const index of ignoredWithData) {
    const header = columns![index]!.header;
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
    // Nor more than MAX_IMAGES images: the 251st would be refused after 250 had been sent.
    if (draft.spec.images.length > MAX_IMAGES) {
      fail({ line: draft.spec.line, key, message: `product "${key}" has ${draft.spec.images.length} images; a product holds at most ${MAX_IMAGES}` });
      draft.invalid = true;
    }
  }
  const invalidKeys = new Set<string>();
  for (const error of errors) if (error.key && drafts.has(error.key)) invalidKeys.add(error.key);
  // A problem of the text itself (a NUL byte past the sniffed head) names a line, not a product.
  const unkeyedLines = new Set(errors.filter((e) => !e.key && e.line > 1).map((e) => e.line));
  if (unkeyedLines.size > 0) {
    for (const [key, draft] of drafts) if (draft.spec.lines.some((l) => unkeyedLines.has(l))) invalidKeys.add(key);
  }
  for (const [key, draft] of drafts) {
    if (draft.invalid || invalidKeys.has(key)) catalog.invalidProducts.push({ key, lines: draft.spec.lines });
    else catalog.products.push(draft.spec);
  }
  errors.sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
  return catalog;
}

function readHeader(
  record: Row,
  catalog: Catalog,
  options: ReadCatalogOptions,
  fail: (e: Omit<RowError, 'file'>) => void,
): Column[] {
  const headers = record.cells.map((h) => h.trim());
  catalog.headers = headers;
  catalog.dialect = detectDialect(headers);
  const columns = mapColumns(catalog.dialect, headers);
  const seen = new Map<string, number>();
  for (const column of columns) {
    const n = column.index + 1;
    if (column.header === '') {
      fail({ line: record.line, column: n, message: 'the header cell is empty; every column needs a name' });
      continue;
    }
    if (column.header.includes('\uFFFD')) {
      fail({ line: record.line, column: n, header: column.header, message: notUtf8 });
      continue;
    }
    const lower = column.header.toLowerCase();
    if (seen.has(lower)) {
      fail({ line: record.line, column: n, header: column.header, message: `the column appears twice (also column ${seen.get(lower)})` });
    } else {
      seen.set(lower, n);
    }
    if (column.field === undefined) {
      if (options.ignoreUnknownColumns) {
        column.field = { kind: 'ignored' };
        catalog.ignoredColumns.push(column.header);
      } else {
        fail({
          line: record.line,
          column: n,
          header: column.header,
          message: `unknown column "${column.header}" (see docs/csv.md for the columns; --ignore-unknown-columns skips it)`,
        });
      }
    }
    if (column.field?.kind === 'stock' && column.field.location) catalog.locationColumns.push(column.field.location);
    if (column.field?.kind === 'custom') catalog.customColumns.push(column.field.name);
  }
  return columns;
}

function indexColumns(columns: Column[]) {
  const find = (kind: ColumnField['kind']) => columns.filter((c) => c.field?.kind === kind);
  return {
    handle: find('handle')[0],
    sku: find('sku')[0],
    names: find('name'),
    optionNames: find('optionName'),
    optionValues: find('optionValue'),
    baseline: find('baseline')[0],
  };
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
    fail({ line, message: `no ${dialect === 'shopify' ? '"Variant SKU"' : '"sku"'} column: every row needs a SKU (the variant's key)` });
    ok = false;
  }
  if (!kinds.has('handle') && !columns.some((c) => c.field?.kind === 'name')) {
    fail({ line, message: 'neither a "handle" nor a "name" column: rows cannot be grouped into products' });
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

export const notUtf8 = 'the text is not valid UTF-8 (the file looks like Latin-1 or Windows-1252); save it as UTF-8';

interface RowContext {
  drafts: Map<string, Draft>;
  skus: Map<string, number>;
  ignoredWithData: Set<number>;
  fail: (e: Omit<RowError, 'file'>) => void;
}

type Problem = Omit<RowError, 'file' | 'key'>;
type ColumnIndex = ReturnType<typeof indexColumns>;

/** One row being read: the product it belongs to, the variant it gives, and what it still has to settle. */
interface RowState {
  line: number;
  dialect: Dialect;
  draft: Draft | undefined;
  variant: VariantSpec;
  /** Shopify's Variant Price and Compare At Price, settled together once every cell is read. */
  shopifyPrice?: string;
  compareAt?: string;
  optionNames: string[];
  optionValues: string[];
  at: (column: Column, message: string) => void;
}

function readRow(record: Row, columns: Column[], idx: ColumnIndex, dialect: Dialect, ctx: RowContext): void {
  const { line, cells } = record;
  const problems: Problem[] = [];
  const at = (column: Column, message: string) => problems.push({ line, column: column.index + 1, header: column.header, message });
  checkCells(cells, columns, line, problems, at);
  const cell = (column: Column | undefined): string => (column ? cellValue(cells[column.index] ?? '', column.field) : '');
  const key = productKey(idx, cell, line, problems, at);
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

/** The row's shape and its text: as many cells as the header, valid UTF-8, no cell of absurd length. */
function checkCells(cells: string[], columns: Column[], line: number, problems: Problem[], at: (column: Column, message: string) => void): void {
  if (cells.length !== columns.length) {
    problems.push({
      line,
      column: Math.min(cells.length, columns.length) + 1,
      message: `the row has ${cells.length} cells but the header has ${columns.length} columns`,
    });
  }
  for (const column of columns) {
    const raw = cells[column.index] ?? '';
    if (raw.includes('\uFFFD')) at(column, notUtf8);
    else if (raw.length > MAX_CELL_LENGTH) at(column, `the cell holds ${raw.length} characters; the limit is ${MAX_CELL_LENGTH}`);
  }
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

/** One non-blank cell into the row's product or variant, by the field its column feeds. */
function readCell(row: RowState, column: Column, field: ColumnField, value: string, ctx: RowContext): void {
  switch (field.kind) {
    case 'ignored':
      ctx.ignoredWithData.add(column.index);
      return;
    case 'handle':
    case 'sku':
    case 'baseline':
      return;
    case 'name':
    case 'description':
    case 'categories':
    case 'images':
      return readProductCell(row, column, field, value);
    case 'optionName':
      row.optionNames[field.index] = value;
      return;
    case 'optionValue':
      row.optionValues[field.index] = value;
      return;
    default:
      return readVariantCell(row, column, field, value);
  }
}

/** A product-level cell: names, descriptions, categories and images are the product's, given on any of its rows. */
function readProductCell(row: RowState, column: Column, field: ColumnField & { kind: 'name' | 'description' | 'categories' | 'images' }, value: string): void {
  const { draft, at, line } = row;
  switch (field.kind) {
    case 'name':
    case 'description':
      if (draft) productValue(draft, `${field.kind}:${field.lang}`, value, column, line, at, () => (draft.spec[field.kind][field.lang] = value));
      return;
    case 'categories': {
      const paths = value
        .split(categorySeparator(row.dialect))
        .map((p) => p.split('>').map((level) => level.trim()))
        .filter((p) => p.some((level) => level !== ''));
      if (paths.some((p) => p.includes(''))) at(column, `"${value}" has an empty category level (paths look like "Ropa > Camisas")`);
      else if (draft) productValue(draft, 'categories', value, column, line, at, () => (draft.spec.categories = paths));
      return;
    }
    case 'images': {
      const urls = value.split('|').map((u) => u.trim()).filter(Boolean);
      const bad = urls.find((u) => !/^https?:\/\/[^\s]+$/i.test(u));
      if (bad) at(column, `"${bad}" is not an http(s) URL`);
      else if (!draft) return;
      // Shopify gives one image per row: they add up.
      else if (row.dialect === 'shopify') draft.spec.images.push(...urls.filter((u, i) => !draft.spec.images.includes(u) && urls.indexOf(u) === i));
      else productValue(draft, 'images', value, column, line, at, () => (draft.spec.images = urls));
    }
  }
}

/** A variant-level cell: amounts, measures, texts, stock and custom fields, checked and normalised. */
function readVariantCell(row: RowState, column: Column, field: ColumnField, value: string): void {
  const { variant, at } = row;
  switch (field.kind) {
    case 'decimal': {
      const parsed = MONEY_FIELDS.has(field.field) ? readMoney(value) : decimal(value);
      if (typeof parsed !== 'string') at(column, parsed.error);
      else variant.decimals[field.field] = parsed;
      return;
    }
    case 'shopifyPrice':
    case 'compareAtPrice': {
      const parsed = readMoney(value);
      if (typeof parsed !== 'string') at(column, parsed.error);
      else if (field.kind === 'shopifyPrice') row.shopifyPrice = parsed;
      else row.compareAt = parsed;
      return;
    }
    case 'grams': {
      const parsed = decimal(value);
      if (typeof parsed !== 'string') at(column, parsed.error);
      else variant.decimals.weight = trimDecimal(Number(parsed) / 1000);
      return;
    }
    case 'text':
      variant.texts[field.field] = value;
      return;
    case 'stock': {
      const parsed = stock(value);
      if (typeof parsed !== 'number') at(column, parsed.error);
      else if (field.location) variant.stockAt[field.location] = parsed;
      else variant.stock = parsed;
      return;
    }
    case 'custom':
      variant.custom[field.name] = value;
      return;
  }
}

/** Shopify: with a higher compare-at price, Variant Price is the promotional price and compare-at the price. */
function settleShopifyPrice(row: RowState): void {
  const { shopifyPrice, compareAt, variant } = row;
  if (shopifyPrice === undefined) return;
  if (compareAt !== undefined && Number(compareAt) > Number(shopifyPrice)) {
    variant.decimals.price = compareAt;
    variant.decimals.promotional_price = shopifyPrice;
  } else {
    variant.decimals.price = shopifyPrice;
  }
}

const NOTHING = Object.freeze({});

/**
 * Most rows leave most of a variant's maps empty; one shared frozen empty object in their place keeps a
 * 100,000-row file about 20 MB lighter while it waits for the store's catalog. Readers only read these maps.
 */
function compactVariant(variant: VariantSpec): VariantSpec {
  for (const field of ['decimals', 'texts', 'stockAt', 'custom'] as const) {
    if (Object.keys(variant[field]).length === 0) variant[field] = NOTHING;
  }
  return variant;
}

/** A product-level value: read from the product's first row that has it; a later different value is an error. */
function productValue(
  draft: Draft,
  slot: string,
  value: string,
  column: Column,
  line: number,
  at: (column: Column, message: string) => void,
  set: () => void,
): void {
  const first = draft.firstSeen.get(slot);
  if (!first) {
    draft.firstSeen.set(slot, { value, line });
    set();
  } else if (first.value !== value) {
    at(column, `product "${draft.spec.key}" has a different ${column.header} on line ${first.line}; repeat the same value or leave the cell blank`);
  }
}

/** The row's option names and values, checked against the product's earlier rows, as the variant's values. */
function readOptions(draft: Draft, row: RowState, columns: Column[], idx: ColumnIndex, problems: Problem[]): void {
  const { optionNames: names, optionValues: values, line } = row;
  // Shopify's placeholder option for a product without variations.
  if (row.dialect === 'shopify' && (names[0] ?? '').toLowerCase() === 'title' && (values[0] ?? '').toLowerCase() === 'default title') {
    names.length = 0;
    values.length = 0;
  }
  const spec = draft.spec;
  const first = spec.lines.length === 1;
  if (!optionNamesAgree(draft, names, values, idx, row.at)) return;
  if (spec.optionNames.length === 0) {
    if (!first && spec.optionsGiven) {
      problems.push({
        line,
        message: `product "${spec.key}" has no options (line ${spec.line}), so it holds one variant; give its rows option names and values, or use one row`,
      });
    }
    return;
  }
  if (!optionValuesGiven(draft, values, columns, idx, line, row.at, problems)) return;
  row.variant.values = values.slice(0, spec.optionNames.length);
  if (!spellingsAgree(draft, row.variant.values, idx, line, row.at, problems)) return;
  const combo = row.variant.values.join('\u0000');
  const earlier = draft.combos.get(combo);
  if (earlier !== undefined) {
    problems.push({ line, message: `product "${spec.key}" already has the variant ${row.variant.values.join(' / ')} on line ${earlier}` });
  } else {
    draft.combos.set(combo, line);
  }
}

/** The product's first row sets its option names; a later row may repeat them or leave them blank. */
function optionNamesAgree(draft: Draft, names: string[], values: string[], idx: ColumnIndex, at: (column: Column, message: string) => void): boolean {
  const spec = draft.spec;
  const nameColumn = (i: number) => idx.optionNames.find((c) => c.field?.kind === 'optionName' && c.field.index === i);
  if (spec.lines.length === 1) {
    const count = Math.max(names.length, values.length);
    for (let i = 0; i < count; i++) {
      if (!names[i]) {
        const column = nameColumn(i) ?? idx.optionValues[i];
        if (column) at(column, `option ${i + 1} has a value but no name`);
        return false;
      }
    }
    spec.optionNames = names.slice(0, count);
    return true;
  }
  for (let i = 0; i < names.length; i++) {
    if (names[i] && names[i] !== spec.optionNames[i]) {
      at(nameColumn(i)!, `option ${i + 1} is "${spec.optionNames[i] ?? ''}" on line ${spec.line} and "${names[i]}" here; a product's options are the same on every row`);
      return false;
    }
  }
  return true;
}

/** A value for every option of the product, and none for an option it does not have. */
function optionValuesGiven(
  draft: Draft,
  values: string[],
  columns: Column[],
  idx: ColumnIndex,
  line: number,
  at: (column: Column, message: string) => void,
  problems: Problem[],
): boolean {
  const names = draft.spec.optionNames;
  for (let i = 0; i < names.length; i++) {
    if (!values[i]) {
      const column = idx.optionValues.find((c) => c.field?.kind === 'optionValue' && c.field.index === i);
      if (column) at(column, `the value of option "${names[i]}" is empty`);
      else problems.push({ line, message: `no value column for option "${names[i]}"` });
      return false;
    }
  }
  const extra = values.findIndex((v, i) => i >= names.length && v);
  if (extra !== -1) {
    const column = columns.find((c) => c.field?.kind === 'optionValue' && c.field.index === extra)!;
    at(column, `a value for option ${extra + 1}, which the product does not have`);
    return false;
  }
  return true;
}

/** One spelling per option value within a product: the store does not tell values apart by case. */
function spellingsAgree(
  draft: Draft,
  values: string[],
  idx: ColumnIndex,
  line: number,
  at: (column: Column, message: string) => void,
  problems: Problem[],
): boolean {
  for (const [i, value] of values.entries()) {
    const spelling = `${i}\u0000${value.toLowerCase()}`;
    const first = draft.spellings.get(spelling);
    if (!first) draft.spellings.set(spelling, { value, line });
    else if (first.value !== value) {
      const column = idx.optionValues.find((c) => c.field?.kind === 'optionValue' && c.field.index === i);
      const message = `option "${draft.spec.optionNames[i]}" is "${first.value}" on line ${first.line} and "${value}" here; the store does not tell values apart by case, so write one spelling`;
      if (column) at(column, message);
      else problems.push({ line, message });
      return false;
    }
  }
  return true;
}

/**
 * A cell's value. Free text (names, descriptions, variant texts, custom field values) is taken exactly as
 * written — spaces, CR, LF and CRLF included, so what `store products export` wrote reads back byte-identical
 * and plans no write; a cell of only spaces or line breaks is blank. Every other cell (keys, numbers, paths,
 * options) is trimmed. The formula quote export adds is undone either way (output/format.ts).
 */
function cellValue(raw: string, field: ColumnField | undefined): string {
  if (field && FREE_TEXT.has(field.kind)) return raw.trim() === '' ? '' : unescapeFormula(raw);
  return unescapeFormula(raw.trim());
}

const FREE_TEXT = new Set<ColumnField['kind']>(['name', 'description', 'text', 'custom']);

export function decimal(text: string): string | { error: string } {
  if (DECIMAL.test(text)) return trimDecimal(Number(text.replace(',', '.')));
  if (/^-\s*\d/.test(text)) return { error: `"${text}" is negative; amounts are 0 or more` };
  return { error: `"${text}" is not a number (write e.g. 25.50 or 25,50, without currency or thousands separators)` };
}

/** Read by readMoney: at most two decimals, never rounded (money.ts). */
const MONEY_FIELDS = new Set<DecimalField>(['price', 'promotional_price', 'cost']);

/** A decimal string as the store writes money: two decimals at least, more only when needed. */
function trimDecimal(value: number): string {
  const fixed = value.toFixed(2);
  if (Number(fixed) === value) return fixed;
  return String(Number(value.toFixed(6)));
}

export function stock(text: string): number | { error: string } {
  if (INTEGER.test(text)) {
    const n = Number(text);
    if (Number.isSafeInteger(n)) return n;
    return { error: `stock "${text}" is too large` };
  }
  if (/^-\s*\d/.test(text)) return { error: `stock "${text}" is negative; stock is a whole number 0 or more` };
  if (DECIMAL.test(text)) return { error: `stock "${text}" is not a whole number` };
  return { error: `stock "${text}" is not a number` };
}
