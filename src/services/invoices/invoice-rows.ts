import { basename } from 'node:path';
import { StoreError } from '../../errors.js';
import { BulkFile, type BulkFileOptions, type FileColumn, cellValue } from '../bulk/bulk-file.js';
import type { CheckedFile, RowError } from '../bulk/row-error.js';
import { parseFulfillmentOrderRef, parseHttpUrl, parseOrderId } from '../common/validate.js';
import { type InvoiceRequest, parseAccessKey } from './invoices.js';

/**
 * The invoices file of `invoices attach --file` (docs/csv.md, "Invoices") read and checked whole through the
 * file model (bulk/bulk-file.ts), like the catalog and the stock feed: every problem is a row error with its
 * line and column, and the rows are checked before anything is sent.
 */

const COLUMNS = ['order_id', 'key', 'link', 'fulfillment_order_id'] as const;
type InvoiceColumn = (typeof COLUMNS)[number];
const REQUIRED: InvoiceColumn[] = ['order_id', 'key', 'link'];

/** What the empty cell of a required column says. */
const EMPTY: Record<string, string> = {
  order_id: "the order is empty; every row names its order (its id, or the number the customer sees)",
  key: "the access key is empty; every row needs the invoice's 44-digit access key",
  link: 'the link is empty; every row needs the URL where the customer sees the invoice',
};

export interface InvoiceRow {
  line: number;
  request: InvoiceRequest;
}

export interface InvoiceFile extends CheckedFile {
  /** The valid rows, in file order. */
  good: InvoiceRow[];
  /** Rows read (blank ones skipped), valid or not. */
  rows: number;
}

export interface ReadInvoicesOptions extends BulkFileOptions {
  name?: string;
}

export async function readInvoiceFile(path: string, options: ReadInvoicesOptions = {}): Promise<InvoiceFile> {
  const file = options.name ?? basename(path);
  const read: InvoiceFile = { file, errors: [], good: [], rows: 0 };
  const opened = await BulkFile.open(path, options, file);
  if ('problem' in opened) {
    read.errors.push(opened.problem);
    read.headerBroken = true;
    return read;
  }
  read.source = opened;
  let columns: Map<InvoiceColumn, FileColumn> | undefined;
  const keyLines = new Map<string, { line: number; orderId: number }>();
  for await (const event of opened.read()) {
    if (event.kind === 'problem') {
      read.errors.push(event.error);
      if (!columns) read.headerBroken = true;
    } else if (event.kind === 'header') {
      columns = readHeader(file, event.header.line, event.header.columns, read);
    } else if (columns && !read.headerBroken) {
      read.rows++;
      readRow(file, event, columns, keyLines, read);
    }
  }
  if (!columns) {
    read.headerBroken = true;
    if (read.errors.length === 0) read.errors.push({ file, line: 1, message: 'the file is empty; it needs a header row with order_id, key and link' });
  }
  return read;
}

function readHeader(file: string, line: number, header: FileColumn[], read: InvoiceFile): Map<InvoiceColumn, FileColumn> {
  const columns = new Map<InvoiceColumn, FileColumn>();
  for (const column of header) {
    const name = column.name.toLowerCase() as InvoiceColumn;
    if (COLUMNS.includes(name)) {
      columns.set(name, column);
      continue;
    }
    read.errors.push({
      file,
      line,
      column: column.index + 1,
      header: column.header,
      message: `unknown column "${column.name}"; an invoices file has order_id, key, link and fulfillment_order_id: rename it with --map '${column.header}=COLUMN', or leave it out with --map '${column.header}='`,
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
  columns: Map<InvoiceColumn, FileColumn>,
  keyLines: Map<string, { line: number; orderId: number }>,
  read: InvoiceFile,
): void {
  const { line, cells } = record;
  const errors: RowError[] = [...record.problems];
  const value = (name: InvoiceColumn) => {
    const column = columns.get(name);
    return column ? cellValue(cells[column.index] ?? '') : '';
  };
  /** The cell's value read by `parse`, or undefined after its error (at its column) was kept. */
  const check = <T>(name: InvoiceColumn, parse: (text: string) => T): T | undefined => {
    const column = columns.get(name)!;
    const text = value(name);
    if ((cells[column.index] ?? '').includes('\uFFFD')) return undefined; // said by the file model
    try {
      if (text === '' && EMPTY[name]) throw new StoreError(EMPTY[name]!, 2);
      return parse(text);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      errors.push({ file, line, column: column.index + 1, header: column.header, message: error.message.trim().replace(/\.$/, '') });
      return undefined;
    }
  };
  const orderId = check('order_id', (text) => parseOrderId(text, ''));
  const key = check('key', (text) => parseAccessKey('the key', text));
  const link = check('link', (text) => parseHttpUrl('', text, 'https://example.com/invoice.pdf'));
  const fulfillment = columns.has('fulfillment_order_id') && value('fulfillment_order_id') !== '' ? check('fulfillment_order_id', (text) => parseFulfillmentOrderRef(text, '')) : undefined;
  if (key !== undefined && orderId !== undefined) {
    const earlier = keyLines.get(key);
    if (earlier && earlier.orderId !== orderId) {
      const column = columns.get('key')!;
      errors.push({ file, line, column: column.index + 1, header: column.header, message: `the same key is on line ${earlier.line} for order ${earlier.orderId}; an invoice belongs to one order` });
    } else if (!earlier) keyLines.set(key, { line, orderId });
  }
  if (errors.length > 0 || orderId === undefined || key === undefined || link === undefined) {
    const orderCell = value('order_id');
    for (const e of errors) read.errors.push({ ...e, key: orderCell || undefined });
    return;
  }
  const request: InvoiceRequest = { orderId, key, link };
  if (fulfillment && 'id' in fulfillment) request.fulfillment_order_id = fulfillment.id;
  else if (fulfillment) request.fulfillmentOrderNumber = fulfillment.number;
  read.good.push({ line, request });
}
