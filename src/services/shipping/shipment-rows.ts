import { basename } from 'node:path';
import { StoreError } from '../../errors.js';
import { BulkFile, type BulkFileOptions, type FileColumn, cellValue } from '../bulk/bulk-file.js';
import type { CheckedFile, RowError } from '../bulk/row-error.js';
import { type FulfillmentOrderRef, parseFulfillmentOrderRef, parseHttpUrl, parseOrderId } from '../common/validate.js';
import { TRACKING_CODE_MAX } from './moves.js';

/**
 * The shipments file of `orders ship --file` (docs/csv.md, "Shipments") read and checked whole through the file
 * model (bulk/bulk-file.ts), like every bulk file: each problem is a row error with its line and column, and no
 * row is sent while one is invalid (unless --skip-invalid). A row dispatches one shipment of an order (the one
 * `fulfillment_order` names) or, without it, every shipment of the order that can be dispatched, as
 * `store orders ship ORDER --tracking CODE` does.
 */

const COLUMNS = ['order', 'fulfillment_order', 'tracking_code', 'tracking_url', 'notify'] as const;
type ShipmentColumn = (typeof COLUMNS)[number];
const REQUIRED: ShipmentColumn[] = ['order', 'tracking_code'];

/** What the empty cell of a required column says. */
const EMPTY: Partial<Record<ShipmentColumn, string>> = {
  order: 'the order is empty; every row names its order (its id, or the number the customer sees)',
  tracking_code: "the tracking code is empty; every row needs the carrier's tracking code of what it dispatches",
};

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

export interface ShipmentRow {
  line: number;
  request: ShipmentRequest;
}

export interface ShipmentFile extends CheckedFile {
  /** The valid rows, in file order. */
  good: ShipmentRow[];
  /** Rows read (blank ones skipped), valid or not. */
  rows: number;
}

export interface ReadShipmentsOptions extends BulkFileOptions {
  name?: string;
}

export async function readShipmentFile(path: string, options: ReadShipmentsOptions = {}): Promise<ShipmentFile> {
  const file = options.name ?? basename(path);
  const read: ShipmentFile = { file, errors: [], good: [], rows: 0 };
  const opened = await BulkFile.open(path, options, file);
  if ('problem' in opened) {
    read.errors.push(opened.problem);
    read.headerBroken = true;
    return read;
  }
  read.source = opened;
  let columns: Map<ShipmentColumn, FileColumn> | undefined;
  /** The line that first named each shipment ("191" for a whole order, "191 191-1" for one of its shipments). */
  const named = new Map<string, number>();
  for await (const event of opened.read()) {
    if (event.kind === 'problem') {
      read.errors.push(event.error);
      if (!columns) read.headerBroken = true;
    } else if (event.kind === 'header') {
      columns = readHeader(file, event.header.line, event.header.columns, read);
    } else if (columns && !read.headerBroken) {
      read.rows++;
      readRow(file, event, columns, named, read);
    }
  }
  if (!columns) {
    read.headerBroken = true;
    if (read.errors.length === 0) read.errors.push({ file, line: 1, message: 'the file is empty; it needs a header row with order and tracking_code' });
  }
  return read;
}

function readHeader(file: string, line: number, header: FileColumn[], read: ShipmentFile): Map<ShipmentColumn, FileColumn> {
  const columns = new Map<ShipmentColumn, FileColumn>();
  for (const column of header) {
    const name = column.name.toLowerCase() as ShipmentColumn;
    if (COLUMNS.includes(name)) {
      columns.set(name, column);
      continue;
    }
    read.errors.push({
      file,
      line,
      column: column.index + 1,
      header: column.header,
      message: `unknown column "${column.name}"; a shipments file has order, fulfillment_order, tracking_code, tracking_url and notify: rename it with --map '${column.header}=COLUMN', or leave it out with --map '${column.header}='`,
    });
    read.headerBroken = true;
  }
  for (const required of REQUIRED) {
    if (columns.has(required)) continue;
    read.errors.push({ file, line, message: `no "${required}" column; every row needs one: add the column, or name yours with --map 'YOUR_COLUMN=${required}'` });
    read.headerBroken = true;
  }
  return columns;
}

function readRow(
  file: string,
  record: { line: number; cells: string[]; problems: RowError[] },
  columns: Map<ShipmentColumn, FileColumn>,
  named: Map<string, number>,
  read: ShipmentFile,
): void {
  const { line, cells } = record;
  const errors: RowError[] = [...record.problems];
  const value = (name: ShipmentColumn) => {
    const column = columns.get(name);
    return column ? cellValue(cells[column.index] ?? '') : '';
  };
  /** The cell's value read by `parse`, or undefined after its error (at its column) was kept. */
  const check = <T>(name: ShipmentColumn, parse: (text: string) => T): T | undefined => {
    const column = columns.get(name);
    if (!column) return parse('');
    const text = value(name);
    if ((cells[column.index] ?? '').includes('\uFFFD')) return undefined; // said by the file model
    try {
      const empty = EMPTY[name];
      if (text === '' && empty) throw new StoreError(empty, 2);
      return parse(text);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      errors.push({ file, line, column: column.index + 1, header: column.header, message: error.message.trim().replace(/\.$/, '') });
      return undefined;
    }
  };
  const order = check('order', (text) => parseOrderId(text, ''));
  const shipment = value('fulfillment_order') === '' ? null : check('fulfillment_order', (text) => parseFulfillmentOrderRef(text, ''));
  const code = check('tracking_code', trackingCodeCell);
  const url = value('tracking_url') === '' ? null : check('tracking_url', (text) => parseHttpUrl('', text, 'https://tracking.example.com/BR123456789AA'));
  const notify = check('notify', notifyCell);
  if (order !== undefined && shipment !== undefined) {
    const problem = namedTwice(order, shipment, line, named);
    const column = columns.get(shipment ? 'fulfillment_order' : 'order')!;
    if (problem) errors.push({ file, line, column: column.index + 1, header: column.header, message: problem });
  }
  if (errors.length > 0 || order === undefined || shipment === undefined || code === undefined || url === undefined || notify === undefined) {
    const orderCell = value('order');
    for (const e of errors) read.errors.push({ ...e, key: orderCell || undefined });
    return;
  }
  const request: ShipmentRequest = { order, tracking: { code, ...(url ? { url } : {}), notify } };
  if (shipment) request.shipment = shipment;
  read.good.push({ line, request });
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
