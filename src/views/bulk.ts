import type { ImportSummary } from '../services/catalog-files/import/run-import.js';
import type { FileAttachResult } from '../services/invoices/invoice-file.js';
import type { ShipFileResult, ShipmentMove } from '../services/shipping/shipment-file.js';
import type { ReportRow } from '../services/bulk/report.js';
import type { SyncSummary } from '../services/catalog-files/sync/run-sync.js';
import { plural, terminalSafe, truncateToWidth } from '../output/format.js';
import { isTTY, terminalWidth } from '../output/terminal.js';
import { type PlannedChange, type ShownChange, writesStock } from '../services/catalog-files/plan-changes.js';
import { formatDuration } from '../output/progress.js';

/**
 * The summaries of the bulk commands: what a run did, in the same shape for each (a first line naming the
 * file, one line of counts per kind of record, the writes a dry run would send, the requests and the time).
 * The failed rows follow on stderr.
 */

function requestsLine(s: { requests: number; retries: number; rateLimited: number; seconds: number }, pad: string): string {
  return `  requests:${pad}${s.requests} sent (${s.retries} retried), ${s.rateLimited} × 429, ${formatDuration(s.seconds)}`;
}

/**
 * The first line of every bulk summary: "Imported" (or "Synced", "Attached") only when something was written;
 * otherwise whether there was nothing to write or nothing could be.
 */
function summaryHeadline(
  verbs: { would: string; done: string; bare: string },
  s: { dryRun: boolean; file: string; rows: number; interrupted?: boolean },
  counts: { written: number; failed: number },
  what: string,
): string {
  if (s.dryRun) return `${verbs.would} ${s.file}${what}.`;
  // A stopped run never reads as a finished one: what it wrote is counted below and journaled for --resume.
  if (s.interrupted) return `Interrupted: ${s.file}${what}; what was written before the stop is counted below and kept in the journal (--resume finishes the rest).`;
  if (counts.written > 0) return `${verbs.done} ${s.file}${what}.`;
  if (counts.failed > 0) return `Nothing ${verbs.done.toLowerCase()} from ${s.file}${what}.`;
  if (s.rows === 0) return `Nothing to ${verbs.bare} from ${s.file}${what}.`;
  return `Nothing to ${verbs.bare} from ${s.file}${what}; the store already holds it.`;
}

const IMPORT_VERBS = { would: 'Would import', done: 'Imported', bare: 'import' };
const SYNC_VERBS = { would: 'Would sync', done: 'Synced', bare: 'sync' };
const ATTACH_VERBS = { would: 'Would attach', done: 'Attached', bare: 'attach' };
const SHIP_VERBS = { would: 'Would ship', done: 'Shipped', bare: 'ship' };

function importSummaryLines(s: ImportSummary): string[] {
  const lines: string[] = [];
  const written = s.created + s.updated + s.deleted + s.categoriesCreated;
  lines.push(summaryHeadline(IMPORT_VERBS, s, { written, failed: s.failed }, ` (${dialectName(s.dialect)}): ${plural(s.rows, 'row')}, ${plural(s.products, 'product')}`));
  const counts = [
    `${s.created} created`,
    `${s.updated} updated`,
    ...(s.deleted ? [`${s.deleted} deleted`] : []),
    `${s.unchanged} unchanged`,
    ...(s.skipped ? [`${s.skipped} skipped`] : []),
    `${s.failed} failed`,
  ];
  lines.push(`  products:   ${counts.join(', ')}${s.resumedProducts ? ` (${s.resumedProducts} finished by the interrupted run)` : ''}`);
  if (s.variantsDeleted) lines.push(`  variants:   ${s.variantsDeleted} ${s.dryRun ? 'to delete' : 'deleted'}`);
  if (s.ignoredRows) lines.push(`  ignored:    ${plural(s.ignoredRows, 'row')} (command IGNORE)`);
  if (s.replanned) lines.push(`  resumed:    ${plural(s.replanned, 'product')} the interrupted run finished differ in the store now: written again`);
  if (s.keptStoreChanges.length > 0) {
    const products = new Set(s.keptStoreChanges.map((k) => k.key)).size;
    lines.push(`  kept:       ${plural(s.keptStoreChanges.length, 'store change')} (in ${plural(products, 'product')}: fields the file holds as exported that the store changed since; --overwrite-store-changes writes them)`);
  }
  if (s.categoriesCreated) lines.push(`  categories: ${s.categoriesCreated} ${s.dryRun ? 'to create' : 'created'}`);
  if (s.dryRun) lines.push(`  writes:     ${s.plannedWrites} would be sent`);
  lines.push(...verifiedLines(s, '   '));
  lines.push(requestsLine(s, '   '));
  if (s.ignoredColumns.length > 0) lines.push(`  not imported (no API counterpart): ${s.ignoredColumns.join(', ')}`);
  return lines;
}

