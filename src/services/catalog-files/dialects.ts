import { createHash } from 'node:crypto';
import { headerKey } from '../bulk/column-map.js';

/**
 * The header dialects of docs/csv.md ("Dialects"): the canonical columns, the platform's admin export (Spanish and
 * Portuguese) and a Shopify product export. A dialect turns each header cell into the catalog field it
 * feeds, or marks it as a column with no API counterpart (read, reported once, ignored).
 */

export type Dialect = 'canonical' | 'admin-es' | 'admin-pt' | 'shopify';

export const DECIMAL_FIELDS = ['price', 'promotional_price', 'cost', 'weight', 'width', 'height', 'depth'] as const;
export type DecimalField = (typeof DECIMAL_FIELDS)[number];
export const TEXT_FIELDS = ['mpn', 'age_group', 'gender'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export type ColumnField =
  | { kind: 'handle' }
  | { kind: 'name'; lang: string }
  | { kind: 'description'; lang: string }
  | { kind: 'categories' }
  | { kind: 'images' }
  /** `image_alt`, `image_position`: of the images given on the same row, in their order (catalog-images.ts). */
  | { kind: 'imageAlt' }
  | { kind: 'imagePosition' }
  | { kind: 'optionName'; index: number }
  | { kind: 'optionValue'; index: number }
  | { kind: 'sku' }
  | { kind: 'decimal'; field: DecimalField }
  | { kind: 'text'; field: TextField }
  | { kind: 'stock'; location?: string }
  | { kind: 'custom'; name: string }
  /** Shopify: Variant Price is what the customer pays; with a compare-at price it is the promotional price. */
  | { kind: 'shopifyPrice' }
  | { kind: 'compareAtPrice' }
  /** Shopify weighs in grams; the store in kilograms. */
  | { kind: 'grams' }
  /** A column of the dialect with no counterpart in the API. */
  | { kind: 'ignored' }
  /** `baseline`: what the store held when `products export` wrote the row (services/catalog-files/baseline.ts). */
  | { kind: 'baseline' }
  /** `command`: what to do with the row (commands.ts). */
  | { kind: 'command' };

export interface Column {
  index: number;
  header: string;
  field: ColumnField | undefined;
}


/** "Peso (kg)" → "peso": the admin export's unit suffixes vary between versions. */
function withoutUnit(text: string): string {
  return text.replace(/\s*\(.*\)\s*$/, '');
}

const ADMIN_ES: Record<string, ColumnField> = {
  'identificador de url': { kind: 'handle' },
  nombre: { kind: 'name', lang: '' },
  categorias: { kind: 'categories' },
  precio: { kind: 'decimal', field: 'price' },
  'precio promocional': { kind: 'decimal', field: 'promotional_price' },
  costo: { kind: 'decimal', field: 'cost' },
  peso: { kind: 'decimal', field: 'weight' },
  alto: { kind: 'decimal', field: 'height' },
  ancho: { kind: 'decimal', field: 'width' },
  profundidad: { kind: 'decimal', field: 'depth' },
  stock: { kind: 'stock' },
  sku: { kind: 'sku' },
  descripcion: { kind: 'description', lang: '' },
  mpn: { kind: 'text', field: 'mpn' },
  sexo: { kind: 'text', field: 'gender' },
  'rango de edad': { kind: 'text', field: 'age_group' },
  imagenes: { kind: 'images' },
  comando: { kind: 'command' },
};
const ADMIN_ES_IGNORED = [
  'codigo de barras',
  'mostrar en tienda',
  'envio sin cargo',
  'tags',
  'titulo para seo',
  'descripcion para seo',
  'marca',
  'producto fisico',
  'visibilidad',
];

const ADMIN_PT: Record<string, ColumnField> = {
  'identificador url': { kind: 'handle' },
  'identificador de url': { kind: 'handle' },
  nome: { kind: 'name', lang: '' },
  categorias: { kind: 'categories' },
  preco: { kind: 'decimal', field: 'price' },
  'preco promocional': { kind: 'decimal', field: 'promotional_price' },
  custo: { kind: 'decimal', field: 'cost' },
  peso: { kind: 'decimal', field: 'weight' },
  altura: { kind: 'decimal', field: 'height' },
  largura: { kind: 'decimal', field: 'width' },
  comprimento: { kind: 'decimal', field: 'depth' },
  profundidade: { kind: 'decimal', field: 'depth' },
  estoque: { kind: 'stock' },
  sku: { kind: 'sku' },
  descricao: { kind: 'description', lang: '' },
  mpn: { kind: 'text', field: 'mpn' },
  sexo: { kind: 'text', field: 'gender' },
  'faixa etaria': { kind: 'text', field: 'age_group' },
  imagens: { kind: 'images' },
  comando: { kind: 'command' },
};
const ADMIN_PT_IGNORED = [
  'codigo de barras',
  'exibir na loja',
  'mostrar na loja',
  'frete gratis',
  'tags',
  'titulo para seo',
  'descricao para seo',
  'marca',
  'produto fisico',
  'visibilidade',
];

/** Shopify's older export headers (`Variant SKU`, `Image Src`…) and its newer ones (`URL handle`, `Product image URL`…). */
const SHOPIFY: Record<string, ColumnField> = {
  handle: { kind: 'handle' },
  'url handle': { kind: 'handle' },
  title: { kind: 'name', lang: '' },
  'body (html)': { kind: 'description', lang: '' },
  'body html': { kind: 'description', lang: '' },
  description: { kind: 'description', lang: '' },
  'variant sku': { kind: 'sku' },
  sku: { kind: 'sku' },
  'variant price': { kind: 'shopifyPrice' },
  price: { kind: 'shopifyPrice' },
  'variant compare at price': { kind: 'compareAtPrice' },
  'compare-at price': { kind: 'compareAtPrice' },
  'compare at price': { kind: 'compareAtPrice' },
  'variant inventory qty': { kind: 'stock' },
  'variant inventory quantity': { kind: 'stock' },
  'inventory quantity': { kind: 'stock' },
  'inventory qty': { kind: 'stock' },
  'variant grams': { kind: 'grams' },
  'weight value (grams)': { kind: 'grams' },
  'image src': { kind: 'images' },
  'product image url': { kind: 'images' },
  'image alt text': { kind: 'imageAlt' },
  'image position': { kind: 'imagePosition' },
  'cost per item': { kind: 'decimal', field: 'cost' },
  command: { kind: 'command' },
};

export function detectDialect(headers: string[]): Dialect {
  const names = new Set(headers.map(headerKey).map(withoutUnit));
  if (names.has('identificador de url') || names.has('nombre de propiedad 1')) return 'admin-es';
  if (names.has('identificador url') || names.has('nome da propriedade 1')) return 'admin-pt';
  if (names.has('variant sku') || names.has('body (html)') || names.has('url handle') || (names.has('handle') && names.has('title'))) return 'shopify';
  return 'canonical';
}

/** The canonical column in which `products export` writes what the store held (docs/csv.md, "Round trips"). */
export const BASELINE_HEADER = 'baseline';

/** Exported texts longer than this are kept in the baseline as a digest (descriptions would triple a file). */
export const BASELINE_TEXT_LIMIT = 24;

/** How the baseline keeps a long text: `{"d": …}`, 96 bits of its SHA-256, enough to tell an edit. */
export function baselineDigest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

const LOCALIZED = /^(name|description)(?::([a-z]{2}(?:[_-][a-z]{2})?))?$/i;

function canonicalField(header: string): ColumnField | undefined {
  const text = header.trim();
  const lower = text.toLowerCase();
  const localized = LOCALIZED.exec(text);
  if (localized) {
    const kind = localized[1]!.toLowerCase() as 'name' | 'description';
    return { kind, lang: localized[2] ?? '' };
  }
  const option = /^option([1-3])_(name|value)$/.exec(lower);
  if (option) {
    const index = Number(option[1]) - 1;
    return option[2] === 'name' ? { kind: 'optionName', index } : { kind: 'optionValue', index };
  }
  if (lower.startsWith('stock:') && text.length > 6) return { kind: 'stock', location: text.slice(6).trim() };
  if (lower.startsWith('custom:') && text.length > 7) return { kind: 'custom', name: text.slice(7).trim() };
  switch (lower) {
    case 'handle':
      return { kind: 'handle' };
    case 'categories':
      return { kind: 'categories' };
    case 'images':
      return { kind: 'images' };
    case 'image_alt':
      return { kind: 'imageAlt' };
    case 'image_position':
      return { kind: 'imagePosition' };
    case 'sku':
      return { kind: 'sku' };
    case 'stock':
      return { kind: 'stock' };
    case BASELINE_HEADER:
      return { kind: 'baseline' };
    case 'command':
      return { kind: 'command' };
  }
  if ((DECIMAL_FIELDS as readonly string[]).includes(lower)) return { kind: 'decimal', field: lower as DecimalField };
  if ((TEXT_FIELDS as readonly string[]).includes(lower)) return { kind: 'text', field: lower as TextField };
  return undefined;
}

function adminField(header: string, table: Record<string, ColumnField>, ignored: string[]): ColumnField | undefined {
  const name = withoutUnit(headerKey(header));
  const option = /^(?:nombre de propiedad|nome da propriedade) ([1-3])$/.exec(name);
  if (option) return { kind: 'optionName', index: Number(option[1]) - 1 };
  const value = /^(?:valor de propiedad|valor da propriedade) ([1-3])$/.exec(name);
  if (value) return { kind: 'optionValue', index: Number(value[1]) - 1 };
  if (table[name]) return table[name];
  if (ignored.includes(name)) return { kind: 'ignored' };
  return undefined;
}

function shopifyField(header: string): ColumnField {
  const name = headerKey(header);
  const option = /^option([1-3]) (name|value)$/.exec(name);
  if (option) {
    const index = Number(option[1]) - 1;
    return option[2] === 'name' ? { kind: 'optionName', index } : { kind: 'optionValue', index };
  }
  // A Shopify export carries dozens of columns that vary by version and market (Vendor, Tags,
  // Price / United States, metafields…); everything without a counterpart is reported and ignored.
  return SHOPIFY[name] ?? { kind: 'ignored' };
}

/**
 * The sync column a header names (docs/csv.md, "Stock and prices"): `sku`, `stock`, `stock:<location>`, `price`,
 * `promotional_price`, `cost`, in the canonical spelling or the admin export's Spanish and Portuguese one
 * (`Precio`, `Precio promocional`, `Costo`, `Estoque`, `Preço`…), case and accents aside. Undefined for any other.
 */
export function syncColumnName(header: string): string | undefined {
  const text = header.trim();
  if (/^stock:/i.test(text) && text.length > 6) return `stock:${text.slice(6).trim()}`;
  const name = withoutUnit(headerKey(text));
  return SYNC_NAMES[name];
}

const SYNC_NAMES: Record<string, string> = {
  sku: 'sku',
  stock: 'stock',
  estoque: 'stock',
  price: 'price',
  precio: 'price',
  preco: 'price',
  promotional_price: 'promotional_price',
  'precio promocional': 'promotional_price',
  'preco promocional': 'promotional_price',
  cost: 'cost',
  costo: 'cost',
  custo: 'cost',
};

/** Whether a catalog file of some dialect has this column (what a sync feed that is a whole export holds besides). */
export function isCatalogColumn(header: string): boolean {
  const name = headerKey(header);
  return (
    canonicalField(header) !== undefined ||
    adminField(header, ADMIN_ES, ADMIN_ES_IGNORED) !== undefined ||
    adminField(header, ADMIN_PT, ADMIN_PT_IGNORED) !== undefined ||
    SHOPIFY[name] !== undefined ||
    name === BASELINE_HEADER
  );
}

export function mapColumns(dialect: Dialect, headers: string[]): Column[] {
  return headers.map((header, index) => {
    let field: ColumnField | undefined;
    switch (dialect) {
      case 'canonical':
        field = canonicalField(header);
        break;
      case 'admin-es':
        field = adminField(header, ADMIN_ES, ADMIN_ES_IGNORED);
        break;
      case 'admin-pt':
        field = adminField(header, ADMIN_PT, ADMIN_PT_IGNORED);
        break;
      case 'shopify':
        field = shopifyField(header);
        break;
    }
    return { index, header, field };
  });
}

/** How a dialect separates category paths within one cell. */
export function categorySeparator(dialect: Dialect): string {
  return dialect === 'admin-es' || dialect === 'admin-pt' ? ',' : ';';
}

/** The admin export's header, Spanish, for `store products export --format admin`. */
export const ADMIN_ES_HEADER = [
  'Identificador de URL',
  'Nombre',
  'Categorías',
  'Nombre de propiedad 1',
  'Valor de propiedad 1',
  'Nombre de propiedad 2',
  'Valor de propiedad 2',
  'Nombre de propiedad 3',
  'Valor de propiedad 3',
  'Precio',
  'Precio promocional',
  'Peso (kg)',
  'Alto (cm)',
  'Ancho (cm)',
  'Profundidad (cm)',
  'Stock',
  'SKU',
  'Código de barras',
  'Mostrar en tienda',
  'Envío sin cargo',
  'Descripción',
  'Tags',
  'Título para SEO',
  'Descripción para SEO',
  'Marca',
  'Producto Físico',
  'MPN (Número de pieza del fabricante)',
  'Sexo',
  'Rango de edad',
  'Costo',
];
