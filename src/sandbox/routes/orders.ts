import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  MONEY_LIMIT,
  httpError,
  intParam,
  invalid,
  isoTime,
  mainText,
  notFound,
  paginate,
  parseBody,
  parseMoney,
  parseTime,
  type FieldErrors,
} from '../http.js';
import type { SandboxContext } from '../server.js';
import { returnStock, takeStock, variantStock, type Collection, type StoreData, type Tx } from '../state.js';
import {
  createFulfillmentOrder,
  fulfillmentOrdersOf,
  fulfillmentOrdersOfOrder,
  refreshStatus,
} from './fulfillment-orders.js';

/**
 * Orders (DESIGN.md §5.14). Ids are 10-digit integers; `number` counts up from 100 per store.
 *
 * Stock: creating an order takes its units location by location in priority order and makes one fulfillment
 * order per source location, so the fulfillment orders record where every unit came from. Cancelling with
 * restock (the default) puts the units back there, once: a re-opened and cancelled-again order does not
 * restock twice. A PUT that sets `status: cancelled` only changes the status (no restock); the cancel
 * operation is the way to cancel with its side effects.
 */

export const ORDER_STATUSES = ['open', 'paid', 'closed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const CANCEL_REASONS = ['customer', 'inventory', 'fraud', 'other'] as const;

const FIRST_ORDER_ID = 1_000_000_001;
const FIRST_ORDER_NUMBER = 100;

export type Customer = { name: string; email: string; phone: string };

export type OrderLine = {
  product_id: number;
  variant_id: number;
  name: string;
  sku: string | null;
  quantity: number;
  price: string;
};

export type Payment = { method: string; amount: string; status: 'pending' | 'paid' | 'refunded' | 'voided' };

export type OrderRecord = {
  id: number;
  number: number;
  status: OrderStatus;
  owner_note: string;
  created_at: number;
  updated_at: number;
  cancelled_at: number | null;
  cancel_reason: string | null;
  /** Whether a cancellation already returned the units, so a second cancellation does not. */
  stock_returned: boolean;
  customer: Customer;
  products: OrderLine[];
  shipping: { method: string; cost: string };
  payments: Payment[];
  subtotal: string;
  total: string;
  currency: string;
};

export function ordersOf(store: StoreData): Collection<OrderRecord> {
  return store.orders as unknown as Collection<OrderRecord>;
}

export function presentOrder(order: OrderRecord) {
  return {
    id: order.id,
    number: order.number,
    status: order.status,
    owner_note: order.owner_note,
    created_at: isoTime(order.created_at),
    updated_at: isoTime(order.updated_at),
    cancelled_at: order.cancelled_at === null ? null : isoTime(order.cancelled_at),
    cancel_reason: order.cancel_reason,
    customer: { ...order.customer },
    products: order.products.map((p) => ({ ...p })),
    shipping: { ...order.shipping },
    payments: order.payments.map((p) => ({ ...p })),
    subtotal: order.subtotal,
    total: order.total,
    currency: order.currency,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Domain operations, shared by the routes and the demo seed

export interface NewOrder {
  customer: Customer;
  products: { variant_id: number; quantity: number }[];
  shipping?: { method: string; cost: string };
  owner_note?: string;
  payment_method?: string;
}

/**
 * Checks that every variant exists and that the store holds enough units (summed per variant, since a
 * variant may appear on several lines). Call before `createOrder`: a mutation must not fail half-way.
 */
export function checkOrderStock(store: StoreData, products: NewOrder['products']): FieldErrors | undefined {
  const errors: FieldErrors = {};
  const wanted = new Map<number, number>();
  let subtotal = 0;
  products.forEach((line, i) => {
    const found = store.findVariant(line.variant_id);
    if (!found) {
      errors[`products.${i}.variant_id`] = [`variant ${line.variant_id} does not exist`];
      return;
    }
    subtotal += Number(lineName(store, line.variant_id).price) * line.quantity;
    const total = (wanted.get(line.variant_id) ?? 0) + line.quantity;
    wanted.set(line.variant_id, total);
    const available = variantStock(found.variant);
    if (found.variant.stock_management && total > available) {
      errors[`products.${i}.quantity`] = [`only ${available} of variant ${line.variant_id} in stock`];
    }
  });
  if (subtotal >= MONEY_LIMIT) errors.products = [`make an order total of less than ${MONEY_LIMIT}`];
  return Object.keys(errors).length ? errors : undefined;
}

function lineName(store: StoreData, variantId: number): Omit<OrderLine, 'quantity'> {
  const { product, variant } = store.findVariant(variantId)!;
  const values = variant.values.map((v) => mainText(store, v)).filter((t) => t !== '');
  const name = mainText(store, product.name);
  return {
    product_id: product.id,
    variant_id: variant.id,
    name: values.length ? `${name} (${values.join(', ')})` : name,
    sku: variant.sku,
    price: variant.promotional_price ?? variant.price ?? '0.00',
  };
}

const money = (n: number) => n.toFixed(2);

/**
 * Creates an open order inside a mutation: takes the stock by location priority and makes one fulfillment
 * order per source location. `checkOrderStock` must have passed.
 */
export function createOrder(tx: Tx, store: StoreData, input: NewOrder, at = tx.now()): OrderRecord {
  const id = tx.nextSharedId('order', FIRST_ORDER_ID);
  const number = tx.nextId(store, 'order_number', FIRST_ORDER_NUMBER);
  const lines: OrderLine[] = [];
  const bySource = new Map<string, Map<number, number>>();
  for (const { variant_id, quantity } of input.products) {
    lines.push({ ...lineName(store, variant_id), quantity });
    for (const allocation of takeStock(tx, store, variant_id, quantity)) {
      let source = bySource.get(allocation.location_id);
      if (!source) bySource.set(allocation.location_id, (source = new Map()));
      source.set(variant_id, (source.get(variant_id) ?? 0) + allocation.quantity);
    }
  }
  const subtotal = lines.reduce((sum, l) => sum + Number(l.price) * l.quantity, 0);
  const shipping = input.shipping ?? { method: 'standard', cost: '0.00' };
  const total = money(subtotal + Number(shipping.cost));
  const order = tx.put(ordersOf(store), {
    id,
    number,
    status: 'open',
    owner_note: input.owner_note ?? '',
    created_at: at,
    updated_at: at,
    cancelled_at: null,
    cancel_reason: null,
    stock_returned: false,
    customer: input.customer,
    products: lines,
    shipping,
    payments: [{ method: input.payment_method ?? 'other', amount: total, status: 'pending' }],
    subtotal: money(subtotal),
    total,
    currency: store.record.currency,
  });
  // Locations in priority order, so the first fulfillment order is the main shipment.
  const priority = new Map(store.locationsByPriority().map((l, i) => [l.id, i]));
  const sources = Array.from(bySource.keys()).sort((a, b) => (priority.get(a) ?? 0) - (priority.get(b) ?? 0));
  sources.forEach((locationId, i) => {
    const products = Array.from(bySource.get(locationId)!, ([variant_id, quantity]) => ({ variant_id, quantity }));
    // Distinct timestamps keep the fulfillment orders' ULIDs in the same order as the locations.
    createFulfillmentOrder(tx, store, id, locationId, products, at + i);
  });
  return order;
}

/** Sets the status with its consequences on payments, cancellation fields and fulfillment orders. */
export function applyStatus(tx: Tx, store: StoreData, order: OrderRecord, status: OrderStatus, at = tx.now()): void {
  if (order.status === status) return;
  const wasCancelled = order.status === 'cancelled';
  order.status = status;
  if (status === 'paid' || status === 'closed') {
    for (const payment of order.payments) if (payment.status === 'pending') payment.status = 'paid';
  }
  if (status === 'cancelled') {
    order.cancelled_at = at;
  } else if (wasCancelled) {
    order.cancelled_at = null;
    order.cancel_reason = null;
  }
  if (status === 'cancelled' || wasCancelled) {
    for (const fo of fulfillmentOrdersOfOrder(store, order.id)) {
      refreshStatus(fo, status === 'cancelled');
      fo.updated_at = at;
      tx.put(fulfillmentOrdersOf(store), fo);
    }
  }
}

/** Cancels an order (not already cancelled) and, unless told otherwise, returns its units where they came from. */
export function cancelOrder(
  tx: Tx,
  store: StoreData,
  order: OrderRecord,
  options: { reason: string; restock: boolean },
  at = tx.now(),
): void {
  applyStatus(tx, store, order, 'cancelled', at);
  order.cancel_reason = options.reason;
  for (const payment of order.payments) {
    if (payment.status === 'paid') payment.status = 'refunded';
    else if (payment.status === 'pending') payment.status = 'voided';
  }
  if (options.restock && !order.stock_returned) {
    for (const fo of fulfillmentOrdersOfOrder(store, order.id)) {
      for (const { variant_id, quantity } of fo.products) {
        returnStock(tx, store, variant_id, [{ location_id: fo.location_id, quantity }]);
      }
    }
    order.stock_returned = true;
  }
  order.updated_at = at;
  tx.put(ordersOf(store), order);
}

// ---------------------------------------------------------------------------------------------------------
// Routes

const positiveInt = (problem: string) =>
  z.number({ error: problem }).int({ error: problem }).min(1, { error: problem });

const text = (max: number) => z.string({ error: 'must be a string' }).max(max, { error: `must be at most ${max} characters` });

const CustomerBody = z.object(
  {
    name: text(200).optional(),
    email: z.email({ error: 'must be an email address' }).or(z.literal('')).optional(),
    phone: text(50).optional(),
  },
  { error: 'must be an object with name, email and phone' },
);

const CreateBody = z.object({
  customer: CustomerBody.refine((c) => !!c.name?.trim(), { error: 'name is required', path: ['name'] }),
  products: z
    .array(
      z.object({
        variant_id: positiveInt('must be a variant id'),
        quantity: positiveInt('must be a whole number of at least 1'),
      }),
      { error: 'must be a list of {variant_id, quantity}' },
    )
    .min(1, { error: 'must name at least one variant' })
    .max(250, { error: 'must have at most 250 lines' }),
  shipping: z
    .object({ method: text(100).optional(), cost: z.union([z.number(), z.string()]).optional() })
    .optional(),
  owner_note: text(5000).optional(),
  payment_method: text(100).optional(),
});

const UpdateBody = z.object({
  owner_note: text(5000).nullish(),
  status: z.enum(ORDER_STATUSES, { error: `must be one of ${ORDER_STATUSES.join(', ')}` }).optional(),
  customer: CustomerBody.optional(),
});

const CancelBody = z
  .object({
    reason: z.enum(CANCEL_REASONS, { error: `must be one of ${CANCEL_REASONS.join(', ')}` }).optional(),
    restock: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .optional();

function loadOrder(store: StoreData, idText: string | undefined): OrderRecord {
  const id = intParam(idText, 'Order');
  const order = ordersOf(store).get(id);
  if (!order) throw notFound('Order', id);
  return order;
}

function timeFilter(query: Record<string, unknown>, name: string): number | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  const ms = typeof value === 'string' ? parseTime(value, false) : undefined;
  if (ms === undefined) throw invalid(name, 'must be an ISO 8601 date or timestamp, e.g. 2026-11-21T14:05:00+00:00');
  return ms;
}

function listOrders(req: FastifyRequest): OrderRecord[] {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const status = query.status;
  if (status !== undefined && status !== '' && !ORDER_STATUSES.includes(status as OrderStatus)) {
    throw invalid('status', `must be one of ${ORDER_STATUSES.join(', ')}`);
  }
  const min = timeFilter(query, 'created_at_min');
  const max = timeFilter(query, 'created_at_max');
  if (min !== undefined && max !== undefined && min > max) {
    throw httpError(422, 'created_at_min is after created_at_max', { created_at_min: ['must not be after created_at_max'] });
  }
  return ordersOf(req.store)
    .list()
    .filter(
      (o) =>
        (status === undefined || status === '' || o.status === status) &&
        (min === undefined || o.created_at >= min) &&
        (max === undefined || o.created_at <= max),
    )
    .sort((a, b) => b.created_at - a.created_at || b.id - a.id);
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  api.get('/orders', async (req, reply) => paginate(req, reply, listOrders(req), presentOrder));

  api.get('/orders/:order_id', async (req) => presentOrder(loadOrder(req.store, (req.params as { order_id: string }).order_id)));

  api.post('/orders', async (req, reply) => {
    const store = req.store;
    const body = parseBody(CreateBody, req.body);
    const errors = checkOrderStock(store, body.products);
    if (errors) {
      const [field, problems] = Object.entries(errors)[0]!;
      throw httpError(422, `${field} ${problems[0]}`, errors);
    }
    const shipping = body.shipping
      ? { method: body.shipping.method ?? 'standard', cost: parseMoney(body.shipping.cost ?? 0, 'shipping.cost') }
      : undefined;
    const order = state.mutate('order.create', (tx) =>
      createOrder(tx, store, {
        customer: { name: body.customer.name!.trim(), email: body.customer.email ?? '', phone: body.customer.phone ?? '' },
        products: body.products,
        shipping,
        owner_note: body.owner_note,
        payment_method: body.payment_method,
      }),
    );
    ctx.emit('order/created', store.id, order.id);
    return reply.code(201).send(presentOrder(order));
  });

  api.put('/orders/:order_id', async (req) => {
    const store = req.store;
    const order = loadOrder(store, (req.params as { order_id: string }).order_id);
    const body = parseBody(UpdateBody, req.body);
    const before = order.status;
    state.mutate('order.update', (tx) => {
      if (body.owner_note !== undefined) order.owner_note = body.owner_note ?? '';
      if (body.customer) {
        const { name, email, phone } = body.customer;
        order.customer = {
          name: name ?? order.customer.name,
          email: email ?? order.customer.email,
          phone: phone ?? order.customer.phone,
        };
      }
      if (body.status) applyStatus(tx, store, order, body.status);
      order.updated_at = tx.now();
      tx.put(ordersOf(store), order);
    });
    ctx.emit('order/updated', store.id, order.id);
    if (order.status !== before && order.status === 'paid') ctx.emit('order/paid', store.id, order.id);
    if (order.status !== before && order.status === 'cancelled') ctx.emit('order/cancelled', store.id, order.id);
    return presentOrder(order);
  });

  const cancel = async (req: FastifyRequest) => {
    const store = req.store;
    const order = loadOrder(store, (req.params as { order_id: string }).order_id);
    const body = parseBody(CancelBody, req.body) ?? {};
    if (order.status === 'cancelled') {
      throw httpError(422, `Order ${order.id} is already cancelled`, { status: ['is already cancelled'] });
    }
    state.mutate('order.cancel', (tx) =>
      cancelOrder(tx, store, order, { reason: body.reason ?? 'other', restock: body.restock ?? true }),
    );
    ctx.emit('order/cancelled', store.id, order.id);
    return presentOrder(order);
  };
  api.post('/orders/:order_id/cancel', cancel);
  api.delete('/orders/:order_id', cancel);
}
