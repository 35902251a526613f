import { ulid } from 'ulid';
import { makeAccessKey } from '../platform/invoice-key.js';
import {
  fulfillmentOrdersOfOrder,
  moveTo,
  saveFulfillmentOrder,
  setTrackingInfo,
  type FulfillmentOrderRecord,
  type TrackingEventRecord,
} from './store/fulfillment-orders.js';
import type { TrackingStatus } from '../platform/tracking-statuses.js';
import { createMetafield } from './store/metafields.js';
import { INVOICE_LIST_KEY, INVOICE_NAMESPACE, INVOICE_PAIR_KEYS } from '../platform/invoice-metafields.js';
import {
  applyStatus,
  cancelOrder,
  checkOrderStock,
  createOrder,
  markPaid,
  ordersOf,
  refreshShipping,
  shippingTypeOf,
  type Address,
  type OrderForm,
  type OrderRecord,
  type ShippingNames,
  type Payment,
  type Shipping,
} from './store/orders.js';
import { CANCEL_REASONS } from '../platform/orders.js';
import { variantStock } from './stock.js';
import { type SandboxState, type StoreData, type Tx } from './state.js';
import { seededRandom } from './random.js';

/**
 * Demo orders for `--seed demo`: about a hundred orders over the last six weeks in every status, made with the
 * same operations as the API (stock taken by location priority, one fulfillment order per source location),
 * with shipments packed, dispatched with tracking and delivered along the moves of docs/platform.md §10 (tracking
 * events only on dispatched shipments; each order's shipping status follows its shipments), a few cancellations
 * (most restocked) and a couple of invoices. The orders are in every status, payment status and shipping status
 * of docs/platform.md §4 and §10, and carry the forms a real store's history has: some 9-digit ids, some with
 * order-line numbers as numeric strings, some with `+0000` timestamps, some naming their shipping status the v1
 * or the 2025-03 way (store/orders.ts ShippingNames). Runs after the
 * catalog seed, since the orders use its variants and locations. The choices come from a seeded generator, so
 * every demo store gets the same orders (only the random part of the ULIDs differs). Their customers are records
 * too (createOrder makes them): one per name drawn, so a name drawn twice is one customer with two orders, and
 * Ana Gómez (ana@example.com), whose are every tenth order.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const ORDER_COUNT = 100;
const SPAN_DAYS = 42;

export const FIRST_NAMES = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elena', 'Facundo', 'Gabriela', 'Hernán', 'Inés', 'Julián', 'Lucía', 'Martín', 'Natalia', 'Óscar', 'Paula', 'Ramiro', 'Sofía', 'Tomás', 'Valeria', 'Ximena'];
export const LAST_NAMES = ['Gómez', 'Fernández', 'López', 'Martínez', 'Pérez', 'Rodríguez', 'Sánchez', 'Romero', 'Díaz', 'Álvarez', 'Torres', 'Ruiz'];
export const SHIPPING: Omit<Shipping, 'cost_owner'>[] = [
  { carrier: 'correo-argentino', option: 'Correo Argentino - Envío a domicilio', option_code: 'correo-argentino_home', cost_customer: '3500.00' },
  { carrier: 'andreani', option: 'Andreani Estándar', option_code: 'andreani_standard', cost_customer: '4200.00' },
  { carrier: 'oca', option: 'OCA - Envío a sucursal', option_code: 'oca_branch', cost_customer: '3900.00' },
  { carrier: 'not-provided', option: 'Retiro en local', option_code: 'pickup', cost_customer: '0.00' },
];
export const PAYMENTS: Payment[] = [
  { gateway: 'mercadopago', gateway_name: 'Mercado Pago', method: 'credit_card', credit_card_company: 'visa', installments: 3 },
  { gateway: 'mercadopago', gateway_name: 'Mercado Pago', method: 'account_money', credit_card_company: null, installments: 1 },
  { gateway: 'pagonube', gateway_name: 'Pago Nube', method: 'credit_card', credit_card_company: 'mastercard', installments: 6 },
  { gateway: 'offline', gateway_name: 'Transferencia bancaria', method: 'bank_transfer', credit_card_company: null, installments: 1 },
  { gateway: 'offline', gateway_name: 'Efectivo', method: 'cash', credit_card_company: null, installments: 1 },
];
const NOTES = ['', '', '', 'Gift wrap, please', 'Call before delivery', 'Customer asked for an invoice'];
const CITIES = ['Buenos Aires, CABA', 'Rosario, Santa Fe', 'Córdoba, Córdoba', 'Mendoza, Mendoza', 'La Plata, Buenos Aires'];
const STREETS = ['Av. Corrientes', 'San Martín', 'Belgrano', 'Av. Rivadavia', 'Mitre'];

/** The demo's regular customer: every tenth order is hers, so she has a history in several states (docs/sandbox.md). */
export const DEMO_REGULAR = { name: 'Ana Gómez', email: 'ana@example.com' };

