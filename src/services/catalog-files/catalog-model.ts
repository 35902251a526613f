import type { BulkFile, BulkFileOptions } from '../bulk/bulk-file.js';
import type { RowError } from '../bulk/row-error.js';
import type { ColumnField, DecimalField, Dialect, TextField } from './dialects.js';
import type { RowCommand } from './commands.js';
import type { ImageSource } from '../common/image-files.js';

/** An image of a product: a URL or a local file (checked as the file is read), with its alt text and position. */
export interface ImageSpec extends ImageSource {
  alt?: string;
  /** 1 = first; absent: after the product's images. */
  position?: number;
}

/** What a catalog file reads as (catalog.ts): its products and their variants, checked and normalised. */

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
  /** The row's `command` cell (commands.ts); absent when blank (MERGE). Never DELETE or IGNORE here. */
  command?: RowCommand;
  /** REPLACE: the fields whose column the file has and the row leaves blank, which the variant loses. */
  cleared?: (DecimalField | TextField)[];
}

/** A DELETE row (commands.ts): its product, or one of its variants (by SKU, else by option values). */
export interface RowDelete {
  line: number;
  /** True for a row that names no variant (blank SKU and option values): the product goes. */
  product: boolean;
  sku: string;
  values: string[];
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
  images: ImageSpec[];
  /** Option names; empty for a product without variations. */
  optionNames: string[];
  /** False when the file has no option columns: rows are variants known by SKU, options unknown. */
  optionsGiven: boolean;
  variants: VariantSpec[];
  /** The product's DELETE rows. */
  deletes: RowDelete[];
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
  /** Rows whose command is IGNORE: skipped unread. */
  ignoredRows?: number;
  /** The file as read: what a report repeats rows of. Absent when it could not be opened. */
  source?: BulkFile;
  /** The header is unusable (a column unknown or twice, a required one missing): no row was read. */
  headerBroken?: boolean;
}

export interface ReadCatalogOptions extends BulkFileOptions {
  ignoreUnknownColumns?: boolean;
  /** How messages name the file (a feed downloaded from a URL is named after it); the file's base name by default. */
  name?: string;
  /** Where image files named by a relative path are; the file's directory by default (docs/csv.md "Images"). */
  imagesDir?: string;
}
