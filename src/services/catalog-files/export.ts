import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { listCategories } from '../../api/categories.js';
import { type CustomField, listCustomFields } from '../../api/custom-fields.js';
import { type Location, listLocations } from '../../api/locations.js';
import { type Product, categoryIdOf, productPages } from '../../api/products.js';
import { getStore } from '../../api/store.js';
import type { Variant } from '../../api/variants.js';
import type { StoreClient } from '../../client/index.js';
import { QUOTE_LINE_BREAKS, escapeFormula } from '../../output/format.js';
import { io } from '../../output/io.js';
import { ADMIN_ES_HEADER, BASELINE_HEADER, BASELINE_TEXT_LIMIT, type ColumnField, baselineDigest, mapColumns } from './dialects.js';
import { categoryPaths, textOf } from './store-index.js';

/**
 * `store products export`: the catalog as CSV (docs/csv.md, "Catalog"), one row per variant, streamed page by page.
 * Product columns are written on a product's first row only. What is written reads back through
 * `store products import` to the same values, so exporting and importing the same file sends no write:
 * the planner and this module share the category paths and the per-location stock rules.
 */

export type ExportFormat = 'canonical' | 'admin';

export interface ExportOptions {
  format?: ExportFormat;
  out: NodeJS.WritableStream;
  onProgress?: (done: number, total: number | undefined) => void;
}

export interface ExportSummary {
  products: number;
  rows: number;
  format: ExportFormat;
  /** Products left out because they have no variant yet. */
  withoutVariants: number;
}

const MEASURES = ['weight', 'width', 'height', 'depth'] as const;
const VARIANT_TEXTS = ['mpn', 'age_group', 'gender'] as const;

export function money(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  return String(value);
}

/** What every row of one export needs to know: the store's languages, categories, locations and columns. */
interface Layout {
  format: ExportFormat;
  main: string;
  /** The languages of localized columns (`name:es`…); the main language alone on a store with one. */
  langs: string[];
  paths: Map<number, string[]>;
  locations: Location[];
  defaultLocation: Location | undefined;
  customFields: CustomField[];
  /** Option columns: as many as the most options any product has (3 when more than one page is coming). */
  optionCount: number;
  /** Stock columns: one per location, and the total. */
  perLocation: boolean;
  totalColumn: boolean;
}

export async function exportCatalog(client: StoreClient, options: ExportOptions): Promise<ExportSummary> {
  const format = options.format ?? 'canonical';
  const base = await storeLayout(client, format);
  const pages = productPages(client);
  const first = await pages.next();
  const firstProducts = first.done ? [] : first.value.products;
  const onePage = first.done || (first.value.total ?? 0) <= firstProducts.length;
  const layout = columnsFor(base, firstProducts, onePage);

  const csv = stringify({ delimiter: format === 'admin' ? ';' : ',', record_delimiter: format === 'admin' ? '\r\n' : '\n', quoted_match: QUOTE_LINE_BREAKS });
  csv.pipe(options.out);
  const header = format === 'admin' ? ADMIN_ES_HEADER : canonicalHeader(layout);
  const baselineColumns = format === 'admin' ? [] : baselineColumnsOf(header);
  csv.write(header);
  const summary: ExportSummary = { products: 0, rows: 0, format, withoutVariants: 0 };
  const write = async (list: Product[], total: number | undefined) => {
    for (const p of list) {
      // A product created with variation whose variants never arrived has no row that could be imported back.
      if (p.variants.length === 0) {
        summary.withoutVariants++;
        continue;
      }
      for (const row of format === 'admin' ? adminRows(p, layout) : withBaseline(p, canonicalRows(p, layout), baselineColumns)) {
        summary.rows++;
        if (!csv.write(row.map(escapeFormula))) await new Promise((resolve) => csv.once('drain', resolve));
      }
      summary.products++;
    }
    options.onProgress?.(summary.products, total);
  };
  if (!first.done) await write(firstProducts, first.value.total);
  for await (const page of { [Symbol.asyncIterator]: () => pages }) await write(page.products, page.total);
  csv.end();
  if (options.out !== io().stdout) await finished(options.out);
  else await finished(csv);
  return summary;
}

type StoreLayout = Omit<Layout, 'optionCount' | 'perLocation' | 'totalColumn'>;

