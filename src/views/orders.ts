import type { Order } from '../api/orders.js';
import { fieldText, pickLocalized } from '../api/read.js';
import { type DetailSection, fieldSection, section } from '../cli/record-view.js';
import { type Column, cellText, truncateToWidth } from '../output/format.js';
import type { OrderDetails } from '../services/orders/orders.js';
import { fulfillmentOrderRow, fulfillmentOrderSectionColumns } from './fulfillment-orders.js';
import { invoiceColumns } from './invoices.js';

/** Orders as the commands show them: `orders list` rows, the record of `orders get`, `create` and `update`. */

/** "Ana Souza <ana@example.com>" or whichever part the order has. */
export function customerLabel(order: Order): string {
  const c = order.customer;
  if (!c) return '';
  if (c.name && c.email) return `${c.name} <${c.email}>`;
  return c.name ?? c.email ?? c.phone ?? '';
}

/** The total (the older single-order shape has `price` instead), with the currency. */
export function totalLabel(order: Order): string {
  const total = order.total ?? order.price;
  if (total === undefined) return '';
  return order.currency ? `${total} ${order.currency}` : total;
}

/** "Mercado Pago, credit card visa, 3 installments" from gateway_name/gateway and payment_details. */
export function paymentLabel(order: Order): string {
  const details = order.payment_details;
  const method = details?.method ? details.method.replace(/_/g, ' ') : undefined;
  const gateway = order.gateway_name ?? order.gateway;
  const parts = [
    gateway,
    [method === gateway?.toLowerCase() ? undefined : method, details?.credit_card_company].filter(Boolean).join(' ') || undefined,
    details?.installments !== undefined && details.installments > 1 ? `${details.installments} installments` : undefined,
  ].filter((p): p is string => !!p);
  return parts.join(', ');
}

/** "Correo Argentino - Envío a domicilio (correo-argentino), 3500.00" from the shipping fields. */
export function shippingLabel(order: Order): string {
  const shipping = order.shipping;
  if (shipping !== null && typeof shipping === 'object') {
    // The earlier sandbox form {method, cost}.
    return [shipping.method, shipping.cost].filter(Boolean).join(' ');
  }
  const carrier = typeof shipping === 'string' && shipping !== '' ? shipping : undefined;
  const name = order.shipping_option
    ? carrier && carrier !== order.shipping_option
      ? `${order.shipping_option} (${carrier})`
      : order.shipping_option
    : carrier;
  return [name, order.shipping_cost_customer].filter(Boolean).join(', ');
}

/**
 * One version of an order as `orders follow` shows it at a terminal (as `webhooks listen` shows an event): when it
 * changed (its updated_at, in local time), its number and id, its states, total and customer, cut to the
 * terminal's width in columns (a name with emoji or CJK takes two a character).
 */
export function orderVersionLine(order: Order, width: number): string {
  const at = new Date(order.updated_at ?? order.created_at ?? '');
  const when = Number.isNaN(at.getTime())
    ? cellText(order.updated_at ?? '')
    : `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')} ${at.toTimeString().slice(0, 8)}`;
  const states = [order.status, order.payment_status, order.shipping_status].filter(Boolean).join('/');
  const line = [when, `#${order.number ?? '?'}`, String(order.id), states, totalLabel(order), customerLabel(order)]
    .map((part) => cellText(part))
    .filter((part) => part !== '')
    .join('  ');
  return `${truncateToWidth(line, Math.max(20, width))}\n`;
}

/** Tracking number and URL, as far as the order has them. */
function trackingLabel(order: Order): string {
  return [order.shipping_tracking_number, order.shipping_tracking_url].filter(Boolean).join(' ');
}

/**
 * The columns of `orders list`, named as the API names the fields (the CSV and JSON of a listing line up);
 * `customer` is the customer's name and email.
 */
export const orderColumns: Column<Order>[] = [
  { header: 'id', get: (o) => o.id, kind: 'id' },
  { header: 'number', get: (o) => o.number, kind: 'id' },
  { header: 'status', get: (o) => o.status, kind: 'state' },
  { header: 'payment_status', label: 'payment', get: (o) => o.payment_status, kind: 'state', priority: 1 },
  { header: 'shipping_status', label: 'shipping', get: (o) => o.shipping_status, kind: 'state', priority: 2 },
  { header: 'created_at', label: 'created', get: (o) => o.created_at, kind: 'time', priority: 3 },
  { header: 'customer', get: (o) => customerLabel(o), kind: 'text' },
  { header: 'total', get: (o) => o.total ?? o.price, show: totalLabel, kind: 'money' },
  { header: 'currency', get: (row) => row.currency, only: 'machine' },
];

