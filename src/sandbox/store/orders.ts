import { createHash } from 'node:crypto';
import { mainText, type FieldErrors } from '../http.js';
import { MONEY_LIMIT } from '../../platform/money.js';
import { returnStock, takeStock, variantStock } from '../stock.js';
import { type Collection, type StoreData, type Tx } from '../state.js';
import { customerForOrder, type PostalAddress } from './customers.js';
import { createFulfillmentOrder, fulfillmentOrdersOfOrder } from './fulfillment-orders.js';
import type { OrderStatus, OrderStatusInput, PaymentStatus, RecordShippingStatus } from '../../platform/orders.js';
import { orderShippingStatus, type ShippingType } from '../../platform/fulfillment.js';

/**
 * Orders as the platform documents them (docs/platform.md §4; docs/decisions.md "Orders as the platform sends
 * them"). New orders get 10-digit ids; the demo seed also makes 9-digit ones, as documented orders have.
 * `number` counts up from 100 per store.
 *
 * `status` is open, closed or cancelled. Payment and shipping are separate states: `payment_status` and
 * `shipping_status`. The seed of the API lists `paid` as a status: it is accepted on input and means "open
 * and paid" (status open, payment_status paid), so a record never shows it as a status.
 *
 * Customers: an order is its customer's (store/customers.ts): the one with its email, else a new one made from it.
 *
 * Stock: creating an order takes its units location by location in priority order and makes one fulfillment
 * order per source location, so the fulfillment orders record where every unit came from. Cancelling with
 * restock (the default) puts the units back there, once: a re-opened and cancelled-again order does not
 * restock twice. A PUT that sets `status: cancelled` only changes the status (no restock); the cancel
 * operation is the way to cancel with its side effects.
 *
 * Shipping (docs/platform.md §10): `shipping_status` follows the order's fulfillment orders (refreshShipping, called
 * whenever one moves), as do `shipped_at` and the order's tracking number and URL (those of its first shipment that
 * has them). A cancellation leaves the shipments as they are: there is no CANCELLED shipment.
 */

const FIRST_ORDER_ID = 1_000_000_001;
/** The 9-digit ids of documented orders (the demo seed gives some orders one). */
const FIRST_SHORT_ORDER_ID = 450_000_001;
const FIRST_ORDER_NUMBER = 100;

/** An address as an order holds it (`shipping_address`, `customer.default_address`): a customer's too. */
export type Address = PostalAddress;

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
  /**
   * `ship` or `pickup` (absent in orders stored before it was kept: `ship`); the sandbox also takes `non-shippable`
   * (an order of things not sent, whose shipment only goes to DELIVERED: docs/sandbox.md).
   */
  pickup_type?: ShippingPickupType;
  /** The branch a pickup order is collected at. */
  store_branch_name?: string | null;
};

export const SHIPPING_PICKUP_TYPES = ['ship', 'pickup', 'non-shippable'] as const;
export type ShippingPickupType = (typeof SHIPPING_PICKUP_TYPES)[number];

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
  /** Derived from the fulfillment orders (refreshShipping); set directly only for an order without any. */
  shipping_status: RecordShippingStatus;
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
  /** The flat `billing_*` fields as given at creation; absent: the customer's default address. */
  billing_address?: Address | null;
  payment: Payment;
  subtotal: string;
  discount: string;
  total: string;
  currency: string;
  language: string;
  /**
   * The documented responses differ in form (docs/platform.md §0, §4): line ids and quantities as numeric strings,
   * timestamps with a `+0000` offset. The demo seed sends some orders so, as a real store's history does.
   */
  sent_as?: { string_line_numbers?: boolean; compact_offset?: boolean; shipping_names?: ShippingNames };
  /** The sales channel, sent as `storefront` (`store`, `api`, `form`, `meli`, `pos`); absent means `store`. */
  channel?: string;
};

export function ordersOf(store: StoreData): Collection<OrderRecord> {
  return store.orders as unknown as Collection<OrderRecord>;
}

/** An order as a state written before docs/platform.md §4 holds it: `paid` as a status, `payments`, `shipping {method, cost}`. */
type EarlierOrder = {
  status: string;
  payments?: { method: string; status: PaymentStatus }[];
  shipping?: { method?: string; cost?: string };
  customer: { name: string; email: string; phone: string };
  products?: Omit<OrderLine, 'id' | 'variant_values' | 'weight' | 'barcode'>[];
};

/**
 * Brings an order of a state directory written before docs/platform.md §4 to the documented record, in place, the
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

export interface NewOrder {
  customer: { name: string; email: string; phone: string; identification?: string | null; default_address?: Address | null };
  products: { variant_id: number; quantity: number }[];
  shipping?: Partial<Shipping>;
  shipping_address?: Address | null;
  billing_address?: Address | null;
  owner_note?: string;
  note?: string | null;
  payment?: Partial<Payment>;
}

/** How the seed varies an order's form and id (docs/platform.md §0: documented orders have 9-digit ids). */
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