function dialectName(dialect: string): string {
  return (
    { canonical: 'canonical columns', 'admin-es': 'admin export, Spanish', 'admin-pt': 'admin export, Portuguese', shopify: 'Shopify export' } as Record<string, string>
  )[dialect] ?? dialect;
}

/**
 * What a bulk command shows once its run is done, the same parts for each: the counts, a dry run's plan, a
 * note about an earlier run, the failed rows. Built per command (`importSummaryView`, `syncSummaryView`,
 * `invoicesSummaryView`), shown by `printBulkSummary`.
 */
export interface BulkSummaryView {
  /** The counts (stdout): the file, one line per kind of record, the requests. */
  lines: string[];
  /** A dry run's plan after the counts (stdout), its stock warning on stderr. */
  plan?: { changes: PlannedChange[]; what: 'import' | 'sync' };
  /** One line on stderr (an earlier run of the file was interrupted). */
  note?: string;
  /** The failed rows on stderr (the first 50) and where all of them are. */
  failures?: { file: string; rows: ReportRow[]; report?: string };
}

/** The one way a bulk summary is shown: counts and plan unless --quiet or --json, the note unless --quiet, the failures always. */
export function printBulkSummary(
  view: BulkSummaryView,
  opts: { quiet: boolean; json: boolean },
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): void {
  if (!opts.quiet && !opts.json) {
    if (view.lines.length > 0) out.write(`${view.lines.join('\n')}\n`);
    // A dry run's plan follows its counts: what each product and variant would get.
    if (view.plan) printPlan(view.plan.changes, view.plan.what, out, err);
  }
  if (view.note && !opts.quiet) err.write(`${view.note}\n`);
  if (view.failures) printFailures(view.failures.file, view.failures.rows, err, view.failures.report);
}

export function importSummaryView(s: ImportSummary, report?: string): BulkSummaryView {
  return {
    lines: importSummaryLines(s),
    plan: s.plan && { changes: s.plan, what: 'import' },
    note: s.earlierRunUnfinished
      ? 'Note: an earlier run of this file was interrupted; what it did was found in the store and not sent again (--resume also keeps its counts).'
      : undefined,
    failures: { file: s.file, rows: s.failures, report },
  };
}

export function syncSummaryView(s: SyncSummary, zeroMissing: boolean, report?: string): BulkSummaryView {
  return {
    lines: syncSummaryLines(s, zeroMissing),
    plan: s.plan && { changes: s.plan, what: 'sync' },
    note: s.earlierRunUnfinished
      ? 'Note: an earlier run of this file was interrupted; what it wrote was read back from the store and not sent again (--resume also keeps its counts).'
      : undefined,
    failures: { file: s.file, rows: s.failures, report },
  };
}

/** `invoices attach --file`: its counts, shaped like those of import and sync, and its failed rows. */
export function invoicesSummaryView(s: FileAttachResult, report?: string): BulkSummaryView {
  return {
    lines: invoicesSummaryLines(s),
    note: s.earlierRunUnfinished
      ? 'Note: an earlier run of this file was interrupted; the rows it attached were found on their orders and not sent again (--resume also keeps its counts).'
      : undefined,
    failures: { file: s.file, rows: s.failed, report },
  };
}

/** `orders ship --file`: its counts, a dry run's moves one per line, and its failed rows. */
export function shipmentsSummaryView(s: ShipFileResult, report?: string): BulkSummaryView {
  return {
    lines: [...shipmentsSummaryLines(s), ...(s.moves && s.moves.length > 0 ? ['Moves:', ...s.moves.map(moveLine)] : [])],
    note: s.earlierRunUnfinished
      ? 'Note: an earlier run of this file was interrupted; the shipments it dispatched were found dispatched and not sent again (--resume also keeps its counts).'
      : undefined,
    failures: { file: s.file, rows: s.failed, report },
  };
}

