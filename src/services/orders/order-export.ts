import { getOrder, type Order } from '../../api/orders.js';
import { fieldText, pickLocalized } from '../../api/read.js';
import type { StoreClient } from '../../client/index.js';
import { toCsvLine } from '../../output/render.js';
import { writeOut } from '../../output/io.js';
import { listingOrders, type OrderListing } from './order-listing.js';
import { readInvoices } from './order-invoices.js';
import { byIdOrNumber } from './order-lookup.js';

/**
 * `store orders export`: every order of the listing (order-listing.ts; past the 10,000-result cap: all-orders.ts) as one row
 * per line item, the order's fields repeated on each (docs/csv.md, "Orders"), streamed a page at a time as CSV
 * (formula-escaped, the same writer as every CSV of the CLI) or NDJSON (one object per row, same names).
 * An order without lines still gets one row, with the line columns empty. Invoice keys are in the order's
 * metafields, one request per order (docs/platform.md §6): only with `invoices: true`.
 */

export const ORDER_EXPORT_COLUMNS = [
  'order_id',
  'order_number',
  'created_at',
  'updated_at',
  'paid_at',
  'status',
  'payment_status',
  'shipping_status',
  'customer_id',
  'customer_name',
  'customer_email',
  'customer_identification',
  'shipping_name',
  'shipping_address',
  'shipping_city',
  'shipping_province',
  'shipping_zipcode',
  'shipping_country',
  'line_id',
  'line_sku',
  'line_name',
  'line_quantity',
  'line_unit_price',
  'subtotal',
  'discount',
  'shipping_cost',
  'total',
  'currency',
  'gateway',
  'payment_method',
  'invoice_keys',
] as const;

export type OrderExportColumn = (typeof ORDER_EXPORT_COLUMNS)[number];
export type OrderExportRow = Record<OrderExportColumn, string>;

export interface OrderExportOptions {
  format: 'csv' | 'ndjson';
  out: NodeJS.WritableStream;
  /** Read each order's invoice keys (one more request per order). */
  invoices?: boolean;
  onProgress?: (done: number, total: number | undefined) => void;
  /** Only these orders, each an id or the number the customer sees (one request each), instead of the filters. */
  orders?: number[];
  /** Says which order a customer number named (see byIdOrNumber). */
  onNotice?: (notice: string) => void;
}

export interface OrderExportSummary {
  orders: number;
  rows: number;
  /** Requests sent by the export's client (pages, window boundaries and, with invoices, one per order). */
  requests: number;
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** "Rua Harmonia 321, apto 42, Vila Madalena": street and number, then floor and locality (docs/csv.md). */
function street(address: unknown): string {
  const field = (key: string) => fieldText(address, key);
  return [[field('address'), field('number')].filter(Boolean).join(' '), field('floor'), field('locality')].filter(Boolean).join(', ');
}

/** The rows of one order: one per line item (one with the line columns empty when it has none). */
export function orderRows(order: Order, invoiceKeys: string[] = []): OrderExportRow[] {
  const shipTo = (order as { shipping_address?: unknown }).shipping_address;
  const shippingCost = order.shipping_cost_customer ?? (typeof order.shipping === 'object' && order.shipping ? order.shipping.cost : undefined);
  const base = {
    order_id: text(order.id),
    order_number: text(order.number),
    created_at: text(order.created_at),
    updated_at: text(order.updated_at),
    paid_at: text(order.paid_at),
    status: text(order.status),
    payment_status: text(order.payment_status),
    shipping_status: text(order.shipping_status),
    customer_id: text(order.customer?.id),
    customer_name: text(order.customer?.name),
    customer_email: text(order.customer?.email),
    customer_identification: text(order.customer?.identification),
    shipping_name: fieldText(shipTo, 'name'),
    shipping_address: street(shipTo),
    shipping_city: fieldText(shipTo, 'city'),
    shipping_province: fieldText(shipTo, 'province'),
    shipping_zipcode: fieldText(shipTo, 'zipcode'),
    shipping_country: fieldText(shipTo, 'country'),
    subtotal: text(order.subtotal),
    discount: text(order.discount),
    shipping_cost: text(shippingCost),
    total: text(order.total ?? order.price),
    currency: text(order.currency),
    gateway: text(order.gateway),
    payment_method: text(order.payment_details?.method),
    invoice_keys: invoiceKeys.join(' '),
  };
  const lines = order.products.length > 0 ? order.products : [undefined];
  return lines.map((line) => ({
    ...base,
    line_id: text(line?.id),
    line_sku: text(line?.sku),
    line_name: line ? pickLocalized(line.name) : '',
    line_quantity: line ? text(line.quantity) : '',
    line_unit_price: text(line?.price),
  })) as OrderExportRow[];
}

/** How many invoice reads run side by side (the client's scheduler paces them to the store's bucket anyway). */
const INVOICE_READS = 4;

async function invoiceKeysOf(client: StoreClient, orders: Order[]): Promise<Map<number, string[]>> {
  const keys = new Map<number, string[]>();
  let next = 0;
  const worker = async () => {
    while (next < orders.length) {
      const order = orders[next++]!;
      const { invoices } = await readInvoices(client, order.id, { checkOrder: false });
      keys.set(order.id, invoices.map((i) => i.key).filter(Boolean));
    }
  };
  await Promise.all(Array.from({ length: Math.min(INVOICE_READS, orders.length) }, worker));
  return keys;
}

/** The orders named by id or customer number, in the order given, each once. */
async function* namedOrders(client: StoreClient, refs: number[], onNotice?: (notice: string) => void): AsyncGenerator<{ orders: Order[]; total: number }> {
  const seen = new Set<number>();
  for (const ref of refs) {
    const found = await byIdOrNumber(client, ref, 'exporting it', (id) => getOrder(client, id));
    if (found.notice) onNotice?.(found.notice);
    if (seen.has(found.orderId)) continue;
    seen.add(found.orderId);
    yield { orders: [found.value], total: refs.length };
  }
}

export async function exportOrders(client: StoreClient, listing: OrderListing, options: OrderExportOptions): Promise<OrderExportSummary> {
  const summary = { orders: 0, rows: 0 };
  const before = client.stats().requests;
  if (options.format === 'csv') await writeOut(options.out, `${toCsvLine([...ORDER_EXPORT_COLUMNS])}\n`);
  for await (const { orders, total } of options.orders ? namedOrders(client, options.orders, options.onNotice) : listingOrders(client, listing)) {
    const keys = options.invoices ? await invoiceKeysOf(client, orders) : undefined;
    let chunk = '';
    for (const order of orders) {
      for (const row of orderRows(order, keys?.get(order.id))) {
        chunk += options.format === 'csv' ? `${toCsvLine(ORDER_EXPORT_COLUMNS.map((c) => row[c]))}\n` : `${JSON.stringify(row)}\n`;
        summary.rows++;
      }
      summary.orders++;
    }
    if (chunk) await writeOut(options.out, chunk);
    options.onProgress?.(summary.orders, total);
  }
  return { ...summary, requests: client.stats().requests - before };
}
