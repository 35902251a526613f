import { basename } from 'node:path';
import { AuthError } from '../../client/errors.js';
import { StoreError } from '../../errors.js';
import type { StoreClient } from '../../client/index.js';
import { executeItems } from '../bulk/executor.js';
import { type BulkJob, type BulkJobOptions, runBulkJob } from '../bulk/job.js';
import type { EarlierRun, Journal } from '../bulk/journal.js';
import { checkAbort } from '../bulk/pool.js';
import type { ProgressStep } from '../bulk/progress.js';
import { type ReportRow, validationRow } from '../bulk/report.js';
import { refuseInvalidFile } from '../bulk/row-error.js';
import { type InvoiceFile, type InvoiceRow, readInvoiceFile } from './invoice-rows.js';
import type { BulkRunSummary } from '../bulk/summary.js';
import { attachInvoice } from './invoices.js';
import { readInvoices } from '../orders/order-invoices.js';
import { getOrder } from '../../api/orders.js';
import { byIdOrNumber } from '../orders/order-lookup.js';

/**
 * `store invoices attach --file` (docs/csv.md, "Invoices"): every row is checked first, all of them; then the good ones are
 * sent through the bulk executor, one order's rows in file order (its list is read and rewritten per
 * invoice), several orders at a time. A file that cannot be read or lacks a column fails as a whole before
 * anything is sent. Every row finished is journaled, so `--resume` continues an interrupted run; `--dry-run`
 * reads each order's invoices and tells what would be attached.
 */

export interface FileAttachResult extends BulkRunSummary {
  /** Rows attached (with --dry-run: to attach), those finished by an interrupted run included. */
  attached: number;
  unchanged: number;
  /** The failed rows; a row's key is its order_id. */
  failed: ReportRow[];
  /** Rows finished by an earlier, interrupted run of the same file (--resume). */
  resumedRows: number;
}

export type InvoiceFileEvent =
  | { type: 'attached' | 'unchanged'; line: number; orderId: number; key: string }
  | { type: 'failed'; failure: ReportRow }
  /** An order_id that was the number the customer sees: the sentence that says which order its rows go to. */
  | { type: 'order-number'; notice: string };

/** The file is the path given beside these (`--only` does not apply). */
export interface InvoiceFileOptions extends Omit<BulkJobOptions, 'file' | 'only'> {
  onEvent?: (event: InvoiceFileEvent) => void;
}

/** Orders at once: each row reads and rewrites its order's list, so the rows of one order go one by one. */
const ORDER_CONCURRENCY = 4;

type GoodRow = InvoiceRow;

type Outcome = 'attached' | 'unchanged';


/** The rows to send, in file order (those an interrupted run finished left out by --resume). */
interface InvoicePlan {
  rows: GoodRow[];
  /** The rows of each order found in the store (findOrders), once resumed rows are left out. */
  orders: GoodRow[][];
}

export async function attachInvoicesFromFile(client: StoreClient, path: string, options: InvoiceFileOptions): Promise<FileAttachResult> {
  return runBulkJob(client, { ...options, file: path }, invoicesJob(client, path, options));
}

/** `invoices attach --file` as the steps of the bulk skeleton (services/bulk/job.ts); it needs no snapshot. */
function invoicesJob(client: StoreClient, path: string, options: InvoiceFileOptions): BulkJob<InvoiceFile, undefined, InvoicePlan, FileAttachResult> {
  const file = options.name ?? basename(path);
  const failed = (result: FileAttachResult) => (failure: ReportRow) => {
    result.failed.push(failure);
    options.onEvent?.({ type: 'failed', failure });
  };
  return {
    command: 'invoices attach',
    lockScope: 'invoices',
    journalKind: 'invoices',
    read: async (emit) => {
      emit({ phase: 'reading', done: 0, writesDone: 0, writesTotal: 0 });
      const { encoding, map, onNotice } = options;
      const read = await readInvoiceFile(path, { encoding, map, onNotice, name: file });
      // Nothing is sent while a row is invalid, unless --skip-invalid: as for every bulk file.
      refuseInvalidFile(read, read.good.length, { skipInvalid: options.skipInvalid, verb: 'attach', unit: 'row' });
      for (const error of read.errors) options.onEvent?.({ type: 'failed', failure: validationRow(error) });
      return read;
    },
    fetchSnapshot: async () => undefined,
    plan: (input) => ({ rows: input.good, orders: [] }),
    summarize: (input) => ({ ...emptyResult(file), dryRun: Boolean(options.dryRun), rows: input.rows, failed: input.errors.map(validationRow) }),
    skipResumed: (plan, earlier, result) => {
      plan.rows = skipResumed(plan.rows, earlier, result);
      result.plannedWrites = plan.rows.length;
    },
    beforeWriting: async (plan, result) => {
      plan.orders = await findOrders(client, byOrder(plan.rows), failed(result), options.onEvent, options.dryRun ? 'plan' : 'request');
    },
    dryRun: (plan, _snapshot, result) => planAttach(client, plan.orders, result, failed(result)),
    journalBegin: () => ({ file }),
    execute: (plan, { summary: result, journal, emit }) => sendRows(client, plan.orders, journal, options, emit, result, failed(result)),
    finish: (result) => result.failed.sort((a, b) => a.line - b.line),
    failures: (result) => result.failed,
    source: (input) => input.source,
    keyColumn: 'order_id',
  };
}

