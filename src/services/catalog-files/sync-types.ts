import type { Variant, VariantInput } from '../../api/variants.js';
import type { BulkFile } from '../bulk/bulk-file.js';
import type { ReportRow } from '../bulk/report.js';
import type { RowError } from '../bulk/row-error.js';
import type { VariantSpec } from './catalog-model.js';

/**
 * What `variants sync` reads and plans, as types: the core (`--only`, the dry-run's plan lines) works on them
 * without importing sync/, which stands on the core.
 */

export interface SyncFeed {
  /** How messages name the file. */
  file: string;
  /** The valid rows. */
  rows: VariantSpec[];
  errors: RowError[];
  /** The rows with errors, and the SKU each names ('' when it names none): `--zero-missing` must not zero those. */
  invalidRows: { line: number; sku: string }[];
  /** The header is unusable (a column unknown or twice, no sku): every row is spoilt. */
  headerBroken?: boolean;
  locationColumns: string[];
  /** The names the columns are read under: the header's cells, trimmed, --map applied (what `--only` names). */
  headers: string[];
  /** Each header's canonical sync column (`price` for `Precio`), '' for a column not synced. */
  canonical: string[];
  /** The file as read: what a report repeats rows of. Absent when it could not be opened. */
  source?: BulkFile;
}

export interface SyncWrite {
  /** The feed's line; 0 for a variant the feed leaves out (zeroed). */
  line: number;
  sku: string;
  variant: Variant;
  body: VariantInput;
  zero: boolean;
}

export interface SyncPlan {
  writes: SyncWrite[];
  unchanged: number;
  notFoundSkus: string[];
  failures: ReportRow[];
}
