import type { StoreClient } from '../../client/index.js';
import { StoreError } from '../../errors.js';
import { type FulfillmentOrder, trackingCode } from '../../api/fulfillment-orders.js';
import type { ReportRow } from '../bulk/report.js';
import { type RowFailedEvent, type RowFileJob, type RowFileJobOptions, type RowFileSummary, rowFileSummary, runRowFileJob } from '../bulk/row-job.js';
import { findShipment, noSuchShipment, shipmentLabel } from '../orders/fulfillment-orders.js';
import { type MoveRequest, type PlannedMove, planMoves } from './moves.js';
import { readShippingOrders, type ShippingOrder } from './order-reads.js';
import { type ShipmentRequest, type ShipmentRow, readShipmentFile } from './shipment-rows.js';
import { sendMove } from './ship-order.js';

/**
 * `store orders ship --file shipments.csv` (docs/csv.md, "Shipments") on the one bulk skeleton (bulk/job.ts): every
 * row checked first (shipment-rows.ts); then the orders the rows name read with their shipments inside, in the
 * fewest requests (order-reads.ts); then every row's moves decided before any write, as `orders ship` decides them
 * (moves.ts), a move the platform forbids being a failed row that sends nothing; then one PATCH per shipment
 * dispatched, its tracking inside, on the run ledger (ship-order.ts sendMove). One order's rows go in file order,
 * several orders at a time. Each row finished is journaled, so `--resume` continues an interrupted run: the rows
 * not journaled are planned again from the store, where a shipment an interrupted run dispatched reads as such and
 * is not sent again. The steps every row file shares are bulk/row-job.ts's; what is the shipments' own is here.
 */

export interface ShipFileResult extends RowFileSummary {
  /** Rows that dispatched (with --dry-run: would dispatch) at least one shipment, those an interrupted run finished included. */
  shipped: number;
  /** Shipments dispatched (with --dry-run: to dispatch) by this run. */
  shipments: number;
  /** Rows whose shipments were dispatched already, with the row's tracking code: nothing to send. */
  unchanged: number;
  /** How the orders were read: pages of the lists of open orders, and orders read one by one. */
  reads: { listPages: number; singleReads: number };
  /** With --dry-run: each move the run would make, in file order. */
  moves?: ShipmentMove[];
}

/** One move of a dry run, as shown and in --json. */
export interface ShipmentMove {
  line: number;
  order_id: number;
  order_number?: number;
  shipment: string;
  from: string;
  to: string;
  tracking_code: string;
  tracking_url?: string;
  notify: boolean;
}

export type ShipmentFileEvent = { type: 'shipped' | 'unchanged'; line: number; orderId: number } | RowFailedEvent | { type: 'order-numbers'; notice: string };

export interface ShipmentFileOptions extends RowFileJobOptions<ShipmentFileEvent> {
  now?: () => Date;
}

/** Orders whose rows are sent at once. */
const ORDER_CONCURRENCY = 8;

type Outcome = 'shipped' | 'unchanged';

/** A row as decided before any write: its order, and the shipments it dispatches. */
interface PlannedRow extends ShipmentRow {
  orderId: number;
  orderNumber?: number;
  moves: PlannedMove[];
  moveRequest: MoveRequest;
}

export async function shipFromFile(client: StoreClient, path: string, options: ShipmentFileOptions): Promise<ShipFileResult> {
  return runRowFileJob(client, path, options, shipmentsJob(client, options));
}

/** `orders ship --file` as a row file's job (bulk/row-job.ts): the orders are read, with their shipments, once planned. */
function shipmentsJob(client: StoreClient, options: ShipmentFileOptions): RowFileJob<ShipmentRequest, PlannedRow, Outcome, ShipFileResult, ShipmentFileEvent> {
  const now = options.now ?? (() => new Date());
  return {
    command: 'orders ship',
    lockScope: 'shipments',
    journalKind: 'shipments',
    verb: 'ship',
    keyColumn: 'order',
    concurrency: ORDER_CONCURRENCY,
    readFile: readShipmentFile,
    emptySummary: (file) => rowFileSummary(file, { shipped: 0, shipments: 0, unchanged: 0 }, { reads: { listPages: 0, singleReads: 0 } }),
    planOrders: async (rows, result, fail, stage) => {
      const emit = (done: number, total: number) => options.onProgress?.({ phase: 'fetching', done, total, writesDone: 0, writesTotal: 0, requests: client.stats().requests, rateLimited: client.stats().rateLimited });
      const reads = await readShippingOrders(client, [...new Set(rows.map((r) => r.request.order))], { onFound: emit });
      result.reads = { listPages: reads.listPages, singleReads: reads.singleReads };
      const byNumber = [...reads.found.entries()].filter(([, found]) => found.byNumber);
      if (byNumber.length > 0) options.onEvent?.({ type: 'order-numbers', notice: numbersNotice(byNumber) });
      const orders = planRows(rows, reads, fail, stage);
      result.plannedWrites = orders.flat().reduce((n, row) => n + row.moves.length, 0);
      return orders;
    },
    dryRun: (orders, result) => {
      result.moves = orders.flat().sort((a, b) => a.line - b.line).flatMap(movesOf);
      result.shipments = result.plannedWrites;
      for (const row of orders.flat()) result[row.moves.length > 0 ? 'shipped' : 'unchanged']++;
    },
    send: async (row, result, wrote) => {
      for (const move of row.moves) {
        await sendMove(client, options.recorder, row.orderId, row.orderNumber, move, row.moveRequest, now);
        result.shipments++;
        wrote(move.label);
      }
      return row.moves.length > 0 ? 'shipped' : 'unchanged';
    },
    sent: (row, outcome) => ({ type: outcome, line: row.line, orderId: row.orderId }),
    key: (row) => String(row.request.order),
    reason: (error, dispatched) => {
      const reason = error.message.replace(/\.$/, '');
      return dispatched.length > 0 ? `${reason}; dispatched before it: ${dispatched.join(', ')}` : reason;
    },
    progress: (rowsDone, rowsTotal, result) => ({ done: rowsDone, total: rowsTotal, writesDone: result.shipments, writesTotal: result.plannedWrites }),
  };
}

