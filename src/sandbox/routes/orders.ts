import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { canReadCustomers, httpError, intParam, invalid, notFound, paginate, parseBody, parseMoney, platformTime, queryParam, refuseFields, timeQuery, timeWindow } from '../http.js';
import type { SandboxContext } from '../context.js';
import { emitCustomerEvent } from './customers.js';
import { findCustomerByEmail } from '../store/customers.js';
import { AddressBody, addressOf, billingBody, billingOf, billingOfBody, text } from './addresses.js';
import type { StoreData } from '../state.js';
import { cancelOrder, checkOrderStock, closeOrReopenOrder, createOrder, ordersOf, presentedShippingStatus, unitPrice, updateOrder, upgradeOrder, type OrderRecord, type Payment, type Shipping, SHIPPING_PICKUP_TYPES } from '../store/orders.js';
import { createdBetween, findOrders, type OrderFilter } from '../store/order-search.js';
import {
  CANCEL_REASONS,
  ORDER_STATUS_INPUTS,
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  SHIPPING_STATUSES,
  type ShippingStatus,
} from '../../platform/orders.js';
import { presentFulfillmentOrdersOf } from './fulfillment-orders.js';
import { MONEY_LIMIT } from '../../platform/money.js';
import { DEFAULT_PER_PAGE, ORDER_QUERY_LIMIT } from '../../platform/pagination.js';

/** The order routes (records and operations: store/orders.ts) and the documented order record. */

function time(order: OrderRecord, ms: number | null): string | null {
  return ms === null ? null : platformTime(ms, order.sent_as?.compact_offset);
}

/** The order record of docs/platform.md §4; `customer` only for a token that may read customers (§11). */
export function presentOrder(order: OrderRecord, req: FastifyRequest) {
  const storeId = req.store.id;
  const asText = order.sent_as?.string_line_numbers === true;
  const num = (n: number) => (asText ? String(n) : n);
  return {
    id: order.id,
    token: order.token,
    store_id: storeId,
    number: order.number,
    status: order.status,
    payment_status: order.payment_status,
    shipping_status: presentedShippingStatus(req.store, order),
    contact_email: order.customer.email,
    contact_name: order.customer.name,
    contact_phone: order.customer.phone,
    contact_identification: order.customer.identification,
    currency: order.currency,
    language: order.language,
    subtotal: order.subtotal,
    discount: order.discount,
    total: order.total,
    gateway: order.payment.gateway,
    gateway_name: order.payment.gateway_name,
    payment_details: {
      method: order.payment.method,
      credit_card_company: order.payment.credit_card_company,
      installments: order.payment.installments,
    },
    paid_at: time(order, order.paid_at),
    storefront: order.channel ?? 'store',
    shipping: order.shipping.carrier,
    shipping_option: order.shipping.option,
    shipping_option_code: order.shipping.option_code,
    shipping_cost_customer: order.shipping.cost_customer,
    shipping_cost_owner: order.shipping.cost_owner,
    shipping_tracking_number: order.shipping_tracking_number,
    shipping_tracking_url: order.shipping_tracking_url,
    shipped_at: time(order, order.shipped_at),
    shipping_address: order.shipping_address ? { ...order.shipping_address } : null,
    shipping_pickup_type: order.shipping.pickup_type ?? 'ship',
    shipping_store_branch_name: order.shipping.store_branch_name ?? null,
    ...billingOf(order.billing_address !== undefined ? order.billing_address : order.customer.default_address),
    ...(canReadCustomers(req)
      ? {
          customer: {
            id: order.customer.id,
            name: order.customer.name,
            email: order.customer.email,
            phone: order.customer.phone,
            identification: order.customer.identification,
            default_address: order.customer.default_address ? { ...order.customer.default_address } : null,
          },
        }
      : {}),
    products: order.products.map((p) => ({
      id: num(p.id),
      product_id: num(p.product_id),
      variant_id: num(p.variant_id),
      name: p.name,
      // A line of a variant without SKU has no `sku` at all in the documented responses.
      ...(p.sku === null ? {} : { sku: p.sku }),
      quantity: num(p.quantity),
      price: p.price,
      variant_values: [...p.variant_values],
      weight: p.weight,
      barcode: p.barcode,
      // The platform sends the variant's image; the sandbox keeps none per line.
      image: null,
    })),
    note: order.note,
    owner_note: order.owner_note,
    cancel_reason: order.cancel_reason,
    created_at: time(order, order.created_at),
    updated_at: time(order, order.updated_at),
    completed_at: time(order, order.created_at),
    cancelled_at: time(order, order.cancelled_at),
    closed_at: time(order, order.closed_at),
    read_at: null,
  };
}

const positiveInt = (problem: string) =>
  z.number({ error: problem }).int({ error: problem }).min(1, { error: problem });