/**
 * The customer of the i-th demo order: Ana Gómez for every tenth, else the one of that first and last name (an
 * email per name, so a name drawn twice is one customer with two orders). Phone and identification follow the
 * customer, not the order.
 */
function demoCustomer(first: string, last: string, i: number): { name: string; email: string; phone: string; identification: string } {
  const regular = i % 10 === 3;
  const k = regular ? FIRST_NAMES.length * LAST_NAMES.length : FIRST_NAMES.indexOf(first) * LAST_NAMES.length + LAST_NAMES.indexOf(last);
  return {
    name: regular ? DEMO_REGULAR.name : `${first} ${last}`,
    email: regular ? DEMO_REGULAR.email : `${ascii(first)}.${ascii(last)}@example.com`.toLowerCase(),
    phone: `+54 11 ${4000 + k}-${String(1000 + ((k * 37) % 9000))}`,
    identification: String(20_000_000 + k * 7919),
  };
}

/** Ana Gómez ships home, and every fourth of her orders to her office: two addresses, as a regular has. */
function regularAddress(i: number): Address {
  const office = i % 40 === 33;
  return {
    name: DEMO_REGULAR.name,
    address: office ? 'Av. Santa Fe' : 'Gorriti',
    number: office ? '1860' : '4520',
    floor: office ? '8º A' : null,
    locality: 'Palermo',
    city: 'Buenos Aires',
    province: 'CABA',
    zipcode: office ? 'C1123' : 'C1414',
    country: 'AR',
    phone: '+54 11 4240-9880',
  };
}

export function addressFor(name: string, phone: string, i: number, rnd: () => number): Address {
  const [city, province] = CITIES[Math.floor(rnd() * CITIES.length)]!.split(', ') as [string, string];
  return {
    name,
    address: STREETS[i % STREETS.length]!,
    number: String(100 + ((i * 53) % 3900)),
    floor: i % 4 === 0 ? `${1 + (i % 9)}º B` : null,
    locality: null,
    city,
    province,
    zipcode: String(1000 + ((i * 97) % 8000)),
    country: 'AR',
    phone,
  };
}

/**
 * Every third order's lines with numeric-string ids and quantities, every fourth with `+0000` offsets, every fifth a
 * 9-digit id; of every four, one names its shipping status the v1 way and one the 2025-03 way.
 */
function formOf(i: number): OrderForm {
  const shippingNames: ShippingNames | undefined = i % 4 === 1 ? 'v1' : i % 4 === 2 ? '2025-03' : undefined;
  const sentAs: NonNullable<OrderForm['sentAs']> = {
    ...(i % 3 === 1 ? { string_line_numbers: true } : {}),
    ...(i % 4 === 3 ? { compact_offset: true } : {}),
    ...(shippingNames ? { shipping_names: shippingNames } : {}),
  };
  return { shortId: i % 5 === 2, sentAs: Object.keys(sentAs).length ? sentAs : undefined };
}

