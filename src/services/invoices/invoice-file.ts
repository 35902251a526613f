import type { StoreClient } from '../../client/index.js';
import { executeItems } from '../bulk/executor.js';
import type { ReportRow } from '../bulk/report.js';
import { type RowFailedEvent, type RowFileJob, type RowFileJobOptions, type RowFileSummary, rowError, rowFileSummary, runRowFileJob } from '../bulk/row-job.js';
import { type InvoiceRow, readInvoiceFile } from './invoice-rows.js';
import { type InvoiceRequest, attachInvoice } from './invoices.js';
import { readInvoices } from '../orders/order-invoices.js';
import { getOrder } from '../../api/orders.js';
import { byIdOrNumber } from '../orders/order-lookup.js';

/**
 * `store invoices attach --file` (docs/csv.md, "Invoices"): every row is checked first, all of them; then the good ones are
 * sent through the bulk executor, one order's rows in file order (its list is read and rewritten per
 * invoice), several orders at a time. A file that cannot be read or lacks a column fails as a whole before
 * anything is sent. Every row finished is journaled, so `--resume` continues an interrupted run; `--dry-run`
 * reads each order's invoices and tells what would be attached. The steps every row file shares are
 * bulk/row-job.ts's; what is the invoices' own is here.
 */

export interface FileAttachResult extends RowFileSummary {
  /** Rows attached (with --dry-run: to attach), those finished by an interrupted run included. */
  attached: number;
  unchanged: number;
}

export type InvoiceFileEvent =
  | { type: 'attached' | 'unchanged'; line: number; orderId: number; key: string }
  | RowFailedEvent
  /** An order_id that was the number the customer sees: the sentence that says which order its rows go to. */
  | { type: 'order-number'; notice: string };

export type InvoiceFileOptions = RowFileJobOptions<InvoiceFileEvent>;

/** Orders at once: each row reads and rewrites its order's list, so the rows of one order go one by one. */
const ORDER_CONCURRENCY = 4;

type Outcome = 'attached' | 'unchanged';

type Fail = (failure: ReportRow) => void;

export async function attachInvoicesFromFile(client: StoreClient, path: string, options: InvoiceFileOptions): Promise<FileAttachResult> {
  return runRowFileJob(client, path, options, invoicesJob(client, options));
}

/** `invoices attach --file` as a row file's job (bulk/row-job.ts); it needs no snapshot. */
function invoicesJob(client: StoreClient, options: InvoiceFileOptions): RowFileJob<InvoiceRequest, InvoiceRow, Outcome, FileAttachResult, InvoiceFileEvent> {
  return {
    command: 'invoices attach',
    lockScope: 'invoices',
    journalKind: 'invoices',
    verb: 'attach',
    keyColumn: 'order_id',
    concurrency: ORDER_CONCURRENCY,
    readFile: readInvoiceFile,
    emptySummary: (file) => rowFileSummary(file, { attached: 0, unchanged: 0 }),
    planOrders: (rows, result, fail, stage) => {
      // Every row still to send is one write, whatever the orders found say.
      result.plannedWrites = rows.length;
      return findOrders(client, byOrder(rows), fail, options.onEvent, stage);
    },
    dryRun: (orders, result, fail) => planAttach(client, orders, result, fail),
    // The order was found before (findOrders).
    send: async (row) => ((await attachInvoice(client, options.recorder, row.request, { checkOrder: false })).attached ? 'attached' : 'unchanged'),
    sent: ({ line, request }, outcome) => ({ type: outcome, line, orderId: request.orderId, key: request.key }),
    key: (row) => String(row.request.orderId),
    reason: (error) => error.message,
    progress: (rowsDone, _rowsTotal, result) => ({ done: rowsDone, total: result.plannedWrites, writesDone: rowsDone, writesTotal: result.plannedWrites }),
  };
}

/** The rows of each order, in file order; the orders in the order of their first row. */
function byOrder(rows: InvoiceRow[]): InvoiceRow[][] {
  const orders = new Map<number, InvoiceRow[]>();
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
  orders: InvoiceRow[][],
  fail: Fail,
  onEvent: ((event: InvoiceFileEvent) => void) | undefined,
  stage: ReportRow['stage'],
): Promise<InvoiceRow[][]> {
  const found: InvoiceRow[] = [];
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

/** --dry-run: each order's invoices read once; a row attaches unless its key is there (or on an earlier row). */
async function planAttach(client: StoreClient, orders: InvoiceRow[][], result: FileAttachResult, fail: Fail): Promise<void> {
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