/** The store's side of the layout: languages, category paths, locations and (canonical) custom fields. */
async function storeLayout(client: StoreClient, format: ExportFormat): Promise<StoreLayout> {
  const [store, categories, locations] = await Promise.all([getStore(client), listCategories(client), listLocations(client)]);
  const customFields = format === 'canonical' ? await listCustomFields(client) : [];
  const main = store.main_language;
  return {
    format,
    main,
    langs: store.languages.length > 1 ? store.languages : [main],
    paths: categoryPaths(categories, main),
    locations,
    defaultLocation: locations.find((l) => l.is_default) ?? locations[0],
    customFields,
  };
}

/**
 * The columns the products need. Counting them needs the products; the first page is enough when there is
 * one page, otherwise the header allows for anything (three option columns; the importer takes blank option
 * columns as absent).
 *
 * Stock columns (docs/platform.md §3): a variant's `inventory_levels` may be absent, and then the split between
 * locations is unknown. Per-location columns are written only when some variant reports its split; a variant
 * that does not has its total in `stock` and blank location cells, so no split is invented and import reads
 * nothing for those locations. With several pages the header must allow both.
 */
function columnsFor(base: StoreLayout, firstProducts: Product[], onePage: boolean): Layout {
  const optionCount = onePage ? Math.max(0, ...firstProducts.map((p) => p.attributes.length)) : 3;
  const tracked = firstProducts.flatMap((p) => p.variants).filter((v) => v.stock !== null && v.stock !== undefined);
  const perLocation = base.format === 'canonical' && base.locations.length > 1 && (!onePage || tracked.some((v) => splitKnown(v)));
  const totalColumn = !perLocation || !onePage || tracked.some((v) => !splitKnown(v));
  return { ...base, optionCount, perLocation, totalColumn };
}

/** A location as its stock column names it: its name in the main language when no other has it, else its id. */
function locationLabel(layout: Layout, id: string): string {
  const { locations, main } = layout;
  // Location names are keyed by locale (es_AR, pt_BR…), not by the store's languages.
  const nameOf = (l: Location) => (typeof l.name === 'string' ? l.name : (l.name[main] ?? Object.values(l.name).find((t) => t) ?? ''));
  const name = nameOf(locations.find((l) => l.id === id)!);
  const unique = name && locations.filter((l) => nameOf(l).toLowerCase() === name.toLowerCase()).length === 1;
  return unique ? name : id;
}

function canonicalHeader(layout: Layout): string[] {
  const localized = (field: string) => (layout.langs.length > 1 ? layout.langs.map((l) => `${field}:${l}`) : [field]);
  return [
    'handle',
    ...localized('name'),
    ...localized('description'),
    'categories',
    'images',
    ...Array.from({ length: layout.optionCount }, (_, i) => [`option${i + 1}_name`, `option${i + 1}_value`]).flat(),
    'sku',
    'price',
    'promotional_price',
    'cost',
    ...(layout.totalColumn ? ['stock'] : []),
    ...(layout.perLocation ? layout.locations.map((l) => `stock:${locationLabel(layout, l.id)}`) : []),
    ...MEASURES,
    ...VARIANT_TEXTS,
    ...layout.customFields.map((f) => `custom:${f.name}`),
    BASELINE_HEADER,
  ];
}

/** Columns whose values the store can change after an export (sold stock, a sync, an admin edit). */
const CHANGEABLE = new Set<ColumnField['kind']>(['name', 'description', 'categories', 'decimal', 'text', 'stock', 'custom']);

function baselineColumnsOf(header: string[]): { index: number; header: string }[] {
  return mapColumns('canonical', header)
    .filter((c) => c.field && CHANGEABLE.has(c.field.kind))
    .map((c) => ({ index: c.index, header: c.header }));
}

/**
 * The `baseline` cell of each row (docs/csv.md, "Round trips"): `{"p": product id, "v": variant id, "c": cells}`,
 * the non-blank cells of the columns the store can change, as written (a text longer than
 * BASELINE_TEXT_LIMIT as a digest, which tells an edit as well). Import leaves a
 * field alone when its cell still holds this text but the store's value has changed since.
 */
function withBaseline(p: Product, rows: string[][], columns: { index: number; header: string }[]): string[][] {
  return rows.map((row, i) => {
    const cells: Record<string, string | { d: string }> = {};
    for (const c of columns) {
      const text = row[c.index];
      if (text) cells[c.header] = text.length > BASELINE_TEXT_LIMIT ? { d: baselineDigest(text) } : text;
    }
    const variant = p.variants[i]!;
    row[row.length - 1] = JSON.stringify({ p: p.id, v: variant.id, c: cells });
    return row;
  });
}