export function seedOrders(state: SandboxState, storeId: number): void {
  const store = state.store(storeId);
  if (!store) throw new Error(`no store ${storeId}`);
  const variants = store.products.list().flatMap((p) => p.variants.map((v) => v.id));
  if (variants.length === 0 || store.locations.size === 0) return;
  const rnd = seededRandom(7);
  // The shipments' own dice, so that how far they go never changes which orders the store holds.
  const shipRnd = seededRandom(11);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const now = state.storeNow();
  const start = now - SPAN_DAYS * DAY;

  state.mutate('sandbox.seed.orders', (tx) => {
    const invoiced: OrderRecord[] = [];
    let partial = 0;
    let olderInvoiced: OrderRecord | undefined;
    for (let i = 0; i < ORDER_COUNT; i++) {
      const at = Math.floor(start + ((i + rnd() * 0.8) / ORDER_COUNT) * SPAN_DAYS * DAY);
      const products = chooseLines(store, variants, rnd);
      if (!products) continue;
      const buyer = demoCustomer(pick(FIRST_NAMES), pick(LAST_NAMES), i);
      const drawn = addressFor(buyer.name, buyer.phone, i, rnd);
      const address = buyer.email === DEMO_REGULAR.email ? regularAddress(i) : drawn;
      const shipping = pick(SHIPPING);
      const order = createOrder(
        tx,
        store,
        {
          customer: { ...buyer, default_address: address },
          products,
          shipping: { ...shipping, cost_owner: shipping.cost_customer },
          shipping_address: address,
          owner_note: pick(NOTES),
          payment: pick(PAYMENTS),
        },
        at,
        formOf(i),
      );
      const age = (now - at) / DAY;
      const roll = rnd();
      if (roll < 0.1) {
        // Some were paid before the cancellation (refunded), the others voided.
        if (roll < 0.04) markPaid(order, at + HOUR);
        cancelOrder(tx, store, order, { reason: pick(CANCEL_REASONS), restock: rnd() < 0.85 }, Math.min(now, at + 6 * HOUR));
        continue;
      }
      // Older orders have mostly been paid, shipped and closed; the last days still hold open ones.
      const status = age > 12 ? (roll < 0.75 ? 'closed' : 'paid') : age > 3 ? (roll < 0.55 ? 'paid' : roll < 0.7 ? 'closed' : 'open') : roll < 0.6 ? 'open' : 'paid';
      if (status === 'open') {
        // Waiting for the money: most pending, some with the card authorized, some abandoned at checkout.
        order.payment_status = i % 4 === 0 ? 'authorized' : i % 5 === 1 ? 'abandoned' : 'pending';
        continue;
      }
      applyStatus(order, 'paid', at + HOUR);
      if (status === 'closed') applyStatus(order, 'closed', at + 2 * HOUR);
      order.updated_at = at + 2 * HOUR;
      let progress: Progress = status === 'closed' ? 'delivered' : progressOf(shipRnd());
      const shipments = fulfillmentOrdersOfOrder(store, order.id).length;
      if (shipments > 1) {
        // The older names cannot say "partly": an order of several shipments uses the current ones, and the first
        // two such open orders are partly packed and partly sent, so the store shows both.
        delete order.sent_as?.shipping_names;
        if (status !== 'closed' && shippingTypeOf(order) === 'ship' && partial < PARTIAL.length) progress = PARTIAL[partial++]!;
      }
      tx.put(ordersOf(store), order);
      ship(tx, store, order, progress, now, shipRnd);
      if (status === 'closed' && invoiced.length < 3 && age > 20) invoiced.push(order);
      else if (status === 'closed' && age > 20 && !olderInvoiced) olderInvoiced = order;
    }
    for (const order of invoiced) attachInvoice(tx, store, order, rnd);
    if (olderInvoiced) attachOlderInvoicePair(tx, store, olderInvoiced, rnd);
  });
}

export function ascii(text: string): string {
  return text.normalize('NFD').replace(/[^A-Za-z]/g, '');
}

/** One to three lines of variants that have the units; undefined when the dice found nothing in stock. */
function chooseLines(store: StoreData, variants: number[], rnd: () => number) {
  const lines: { variant_id: number; quantity: number }[] = [];
  const count = 1 + Math.floor(rnd() * rnd() * 3);
  for (let tries = 0; lines.length < count && tries < 10; tries++) {
    const variantId = variants[Math.floor(rnd() * variants.length)]!;
    if (lines.some((l) => l.variant_id === variantId)) continue;
    const { variant } = store.findVariant(variantId)!;
    const available = variant.stock_management ? variantStock(variant) : 5;
    if (available < 1) continue;
    lines.push({ variant_id: variantId, quantity: Math.min(available, 1 + Math.floor(rnd() * rnd() * 3)) });
  }
  if (lines.length === 0 || checkOrderStock(store, lines)) return undefined;
  return lines;
}

/** How far a paid order's shipments have gone: `some-…` moves only the first of several. */
type Progress = 'none' | 'some-packed' | 'packed' | 'some-dispatched' | 'dispatched' | 'delivered';

const PARTIAL: Progress[] = ['some-packed', 'some-dispatched'];

/** An open paid order: not packed yet, packing begun, packed and waiting, or on its way. */
function progressOf(roll: number): Progress {
  return roll < 0.35 ? 'none' : roll < 0.45 ? 'some-packed' : roll < 0.65 ? 'packed' : roll < 0.75 ? 'some-dispatched' : 'dispatched';
}

const TRACKING_STEPS: { status: TrackingStatus; after: number; description: string }[] = [
  { status: 'dispatched', after: 0, description: 'Package handed to the carrier' },
  { status: 'in_transit', after: 1 * DAY, description: 'In transit to the destination branch' },
  { status: 'out_for_delivery', after: 2 * DAY, description: 'Out for delivery' },
  { status: 'delivered', after: 2 * DAY + 5 * HOUR, description: 'Delivered to the customer' },
];

