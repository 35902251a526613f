import { z } from 'zod';
import { listOrdersPage, type Order, type OrderFilters } from '../../api/orders.js';
import type { StoreClient } from '../../client/index.js';
import { MAX_PER_PAGE } from '../../platform/pagination.js';
import { parseTimestamp } from '../../platform/timestamps.js';
import { formatTimestamp } from '../common/validate.js';
import { customerIdsOf } from '../customers/customers.js';
import { orderFilters } from '../orders/order-listing.js';
import { orderDetailsByIdOrNumber } from '../orders/orders.js';
import { makeCursor, pick, readCursor, untrusted, type UntrustedPolicy } from './reply.js';
import { READS_STORE, tool, type ToolSpec } from './session.js';

/**
 * The order tools: `search_orders` (the `orders list` filters, a page at a time with a cursor that walks back in
 * creation time, so it reaches past the store's 10,000-result cap and never skips an order that stops matching
 * meanwhile) and `get_order` (one order by id or number, with its shipments, invoices and customer).
 */

const ORDER_FIELDS = [
  'id', 'number', 'status', 'payment_status', 'shipping_status', 'created_at', 'updated_at', 'total', 'currency', 'customer',
  'note', 'owner_note', 'products', 'shipping_address', 'paid_at', 'shipped_at', 'gateway', 'shipping', 'subtotal', 'discount', 'storefront',
] as const;
type OrderField = (typeof ORDER_FIELDS)[number];
const DEFAULT_ORDER_FIELDS: OrderField[] = ['id', 'number', 'status', 'payment_status', 'shipping_status', 'created_at', 'total', 'currency', 'customer'];

/** An order as the tools show it: the fields asked, text written by the customer wrapped as data. */
export function shownOrder(order: Order, policy: UntrustedPolicy, fields: readonly string[] = ORDER_FIELDS): Record<string, unknown> {
  const raw = order as Record<string, unknown>;
  const customer = order.customer as { id?: unknown; name?: unknown; email?: unknown } | null | undefined;
  const address = raw.shipping_address as Record<string, unknown> | null | undefined;
  const all: Record<string, unknown> = {
    id: order.id,
    number: order.number,
    status: order.status,
    payment_status: order.payment_status,
    shipping_status: order.shipping_status,
    created_at: order.created_at,
    updated_at: order.updated_at,
    total: order.total ?? order.price,
    currency: order.currency,
    customer: customer ? { id: customer.id ?? null, name: untrusted(policy, 'customer', customer.name) ?? null, email: customer.email ?? null } : null,
    note: untrusted(policy, 'customer', order.note) ?? null,
    owner_note: untrusted(policy, 'staff', order.owner_note) ?? null,
    products: (order.products ?? []).map((line) => {
      const l = line as Record<string, unknown>;
      return { sku: l.sku ?? null, name: typeof l.name === 'string' ? l.name : (l.name ?? null), quantity: l.quantity ?? null, price: l.price ?? null };
    }),
    shipping_address: address ? untrusted(policy, 'customer', addressText(address)) ?? null : null,
    paid_at: order.paid_at,
    shipped_at: order.shipped_at,
    gateway: order.gateway,
    shipping: typeof raw.shipping === 'string' ? raw.shipping : (order.shipping_option ?? null),
    subtotal: order.subtotal,
    discount: order.discount,
    storefront: raw.storefront ?? null,
  };
  for (const key of Object.keys(all)) if (all[key] === undefined) all[key] = null;
  return pick(all, fields);
}

function addressText(address: Record<string, unknown>): string {
  const text = (v: unknown) => (typeof v === 'string' ? v : v && typeof v === 'object' && 'name' in v ? String((v as { name: unknown }).name) : '');
  return [address.name, [address.address, address.number, address.floor].map(text).filter(Boolean).join(' '), address.locality, address.city, address.province, address.zipcode, address.country]
    .map(text)
    .filter(Boolean)
    .join(', ');
}

/** The API's `fields=` for the fields shown (always what the cursor needs). */
function apiFields(fields: readonly string[]): string {
  const wanted = new Set(['id', 'created_at', ...fields]);
  if (wanted.has('total')) wanted.add('price');
  if (wanted.has('shipping')) wanted.add('shipping_option');
  return [...wanted].join(',');
}