function shipmentsSummaryLines(s: ShipFileResult): string[] {
  const failed = failedRows(s.failed);
  const resumed = s.resumedRows ? ` (${s.resumedRows} finished by the interrupted run)` : '';
  const reads = s.reads.listPages > 0 ? `${plural(s.reads.listPages, 'page')} of open orders, ${s.reads.singleReads} read one by one` : `${s.reads.singleReads} read one by one`;
  return [
    summaryHeadline(SHIP_VERBS, s, { written: s.shipments, failed }, `: ${plural(s.rows, 'row')}`),
    `  rows:     ${s.shipped} ${s.dryRun ? 'to ship' : 'shipped'}, ${s.unchanged} already shipped, ${failed} failed${resumed}`,
    `  orders:   ${reads}`,
    `  writes:   ${plural(s.shipments, 'shipment')} ${s.dryRun ? 'would be dispatched, one PATCH each' : 'dispatched'}`,
    requestsLine(s, ' '),
  ];
}

/** "  line 2: order #191, shipment 191-1 PACKED → DISPATCHED, tracking BR123 https://… (customer notified)" */
function moveLine(m: ShipmentMove): string {
  const order = m.order_number !== undefined ? `#${m.order_number}` : String(m.order_id);
  const tracking = [m.tracking_code, m.tracking_url].filter(Boolean).join(' ');
  return terminalSafe(`  line ${m.line}: order ${order}, shipment ${m.shipment} ${m.from} → ${m.to}, tracking ${tracking}${m.notify ? ' (customer notified)' : ''}`);
}

/**
 * The first 50 failed rows, one line each, how many more, and where all are: an invalid row as every row error
 * is said ("file, line 3, column 2 (price): what; how to fix"), a row the store refused with its key
 * ("file, line 3 (SKU): reason"), a record the file does not name by its key alone.
 */
function printFailures(file: string, failures: ReportRow[], err: NodeJS.WritableStream, report?: string): void {
  const shown = failures.slice(0, 50);
  for (const f of shown) {
    const where = f.column !== undefined ? `, column ${f.column}${f.header ? ` (${f.header})` : ''}` : '';
    const at = f.line > 0 ? `line ${f.line}${f.stage === 'validation' ? where : ` (${f.key})`}` : f.key;
    err.write(terminalSafe(`${file}, ${at}: ${f.reason}`) + '\n');
  }
  if (failures.length > shown.length) err.write(`… and ${failures.length - shown.length} more failures.\n`);
  if (failures.length > 0 && report) err.write(`The failed rows are listed in ${report}.\n`);
}

function syncSummaryLines(s: SyncSummary, zeroMissing: boolean): string[] {
  return [
    summaryHeadline(SYNC_VERBS, s, { written: s.updated + s.zeroed, failed: s.failed }, `: ${plural(s.rows, 'row')}`),
    `  variants: ${s.updated} updated, ${s.unchanged} unchanged, ${s.failed} failed${s.notFound ? ` (${s.notFound} not in the store)` : ''}${s.zeroed || zeroMissing ? `, ${s.zeroed} zeroed (not in the file)` : ''}`,
    ...(s.resumedRows || s.replanned
      ? [`  resumed:  ${s.resumedRows} finished by the interrupted run${s.replanned ? `, ${s.replanned} changed in the store since and written again` : ''}`]
      : []),
    ...(s.dryRun ? [`  writes:   ${s.plannedWrites} variants would be written in ${plural(s.plannedRequests, 'request')}`] : []),
    ...verifiedLines(s, ' '),
    requestsLine(s, ' '),
  ];
}

/** `--verify`: the fields read back, and how many records the store does not hold as written. */
function verifiedLines(s: { verified?: number; unverified?: number }, pad: string): string[] {
  if (s.verified === undefined) return [];
  const bad = s.unverified ?? 0;
  return [`  verified:${pad}${plural(s.verified, 'field')} read back${bad > 0 ? `; ${plural(bad, 'record')} not held as the store confirmed (failed rows)` : ', all held as written'}`];
}

