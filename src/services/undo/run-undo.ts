import { listLocations } from '../../api/locations.js';
import type { Product } from '../../api/products.js';
import type { StoreClient } from '../../client/index.js';
import { StoppedBeforeWriting } from '../../errors.js';
import type { Ledger } from '../../ledger/store.js';
import type { RunRecorder } from '../../ledger/recorder.js';
import { type BulkProgress, progressEmitter } from '../bulk/progress.js';
import { type BrakeSettings, type TrippedBrake, checkBrakes, hasBrakes } from '../bulk/brakes.js';
import { readTouched } from '../catalog-files/read-touched.js';
import { verifyWrites } from '../catalog-files/verify.js';
import type { DecideOptions } from './decide.js';
import { type ProductUndo, planProductUndo } from './plan-product.js';
import { type PreparedUndo, predictedChanges, prepareUndo, recordCount } from './prepare.js';
import { undoOthers } from './others.js';
import { UndoWriter } from './undo-writer.js';
import type { UndoPreview, UndoSummary } from './summary.js';

export type { RevertedField, UndoPreview, UndoSummary } from './summary.js';

/**
 * `store undo RUN` (issue 28, docs/ledger.md): puts back what a run of the ledger changed, as far as the store
 * still holds what the run wrote. The ledger says what the run did (prepare.ts); the store is read product page
 * by product page (read-touched.ts, from the run's start), each page's undo decided (plan-product.ts) and sent
 * before the next page is read, through the batch writers the jobs use (undo-writer.ts), so the time between
 * reading a stock and writing it back stays short (docs/decisions.md, "Undo"). Undo is itself a run of the
 * ledger (`undoes` RUN), so undoing it redoes. Never prints: the result is the summary.
 */

export interface UndoOptions extends DecideOptions {
  runId: string;
  dryRun?: boolean;
  resume?: boolean;
  only?: ReadonlySet<string>;
  verify?: boolean;
  brakes?: BrakeSettings;
  signal?: AbortSignal;
  concurrency?: number;
  onProgress?: (event: BulkProgress) => void;
  /**
   * Asked once the ledger says what undo would do, before the store is read; false leaves everything as it is.
   * Not asked on a dry run.
   */
  confirm?: (preview: UndoPreview) => Promise<boolean>;
}

export async function runUndo(client: StoreClient, ledger: Ledger, recorder: RunRecorder, options: UndoOptions): Promise<UndoSummary> {
  const started = Date.now();
  const prepared = prepareUndo(ledger, options.runId, { resume: options.resume, only: options.only });
  const preview: UndoPreview = { run: prepared.run, fields: prepared.slots.length, records: recordCount(prepared), resumes: prepared.earlier.map((r) => r.id) };
  const summary = emptySummary(prepared, preview, options);
  if (prepared.job.length > 1) summary.notes.push(`runs ${prepared.job.map((r) => r.id).join(', ')} are one job (an interrupted run and its --resume): undone together`);
  checkUndoBrakes(prepared, options.brakes, summary);
  if (!options.dryRun && options.confirm && prepared.slots.length > 0 && !(await options.confirm(preview))) {
    summary.cancelled = true;
    return summary;
  }
  const emit = progressEmitter(client, options.onProgress);
  const defaultLocation = await defaultLocationOf(client, prepared);
  const writer = new UndoWriter(client, recorder, summary, { locations: defaultLocation.locations, signal: options.signal, concurrency: options.concurrency, dryRun: options.dryRun });
  const context = { ...options, defaultLocation: defaultLocation.id };
  const fields = readFields(prepared);
  let done = 0;
  const total = prepared.products.size;
  for await (const page of readTouched(client, productsToRead(prepared), { fields, since: prepared.job[0]!.started_at, concurrency: options.concurrency })) {
    const undos: ProductUndo[] = [];
    for (const product of page.products) undos.push(planProductUndo(product.id, prepared.products.get(product.id)!, product, context));
    for (const id of page.gone) undos.push(planProductUndo(id, prepared.products.get(id)!, undefined, context));
    for (const undo of undos) tally(undo, summary);
    done += page.products.length + page.gone.length;
    emit({ phase: 'writing', done, total, writesDone: summary.reverted.length, writesTotal: summary.reverted.length });
    if (await writer.sendPage(undos)) break;
  }
  // Products the run deleted (nothing to read) and those it made without an id coming back.
  const unread: ProductUndo[] = [];
  for (const [id, slots] of prepared.products) if (!shouldRead(slots)) unread.push(planProductUndo(id, slots, undefined as Product | undefined, context));
  for (const undo of unread) tally(undo, summary);
  if (!summary.interrupted) await writer.sendPage(unread);
  if (!summary.interrupted) await writer.flush();
  if (!summary.interrupted) await undoOthers(client, recorder, prepared.others, summary, { ...options, dryRun: options.dryRun });
  if (options.verify && !options.dryRun && !summary.interrupted) {
    const written = summary.reverted.map((r) => ({ ...r, id: r.id ?? undefined, parent: r.parent ?? undefined, location: r.location ?? undefined, action: 'update' as const, before: r.from, after: r.to }));
    summary.verify = await verifyWrites(client, written, { since: new Date(started).toISOString(), defaultLocation: defaultLocation.id });
  }
  summary.requests = client.stats().requests;
  summary.seconds = Math.round((Date.now() - started) / 100) / 10;
  return summary;
}