const SECOND = 1000;

/**
 * Where a search goes on: the query (part) it is in, and the last order given (its creation time in ms and id).
 * The next call asks the orders created up to that second (`created_at_max`, +1 s: inclusive or not, nothing is
 * lost) and keeps those that come after the last one given, newest first by time then id: a cursor in creation
 * time, which no order that changes meanwhile moves, and which reaches past the store's 10,000-result cap.
 */
interface OrderCursor {
  p: number;
  a?: number;
  i?: number;
}

function isOrderCursor(value: unknown): value is OrderCursor {
  const c = value as OrderCursor;
  return Boolean(c) && typeof c === 'object' && Number.isInteger(c.p) && c.p >= 0 && (c.a === undefined || (Number.isFinite(c.a) && Number.isInteger(c.i)));
}

/** Newest first: later time, then larger id. */
function comesAfter(at: number, id: number, cursor: OrderCursor): boolean {
  if (cursor.a === undefined || cursor.i === undefined) return true;
  return at < cursor.a || (at === cursor.a && id < cursor.i);
}

const searchInput = z.object({
  status: z.enum(['open', 'closed', 'cancelled', 'any']).optional(),
  payment_status: z.string().optional().describe('pending, authorized, paid, abandoned, refunded, voided'),
  shipping_status: z.string().optional().describe('unpacked, unfulfilled, fulfilled (shipped)'),
  to_ship: z.boolean().optional().describe('Open, paid and not yet shipped.'),
  created_after: z.string().optional().describe('Date or ISO time; also 7d, 24h.'),
  created_before: z.string().optional(),
  updated_after: z.string().optional(),
  updated_before: z.string().optional(),
  query: z.string().optional().describe('Order number, or text in the customer name or email.'),
  customer: z.string().optional().describe('Customer id or email.'),
  total_min: z.string().optional(),
  total_max: z.string().optional(),
  limit: z.number().int().min(1).max(MAX_PER_PAGE).optional().describe('Orders per reply (default 50, max 200).'),
  fields: z.array(z.enum(ORDER_FIELDS)).optional().describe(`Default: ${DEFAULT_ORDER_FIELDS.join(',')}.`),
  cursor: z.string().optional().describe('From the previous reply, to go on.'),
});

interface Found {
  order: Order;
  part: number;
  at: number;
}

/**
 * Up to `limit` orders after the cursor (and one more, to know whether the list goes on), each query (part) in
 * turn. Orders of one crowded second that fill whole pages are read by page number within that second.
 */
async function readOrders(client: StoreClient, queries: OrderFilters[], keep: ((o: Order) => boolean) | undefined, start: OrderCursor, limit: number, fields: string): Promise<{ found: Found[]; more: boolean; total?: number }> {
  const found: Found[] = [];
  let cursor = { ...start };
  let page = 1;
  let total: number | undefined;
  const perPage = Math.min(MAX_PER_PAGE, limit + 1);
  while (cursor.p < queries.length && found.length <= limit) {
    const max = cursor.a === undefined ? undefined : formatTimestamp(new Date(Math.floor(cursor.a / SECOND) * SECOND + SECOND));
    const query = { ...queries[cursor.p], ...(max ? { created_at_max: max } : {}), fields } as OrderFilters;
    const res = await listOrdersPage(client, query, page, perPage);
    if (total === undefined && start.a === undefined && cursor.p === start.p && page === 1) total = res.total;
    const fresh = res.orders
      .map((order) => ({ order, part: cursor.p, at: parseTimestamp(order.created_at)?.getTime() ?? 0 }))
      .filter((f) => comesAfter(f.at, f.order.id, cursor))
      .sort((x, y) => y.at - x.at || y.order.id - x.order.id);
    for (const f of fresh) if (!keep || keep(f.order)) found.push(f);
    if (res.received < perPage) {
      // This query is read to its end: the next one, from its start.
      cursor = { p: cursor.p + 1 };
      page = 1;
      continue;
    }
    if (fresh.length === 0) {
      page += 1;
      continue;
    }
    const last = fresh[fresh.length - 1]!;
    cursor = { p: cursor.p, a: last.at, i: last.order.id };
    page = 1;
  }
  const more = found.length > limit || cursor.p < queries.length;
  return { found: found.slice(0, limit), more, total };
}

