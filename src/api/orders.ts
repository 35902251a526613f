import { z } from 'zod';
import type { StoreClient, WriteRecord } from '../client/index.js';
import { Id, Localized, Money, Num, parseRecords, Text, Timestamp } from './read.js';
import type { CancelReason, OrderStatus, PaymentStatus, ShippingStatus } from '../platform/orders.js';
import { parseReply } from './reply.js';
import { FulfillmentOrderSchema } from './fulfillment-orders.js';

/**
 * Orders as the platform sends them (docs/platform.md §4, docs/decisions.md "Orders as the platform sends them"):
 * status, payment and shipping are three separate states; payment is `gateway` + `payment_status` +
 * `payment_details`; shipping is a carrier code (`shipping`) with its option, costs and tracking fields.
 * Only what the commands use is checked; every other field passes through to `--json`.
 */

/** An order line. `product_id`, `variant_id` and `quantity` come as numbers or numeric strings; `sku` may be absent. */
export const OrderItemSchema = z.looseObject({
  id: Id.optional(),
  product_id: Id.nullish(),
  variant_id: Id.nullish(),
  name: Localized,
  sku: Text,
  // Not an id, so null is read as unknown (docs/platform.md §0); a missing quantity counts as none.
  quantity: Num.transform((n) => n ?? 0),
  price: Money,
});

const CustomerSchema = z
  .looseObject({ id: Id.nullish(), name: Text, email: Text, phone: Text, identification: Text })
  .nullish();

const PaymentDetailsSchema = z
  .looseObject({ method: Text, credit_card_company: Text, installments: Num })
  .nullish();

/**
 * `shipping` is a carrier code (a string) as documented; the earlier sandbox sent `{method, cost}`, still read
 * so a store answering in that form shows its shipping.
 */
const ShippingSchema = z
  .union([z.string(), z.looseObject({ method: Text, cost: Money }), z.null()])
  .optional();

export const OrderSchema = z.looseObject({
  id: Id,
  number: Num,
  token: Text,
  status: Text,
  payment_status: Text,
  shipping_status: Text,
  note: Text,
  owner_note: Text,
  cancel_reason: Text,
  created_at: Timestamp,
  updated_at: Timestamp,
  paid_at: Timestamp,
  shipped_at: Timestamp,
  closed_at: Timestamp,
  cancelled_at: Timestamp,
  customer: CustomerSchema,
  products: z
    .array(OrderItemSchema)
    .nullish()
    .transform((lines) => lines ?? []),
  gateway: Text,
  gateway_name: Text,
  payment_details: PaymentDetailsSchema,
  shipping: ShippingSchema,
  shipping_option: Text,
  shipping_option_code: Text,
  shipping_cost_customer: Money,
  shipping_cost_owner: Money,
  shipping_tracking_number: Text,
  shipping_tracking_url: Text,
  subtotal: Money,
  discount: Money,
  total: Money,
  /** The older single-order shape has `price` and no `total`. */
  price: Money,
  currency: Text,
  /**
   * The order's shipments, present when asked with `aggregates=fulfillment_orders` (docs/platform.md §10); an odd
   * one is left out rather than failing the order.
   */
  fulfillment_orders: z
    .array(z.unknown())
    .nullish()
    .catch(undefined)
    .transform((list) =>
      list?.flatMap((entry) => {
        const parsed = FulfillmentOrderSchema.safeParse(entry);
        return parsed.success ? [parsed.data] : [];
      }),
    ),
});
export type Order = z.infer<typeof OrderSchema>;

/** Filters of GET /orders (docs/platform.md §4): timestamps are ISO 8601 with offset; `any` is the store's default. */
export interface OrderFilters {
  status?: OrderStatus | 'any';
  payment_status?: PaymentStatus | 'any';
  shipping_status?: ShippingStatus | 'any';
  created_at_min?: string;
  created_at_max?: string;
  updated_at_min?: string;
  updated_at_max?: string;
  /** Decimal amounts, inclusive. */
  total_min?: string;
  total_max?: string;
  /** Comma-separated customer ids. */
  customer_ids?: string;
  /** Comma-separated sales channels (`store`, `api`, `form`, `meli`, `pos`…). */
  channels?: string;
  /** Comma-separated payment methods (`credit_card`, `bank_transfer`…): not in platform.md §4, from the newer API reference. */
  payment_methods?: string;
  /** A payment provider (the gateway: `mercadopago`…): not in platform.md §4, from the newer API reference. */
  payment_provider?: string;
  /** Only orders with a larger id. */
  since_id?: number;
  /** An order number, or text in the customer's name or email. */
  q?: string;
  /** `fulfillment_orders`: each order with its shipments inside (docs/platform.md §10). */
  aggregates?: 'fulfillment_orders';
}

