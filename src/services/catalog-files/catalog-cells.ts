import { cellValue as fileCell } from '../bulk/bulk-file.js';
import { readMoney } from '../common/money.js';
import { type NumberProblem, readDecimal, readStock, shiftDecimal } from '../common/numbers.js';
import { type Column, type ColumnField, type DecimalField, categorySeparator } from './dialects.js';
import type { VariantSpec } from './catalog-model.js';
import type { Draft, RowContext, RowState } from './catalog-rows.js';
import { readImageCell } from './catalog-images.js';

/** The cells of a catalog row: each value checked and normalised into the row's product or variant. */

/** One non-blank cell into the row's product or variant, by the field its column feeds. */
export function readCell(row: RowState, column: Column, field: ColumnField, value: string, ctx: RowContext): void {
  switch (field.kind) {
    case 'ignored':
      ctx.ignoredWithData.add(column.index);
      return;
    case 'handle':
    case 'sku':
    case 'baseline':
    case 'command':
      return;
    case 'name':
    case 'description':
    case 'categories':
    case 'images':
      return readProductCell(row, column, field, value, ctx.imagesBase);
    case 'imageAlt':
      row.imageAlts = { column, value };
      return;
    case 'imagePosition':
      row.imagePositions = { column, value };
      return;
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
function readProductCell(
  row: RowState,
  column: Column,
  field: ColumnField & { kind: 'name' | 'description' | 'categories' | 'images' },
  value: string,
  imagesBase: string,
): void {
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
      const images = readImageCell(row, column, value, imagesBase);
      if (!images || !draft) return;
      if (row.dialect === 'shopify') {
        // Shopify gives one image per row: they add up.
        row.images = images.filter((image, i) => !draft.spec.images.some((known) => known.src === image.src) && images.findIndex((x) => x.src === image.src) === i);
        draft.spec.images.push(...row.images);
      } else productValue(draft, 'images', value, column, line, at, () => (draft.spec.images = row.images = images));
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
      else variant.decimals.weight = shiftDecimal(parsed, 3);
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
export function settleShopifyPrice(row: RowState): void {
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
export function compactVariant(variant: VariantSpec): VariantSpec {
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

/** A cell's value: free text as written, every other cell trimmed, the formula quote taken off (bulk-file.ts `cellValue`). */
export function cellValue(raw: string, field: ColumnField | undefined): string {
  return fileCell(raw, field !== undefined && FREE_TEXT.has(field.kind));
}

const FREE_TEXT = new Set<ColumnField['kind']>(['name', 'description', 'text', 'custom']);

/** A decimal cell (weight, measures): the value readDecimal reads, or why not, worded for a cell (common/numbers.ts). */
export function decimal(text: string): string | { error: string } {
  const read = readDecimal(text);
  if (typeof read === 'string') return read;
  if (read.problem === 'negative') return { error: `"${text}" is negative; amounts are 0 or more` };
  return { error: `"${text}" is not a number (write e.g. 25.50 or 25,50, without currency or thousands separators)` };
}

/** Read by readMoney: at most two decimals, never rounded (money.ts). */
const MONEY_FIELDS = new Set<DecimalField>(['price', 'promotional_price', 'cost']);

const STOCK_PROBLEMS: Record<NumberProblem, string> = {
  'too-large': 'is too large',
  negative: 'is negative; stock is a whole number 0 or more',
  'not-whole': 'is not a whole number',
  'not-a-number': 'is not a number',
};

/** A stock cell: the units readStock reads, or why not, worded for a cell (common/numbers.ts). */
export function stock(text: string): number | { error: string } {
  const read = readStock(text);
  return typeof read === 'number' ? read : { error: `stock "${text}" ${STOCK_PROBLEMS[read.problem]}` };
}