function emptySummary(prepared: PreparedUndo, preview: UndoPreview, options: UndoOptions): UndoSummary {
  return {
    run: prepared.run,
    dryRun: Boolean(options.dryRun),
    cancelled: false,
    preview,
    reverted: [],
    deleted: [],
    recreated: [],
    left: [],
    already: 0,
    notApplied: 0,
    doneEarlier: 0,
    notes: [],
    failures: [],
    requests: 0,
    seconds: 0,
    interrupted: false,
  };
}

/**
 * The brakes, on what the ledger says undo would write (the store can only make it less, but for stock that
 * sold since). A percentage is of what the run changed: undo knows no more of the store before reading it.
 */
function checkUndoBrakes(prepared: PreparedUndo, brakes: BrakeSettings | undefined, summary: UndoSummary): void {
  if (!brakes || !hasBrakes(brakes)) return;
  const stockRecords = new Set(prepared.slots.filter((s) => s.field === 'stock').map((s) => `${s.resource}\u0000${s.id}`));
  const tripped: TrippedBrake[] = checkBrakes(predictedChanges(prepared), brakes, { records: recordCount(prepared), stockVariants: stockRecords.size });
  if (tripped.length > 0) throw new StoppedBeforeWriting(`A brake stopped the undo of run ${prepared.run.id}; nothing was sent.`, { summary, tripped });
}

/** The store's default location, read only when the run wrote stock (where plain stock sits). */
async function defaultLocationOf(client: StoreClient, prepared: PreparedUndo) {
  if (!prepared.slots.some((s) => s.field === 'stock')) return { id: undefined, locations: [] };
  const locations = await listLocations(client);
  return { id: (locations.find((l) => l.is_default) ?? locations[0])?.id, locations };
}

/** A product whose record undo needs: not one the run deleted (it is gone) nor one made without an id. */
function shouldRead(slots: PreparedUndo['slots']): boolean {
  return !slots.some((s) => s.resource === 'product' && s.kind === 'delete');
}

function productsToRead(prepared: PreparedUndo): number[] {
  return [...prepared.products].filter(([, slots]) => shouldRead(slots)).map(([id]) => id);
}

/** `fields=`: the variants always; a product's own fields, or its whole record when undo may delete it. */
function readFields(prepared: PreparedUndo): string[] {
  const fields = new Set(['variants']);
  for (const s of prepared.slots) {
    if (s.resource === 'image') fields.add('images');
    if (s.resource === 'product' && s.kind === 'update') fields.add(s.field);
    if (s.resource === 'product' && s.kind === 'create') for (const f of ['name', 'description', 'handle', 'attributes', 'categories', 'images', 'published']) fields.add(f);
  }
  return [...fields];
}

/** Adds one product's undo to the summary's lists (what is written is counted by the writer). */
function tally(undo: ProductUndo, summary: UndoSummary): void {
  summary.left.push(...undo.left);
  summary.already += undo.already;
  summary.notApplied += undo.notApplied;
  summary.doneEarlier += undo.doneEarlier;
  summary.notes.push(...undo.notes);
}