function emptyResult(file: string): FileAttachResult {
  return {
    file,
    dryRun: false,
    rows: 0,
    attached: 0,
    unchanged: 0,
    failed: [],
    plannedWrites: 0,
    requests: 0,
    retries: 0,
    rateLimited: 0,
    seconds: 0,
    interrupted: false,
    resumedRows: 0,
    earlierRunUnfinished: false,
  };
}

/** Rows an earlier, interrupted run of the same file finished are counted, not sent again. */
function skipResumed(good: GoodRow[], earlier: EarlierRun, result: FileAttachResult): GoodRow[] {
  const previous = earlier.resumed;
  if (!previous) return good;
  return good.filter(({ line }) => {
    const done = previous.done.get(String(line));
    if (!done || done.outcome === 'failed') return true;
    result[done.outcome as Outcome]++;
    result.resumedRows++;
    return false;
  });
}

/** The rows of each order, in file order; the orders in the order of their first row. */
function byOrder(rows: GoodRow[]): GoodRow[][] {
  const orders = new Map<number, GoodRow[]>();
  for (const row of rows) {
    const rowsOfOrder = orders.get(row.request.orderId);
    if (rowsOfOrder) rowsOfOrder.push(row);
    else orders.set(row.request.orderId, [row]);
  }
  return [...orders.values()];
}

/**
 * Finds each order of the file once, before anything is read or written: by its id or, after the store's 404,
 * by the number the customer sees (said in an `order-number` event). Rows of an order that is not found fail
 * with the store's answer. The rows are grouped again by the order found, so an order given by its id on some
 * rows and by its number on others is written by one worker (two would each rewrite its invoice list).
 */
async function findOrders(
  client: StoreClient,
  orders: GoodRow[][],
  fail: (failure: ReportRow) => void,
  onEvent: ((event: InvoiceFileEvent) => void) | undefined,
  stage: ReportRow['stage'],
): Promise<GoodRow[][]> {
  const found: GoodRow[] = [];
  await executeItems(orders, { concurrency: ORDER_CONCURRENCY }, async (rows) => {
    const given = rows[0]!.request.orderId;
    try {
      const order = await byIdOrNumber(client, given, "attaching its rows' invoices to it", (id) => getOrder(client, id));
      if (order.notice) onEvent?.({ type: 'order-number', notice: order.notice });
      for (const row of rows) found.push({ ...row, request: { ...row.request, orderId: order.orderId } });
    } catch (error) {
      const reason = rowError(error).message;
      for (const { line } of rows) fail({ line, key: String(given), stage, reason });
    }
  });
  return byOrder(found.sort((a, b) => a.line - b.line));
}

/** A rejected token fails every row alike: stop rather than report the same cause per row. */
function rowError(error: unknown): StoreError {
  if (error instanceof AuthError || !(error instanceof StoreError)) throw error;
  return error;
}

/** --dry-run: each order's invoices read once; a row attaches unless its key is there (or on an earlier row). */
async function planAttach(client: StoreClient, orders: GoodRow[][], result: FileAttachResult, fail: (failure: ReportRow) => void): Promise<void> {
  // Rows an earlier run finished are already in result.attached (skipResumed): only these would be sent.
  let toAttach = 0;
  await executeItems(orders, { concurrency: ORDER_CONCURRENCY }, async (rows) => {
    const orderId = rows[0]!.request.orderId;
    let keys: Set<string>;
    try {
      keys = new Set((await readInvoices(client, orderId, { checkOrder: false })).invoices.map((i) => i.key));
    } catch (error) {
      const reason = rowError(error).message;
      for (const { line } of rows) fail({ line, key: String(orderId), stage: 'plan', reason });
      return;
    }
    for (const { request } of rows) {
      if (keys.has(request.key)) result.unchanged++;
      else {
        result.attached++;
        toAttach++;
      }
      keys.add(request.key);
    }
  });
  result.plannedWrites = toAttach;
}

async function sendRows(
  client: StoreClient,
  orders: GoodRow[][],
  journal: Journal,
  options: InvoiceFileOptions,
  emit: (step: ProgressStep) => void,
  result: FileAttachResult,
  fail: (failure: ReportRow) => void,
): Promise<{ interrupted: boolean }> {
  const total = result.plannedWrites;
  let done = 0;
  const finished = () => {
    done++;
    emit({ phase: 'writing', done, total, writesDone: done, writesTotal: total });
  };
  emit({ phase: 'writing', done: 0, total, writesDone: 0, writesTotal: total });
  return executeItems(orders, { concurrency: options.concurrency ?? ORDER_CONCURRENCY }, async (rows) => {
    // The order was found before (findOrders).
    for (const { line, request } of rows) {
      checkAbort(options.signal);
      try {
        const attached = await attachInvoice(client, options.recorder, request, { checkOrder: false });
        const outcome: Outcome = attached.attached ? 'attached' : 'unchanged';
        result[outcome]++;
        journal.append({ t: 'done', key: String(line), outcome });
        options.onEvent?.({ type: outcome, line, orderId: request.orderId, key: request.key });
      } catch (error) {
        fail({ line, key: String(request.orderId), stage: 'request', reason: rowError(error).message });
        journal.append({ t: 'done', key: String(line), outcome: 'failed' });
      }
      finished();
    }
  });
}