/**
 * Moves a paid order's shipments as far as `progress` says, along the moves of platform.md §10 and never later than
 * now: packed a few hours after the order, then a shipment is dispatched with its tracking code a day later and
 * followed by tracking events (the `delivered` one delivering it), or, for a pickup order, made ready for pickup and
 * collected. The order's shipping status, tracking and shipped_at follow.
 */
function ship(tx: Tx, store: StoreData, order: OrderRecord, progress: Progress, now: number, rnd: () => number): void {
  if (progress === 'none') return;
  const pickup = shippingTypeOf(order) === 'pickup';
  const city = CITIES[Math.floor(rnd() * CITIES.length)]!;
  let last = order.updated_at;
  const step = (fo: FulfillmentOrderRecord, to: Parameters<typeof moveTo>[1], at: number): boolean => {
    if (at > now) return false;
    moveTo(fo, to, at);
    last = Math.max(last, at);
    return true;
  };
  fulfillmentOrdersOfOrder(store, order.id).forEach((fo, i) => {
    const reach = i > 0 && progress === 'some-packed' ? 'none' : i > 0 && progress === 'some-dispatched' ? 'packed' : progress;
    if (reach === 'none') return;
    const packedAt = order.created_at + (2 + Math.floor(rnd() * 4)) * HOUR;
    const sentAt = packedAt + DAY;
    if (!step(fo, 'PACKED', packedAt) || reach === 'packed' || reach === 'some-packed') return saveFulfillmentOrder(tx, store, fo, last);
    if (pickup) {
      if (step(fo, 'READY_FOR_PICKUP', sentAt) && reach === 'delivered') step(fo, 'DELIVERED', sentAt + 5 * HOUR);
      return saveFulfillmentOrder(tx, store, fo, last);
    }
    if (!step(fo, 'DISPATCHED', sentAt)) return saveFulfillmentOrder(tx, store, fo, last);
    const code = `TR${String(Math.floor(rnd() * 1e9)).padStart(9, '0')}AR`;
    setTrackingInfo(fo, { code, url: `https://tracking.example.com/${order.shipping.carrier}/${code}`, notify_customer: true }, sentAt, null);
    for (const { status, after, description } of TRACKING_STEPS) {
      const happened = sentAt + after;
      if (happened > now || (status === 'delivered' && reach !== 'delivered')) break;
      const event: TrackingEventRecord = {
        id: ulid(happened),
        status,
        description,
        address: status === 'dispatched' ? 'Centro de distribución' : city,
        geolocation: status === 'in_transit' ? { latitude: -34.6037, longitude: -58.3816 } : null,
        happened_at: happened,
        estimated_delivery_at: status === 'delivered' ? null : sentAt + TRACKING_STEPS[3]!.after,
        created_at: happened,
        updated_at: happened,
      };
      fo.tracking_events.push(event);
      // The documented way to mark delivery: the `delivered` event (fulfilled_at = its happened_at).
      if (status === 'delivered') step(fo, 'DELIVERED', happened);
      last = Math.max(last, happened);
    }
    saveFulfillmentOrder(tx, store, fo, last);
  });
  refreshShipping(tx, store, order, last);
}

function attachInvoice(tx: Tx, store: StoreData, order: OrderRecord, rnd: () => number): void {
  const entries = fulfillmentOrdersOfOrder(store, order.id).map((fo) => {
    const key = makeAccessKey('3526111234567800019955001', rnd);
    return { key, link: `https://nfe.example.com/danfe/${key}.pdf`, fulfillment_order_id: fo.id };
  });
  const at = order.created_at + 2 * HOUR;
  createMetafield(
    tx,
    store,
    { namespace: INVOICE_NAMESPACE, key: INVOICE_LIST_KEY, value: JSON.stringify(entries), description: `Invoices of order ${order.number}`, owner_id: order.id },
    at,
  );
}

/**
 * An invoice stored the older documented way (docs/platform.md §6): two metafields of the order, namespace `nfe`,
 * key `key` (the access key) and key `link` (its URL), as stores that used other apps hold them.
 */
function attachOlderInvoicePair(tx: Tx, store: StoreData, order: OrderRecord, rnd: () => number): void {
  const key = makeAccessKey('3526111234567800019955001', rnd);
  const at = order.created_at + 3 * HOUR;
  for (const [metafieldKey, value] of [
    [INVOICE_PAIR_KEYS.key, key],
    [INVOICE_PAIR_KEYS.link, `https://nfe.example.com/danfe/${key}.pdf`],
  ] as const) {
    createMetafield(
      tx,
      store,
      { namespace: INVOICE_NAMESPACE, key: metafieldKey, value, description: `Invoice of order ${order.number}`, owner_id: order.id },
      at,
    );
  }
}
