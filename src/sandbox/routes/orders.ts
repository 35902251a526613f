import { createHash } from 'node:crypto';
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
import type { SandboxContext } from '../context.js';
import { returnStock, takeStock, variantStock, type Collection, type StoreData, type Tx } from '../state.js';
import {
  createFulfillmentOrder,
  fulfillmentOrdersOf,
  fulfillmentOrdersOfOrder,
  refreshStatus,
} from '../store/fulfillment-orders.js';
import {
  CANCEL_REASONS,
  ORDER_STATUS_INPUTS,
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  SHIPPING_STATUSES,
  type OrderStatus,
  type OrderStatusInput,
  type PaymentStatus,
  type ShippingStatus,
} from '../../platform/orders.js';

/**
 * Orders as the platform documents them (platform.md §4; docs/decisions.md "Orders as the platform sends
 * them"). New orders get 10-digit ids; the demo seed also makes 9-digit ones, as documented orders have.
 * `number` counts up from 100 per store.
 *
 * `status` is open, closed or cancelled. Payment and shipping are separate states: `payment_status` and
 * `shipping_status`. The seed of the API lists `paid` as a status: it is accepted on input and means "open
 * and paid" (status open, payment_status paid), so a record never shows it as a status.
 *
 * Stock: creating an order takes its units location by location in priority order and makes one fulfillment
 * order per source location, so the fulfillment orders record where every unit came from. Cancelling with
 * restock (the default) puts the units back there, once: a re-opened and cancelled-again order does not
 * restock twice. A PUT that sets `status: cancelled` only changes the status (no restock); the cancel
 * operation is the way to cancel with its side effects.
 */

const FIRST_ORDER_ID = 1_000_000_001;
/** The 9-digit ids of documented orders (the demo seed gives some orders one). */
const FIRST_SHORT_ORDER_ID = 450_000_001;
const FIRST_ORDER_NUMBER = 100;

export type Address = {
  name: string;
  address: string;
  number: string;
  floor: string | null;
  locality: string | null;
  city: string;
  province: string;
  zipcode: string;
  country: string;
  phone: string | null;
};

export type Customer = {
  id: number;
  name: string;
  email: string;
  phone: string;
  identification: string | null;
  default_address: Address | null;
};

export type OrderLine = {
  /** The line's own id. */
  id: number;
  product_id: number;
  variant_id: number;
  name: string;
  sku: string | null;
  quantity: number;
  price: string;
  variant_values: string[];
  weight: string | null;
  barcode: string | null;
};

export type Shipping = {
  /** The carrier code (`correo-argentino`, `ups`…), a string as documented. */
  carrier: string;
  option: string;
  option_code: string;
  cost_customer: string;
  cost_owner: string;
};

export type Payment = {
  gateway: string;
  gateway_name: string;
  method: string;
  credit_card_company: string | null;
  installments: number;
};

export type OrderRecord = {
  id: number;
  number: number;
  token: string;
  status: OrderStatus;
  payment_status: PaymentStatus;
  shipping_status: ShippingStatus;
  owner_note: string;
  /** The customer's note at checkout. */
  note: string | null;
  created_at: number;
  updated_at: number;
  paid_at: number | null;
  shipped_at: number | null;
  closed_at: number | null;
  cancelled_at: number | null;
  cancel_reason: string | null;
  /** Whether a cancellation already returned the units, so a second cancellation does not. */
  stock_returned: boolean;
  customer: Customer;
  products: OrderLine[];
  shipping: Shipping;
  shipping_tracking_number: string | null;
  shipping_tracking_url: string | null;
  shipping_address: Address | null;
  payment: Payment;
  subtotal: string;
  discount: string;
  total: string;
  currency: string;
  language: string;
  /**
   * The documented responses differ in form (platform.md §0, §4): line ids and quantities as numeric strings,
   * timestamps with a `+0000` offset. The demo seed sends some orders so, as a real store's history does.
   */
  sent_as?: { string_line_numbers?: boolean; compact_offset?: boolean };
};

export function ordersOf(store: StoreData): Collection<OrderRecord> {
  return store.orders as unknown as Collection<OrderRecord>;
}

/** An order as a state written before platform.md §4 holds it: `paid` as a status, `payments`, `shipping {method, cost}`. */
type EarlierOrder = {
  status: string;
  payments?: { method: string; status: PaymentStatus }[];
  shipping?: { method?: string; cost?: string };
  customer: { name: string; email: string; phone: string };
  products?: Omit<OrderLine, 'id' | 'variant_values' | 'weight' | 'barcode'>[];
};