/** "12 orders are given by the number the customer sees (#191 is order 1000000191, …)": said once, not per row. */
function numbersNotice(byNumber: [number, ShippingOrder][]): string {
  const shown = byNumber.slice(0, 3).map(([value, found]) => `#${value} is order ${found.order.id}`);
  const more = byNumber.length > shown.length ? ', …' : '';
  return `${byNumber.length === 1 ? '1 order is' : `${byNumber.length} orders are`} given by the number the customer sees (${shown.join(', ')}${more}).`;
}

/**
 * Every row's moves, decided before any write from the orders as read, one order's rows in file order: a row
 * dispatches what is still to dispatch once the rows before it have (so two rows naming one order's shipment by
 * its id and by its number find it done). A row fails, sending nothing, when its order was not found, names no
 * shipment of the order, asks a move the platform forbids (moves.ts's sentence), or finds its shipment dispatched
 * with another tracking code. A row with nothing left to dispatch, with its code, is unchanged.
 */
function planRows(
  rows: ShipmentRow[],
  reads: Awaited<ReturnType<typeof readShippingOrders>>,
  fail: (failure: ReportRow) => void,
  lookupStage: ReportRow['stage'],
): PlannedRow[][] {
  const byOrder = new Map<number, PlannedRow[]>();
  /** Each order's shipments as they will be once the rows before have been sent. */
  const shipmentsOf = new Map<number, FulfillmentOrder[]>();
  for (const row of rows) {
    const { order: value, shipment, tracking } = row.request;
    const key = String(value);
    const found = reads.found.get(value);
    if (!found) {
      fail({ line: row.line, key, stage: lookupStage, reason: reads.missing.get(value) ?? `order ${value} was not read` });
      continue;
    }
    const orderId = found.order.id;
    const shipments = shipmentsOf.get(orderId) ?? found.shipments.map((s) => ({ ...s }));
    shipmentsOf.set(orderId, shipments);
    const moveRequest: MoveRequest = { to: 'DISPATCHED', delivery: 'status', tracking };
    let moves: PlannedMove[];
    try {
      if (shipment && !findShipment(shipments, shipment)) throw new StoreError(noSuchShipment(value, shipment, shipments), 2);
      const plan = planMoves(key, shipments, moveRequest, shipment ? [shipment] : undefined);
      const otherCode = plan.moves.length === 0 ? plan.skipped.find((s) => trackingCode(s.shipment) !== undefined && trackingCode(s.shipment) !== tracking.code) : undefined;
      if (otherCode) {
        throw new StoreError(`Shipment ${otherCode.label} of order ${value} is ${otherCode.status} already, with tracking ${trackingCode(otherCode.shipment)}, not ${tracking.code}; a dispatched shipment keeps its code.`, 2);
      }
      moves = plan.moves;
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      fail({ line: row.line, key, stage: 'plan', reason: error.message.replace(/\.$/, '') });
      continue;
    }
    for (const move of moves) {
      move.shipment.status = 'DISPATCHED';
      move.shipment.tracking_info = { code: tracking.code, url: tracking.url };
    }
    const planned: PlannedRow = { ...row, orderId, ...(found.order.number !== undefined ? { orderNumber: found.order.number } : {}), moves: moves.map((m) => ({ ...m, shipment: { ...m.shipment, status: m.from } })), moveRequest };
    byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), planned]);
  }
  return [...byOrder.values()];
}

function movesOf(row: PlannedRow): ShipmentMove[] {
  const { tracking } = row.request;
  return row.moves.map((m) => ({
    line: row.line,
    order_id: row.orderId,
    ...(row.orderNumber !== undefined ? { order_number: row.orderNumber } : {}),
    shipment: shipmentLabel(m.shipment),
    from: m.from,
    to: m.to,
    tracking_code: tracking.code,
    ...(tracking.url ? { tracking_url: tracking.url } : {}),
    notify: tracking.notify,
  }));
}
