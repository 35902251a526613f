import { z } from 'zod';
import type { StoreClient } from '../client/index.js';
import { parseReply } from './reply.js';

/** Money is a decimal string in replies (DESIGN.md §5.7); numbers are tolerated. */
const Money = z.union([z.string(), z.number()]).nullish();

export const ORDER_STATUSES = ['open', 'paid', 'closed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const CANCEL_REASONS = ['customer', 'inventory', 'fraud', 'other'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

export const OrderItemSchema = z.looseObject({
  product_id: z.number().nullish(),
  variant_id: z.number().nullish(),
  name: z.union([z.string(), z.record(z.string(), z.string())]).nullish(),
  sku: z.string().nullish(),
  quantity: z.number(),
  price: Money,
});
export type OrderItem = z.infer<typeof OrderItemSchema>;

export const OrderSchema = z.looseObject({
  id: z.number(),
  number: z.number(),
  status: z.string(),
  owner_note: z.string().nullish(),
  created_at: z.string(),
  updated_at: z.string().nullish(),
  cancelled_at: z.string().nullish(),
  customer: z
    .looseObject({ name: z.string().nullish(), email: z.string().nullish(), phone: z.string().nullish() })
    .nullish(),
  products: z.array(OrderItemSchema).default([]),
  shipping: z.looseObject({ method: z.string().nullish(), cost: Money }).nullish(),
  payments: z.array(z.looseObject({ method: z.string().nullish(), amount: Money, status: z.string().nullish() })).default([]),
  subtotal: Money,
  total: Money,
  currency: z.string().nullish(),
});
export type Order = z.infer<typeof OrderSchema>;

const OrderListSchema = z.array(OrderSchema);

/** Filters of GET /orders (spec §4): timestamps are ISO 8601 with offset. */
export interface OrderFilters {
  status?: OrderStatus;
  created_at_min?: string;
  created_at_max?: string;
}

export interface OrderPage {
  orders: Order[];
  page: number;
  /** x-total-count: every order matching the filters. */
  total?: number;
}

/** One page of orders, newest first. */
export async function listOrdersPage(client: StoreClient, filters: OrderFilters, page: number, perPage: number): Promise<OrderPage> {
  const res = await client.page<unknown>('/orders', { ...filters, page, per_page: perPage });
  return { orders: parseReply(OrderListSchema, res.items, 'order list'), page, total: res.total };
}

/** Every page of orders (per_page 200, following the Link header), as the pages arrive. */
export async function* paginateOrders(client: StoreClient, filters: OrderFilters): AsyncGenerator<OrderPage> {
  for await (const page of client.paginate<unknown>('/orders', { ...filters }, { perPage: 200 })) {
    yield { orders: parseReply(OrderListSchema, page.items, 'order list'), page: page.page, total: page.total };
  }
}

export async function getOrder(client: StoreClient, orderId: number): Promise<Order> {
  const res = await client.request<unknown>({ method: 'GET', path: `/orders/${orderId}` });
  return parseReply(OrderSchema, res.body, 'order record');
}

export interface OrderUpdate {
  owner_note?: string;
  status?: OrderStatus;
}

export async function updateOrder(client: StoreClient, orderId: number, update: OrderUpdate): Promise<Order> {
  const res = await client.request<unknown>({ method: 'PUT', path: `/orders/${orderId}`, body: update });
  return parseReply(OrderSchema, res.body, 'order record');
}

export interface CancelOptions {
  reason?: CancelReason;
  /** Return the items to the stock they came from (the store's default is true). */
  restock?: boolean;
}

export async function cancelOrder(client: StoreClient, orderId: number, options: CancelOptions): Promise<Order> {
  const res = await client.request<unknown>({ method: 'POST', path: `/orders/${orderId}/cancel`, body: options });
  return parseReply(OrderSchema, res.body, 'order record');
}

export interface NewOrder {
  customer: { name?: string; email?: string; phone?: string };
  products: { variant_id: number; quantity: number }[];
}

export async function createOrder(client: StoreClient, order: NewOrder): Promise<Order> {
  const res = await client.request<unknown>({ method: 'POST', path: '/orders', body: order });
  return parseReply(OrderSchema, res.body, 'order record');
}