/** Rows that failed: one row may fail in several ways (each is a failure), it is counted once. */
function failedRows(failures: ReportRow[]): number {
  return new Set(failures.map((f) => (f.line > 0 ? f.line : `${f.key}\u0000`))).size;
}

function invoicesSummaryLines(s: FileAttachResult): string[] {
  const failed = failedRows(s.failed);
  const resumed = s.resumedRows ? ` (${s.resumedRows} finished by the interrupted run)` : '';
  return [
    summaryHeadline(ATTACH_VERBS, s, { written: s.attached, failed }, `: ${plural(s.rows, 'row')}`),
    `  invoices: ${s.attached} ${s.dryRun ? 'to attach' : 'attached'}, ${s.unchanged} already attached, ${failed} failed${resumed}`,
    ...(s.dryRun ? [`  writes:   ${s.plannedWrites} would be sent`] : []),
    requestsLine(s, ' '),
  ];
}

/** Changes a dry run lists before "and M more": enough to check a plan, few enough to stay on one screen. */
export const PLAN_LINES = 30;

const GROUPS: { kind: PlannedChange['kind']; title: string }[] = [
  { kind: 'deleted', title: 'To delete' },
  { kind: 'created', title: 'To create' },
  { kind: 'updated', title: 'To update' },
  { kind: 'kept', title: 'Kept as the store has them (changed there since the export; --overwrite-store-changes writes the file)' },
  { kind: 'failed', title: 'Failing' },
];

function changeText(c: ShownChange, kind: PlannedChange['kind']): string {
  const show = (v: string) => (v === '' ? '(none)' : v);
  if (kind === 'created') return `${c.field} ${show(c.new)}`;
  if (kind === 'deleted') return `${c.field} ${c.old}`;
  return `${c.field} ${show(c.old)} → ${show(c.new)}`;
}

/**
 * A dry run's plan, grouped by kind: one line per product or variant (handle, SKU, line) with each field
 * old → new, cut to the terminal's width; the first PLAN_LINES, then "and M more, --json for all".
 */
export function planLines(plan: PlannedChange[], width: number, limit = PLAN_LINES): string[] {
  const lines: string[] = [];
  let shown = 0;
  for (const { kind, title } of GROUPS) {
    const entries = plan.filter((p) => p.kind === kind);
    if (entries.length === 0) continue;
    lines.push(`${title} (${entries.length}):`);
    for (const e of entries) {
      if (shown >= limit) break;
      const who = [e.handle, e.sku].filter(Boolean).join(' ');
      const what = e.kind === 'failed' ? (e.reason ?? 'failed') : e.changes.map((c) => changeText(c, e.kind)).join('; ');
      lines.push(truncateToWidth(terminalSafe(`  ${who} (line ${e.line}): ${what}`), width));
      shown++;
    }
  }
  if (plan.length > shown) lines.push(`… and ${plan.length - shown} more, --json for all.`);
  return lines;
}

/** The warning of a plan that writes the stock of existing variants: stock sold since the file was made would be overwritten. */
export function stockWarning(plan: PlannedChange[], what: string): string | undefined {
  const n = plan.filter((p) => p.kind === 'updated' && p.changes.some(writesStock)).length;
  if (n === 0) return undefined;
  return `this ${what} would write the stock of ${plural(n, 'variant')}; stock sold or synced since the file was made would be overwritten.`;
}

/** A dry run's plan after its counts (`products import`, `variants sync`), and the stock warning on stderr. */
function printPlan(plan: PlannedChange[], what: 'import' | 'sync', out: NodeJS.WritableStream, err: NodeJS.WritableStream): void {
  out.write(planLines(plan, planWidth(out)).map((l) => `${l}\n`).join(''));
  const warning = stockWarning(plan, what);
  if (warning) err.write(`Warning: ${warning}\n`);
}

/** A plan's lines are cut to the terminal's width; piped, they are never cut (like tables). */
function planWidth(out: NodeJS.WritableStream): number {
  return isTTY(out as never) ? terminalWidth(out as never) : Number.MAX_SAFE_INTEGER;
}