const CustomerBody = z.object(
  {
    name: text(200).optional(),
    email: z.email({ error: 'must be an email address' }).or(z.literal('')).optional(),
    phone: text(50).optional(),
    identification: text(50).nullish(),
  },
  { error: 'must be an object with name, email and phone' },
);

const CreateBody = z.object({
  customer: CustomerBody.extend({ default_address: AddressBody.nullish() }).refine((c) => !!c.name?.trim(), {
    error: 'name is required',
    path: ['name'],
  }),
  shipping_address: AddressBody.nullish(),
  ...billingBody,
  shipping_cost_owner: z.union([z.number(), z.string()]).optional(),
  shipping_option_code: text(100).optional(),
  shipping_pickup_type: z.enum(SHIPPING_PICKUP_TYPES, { error: `must be one of ${SHIPPING_PICKUP_TYPES.join(', ')}` }).optional(),
  shipping_store_branch_name: text(200).nullish(),
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
  // The documented form is a carrier code; the earlier sandbox took {method, cost}, still accepted.
  shipping: z
    .union([text(100), z.object({ method: text(100).optional(), cost: z.union([z.number(), z.string()]).optional() })], {
      error: 'must be a carrier code',
    })
    .optional(),
  shipping_option: text(200).optional(),
  shipping_cost_customer: z.union([z.number(), z.string()]).optional(),
  owner_note: text(5000).optional(),
  note: text(5000).nullish(),
  gateway: text(100).optional(),
  payment_method: text(100).optional(),
});

const UpdateBody = z.object({
  owner_note: text(5000).nullish(),
  status: z.enum(ORDER_STATUS_INPUTS, { error: `must be one of ${ORDER_STATUSES.join(', ')}` }).optional(),
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
  return upgradeOrder(order);
}

type Query = Record<string, unknown>;

function range(query: Query, name: string, read: (q: Query, n: string) => number | undefined) {
  const min = read(query, `${name}_min`);
  const max = read(query, `${name}_max`);
  if (min !== undefined && max !== undefined && min > max) {
    throw httpError(422, `${name}_min is after ${name}_max`, { [`${name}_min`]: [`must not be after ${name}_max`] });
  }
  return (value: number) => (min === undefined || value >= min) && (max === undefined || value <= max);
}

function moneyFilter(query: Query, name: string): number | undefined {
  const value = queryParam(query, name);
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value.trim())) throw invalid(name, 'must be a decimal number such as 150.00');
  return Number(value);
}

/** A filter of one of the given values or `any` (the default); undefined means any. */
function oneOf<T extends string>(query: Query, name: string, values: readonly T[]): T | undefined {
  const value = queryParam(query, name);
  if (value === undefined || value === 'any') return undefined;
  if (!values.includes(value as T)) throw invalid(name, `must be one of ${[...values, 'any'].join(', ')}`);
  return value as T;
}

/**
 * The documented filter values (unpacked, unfulfilled, fulfilled; unshipped and shipped as older names) and the
 * record values each keeps (docs/sandbox.md "Shipping"): `unfulfilled` is packing begun or part sent, `fulfilled`
 * every shipment sent, in any of the names records use (platform.md §10).
 */
const NOT_SENT = ['unfulfilled', 'unshipped', 'partially_packed', 'packed', 'partially_fulfilled'];
const SENT = ['fulfilled', 'shipped', 'delivered'];
const SHIPPING_FILTER: Record<ShippingStatus, string[]> = {
  unpacked: ['unpacked'],
  unfulfilled: NOT_SENT,
  fulfilled: SENT,
  unshipped: NOT_SENT,
  shipped: SENT,
};

/** `aggregates=fulfillment_orders` (docs/platform.md §10): the order's shipments inside each order. */
function withAggregates(req: FastifyRequest, present: (order: OrderRecord) => Record<string, unknown>) {
  const aggregates = queryParam((req.query ?? {}) as Query, 'aggregates');
  const wanted = new Set((aggregates ?? '').split(',').map((a: string) => a.trim()));
  if (!wanted.has('fulfillment_orders')) return present;
  return (order: OrderRecord) => ({ ...present(order), fulfillment_orders: presentFulfillmentOrdersOf(req.store, order.id) });
}

/**
 * GET /orders with the documented filters (docs/platform.md §4; `payment_methods` and `payment_provider` from the newer
 * API reference). Unknown parameters are ignored, as the platform does; a known filter with a value it cannot mean is a 422 naming it.
 */
