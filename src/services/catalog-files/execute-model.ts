import type { Journal } from '../bulk/journal.js';
import type { Product } from '../../api/products.js';
import type { Recorder } from '../../ledger/recorder.js';
import type { ProductPlan } from './plan-model.js';

/** What running an import plan (executor.ts) takes and gives: its options, journal entries and outcomes. */

export type Outcome = 'created' | 'updated' | 'deleted' | 'unchanged' | 'skipped' | 'failed';

/** What an import journals besides the begin, done and end of every bulk run: each write the store confirmed. */
export type ImportJournalEntry =
  | { t: 'category'; ref: string; id: number }
  | { t: 'product'; key: string; id: number }
  | { t: 'variant'; key: string; sku: string; id: number }
  | { t: 'image'; key: string; src: string }
  | { t: 'write'; key: string; what: string };

export interface ProductResult {
  key: string;
  line: number;
  outcome: Outcome;
  productId?: number;
  /** Why it failed or was skipped. */
  reason?: string;
  /** Variants its DELETE and REPLACE rows removed. */
  variantsDeleted?: number;
  /** Rows that failed, with the reason (a product may have some rows done and some failed). */
  failures: { line: number; key: string; reason: string; stage: 'plan' | 'request' }[];
}

export interface ExecuteProgress {
  productsDone: number;
  productsTotal: number;
  writesDone: number;
  writesTotal: number;
}

export interface ExecuteOptions {
  /** The run ledger's recorder: every write is intended before its request (docs/ledger.md). */
  recorder: Recorder;
  /** The store's products the plan was made from: the ledger's before-values. */
  products?: readonly Product[];
  concurrency?: number;
  journal?: Journal<ImportJournalEntry>;
  signal?: AbortSignal;
  onProgress?: (progress: ExecuteProgress) => void;
  /** Attempts of a create whose answer keeps getting lost. */
  createAttempts?: number;
}

export interface ExecuteResult {
  products: ProductResult[];
  categoriesCreated: number;
  interrupted: boolean;
}


const PLANNED_OUTCOME = { create: 'created', update: 'updated', delete: 'deleted', unchanged: 'unchanged', skip: 'skipped', fail: 'failed' } as const;

/** The outcome a product's plan promises, before any of its writes is sent (what a dry run reports). */
export function plannedOutcome(action: ProductPlan['action']): Outcome {
  return PLANNED_OUTCOME[action];
}
