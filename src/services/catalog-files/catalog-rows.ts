import type { RowError } from '../bulk/row-error.js';
import type { Column, ColumnField, Dialect } from './dialects.js';
import type { ImageSpec, ProductSpec, VariantSpec } from './catalog-model.js';

/** The state of reading a catalog file, row by row (catalog.ts, and the cells and options of a row). */

export interface Row {
  line: number;
  cells: string[];
  /** What the file model found wrong with the row's shape or text (bulk-file.ts). */
  problems: RowError[];
}

export interface Draft {
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

export interface RowContext {
  drafts: Map<string, Draft>;
  skus: Map<string, number>;
  /** Rows the command column says to ignore. */
  ignoredRows: number;
  /** Where relative image paths start (the file's directory, or --images-dir). */
  imagesBase: string;
  ignoredWithData: Set<number>;
  fail: (e: Omit<RowError, 'file'>) => void;
}

export type Problem = Omit<RowError, 'file' | 'key'>;

export type ColumnIndex = ReturnType<typeof indexColumns>;

export function indexColumns(columns: Column[]) {
  const find = (kind: ColumnField['kind']) => columns.filter((c) => c.field?.kind === kind);
  return {
    handle: find('handle')[0],
    sku: find('sku')[0],
    names: find('name'),
    optionNames: find('optionName'),
    optionValues: find('optionValue'),
    baseline: find('baseline')[0],
    command: find('command')[0],
  };
}

/** One row being read: the product it belongs to, the variant it gives, and what it still has to settle. */
export interface RowState {
  line: number;
  dialect: Dialect;
  draft: Draft | undefined;
  variant: VariantSpec;
  /** Shopify's Variant Price and Compare At Price, settled together once every cell is read. */
  shopifyPrice?: string;
  compareAt?: string;
  optionNames: string[];
  optionValues: string[];
  /** The images this row's image cell gave, and its `image_alt` and `image_position` cells (catalog-images.ts). */
  images?: ImageSpec[];
  imageAlts?: { column: Column; value: string };
  imagePositions?: { column: Column; value: string };
  at: (column: Column, message: string) => void;
}