function orderFilter(req: FastifyRequest): OrderFilter {
  const query = (req.query ?? {}) as Query;
  // Read in this order, so that of several bad filters the same one is named first.
  const statusInput = oneOf(query, 'status', ORDER_STATUS_INPUTS);
  // The seed's `paid` status is the payment state of an order that is still open or closed.
  const status = statusInput === 'paid' ? undefined : statusInput;
  const payment = statusInput === 'paid' ? 'paid' : oneOf(query, 'payment_status', PAYMENT_STATUSES);
  const shippingFilter = oneOf(query, 'shipping_status', SHIPPING_STATUSES);
  const shipping = shippingFilter ? SHIPPING_FILTER[shippingFilter] : undefined;
  // The created_at/updated_at windows of every list (paginate applies them again: the same test, to the second).
  const window = timeWindow(query);
  const total = range(query, 'total', moneyFilter);
  const sinceText = queryParam(query, 'since_id');
  if (sinceText !== undefined && !/^\d+$/.test(sinceText)) throw invalid('since_id', 'must be an order id');
  const sinceId = sinceText === undefined ? undefined : Number(sinceText);
  const customersText = queryParam(query, 'customer_ids');
  if (customersText !== undefined && !/^\d+(,\d+)*$/.test(customersText.replace(/\s/g, ''))) {
    throw invalid('customer_ids', 'must be a comma-separated list of customer ids');
  }
  const customers = customersText === undefined ? undefined : new Set(customersText.replace(/\s/g, '').split(',').map(Number));
  const channels = wordList(query, 'channels', 'must be a comma-separated list of channels such as store,api');
  const methods = wordList(query, 'payment_methods', 'must be a comma-separated list of payment methods such as credit_card');
  const providerText = queryParam(query, 'payment_provider')?.trim();
  if (providerText !== undefined && !WORD.test(providerText)) throw invalid('payment_provider', 'must be a payment provider such as mercadopago');
  const q = queryParam(query, 'q')?.trim().replace(/^#/, '');
  return { status, payment, shipping, window, total, sinceId, customers, channels, methods, provider: providerText, q };
}

const WORD = /^[a-z0-9][a-z0-9_.-]{0,63}$/i;

/** The query without its paging and field choice: what names a filter (store/orders.ts keeps the last one's matches). */
function filterKey(query: Query): string {
  return JSON.stringify(
    Object.keys(query)
      .filter((k) => k !== 'page' && k !== 'per_page' && k !== 'fields' && k !== 'aggregates')
      .sort()
      .map((k) => [k, query[k]]),
  );
}

function wordList(query: Query, name: string, problem: string): Set<string> | undefined {
  const text = queryParam(query, name);
  if (text === undefined) return undefined;
  const words = text.split(',').map((w) => w.trim());
  if (!words.every((w) => WORD.test(w))) throw invalid(name, problem);
  return new Set(words);
}

/**
 * `fields=id,number,…`: only those fields of each order, `number` as a numeric string (docs/platform.md §4, as the
 * documented `GET /orders?fields=id,number,price_usd` answers). Names the order does not have are left out.
 */
function pickFields(query: Query): ((order: Record<string, unknown>) => Record<string, unknown>) | undefined {
  const text = queryParam(query, 'fields');
  if (text === undefined) return undefined;
  const names = [...new Set(text.split(',').map((f) => f.trim()).filter(Boolean))];
  if (names.length === 0) return undefined;
  return (order) => {
    const picked: Record<string, unknown> = {};
    for (const name of names) {
      if (!(name in order)) continue;
      picked[name] = name === 'number' && order.number !== null ? String(order.number) : order[name];
    }
    return picked;
  };
}

/**
 * The cap of docs/platform.md §9: a page reaching past the 10,000th result of a query is refused (422); the
 * pages before it, and x-total-count, are served as usual.
 */
function refusePastCap(req: FastifyRequest, total: number): void {
  const query = (req.query ?? {}) as Query;
  const page = Number(queryParam(query, 'page') ?? 1);
  const perPage = Number(queryParam(query, 'per_page') ?? DEFAULT_PER_PAGE);
  if (!Number.isInteger(page) || !Number.isInteger(perPage) || page < 1 || perPage < 1) return;
  const first = (page - 1) * perPage;
  const last = Math.min(first + perPage, total);
  if (first < total && last > ORDER_QUERY_LIMIT) throw httpError(422, `Query results are limited to ${ORDER_QUERY_LIMIT} items`);
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const present = (req: FastifyRequest) => (order: OrderRecord) => presentOrder(order, req);

  api.get('/orders', async (req, reply) => {
    const query = (req.query ?? {}) as Query;
    const filter = orderFilter(req);
    const pick = pickFields(query);
    // The matches of the filter without its created_at window are kept (findOrders), and the window is a slice of
    // them: a client walking back with created_at_max, a new bound at every page, is not a new filter each time.
    const { created_at_min: _min, created_at_max: _max, ...uncreated } = query;
    const matches = findOrders(req.store, { ...filter, window: timeWindow(uncreated) }, filterKey(uncreated));
    const orders = createdBetween(matches, timeQuery(query, 'created_at_min'), timeQuery(query, 'created_at_max'));
    refusePastCap(req, orders.length);
    const show = present(req);
    return paginate(req, reply, orders, withAggregates(req, pick ? (order) => pick(show(order)) : show));
  });

  api.get('/orders/:order_id', async (req) =>
    withAggregates(req, present(req))(loadOrder(req.store, (req.params as { order_id: string }).order_id)),
  );

  api.post('/orders', async (req, reply) => {
    const store = req.store;
    const body = parseBody(CreateBody, req.body);
    const errors = checkOrderStock(store, body.products);
    if (errors) refuseFields(errors);
    const shipping: Partial<Shipping> = {};
    if (typeof body.shipping === 'string') shipping.carrier = body.shipping;
    else if (body.shipping) {
      if (body.shipping.method !== undefined) shipping.option = body.shipping.method;
      if (body.shipping.cost !== undefined) shipping.cost_customer = parseMoney(body.shipping.cost, 'shipping.cost');
    }
    if (body.shipping_option !== undefined) shipping.option = body.shipping_option;
    if (body.shipping_cost_customer !== undefined) {
      shipping.cost_customer = parseMoney(body.shipping_cost_customer, 'shipping_cost_customer');
    }
    if (body.shipping_cost_owner !== undefined) shipping.cost_owner = parseMoney(body.shipping_cost_owner, 'shipping_cost_owner');
    if (body.shipping_option_code !== undefined) shipping.option_code = body.shipping_option_code;
    if (body.shipping_pickup_type !== undefined) shipping.pickup_type = body.shipping_pickup_type;
    if (body.shipping_store_branch_name !== undefined) shipping.store_branch_name = body.shipping_store_branch_name;
    if (shipping.cost_customer !== undefined) {
      const subtotal = body.products.reduce((sum, l) => sum + Number(unitPrice(store.findVariant(l.variant_id)!.variant)) * l.quantity, 0);
      if (subtotal + Number(shipping.cost_customer) >= MONEY_LIMIT) {
        throw invalid('shipping_cost_customer', `makes an order total of ${MONEY_LIMIT} or more`);
      }
    }
    const payment: Partial<Payment> = {};
    if (body.gateway !== undefined) payment.gateway = payment.gateway_name = body.gateway;
    if (body.payment_method !== undefined) payment.method = body.payment_method;
    // A checkout for an email no customer has makes a customer (store/customers.ts).
    const customerKnown = findCustomerByEmail(store, body.customer.email ?? '') !== undefined;
    const order = state.mutate('order.create', (tx) =>
      createOrder(tx, store, {
        customer: {
          name: body.customer.name!.trim(),
          email: body.customer.email ?? '',
          phone: body.customer.phone ?? '',
          identification: body.customer.identification ?? null,
          default_address: body.customer.default_address ? addressOf(body.customer.default_address) : null,
        },
        products: body.products,
        shipping,
        ...(body.shipping_address !== undefined ? { shipping_address: body.shipping_address ? addressOf(body.shipping_address) : null } : {}),
        billing_address: billingOfBody(body),
        owner_note: body.owner_note,
        note: body.note,
        payment,
      }),
    );
    if (!customerKnown) emitCustomerEvent(ctx, 'created', store.id, order.customer.id);
    ctx.emit('order/created', store.id, order.id);
    return reply.code(201).send(presentOrder(order, req));
  });

  api.put('/orders/:order_id', async (req) => {
    const store = req.store;
    const order = loadOrder(store, (req.params as { order_id: string }).order_id);
    const body = parseBody(UpdateBody, req.body);
    const before = { status: order.status, payment: order.payment_status };
    state.mutate('order.update', (tx) => updateOrder(tx, store, order, body));
    ctx.emit('order/updated', store.id, order.id);
    if (order.payment_status !== before.payment && order.payment_status === 'paid') ctx.emit('order/paid', store.id, order.id);
    if (order.status !== before.status && order.status === 'cancelled') ctx.emit('order/cancelled', store.id, order.id);
    return presentOrder(order, req);
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
    return presentOrder(order, req);
  };
  api.post('/orders/:order_id/cancel', cancel);

  // platform.md §9: close (archive) and reopen; no body. A refused transition is a 422 naming the status.
  for (const [action, to] of [['close', 'closed'], ['open', 'open']] as const) {
    api.post(`/orders/:order_id/${action}`, async (req) => {
      const store = req.store;
      const order = loadOrder(store, (req.params as { order_id: string }).order_id);
      const problem = state.mutate(`order.${action}`, (tx) => closeOrReopenOrder(tx, store, order, to));
      if (problem) throw httpError(422, `Order ${order.id} ${problem}`, { status: [problem] });
      ctx.emit('order/updated', store.id, order.id);
      return presentOrder(order, req);
    });
  }
  api.delete('/orders/:order_id', cancel);
}