/**
 * Brings an order of a state directory written before platform.md §4 to the documented record, in place, the
 * first time it is read (a sandbox keeps its state across versions).
 */
export function upgradeOrder(order: OrderRecord): OrderRecord {
  if (order.payment_status !== undefined) return order;
  const earlier = order as unknown as EarlierOrder;
  const payment = earlier.payments?.[0];
  const shipping = earlier.shipping;
  Object.assign(order, {
    token: createHash('sha1').update(`order:${order.id}`).digest('hex'),
    status: earlier.status === 'paid' ? 'open' : earlier.status,
    payment_status: earlier.status === 'paid' || earlier.status === 'closed' ? 'paid' : (payment?.status ?? 'pending'),
    shipping_status: 'unpacked',
    note: null,
    paid_at: null,
    shipped_at: null,
    closed_at: null,
    customer: { id: 0, identification: null, default_address: null, ...earlier.customer },
    products: (earlier.products ?? []).map((line, i) => ({ id: i + 1, variant_values: [], weight: null, barcode: null, ...line })),
    shipping: { ...DEFAULT_SHIPPING, option: shipping?.method ?? DEFAULT_SHIPPING.option, cost_customer: shipping?.cost ?? '0.00' },
    shipping_tracking_number: null,
    shipping_tracking_url: null,
    shipping_address: null,
    payment: { ...DEFAULT_PAYMENT, method: payment?.method ?? DEFAULT_PAYMENT.method },
    discount: '0.00',
    language: 'es',
  });
  delete (order as { payments?: unknown }).payments;
  return order;
}

function time(order: OrderRecord, ms: number | null): string | null {
  if (ms === null) return null;
  const text = isoTime(ms);
  return order.sent_as?.compact_offset ? text.replace(/\+00:00$/, '+0000') : text;
}

function billingOf(address: Address | null) {
  return {
    billing_name: address?.name ?? null,
    billing_phone: address?.phone ?? null,
    billing_address: address?.address ?? null,
    billing_number: address?.number ?? null,
    billing_floor: address?.floor ?? null,
    billing_locality: address?.locality ?? null,
    billing_zipcode: address?.zipcode ?? null,
    billing_city: address?.city ?? null,
    billing_province: address?.province ?? null,
    billing_country: address?.country ?? null,
  };
}