export interface OrderPage {
  orders: Order[];
  page: number;
  /** x-total-count: every order matching the filters. */
  total?: number;
  /** How many records the page held, the ones left out as unreadable included (a short page ends a list). */
  received: number;
  /** The store's time when it answered (its `Date` header, ms). */
  date?: number;
}

function readList(client: StoreClient, items: unknown): Order[] {
  return parseRecords(OrderSchema, items, 'order', (message) => client.warn(message));
}

/** One page of orders, newest first; the empty-list 404 is an empty page. */
export async function listOrdersPage(client: StoreClient, filters: OrderFilters, page: number, perPage: number): Promise<OrderPage> {
  const res = await client.page<unknown>('/orders', { ...filters, page, per_page: perPage });
  return { orders: readList(client, res.items), page, total: res.total, received: res.items.length, date: res.date };
}

/**
 * The store's time now (ms, whole seconds): the Date header of the cheapest read of the orders, one order's id
 * (`fields=id`, per_page 1); undefined when the store sends none.
 */
export async function storeTimeFromOrders(client: StoreClient): Promise<number | undefined> {
  return (await client.page<unknown>('/orders', { fields: 'id', per_page: 1 })).date;
}

export async function getOrder(client: StoreClient, orderId: number, options: { withShipments?: boolean } = {}): Promise<Order> {
  const res = await client.request<unknown>({
    method: 'GET',
    path: `/orders/${orderId}`,
    ...(options.withShipments ? { query: { aggregates: 'fulfillment_orders' } } : {}),
  });
  return parseReply(OrderSchema, res.body, 'order record');
}

export interface CustomerDetails {
  name?: string;
  email?: string;
  phone?: string;
}

export interface OrderUpdate {
  owner_note?: string;
  /** `paid` is the seed's fourth status: the store records it as an open, paid order. */
  status?: OrderStatus | 'paid';
  customer?: CustomerDetails;
}

export async function updateOrder(client: StoreClient, orderId: number, update: OrderUpdate, record: WriteRecord): Promise<Order> {
  const res = await client.request<unknown>({ method: 'PUT', path: `/orders/${orderId}`, body: update, record });
  return parseReply(OrderSchema, res.body, 'order record');
}

export interface CancelOptions {
  reason?: CancelReason;
  /** Return the items to the stock they came from (the store's default is true). */
  restock?: boolean;
}

export async function cancelOrder(client: StoreClient, orderId: number, options: CancelOptions, record: WriteRecord): Promise<Order> {
  const res = await client.request<unknown>({ method: 'POST', path: `/orders/${orderId}/cancel`, body: options, record });
  return parseReply(OrderSchema, res.body, 'order record');
}

/** `POST /orders/{id}/close` (archive) or `/open` (reopen), docs/platform.md §9: no body; the order comes back. */
export async function closeOrReopenOrder(client: StoreClient, orderId: number, action: 'close' | 'open', record: WriteRecord): Promise<Order> {
  const res = await client.request<unknown>({ method: 'POST', path: `/orders/${orderId}/${action}`, record });
  return parseReply(OrderSchema, res.body, 'order record');
}

/** The fields of an address `POST /orders` takes as an object (docs/platform.md §12, the platform's own Postman body). */
export const ORDER_ADDRESS_FIELDS = ['first_name', 'last_name', 'address', 'number', 'floor', 'locality', 'city', 'province', 'zipcode', 'country', 'phone'] as const;

export type OrderAddress = Partial<Record<(typeof ORDER_ADDRESS_FIELDS)[number], string>>;

export interface NewOrder {
  customer: CustomerDetails;
  products: { variant_id: number; quantity: number }[];
  billing_address?: OrderAddress;
  shipping_address?: OrderAddress;
}

export async function createOrder(client: StoreClient, order: NewOrder, record: WriteRecord): Promise<Order> {
  const res = await client.request<unknown>({ method: 'POST', path: '/orders', body: order, record });
  return parseReply(OrderSchema, res.body, 'order record');
}