/** The "key value" lines of one order (`orders get`, `orders create`, `orders update`). */
export function orderRecordFields(order: Order): [string, unknown][] {
  const fields: [string, unknown][] = [
    ['id', order.id],
    ['number', order.number],
    ['status', order.status],
    ['payment', [order.payment_status, paymentLabel(order)].filter(Boolean).join(' — ')],
    ['shipping', [order.shipping_status, shippingLabel(order)].filter(Boolean).join(' — ')],
  ];
  const tracking = trackingLabel(order);
  if (tracking) fields.push(['tracking', tracking]);
  if (order.shipped_at) fields.push(['shipped', order.shipped_at]);
  fields.push(['created', order.created_at], ['updated', order.updated_at]);
  if (order.paid_at) fields.push(['paid', order.paid_at]);
  if (order.cancelled_at) fields.push(['cancelled', [order.cancelled_at, order.cancel_reason].filter(Boolean).join(' ')]);
  fields.push(['customer', customerLabel(order)]);
  if (order.customer?.phone) fields.push(['phone', order.customer.phone]);
  fields.push(['note', order.owner_note ?? '']);
  if (order.note) fields.push(['customer note', order.note]);
  fields.push(['subtotal', order.subtotal ?? '']);
  if (order.discount !== undefined && Number(order.discount) !== 0) fields.push(['discount', order.discount]);
  fields.push(['total', totalLabel(order)]);
  return fields;
}

/** The item lines of an order. */
export const orderItemColumns: Column<Order['products'][number]>[] = [
  { header: 'variant', get: (p) => p.variant_id, kind: 'id', priority: 1 },
  { header: 'sku', get: (row) => row.sku, kind: 'id' },
  { header: 'name', get: (p) => pickLocalized(p.name), kind: 'text' },
  { header: 'quantity', label: 'qty', get: (p) => p.quantity, kind: 'count' },
  { header: 'price', get: (p) => p.price, kind: 'money' },
];

/** The item lines with each price in the order's currency (a table shows `12500.00 ARS`; TSV keeps the amount alone). */
function orderItemColumnsIn(currency: string | undefined): Column<Order['products'][number]>[] {
  if (!currency) return orderItemColumns;
  return orderItemColumns.map((c) => (c.kind === 'money' ? { ...c, show: (p) => (p.price ? `${p.price} ${currency}` : '') } : c));
}

/** "Av. Corrientes 1234, piso 5\nPalermo, C1043 Buenos Aires, Buenos Aires, AR" from the address fields (prefix "billing_" for the flat ones). */
function addressText(record: unknown, prefix = ''): string {
  const field = (key: string) => fieldText(record, `${prefix}${key}`);
  const floor = field('floor');
  const street = [[field('address'), field('number')].filter(Boolean).join(' '), floor].filter(Boolean).join(', ');
  const place = [field('locality'), [field('zipcode'), field('city')].filter(Boolean).join(' '), field('province'), field('country')].filter(Boolean).join(', ');
  return [street, place].filter(Boolean).join('\n');
}

/** Labelled lines with the empty ones left out. */
function present(fields: [string, string][]): [string, unknown][] {
  return fields.filter(([, value]) => value !== '');
}

/** Where the order goes (docs/platform.md §4 `shipping_address {…}`): name, address, phone; none for a pickup. */
function shippingAddressFields(order: Order): [string, unknown][] {
  const address = (order as Record<string, unknown>).shipping_address;
  if (!address || typeof address !== 'object') return [];
  return present([
    ['name', fieldText(address, 'name')],
    ['address', addressText(address)],
    ['phone', fieldText(address, 'phone')],
  ]);
}

/** Who is billed (the flat `billing_*` fields and the customer's identification: a DNI, CUIT or CPF). */
function billingFields(order: Order): [string, unknown][] {
  return present([
    ['name', fieldText(order, 'billing_name')],
    ['document', order.customer?.identification ?? ''],
    ['address', addressText(order, 'billing_')],
    ['phone', fieldText(order, 'billing_phone')],
  ]);
}

/** The sections under an order on `orders get`: where it goes, who pays, its items, shipments and invoices. */
export function orderSections({ order, fulfillment_orders: fos, invoices }: OrderDetails): DetailSection[] {
  const shipping = shippingAddressFields(order);
  const billing = billingFields(order);
  return [
    ...(shipping.length > 0 ? [fieldSection('Shipping address', shipping)] : []),
    ...(billing.length > 0 ? [fieldSection('Billing', billing)] : []),
    section('Items', order.products, orderItemColumnsIn(order.currency)),
    section('Fulfillment orders', fos.map((fo) => fulfillmentOrderRow(fo)), fulfillmentOrderSectionColumns, { rowsAsRecords: true }),
    section('Invoices', invoices, invoiceColumns, { rowsAsRecords: true }),
  ];
}