/** The order record of platform.md §4. */
export function presentOrder(order: OrderRecord, storeId: number) {
  const asText = order.sent_as?.string_line_numbers === true;
  const num = (n: number) => (asText ? String(n) : n);
  return {
    id: order.id,
    token: order.token,
    store_id: storeId,
    number: order.number,
    status: order.status,
    payment_status: order.payment_status,
    shipping_status: order.shipping_status,
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
    shipping: order.shipping.carrier,
    shipping_option: order.shipping.option,
    shipping_option_code: order.shipping.option_code,
    shipping_cost_customer: order.shipping.cost_customer,
    shipping_cost_owner: order.shipping.cost_owner,
    shipping_tracking_number: order.shipping_tracking_number,
    shipping_tracking_url: order.shipping_tracking_url,
    shipped_at: time(order, order.shipped_at),
    shipping_address: order.shipping_address ? { ...order.shipping_address } : null,
    ...billingOf(order.customer.default_address),
    customer: {
      id: order.customer.id,
      name: order.customer.name,
      email: order.customer.email,
      phone: order.customer.phone,
      identification: order.customer.identification,
      default_address: order.customer.default_address ? { ...order.customer.default_address } : null,
    },
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

// ---------------------------------------------------------------------------------------------------------
// Domain operations, shared by the routes and the demo seed

export interface NewOrder {
  customer: { name: string; email: string; phone: string; identification?: string | null; default_address?: Address | null };
  products: { variant_id: number; quantity: number }[];
  shipping?: Partial<Shipping>;
  shipping_address?: Address | null;
  owner_note?: string;
  note?: string | null;
  payment?: Partial<Payment>;
}

/** How the seed varies an order's form and id (platform.md §0: documented orders have 9-digit ids). */
export interface OrderForm {
  shortId?: boolean;
  sentAs?: OrderRecord['sent_as'];
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
    subtotal += Number(unitPrice(found.variant)) * line.quantity;
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

function unitPrice(variant: { promotional_price: string | null; price: string | null }): string {
  return variant.promotional_price ?? variant.price ?? '0.00';
}

function orderLine(tx: Tx, store: StoreData, variantId: number, quantity: number): OrderLine {
  const { product, variant } = store.findVariant(variantId)!;
  const values = variant.values.map((v) => mainText(store, v)).filter((t) => t !== '');
  const name = mainText(store, product.name);
  return {
    id: tx.nextId(store, 'order_line'),
    product_id: product.id,
    variant_id: variant.id,
    name: values.length ? `${name} (${values.join(', ')})` : name,
    sku: variant.sku,
    quantity,
    price: unitPrice(variant),
    variant_values: values,
    weight: variant.weight,
    barcode: (variant as { barcode?: string | null }).barcode ?? null,
  };
}

const money = (n: number) => n.toFixed(2);

/** The customer id of an email already seen in the store's orders, or a new one. */
function customerId(tx: Tx, store: StoreData, email: string): number {
  if (email) {
    const known = ordersOf(store)
      .list()
      .find((o) => o.customer.email === email);
    if (known) return known.customer.id;
  }
  return tx.nextId(store, 'customer', 70_000_001);
}

const DEFAULT_SHIPPING: Shipping = {
  carrier: 'not-provided',
  option: 'Standard',
  option_code: 'standard',
  cost_customer: '0.00',
  cost_owner: '0.00',
};

const DEFAULT_PAYMENT: Payment = {
  gateway: 'offline',
  gateway_name: 'Other',
  method: 'other',
  credit_card_company: null,
  installments: 1,
};

/**
 * Creates an open, pending, unpacked order inside a mutation: takes the stock by location priority and makes
 * one fulfillment order per source location. `checkOrderStock` must have passed.
 */
export function createOrder(tx: Tx, store: StoreData, input: NewOrder, at = tx.now(), form: OrderForm = {}): OrderRecord {
  const id = form.shortId ? tx.nextSharedId('order_short', FIRST_SHORT_ORDER_ID) : tx.nextSharedId('order', FIRST_ORDER_ID);
  const number = tx.nextId(store, 'order_number', FIRST_ORDER_NUMBER);
  const lines: OrderLine[] = [];
  const bySource = new Map<string, Map<number, number>>();
  for (const { variant_id, quantity } of input.products) {
    lines.push(orderLine(tx, store, variant_id, quantity));
    for (const allocation of takeStock(tx, store, variant_id, quantity)) {
      let source = bySource.get(allocation.location_id);
      if (!source) bySource.set(allocation.location_id, (source = new Map()));
      source.set(variant_id, (source.get(variant_id) ?? 0) + allocation.quantity);
    }
  }
  const subtotal = lines.reduce((sum, l) => sum + Number(l.price) * l.quantity, 0);
  const shipping = { ...DEFAULT_SHIPPING, ...input.shipping };
  const total = money(subtotal + Number(shipping.cost_customer));
  const address = input.shipping_address ?? input.customer.default_address ?? null;
  const order = tx.put(ordersOf(store), {
    id,
    number,
    token: createHash('sha1').update(`order:${store.id}:${id}`).digest('hex'),
    status: 'open',
    payment_status: 'pending',
    shipping_status: 'unpacked',
    owner_note: input.owner_note ?? '',
    note: input.note ?? null,
    created_at: at,
    updated_at: at,
    paid_at: null,
    shipped_at: null,
    closed_at: null,
    cancelled_at: null,
    cancel_reason: null,
    stock_returned: false,
    customer: {
      id: customerId(tx, store, input.customer.email),
      name: input.customer.name,
      email: input.customer.email,
      phone: input.customer.phone,
      identification: input.customer.identification ?? null,
      default_address: input.customer.default_address ?? null,
    },
    products: lines,
    shipping,
    shipping_tracking_number: null,
    shipping_tracking_url: null,
    shipping_address: address ? { ...address } : null,
    payment: { ...DEFAULT_PAYMENT, ...input.payment },
    subtotal: money(subtotal),
    discount: '0.00',
    total,
    currency: store.record.currency,
    language: store.record.main_language,
    ...(form.sentAs ? { sent_as: { ...form.sentAs } } : {}),
  } satisfies OrderRecord);
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

/** Marks the payment received (`paid` given as a status, or a seed step). */
export function markPaid(order: OrderRecord, at: number): void {
  if (order.payment_status === 'paid') return;
  order.payment_status = 'paid';
  order.paid_at = at;
}

/**
 * Sets the status with its consequences on the cancellation and closing fields and the fulfillment orders.
 * `paid` (the seed's fourth status) means open and paid.
 */
export function applyStatus(tx: Tx, store: StoreData, order: OrderRecord, input: OrderStatusInput, at = tx.now()): void {
  const status: OrderStatus = input === 'paid' ? 'open' : input;
  if (input === 'paid') markPaid(order, at);
  if (order.status === status) return;
  const wasCancelled = order.status === 'cancelled';
  order.status = status;
  order.closed_at = status === 'closed' ? at : null;
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
  // Money taken goes back; money not taken is not asked for any more.
  if (order.payment_status === 'paid') order.payment_status = 'refunded';
  else if (order.payment_status === 'pending' || order.payment_status === 'authorized') order.payment_status = 'voided';
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
    identification: text(50).nullish(),
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

/** The last value of a query parameter as text; undefined when absent or empty. */
function param(query: Query, name: string): string | undefined {
  const value = query[name];
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  if (last === undefined || last === null || String(last) === '') return undefined;
  return String(last);
}

function timeFilter(query: Query, name: string): number | undefined {
  const value = param(query, name);
  if (value === undefined) return undefined;
  const ms = parseTime(value, false);
  if (ms === undefined) throw invalid(name, 'must be an ISO 8601 date or timestamp, e.g. 2026-11-21T14:05:00+00:00');
  return ms;
}

function range(query: Query, name: string, read: (q: Query, n: string) => number | undefined) {
  const min = read(query, `${name}_min`);
  const max = read(query, `${name}_max`);
  if (min !== undefined && max !== undefined && min > max) {
    throw httpError(422, `${name}_min is after ${name}_max`, { [`${name}_min`]: [`must not be after ${name}_max`] });
  }
  return (value: number) => (min === undefined || value >= min) && (max === undefined || value <= max);
}

function moneyFilter(query: Query, name: string): number | undefined {
  const value = param(query, name);
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value.trim())) throw invalid(name, 'must be a decimal number such as 150.00');
  return Number(value);
}

/** A filter of one of the given values or `any` (the default); undefined means any. */
function oneOf<T extends string>(query: Query, name: string, values: readonly T[]): T | undefined {
  const value = param(query, name);
  if (value === undefined || value === 'any') return undefined;
  if (!values.includes(value as T)) throw invalid(name, `must be one of ${[...values, 'any'].join(', ')}`);
  return value as T;
}

/** The documented filter values name two record values each: records also show unshipped and shipped. */
const SHIPPING_FILTER: Record<ShippingStatus, ShippingStatus[]> = {
  unpacked: ['unpacked'],
  unfulfilled: ['unfulfilled', 'unshipped'],
  fulfilled: ['fulfilled', 'shipped'],
  unshipped: ['unshipped', 'unfulfilled'],
  shipped: ['shipped', 'fulfilled'],
};

function fold(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/**
 * GET /orders with the documented filters (platform.md §4). Unknown parameters (`channels`, `fields`, …) are
 * ignored, as the platform does; a known filter with a value it cannot mean is a 422 naming it.
 */
function listOrders(req: FastifyRequest): OrderRecord[] {
  const query = (req.query ?? {}) as Query;
  const statusInput = oneOf(query, 'status', ORDER_STATUS_INPUTS);
  // The seed's `paid` status is the payment state of an order that is still open or closed.
  const status = statusInput === 'paid' ? undefined : statusInput;
  const payment = statusInput === 'paid' ? 'paid' : oneOf(query, 'payment_status', PAYMENT_STATUSES);
  const shippingFilter = oneOf(query, 'shipping_status', SHIPPING_STATUSES);
  const shipping = shippingFilter ? SHIPPING_FILTER[shippingFilter] : undefined;
  const created = range(query, 'created_at', timeFilter);
  const updated = range(query, 'updated_at', timeFilter);
  const total = range(query, 'total', moneyFilter);
  const sinceText = param(query, 'since_id');
  if (sinceText !== undefined && !/^\d+$/.test(sinceText)) throw invalid('since_id', 'must be an order id');
  const sinceId = sinceText === undefined ? undefined : Number(sinceText);
  const customersText = param(query, 'customer_ids');
  if (customersText !== undefined && !/^\d+(,\d+)*$/.test(customersText.replace(/\s/g, ''))) {
    throw invalid('customer_ids', 'must be a comma-separated list of customer ids');
  }
  const customers = customersText === undefined ? undefined : new Set(customersText.replace(/\s/g, '').split(',').map(Number));
  const q = param(query, 'q')?.trim().replace(/^#/, '');
  const words = q === undefined ? undefined : fold(q);
  return ordersOf(req.store)
    .list()
    .map(upgradeOrder)
    .filter(
      (o) =>
        (status === undefined || o.status === status) &&
        (payment === undefined || o.payment_status === payment) &&
        (shipping === undefined || shipping.includes(o.shipping_status)) &&
        created(o.created_at) &&
        updated(o.updated_at) &&
        total(Number(o.total)) &&
        (sinceId === undefined || o.id > sinceId) &&
        (customers === undefined || customers.has(o.customer.id)) &&
        (words === undefined ||
          String(o.number) === q ||
          fold(o.customer.name).includes(words) ||
          fold(o.customer.email).includes(words)),
    )
    .sort((a, b) => b.created_at - a.created_at || b.id - a.id);
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const present = (req: FastifyRequest) => (order: OrderRecord) => presentOrder(order, req.store.id);

  api.get('/orders', async (req, reply) => paginate(req, reply, listOrders(req), present(req)));

  api.get('/orders/:order_id', async (req) => present(req)(loadOrder(req.store, (req.params as { order_id: string }).order_id)));

  api.post('/orders', async (req, reply) => {
    const store = req.store;
    const body = parseBody(CreateBody, req.body);
    const errors = checkOrderStock(store, body.products);
    if (errors) {
      const [field, problems] = Object.entries(errors)[0]!;
      throw httpError(422, `${field} ${problems[0]}`, errors);
    }
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
    if (shipping.cost_customer !== undefined) {
      const subtotal = body.products.reduce((sum, l) => sum + Number(unitPrice(store.findVariant(l.variant_id)!.variant)) * l.quantity, 0);
      if (subtotal + Number(shipping.cost_customer) >= MONEY_LIMIT) {
        throw invalid('shipping_cost_customer', `makes an order total of ${MONEY_LIMIT} or more`);
      }
    }
    const payment: Partial<Payment> = {};
    if (body.gateway !== undefined) payment.gateway = payment.gateway_name = body.gateway;
    if (body.payment_method !== undefined) payment.method = body.payment_method;
    const order = state.mutate('order.create', (tx) =>
      createOrder(tx, store, {
        customer: {
          name: body.customer.name!.trim(),
          email: body.customer.email ?? '',
          phone: body.customer.phone ?? '',
          identification: body.customer.identification ?? null,
        },
        products: body.products,
        shipping,
        owner_note: body.owner_note,
        note: body.note,
        payment,
      }),
    );
    ctx.emit('order/created', store.id, order.id);
    return reply.code(201).send(presentOrder(order, store.id));
  });

  api.put('/orders/:order_id', async (req) => {
    const store = req.store;
    const order = loadOrder(store, (req.params as { order_id: string }).order_id);
    const body = parseBody(UpdateBody, req.body);
    const before = { status: order.status, payment: order.payment_status };
    state.mutate('order.update', (tx) => {
      if (body.owner_note !== undefined) order.owner_note = body.owner_note ?? '';
      if (body.customer) {
        const { name, email, phone, identification } = body.customer;
        order.customer = {
          ...order.customer,
          name: name?.trim() || order.customer.name,
          email: email ?? order.customer.email,
          phone: phone ?? order.customer.phone,
          identification: identification === undefined ? order.customer.identification : identification,
        };
      }
      if (body.status) applyStatus(tx, store, order, body.status);
      order.updated_at = tx.now();
      tx.put(ordersOf(store), order);
    });
    ctx.emit('order/updated', store.id, order.id);
    if (order.payment_status !== before.payment && order.payment_status === 'paid') ctx.emit('order/paid', store.id, order.id);
    if (order.status !== before.status && order.status === 'cancelled') ctx.emit('order/cancelled', store.id, order.id);
    return presentOrder(order, store.id);
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
    return presentOrder(order, store.id);
  };
  api.post('/orders/:order_id/cancel', cancel);
  api.delete('/orders/:order_id', cancel);
}
