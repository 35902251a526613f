import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { listCategories } from '../api/categories.js';
import { listCustomFields } from '../api/custom-fields.js';
import { listLocations } from '../api/locations.js';
import { type Product, categoryIdOf, productPages } from '../api/products.js';
import { getStore } from '../api/store.js';
import type { Variant } from '../api/variants.js';
import type { StoreClient } from '../client/index.js';
import { escapeFormula } from '../output/format.js';
import { io } from '../output/io.js';
import { ADMIN_ES_HEADER } from './import/dialects.js';
import { categoryPaths, textOf } from './import/planner.js';

/**
 * `store products export`: the catalog as CSV (CSV.md §1), one row per variant, streamed page by page.
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

function money(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  return String(value);
}

export async function exportCatalog(client: StoreClient, options: ExportOptions): Promise<ExportSummary> {
  const format = options.format ?? 'canonical';
  const [store, categories, locations] = await Promise.all([getStore(client), listCategories(client), listLocations(client)]);
  const customFields = format === 'canonical' ? await listCustomFields(client) : [];
  const main = store.main_language;
  const langs = store.languages.length > 1 ? store.languages : [main];
  const paths = categoryPaths(categories, main);
  const defaultLocation = locations.find((l) => l.is_default) ?? locations[0];
  const locationLabel = (id: string) => {
    // Location names are keyed by locale (es_AR, pt_BR…), not by the store's languages.
    const nameOf = (l: (typeof locations)[number]) =>
      typeof l.name === 'string' ? l.name : (l.name[main] ?? Object.values(l.name).find((t) => t) ?? '');
    const name = nameOf(locations.find((l) => l.id === id)!);
    const unique = name && locations.filter((l) => nameOf(l).toLowerCase() === name.toLowerCase()).length === 1;
    return unique ? name : id;
  };

  // The option columns a product of this store can need: as many as the most options any product has.
  // Counting them needs the products; the first page is enough for the header when there is one page,
  // otherwise all three are written (the importer takes blank option columns as absent).
  const pages = productPages(client);
  const first = await pages.next();
  const firstProducts = first.done ? [] : first.value.products;
  const onePage = first.done || (first.value.total ?? 0) <= firstProducts.length;
  const optionCount = onePage ? Math.max(0, ...firstProducts.map((p) => p.attributes.length)) : 3;

  // Stock columns (platform.md §3): a variant's `inventory_levels` may be absent, and then the split between
  // locations is unknown. Per-location columns are written only when some variant reports its split; a
  // variant that does not has its total in `stock` and blank location cells, so no split is invented and
  // import reads nothing for those locations. With several pages the header must allow both.
  const tracked = firstProducts.flatMap((p) => p.variants).filter((v) => v.stock !== null && v.stock !== undefined);
  const perLocation =
    format === 'canonical' && locations.length > 1 && (!onePage || tracked.some((v) => splitKnown(v)));
  const totalColumn = !perLocation || !onePage || tracked.some((v) => !splitKnown(v));

  const localizedHeader = (field: string) => (store.languages.length > 1 ? langs.map((l) => `${field}:${l}`) : [field]);
  const header =
    format === 'admin'
      ? ADMIN_ES_HEADER
      : [
          'handle',
          ...localizedHeader('name'),
          ...localizedHeader('description'),
          'categories',
          'images',
          ...Array.from({ length: optionCount }, (_, i) => [`option${i + 1}_name`, `option${i + 1}_value`]).flat(),
          'sku',
          'price',
          'promotional_price',
          'cost',
          ...(totalColumn ? ['stock'] : []),
          ...(perLocation ? locations.map((l) => `stock:${locationLabel(l.id)}`) : []),
          'weight',
          'width',
          'height',
          'depth',
          'mpn',
          'age_group',
          'gender',
          ...customFields.map((f) => `custom:${f.name}`),
        ];

  const csv = stringify({ delimiter: format === 'admin' ? ';' : ',', record_delimiter: format === 'admin' ? '\r\n' : '\n' });
  csv.pipe(options.out);
  csv.write(header);
  let products = 0;
  let rows = 0;
  let withoutVariants = 0;

  const stockAt = (v: Variant, locationId: string | undefined): string => {
    if (v.stock === null || v.stock === undefined) return '';
    if (!locationId || !v.inventory_levels) return String(v.stock);
    return String(v.inventory_levels.find((l) => l.location_id === locationId)?.stock ?? 0);
  };
  const stockCellsOf = (v: Variant): string[] => {
    if (!perLocation) return [stockAt(v, defaultLocation?.id)];
    const known = splitKnown(v);
    return [
      ...(totalColumn ? [known || v.stock === null || v.stock === undefined ? '' : String(v.stock)] : []),
      ...locations.map((l) => (known ? stockAt(v, l.id) : '')),
    ];
  };

  const canonicalRows = (p: Product): string[][] => {
    // The main language, else any language that has text (an option named only in `pt` on an `es` store).
    const options = p.attributes.map((a) => textOf(a, main, main));
    return p.variants.map((v, index) => {
      const firstRow = index === 0;
      const productCells = firstRow
        ? [
            ...langs.map((l) => textOf(p.name, l, main)),
            ...langs.map((l) => textOf(p.description, l, main)),
            p.categories
              .map((c) => paths.get(categoryIdOf(c))?.join(' > '))
              .filter(Boolean)
              .join('; '),
            [...p.images].sort((a, b) => (a.position ?? 0) - (b.position ?? 0)).map((i) => i.src).join('|'),
          ]
        : [...langs.map(() => ''), ...langs.map(() => ''), '', ''];
      const optionCells = Array.from({ length: optionCount }, (_, i) => [
        i < options.length ? options[i]! : '',
        i < options.length ? textOf(v.values[i], main, main) : '',
      ]).flat();
      const stockCells = stockCellsOf(v);
      const custom = customFields.map((f) => {
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
        ...stockCells,
        ...MEASURES.map((f) => money(v[f])),
        ...VARIANT_TEXTS.map((f) => v[f] ?? ''),
        ...custom,
      ];
    });
  };

  const adminRows = (p: Product): string[][] => {
    const options = p.attributes.map((a) => textOf(a, main, main));
    const decimal = (value: unknown) => money(value).replace('.', ',');
    return p.variants.map((v, index) => {
      const firstRow = index === 0;
      const props = [0, 1, 2].flatMap((i) => [firstRow && i < options.length ? options[i]! : '', i < options.length ? textOf(v.values[i], main, main) : '']);
      const row: Record<string, string> = {
        'Identificador de URL': handleOf(p, main),
        Nombre: firstRow ? textOf(p.name, main, main) : '',
        Categorías: firstRow
          ? p.categories
              .map((c) => paths.get(categoryIdOf(c))?.join(' > '))
              .filter(Boolean)
              .join(', ')
          : '',
        Precio: decimal(v.price),
        'Precio promocional': decimal(v.promotional_price),
        'Peso (kg)': decimal(v.weight),
        'Alto (cm)': decimal(v.height),
        'Ancho (cm)': decimal(v.width),
        'Profundidad (cm)': decimal(v.depth),
        Stock: stockAt(v, defaultLocation?.id),
        SKU: v.sku ?? '',
        Descripción: firstRow ? textOf(p.description, main, main) : '',
        'MPN (Número de pieza del fabricante)': v.mpn ?? '',
        Sexo: v.gender ?? '',
        'Rango de edad': v.age_group ?? '',
        Costo: decimal(v.cost),
      };
      return ADMIN_ES_HEADER.map((h, i) => {
        if (i >= 3 && i <= 8) return props[i - 3]!;
        return row[h] ?? '';
      });
    });
  };

  const write = async (list: Product[], total: number | undefined) => {
    for (const p of list) {
      // A product created with variation whose variants never arrived has no row that could be imported back.
      if (p.variants.length === 0) {
        withoutVariants++;
        continue;
      }
      for (const row of format === 'admin' ? adminRows(p) : canonicalRows(p)) {
        rows++;
        if (!csv.write(row.map(escapeFormula))) await new Promise((resolve) => csv.once('drain', resolve));
      }
      products++;
    }
    options.onProgress?.(products, total);
  };
  if (!first.done) await write(firstProducts, first.value.total);
  for await (const page of { [Symbol.asyncIterator]: () => pages }) await write(page.products, page.total);
  csv.end();
  if (options.out !== io().stdout) await finished(options.out);
  else await finished(csv);
  return { products, rows, format, withoutVariants };
}

function handleOf(p: Product, main: string): string {
  return textOf(p.handle, main, main);
}

/** Whether the store reported how the variant's stock is split between locations. */
function splitKnown(v: Variant): boolean {
  return Array.isArray(v.inventory_levels);
}
