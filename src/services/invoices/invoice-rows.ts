import { type ReadRowFileOptions, type Row, type RowCells, type RowFile, type RowFileKind, readRowFile } from '../bulk/row-file.js';
import { parseFulfillmentOrderRef, parseHttpUrl, parseOrderId } from '../common/validate.js';
import { type InvoiceRequest, parseAccessKey } from './invoices.js';

/**
 * The invoices file of `invoices attach --file` (docs/csv.md, "Invoices") read and checked whole as a row file
 * (bulk/row-file.ts), like the shipments file: every problem is a row error with its line and column, and the rows
 * are checked before anything is sent. What is the invoices' own: the columns, and what a row asks.
 */

const COLUMNS = ['order_id', 'key', 'link', 'fulfillment_order_id'] as const;
type InvoiceColumn = (typeof COLUMNS)[number];

export type InvoiceRow = Row<InvoiceRequest>;
export type InvoiceFile = RowFile<InvoiceRequest>;
export type ReadInvoicesOptions = ReadRowFileOptions;

const INVOICES: RowFileKind<InvoiceColumn, InvoiceRequest> = {
  columns: COLUMNS,
  required: ['order_id', 'key', 'link'],
  has: 'an invoices file has order_id, key, link and fulfillment_order_id',
  needs: 'a header row with order_id, key and link',
  empty: {
    order_id: 'the order is empty; every row names its order (its id, or the number the customer sees)',
    key: "the access key is empty; every row needs the invoice's 44-digit access key",
    link: 'the link is empty; every row needs the URL where the customer sees the invoice',
  },
  keyColumn: 'order_id',
  rowReader: () => {
    /** The first line of each key: an invoice belongs to one order. */
    const keyLines = new Map<string, { line: number; orderId: number }>();
    return (cells) => invoiceRequest(cells, keyLines);
  },
};

export async function readInvoiceFile(path: string, options: ReadInvoicesOptions = {}): Promise<InvoiceFile> {
  return readRowFile(path, INVOICES, options);
}

function invoiceRequest(cells: RowCells<InvoiceColumn>, keyLines: Map<string, { line: number; orderId: number }>): InvoiceRequest | undefined {
  const { line } = cells;
  const orderId = cells.check('order_id', (text) => parseOrderId(text, ''));
  const key = cells.check('key', (text) => parseAccessKey('the key', text));
  const link = cells.check('link', (text) => parseHttpUrl('', text, 'https://example.com/invoice.pdf'));
  const fulfillment = cells.has('fulfillment_order_id') && cells.value('fulfillment_order_id') !== '' ? cells.check('fulfillment_order_id', (text) => parseFulfillmentOrderRef(text, '')) : undefined;
  if (key !== undefined && orderId !== undefined) {
    const earlier = keyLines.get(key);
    if (earlier && earlier.orderId !== orderId) cells.fail('key', `the same key is on line ${earlier.line} for order ${earlier.orderId}; an invoice belongs to one order`);
    else if (!earlier) keyLines.set(key, { line, orderId });
  }
  if (orderId === undefined || key === undefined || link === undefined) return undefined;
  const request: InvoiceRequest = { orderId, key, link };
  if (fulfillment && 'id' in fulfillment) request.fulfillment_order_id = fulfillment.id;
  else if (fulfillment) request.fulfillmentOrderNumber = fulfillment.number;
  return request;
}