export function stockAt(v: Variant, locationId: string | undefined): string {
  if (v.stock === null || v.stock === undefined) return '';
  if (!locationId || !v.inventory_levels) return String(v.stock);
  return String(v.inventory_levels.find((l) => l.location_id === locationId)?.stock ?? 0);
}

function stockCellsOf(v: Variant, layout: Layout): string[] {
  if (!layout.perLocation) return [stockAt(v, layout.defaultLocation?.id)];
  const known = splitKnown(v);
  return [
    ...(layout.totalColumn ? [known || v.stock === null || v.stock === undefined ? '' : String(v.stock)] : []),
    ...layout.locations.map((l) => (known ? stockAt(v, l.id) : '')),
  ];
}

function categoryCell(p: Product, layout: Layout, separator: string): string {
  return p.categories
    .map((c) => layout.paths.get(categoryIdOf(c))?.join(' > '))
    .filter(Boolean)
    .join(separator);
}

function canonicalRows(p: Product, layout: Layout): string[][] {
  const { main, langs, optionCount } = layout;
  // The main language, else any language that has text (an option named only in `pt` on an `es` store).
  const options = p.attributes.map((a) => textOf(a, main, main));
  return p.variants.map((v, index) => {
    const productCells =
      index === 0
        ? [
            ...langs.map((l) => textOf(p.name, l, main)),
            ...langs.map((l) => textOf(p.description, l, main)),
            categoryCell(p, layout, '; '),
            [...p.images].sort((a, b) => (a.position ?? 0) - (b.position ?? 0)).map((i) => i.src).join('|'),
          ]
        : [...langs.map(() => ''), ...langs.map(() => ''), '', ''];
    const optionCells = Array.from({ length: optionCount }, (_, i) => [
      i < options.length ? options[i]! : '',
      i < options.length ? textOf(v.values[i], main, main) : '',
    ]).flat();
    const custom = layout.customFields.map((f) => {
      const value = v.custom_fields?.find((c) => String(c.id) === f.id)?.value;
      return value === undefined || value === null ? '' : String(value);
    });
    return [
      handleOf(p, main),
      ...productCells,
      ...optionCells,
      v.sku ?? '',
      money(v.price),
      money(v.promotional_price),
      money(v.cost),
      ...stockCellsOf(v, layout),
      ...MEASURES.map((f) => money(v[f])),
      ...VARIANT_TEXTS.map((f) => v[f] ?? ''),
      ...custom,
      '',
    ];
  });
}

function adminRows(p: Product, layout: Layout): string[][] {
  const { main } = layout;
  const options = p.attributes.map((a) => textOf(a, main, main));
  const decimal = (value: unknown) => money(value).replace('.', ',');
  return p.variants.map((v, index) => {
    const firstRow = index === 0;
    const props = [0, 1, 2].flatMap((i) => [firstRow && i < options.length ? options[i]! : '', i < options.length ? textOf(v.values[i], main, main) : '']);
    const row: Record<string, string> = {
      'Identificador de URL': handleOf(p, main),
      Nombre: firstRow ? textOf(p.name, main, main) : '',
      Categorías: firstRow ? categoryCell(p, layout, ', ') : '',
      Precio: decimal(v.price),
      'Precio promocional': decimal(v.promotional_price),
      'Peso (kg)': decimal(v.weight),
      'Alto (cm)': decimal(v.height),
      'Ancho (cm)': decimal(v.width),
      'Profundidad (cm)': decimal(v.depth),
      Stock: stockAt(v, layout.defaultLocation?.id),
      SKU: v.sku ?? '',
      Descripción: firstRow ? textOf(p.description, main, main) : '',
      'MPN (Número de pieza del fabricante)': v.mpn ?? '',
      Sexo: v.gender ?? '',
      'Rango de edad': v.age_group ?? '',
      Costo: decimal(v.cost),
    };
    return ADMIN_ES_HEADER.map((h, i) => (i >= 3 && i <= 8 ? props[i - 3]! : (row[h] ?? '')));
  });
}

function handleOf(p: Product, main: string): string {
  return textOf(p.handle, main, main);
}

/** Whether the store reported how the variant's stock is split between locations. */
function splitKnown(v: Variant): boolean {
  return Array.isArray(v.inventory_levels);
}
