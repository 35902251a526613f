import type { RunRecord } from '../../ledger/types.js';
import type { VerifyResult } from '../catalog-files/verify.js';
import type { LeftField } from './plan-product.js';

/** What `store undo` reports (the service's result, the view's input). */

/** What the ledger alone says of the undo: shown when asking, and the brakes' plan. */
export interface UndoPreview {
  run: RunRecord;
  /** Fields the run wrote that undo looks at. */
  fields: number;
  /** Records (products, variants, orders…) among them. */
  records: number;
  /** Interrupted undo runs this one finishes (`--resume`). */
  resumes: string[];
}

/** One field written back (or, on a dry run, that would be). */
export interface RevertedField {
  resource: string;
  id: string | null;
  /** A variant's product. */
  parent: string | null;
  key: string;
  field: string;
  location: string | null;
  /** What the store held before undo wrote. */
  from: unknown;
  to: unknown;
}

export interface UndoSummary {
  run: RunRecord;
  dryRun: boolean;
  /** Nothing done: the confirmation was answered no. */
  cancelled: boolean;
  preview: UndoPreview;
  /** Fields written back, records deleted or made again (confirmed by the store; planned on a dry run). */
  reverted: RevertedField[];
  deleted: { resource: string; id: string | null; key: string }[];
  recreated: { resource: string; key: string; lost: string }[];
  /** Left as they are, with why (changed since, irreversible, not known). */
  left: LeftField[];
  already: number;
  notApplied: number;
  doneEarlier: number;
  notes: string[];
  /** Writes the store refused or did not confirm. */
  failures: { key: string; field: string; reason: string }[];
  requests: number;
  seconds: number;
  interrupted: boolean;
  verify?: VerifyResult;
}

