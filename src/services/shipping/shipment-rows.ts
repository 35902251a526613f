import { StoreError } from '../../errors.js';
import { type ReadRowFileOptions, type Row, type RowCells, type RowFile, type RowFileKind, readRowFile } from '../bulk/row-file.js';
import { type FulfillmentOrderRef, parseFulfillmentOrderRef, parseHttpUrl, parseOrderId } from '../common/validate.js';
import { TRACKING_CODE_MAX } from './moves.js';

/**
 * The shipments file of `orders ship --file` (docs/csv.md, "Shipments") read and checked whole as a row file
 * (bulk/row-file.ts), like the invoices file: each problem is a row error with its line and column, and no
 * row is sent while one is invalid (unless --skip-invalid). A row dispatches one shipment of an order (the one
 * `fulfillment_order` names) or, without it, every shipment of the order that can be dispatched, as
 * `store orders ship ORDER --tracking CODE` does.
 */

const COLUMNS = ['order', 'fulfillment_order', 'tracking_code', 'tracking_url', 'notify'] as const;
type ShipmentColumn = (typeof COLUMNS)[number];

/** `notify` cells: what a spreadsheet or a person writes for yes and no (blank is no: the store tells nobody unless asked). */
const YES = new Set(['true', 'yes', 'y', '1', 'si', 'sí', 's', 'sim', 'x']);
const NO = new Set(['false', 'no', 'n', '0', 'não', 'nao']);

/** What one row asks: dispatch these shipments of this order with this tracking. */
export interface ShipmentRequest {
  /** The order as the row gives it: an id or the number the customer sees (resolved when the orders are read). */
  order: number;
  /** The shipment the row names; without it, every shipment of the order that can be dispatched. */
  shipment?: FulfillmentOrderRef;
  tracking: { code: string; url?: string; notify: boolean };
}

export type ShipmentRow = Row<ShipmentRequest>;
export type ShipmentFile = RowFile<ShipmentRequest>;
export type ReadShipmentsOptions = ReadRowFileOptions;

const SHIPMENTS: RowFileKind<ShipmentColumn, ShipmentRequest> = {
  columns: COLUMNS,
  required: ['order', 'tracking_code'],
  has: 'a shipments file has order, fulfillment_order, tracking_code, tracking_url and notify',
  needs: 'a header row with order and tracking_code',
  empty: {
    order: 'the order is empty; every row names its order (its id, or the number the customer sees)',
    tracking_code: "the tracking code is empty; every row needs the carrier's tracking code of what it dispatches",
  },
  keyColumn: 'order',
  rowReader: () => {
    /** The line that first named each shipment ("191" for a whole order, "191 191-1" for one of its shipments). */
    const named = new Map<string, number>();
    return (cells) => shipmentRequest(cells, named);
  },
};

export async function readShipmentFile(path: string, options: ReadShipmentsOptions = {}): Promise<ShipmentFile> {
  return readRowFile(path, SHIPMENTS, options);
}

function shipmentRequest(cells: RowCells<ShipmentColumn>, named: Map<string, number>): ShipmentRequest | undefined {
  const order = cells.check('order', (text) => parseOrderId(text, ''));
  const shipment = cells.value('fulfillment_order') === '' ? null : cells.check('fulfillment_order', (text) => parseFulfillmentOrderRef(text, ''));
  const code = cells.check('tracking_code', trackingCodeCell);
  const url = cells.value('tracking_url') === '' ? null : cells.check('tracking_url', (text) => parseHttpUrl('', text, 'https://tracking.example.com/BR123456789AA'));
  const notify = cells.check('notify', notifyCell);
  if (order !== undefined && shipment !== undefined) {
    const problem = namedTwice(order, shipment, cells.line, named);
    if (problem) cells.fail(shipment ? 'fulfillment_order' : 'order', problem);
  }
  if (order === undefined || shipment === undefined || code === undefined || url === undefined || notify === undefined) return undefined;
  const request: ShipmentRequest = { order, tracking: { code, ...(url ? { url } : {}), notify } };
  if (shipment) request.shipment = shipment;
  return request;
}

/**
 * A shipment is dispatched once: a row naming an order (or a shipment of it) that an earlier row already names is
 * refused, with that line. Records the row's key when it is the first. Orders given once by id and once by number
 * are the same order only once the store is read: the rows of one order are then moved in file order, and the later
 * one finds its shipment dispatched (shipment-file.ts).
 */
function namedTwice(order: number, shipment: FulfillmentOrderRef | null, line: number, named: Map<string, number>): string | undefined {
  const whole = String(order);
  const wholeLine = named.get(whole);
  if (wholeLine !== undefined) return `line ${wholeLine} dispatches every shipment of order ${whole} already; a shipment is dispatched once: keep one of the rows`;
  if (!shipment) {
    const part = [...named.entries()].find(([key]) => key.startsWith(`${whole} `));
    if (part) return `line ${part[1]} dispatches a shipment of order ${whole} already; name this row's shipment in fulfillment_order, or keep one of the rows`;
    named.set(whole, line);
    return undefined;
  }
  const ref = 'id' in shipment ? shipment.id : shipment.number;
  const key = `${whole} ${ref}`;
  const earlier = named.get(key);
  if (earlier !== undefined) return `line ${earlier} dispatches shipment ${ref} of order ${whole} already; a shipment is dispatched once: keep one of the rows`;
  named.set(key, line);
  return undefined;
}

function trackingCodeCell(text: string): string {
  if (text.length > TRACKING_CODE_MAX || /\s/.test(text)) {
    throw new StoreError(`"${text.length > 40 ? `${text.slice(0, 39)}…` : text}" is not a tracking code: one word of at most ${TRACKING_CODE_MAX} characters (a URL goes in tracking_url)`, 2);
  }
  return text;
}

function notifyCell(text: string): boolean {
  const word = text.toLowerCase();
  if (word === '' || NO.has(word)) return false;
  if (YES.has(word)) return true;
  throw new StoreError(`"${text}" is not yes or no; write true to have the store tell the customer, false or nothing not to`, 2);
}
