import type { Variant, VariantInput } from '../../api/variants.js';
import type { ReportRow } from '../bulk/report.js';
import type { RowError } from '../bulk/row-error.js';
import type { VariantSpec } from './catalog-model.js';

/**
 * What `variants sync` reads and plans, as types: the core (`--only`, the dry-run's plan lines) works on them
 * without importing sync/, which stands on the core.
 */

export interface SyncFeed {
  rows: VariantSpec[];
  errors: RowError[];
  locationColumns: string[];
  /** The header row's cells, trimmed (what `--only` names). */
  headers: string[];
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