/** The cursor after the first `kept` orders found. */
function cursorAfter(found: Found[], kept: number, start: OrderCursor, more: boolean): string | undefined {
  if (kept === found.length && !more) return undefined;
  if (kept === 0) return makeCursor({ ...start });
  const last = found[kept - 1]!;
  return makeCursor({ p: last.part, a: last.at, i: last.order.id });
}

export const searchOrders = tool({
  name: 'search_orders',
  toolset: 'orders',
  write: false,
  scopes: ['read_orders'],
  title: 'Search orders',
  description: 'List orders newest first by status, payment, shipping, dates, total, customer or text (number, name, email); a page per call, with a cursor to go on. Use get_order for one order in full.',
  input: searchInput,
  output: z.looseObject({ orders: z.array(z.looseObject({})), cursor: z.string().nullable(), total: z.number().nullable().optional() }),
  annotations: READS_STORE,
  async run(args, { store, options }) {
    const listing = orderFilters({
      status: args.status,
      paymentStatus: args.payment_status,
      shippingStatus: args.shipping_status,
      toShip: args.to_ship,
      createdAfter: args.created_after,
      createdBefore: args.created_before,
      updatedAfter: args.updated_after,
      updatedBefore: args.updated_before,
      search: args.query,
      totalMin: args.total_min,
      totalMax: args.total_max,
      customers: args.customer ? [args.customer] : undefined,
    });
    const filters = { ...listing.filters };
    if (listing.customerRefs) filters.customer_ids = (await customerIdsOf(store.client, listing.customerRefs)).join(',');
    const queries = listing.parts ? listing.parts.map((part) => ({ ...filters, ...part })) : [filters];
    const start = readCursor(args.cursor, isOrderCursor) ?? { p: 0 };
    const fields = args.fields ?? DEFAULT_ORDER_FIELDS;
    const limit = args.limit ?? 50;
    const { found, more, total } = await readOrders(store.client, queries, listing.keep, start, limit, apiFields(fields));
    const orders = found.map((f) => shownOrder(f.order, options, fields));
    return {
      summary: `${orders.length} order${orders.length === 1 ? '' : 's'}${total !== undefined && !listing.keep && queries.length === 1 ? ` of ${total} matching` : ''}.${listing.notes.length ? ` ${listing.notes.join(' ')}` : ''}`,
      data: { orders, ...(total !== undefined && !listing.keep && queries.length === 1 ? { total } : {}) },
      list: 'orders',
      cursorAfter: (kept) => cursorAfter(found, kept, start, more),
    };
  },
});

function shownShipment(shipment: Record<string, unknown>): Record<string, unknown> {
  const tracking = shipment.tracking_info as { code?: unknown; url?: unknown } | null | undefined;
  return {
    id: shipment.id,
    number: shipment.number ?? null,
    status: shipment.status ?? null,
    tracking_code: tracking?.code ?? null,
    tracking_url: tracking?.url ?? null,
    fulfilled_at: shipment.fulfilled_at ?? null,
  };
}

export const getOrder = tool({
  name: 'get_order',
  toolset: 'orders',
  write: false,
  scopes: ['read_orders'],
  title: 'Get an order',
  description: 'One order by id or by the number the customer sees: lines, customer, address, notes, shipments (with tracking) and invoices.',
  input: z.object({ order: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]).describe('Order id or number.') }),
  output: z.looseObject({ order: z.looseObject({}), shipments: z.array(z.looseObject({})), invoices: z.array(z.looseObject({})) }),
  annotations: READS_STORE,
  async run(args, { store, options }) {
    const found = await orderDetailsByIdOrNumber(store.client, Number(args.order));
    const { order, fulfillment_orders: shipments, invoices } = found.value;
    return {
      summary: `Order ${order.number ?? ''} (id ${order.id}): ${order.status}, payment ${order.payment_status}, shipping ${order.shipping_status}.${found.notice ? ` ${found.notice}` : ''}`,
      data: {
        order: shownOrder(order, options),
        shipments: shipments.map((s) => shownShipment(s as Record<string, unknown>)),
        invoices: invoices.map((i) => ({ ...i })),
      },
    };
  },
});

export const ORDER_TOOLS: ToolSpec[] = [searchOrders, getOrder];