export function unitPrice(variant: { promotional_price: string | null; price: string | null }): string {
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
  // A shipping address given as null stays null (a pickup order); not given, the customer's default address.
  const address = input.shipping_address !== undefined ? input.shipping_address : (input.customer.default_address ?? null);
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
      id: customerForOrder(tx, store, input.customer, at).customer.id,
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
    ...(input.billing_address !== undefined ? { billing_address: input.billing_address ? { ...input.billing_address } : null } : {}),
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
 * Sets the status with its consequences on the cancellation and closing fields (the shipments keep theirs).
 * `paid` (the seed's fourth status) means open and paid.
 */
export function applyStatus(order: OrderRecord, input: OrderStatusInput, at: number): void {
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
}

/** Cancels an order (not already cancelled) and, unless told otherwise, returns its units where they came from. */
export function cancelOrder(
  tx: Tx,
  store: StoreData,
  order: OrderRecord,
  options: { reason: string; restock: boolean },
  at = tx.now(),
): void {
  applyStatus(order, 'cancelled', at);
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


/**
 * `POST /orders/{id}/close` and `/open` (docs/platform.md §9): an open order is closed (archived, `closed_at`
 * set), a closed or cancelled one reopened. Closing a cancelled order is refused: a status is one of three, and
 * closing would erase the cancellation (its reason and time); reopen it first. Reopening a cancelled order clears
 * the cancellation but takes no stock again (the units went back once; see cancelOrder) and leaves the payment
 * refunded or voided. Returns the problem when the transition is refused.
 */
export function closeOrReopenOrder(tx: Tx, store: StoreData, order: OrderRecord, to: 'closed' | 'open', at = tx.now()): string | undefined {
  if (to === 'closed' && order.status === 'closed') return 'is already closed';
  if (to === 'closed' && order.status === 'cancelled') return 'is cancelled; reopen it before closing it';
  if (to === 'open' && order.status === 'open') return 'is already open';
  applyStatus(order, to, at);
  order.updated_at = at;
  tx.put(ordersOf(store), order);
  return undefined;
}

/** The changes of a PUT /orders/{id}: absent fields keep their value; a null owner note clears it. */
export interface OrderChanges {
  owner_note?: string | null;
  status?: OrderStatusInput;
  customer?: { name?: string; email?: string; phone?: string; identification?: string | null };
}

export function updateOrder(tx: Tx, store: StoreData, order: OrderRecord, changes: OrderChanges): void {
  if (changes.owner_note !== undefined) order.owner_note = changes.owner_note ?? '';
  if (changes.customer) {
    const { name, email, phone, identification } = changes.customer;
    order.customer = {
      ...order.customer,
      name: name?.trim() || order.customer.name,
      email: email ?? order.customer.email,
      phone: phone ?? order.customer.phone,
      identification: identification === undefined ? order.customer.identification : identification,
    };
  }
  if (changes.status) applyStatus(order, changes.status, tx.now());
  order.updated_at = tx.now();
  tx.put(ordersOf(store), order);
}

/** The shipping type of an order's shipments: `pickup` for a pickup option, `non-shippable`, else `ship`. */
export function shippingTypeOf(order: Pick<OrderRecord, 'shipping'>): ShippingType {
  const { pickup_type: type, carrier, option } = order.shipping;
  if (type === 'pickup' || type === 'non-shippable') return type;
  return PICKUP_METHOD.test(`${carrier} ${option}`) ? 'pickup' : 'ship';
}

const PICKUP_METHOD = /retiro|pickup|pick-up/i;

/**
 * After a shipment of the order moved: its `shipping_status` from all of them (platform.md §10), `shipped_at` when
 * the first left (null while none has), the tracking number and URL of the first that has them, and `updated_at` (so an incremental
 * reader sees the change).
 */
export function refreshShipping(tx: Tx, store: StoreData, order: OrderRecord, at = tx.now()): void {
  const shipments = fulfillmentOrdersOfOrder(store, order.id);
  const derived = orderShippingStatus(shipments.map((fo) => fo.status));
  if (derived) order.shipping_status = derived;
  // When the first shipment left (reached DISPATCHED or DELIVERED), as its history says.
  const departures = shipments.flatMap((fo) =>
    (fo.status_history ?? []).filter((h) => h.to_status === 'DISPATCHED' || h.to_status === 'DELIVERED').map((h) => h.happened_at),
  );
  order.shipped_at = derived && derived !== 'partially_fulfilled' && derived !== 'fulfilled' ? null : departures.length ? Math.min(...departures) : order.shipped_at;
  const tracked = shipments.find((fo) => fo.tracking_info?.code);
  if (tracked) {
    order.shipping_tracking_number = tracked.tracking_info!.code;
    order.shipping_tracking_url = tracked.tracking_info!.url;
  }
  order.updated_at = at;
  tx.put(ordersOf(store), order);
}

/**
 * The names a store's records give the same shipping ground (platform.md §10): the current ones follow the
 * shipments; `v1` records say `unpacked`/`unfulfilled`/`fulfilled`; `2025-03` ones `unshipped`/`shipped`/`delivered`.
 * The demo seed gives some orders each older form, as a real store's history holds them.
 */
export type ShippingNames = 'v1' | '2025-03';

/** `shipping_status` as the order record shows it (its form: ShippingNames). */
export function presentedShippingStatus(store: StoreData, order: OrderRecord): string {
  const status = order.shipping_status;
  const names = order.sent_as?.shipping_names;
  if (!names) return status;
  const shipped = status === 'fulfilled' || status === 'shipped' || status === 'delivered';
  if (names === 'v1') return status === 'unpacked' ? 'unpacked' : shipped ? 'fulfilled' : 'unfulfilled';
  if (!shipped) return 'unshipped';
  const shipments = fulfillmentOrdersOfOrder(store, order.id);
  return shipments.length > 0 && shipments.every((fo) => fo.status === 'DELIVERED') ? 'delivered' : 'shipped';
}
