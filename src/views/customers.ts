import type { Customer, CustomerAddress } from '../api/customers.js';
import { fieldText } from '../api/read.js';
import { type DetailSection, fieldSection, section } from '../cli/record-view.js';
import type { Column } from '../output/format.js';
import type { CustomerDetails } from '../services/customers/customers.js';
import { orderColumns } from './orders.js';

/** Customers as the commands show them: `customers list` rows and the page of `customers get`. */

/** The money the customer spent, with its currency. */
function spentLabel(customer: Customer): string {
  if (customer.total_spent === undefined) return '';
  return customer.total_spent_currency ? `${customer.total_spent} ${customer.total_spent_currency}` : customer.total_spent;
}

/**
 * The columns of `customers list`, named as the API names the fields (the CSV and JSON of a listing line up). On an
 * 80-column terminal: id, name, email, spent and the last order; the phone and the creation time go first when
 * space runs out.
 */
export const customerColumns: Column<Customer>[] = [
  { header: 'id', get: (c) => c.id, kind: 'id' },
  { header: 'name', get: (c) => c.name, kind: 'text' },
  { header: 'email', get: (c) => c.email, kind: 'text' },
  { header: 'phone', get: (c) => c.phone, kind: 'id', priority: 3 },
  { header: 'total_spent', label: 'spent', get: (c) => c.total_spent, show: spentLabel, kind: 'money' },
  { header: 'total_spent_currency', get: (c) => c.total_spent_currency, only: 'machine' },
  { header: 'last_order_id', label: 'last order', get: (c) => c.last_order_id, kind: 'id', priority: 1 },
  { header: 'created_at', label: 'created', get: (c) => c.created_at, kind: 'time', priority: 2 },
];

/** "Av. Corrientes 1234, 5º B, Palermo, C1043 Buenos Aires, Buenos Aires, AR" from an address's fields. */
export function addressLine(address: unknown): string {
  const field = (key: string) => fieldText(address, key);
  const street = [field('address'), field('number')].filter(Boolean).join(' ');
  const place = [field('zipcode'), field('city')].filter(Boolean).join(' ');
  return [street, field('floor'), field('locality'), place, field('province'), field('country')].filter(Boolean).join(', ');
}

/** The "key value" lines of one customer (`customers get`). */
export function customerRecordFields(customer: Customer): [string, unknown][] {
  const fields: [string, unknown][] = [
    ['id', customer.id],
    ['name', customer.name ?? ''],
    ['email', customer.email ?? ''],
  ];
  if (customer.phone) fields.push(['phone', customer.phone]);
  if (customer.identification) fields.push(['document', customer.identification]);
  fields.push(['spent', spentLabel(customer)]);
  if (customer.last_order_id !== undefined) fields.push(['last order', customer.last_order_id]);
  if (customer.accepts_marketing !== undefined) fields.push(['marketing', customer.accepts_marketing ? 'accepts' : 'does not accept']);
  if (customer.note) fields.push(['note', customer.note]);
  fields.push(['created', customer.created_at ?? ''], ['updated', customer.updated_at ?? '']);
  return fields;
}

/** The customer's addresses, the default one first and marked (whether or not the store lists it in `addresses`). */
function addressesOf(customer: Customer): CustomerAddress[] {
  const main = customer.default_address;
  if (!main) return customer.addresses;
  const same = (a: CustomerAddress) => (main.id !== undefined && a.id === main.id) || addressLine(a) === addressLine(main);
  return [{ ...main, default: true }, ...customer.addresses.filter((a) => !same(a)).map((a) => ({ ...a, default: false }))];
}

const addressColumns: Column<CustomerAddress>[] = [
  { header: 'default', get: (a) => (a.default ? 'yes' : ''), kind: 'state', priority: 1 },
  { header: 'address', get: (a) => addressLine(a), kind: 'text' },
  { header: 'phone', get: (a) => a.phone, kind: 'id', priority: 2 },
];

/** The flat `billing_*` fields, as one line (absent when the customer has none). */
function billingFields(customer: Customer): [string, unknown][] {
  const line = addressLine(
    Object.fromEntries(['address', 'number', 'floor', 'locality', 'zipcode', 'city', 'province', 'country'].map((k) => [k, fieldText(customer, `billing_${k}`)])),
  );
  const phone = fieldText(customer, 'billing_phone');
  return [...(line ? [['address', line] as [string, unknown]] : []), ...(phone ? [['phone', phone] as [string, unknown]] : [])];
}

/** A customer's orders: the columns of `orders list` but the customer's. */
const customerOrderColumns = orderColumns.filter((c) => c.header !== 'customer');

/** The sections under a customer on `customers get`: addresses, billing and their newest orders. */
export function customerSections({ customer, orders, orders_total: total }: CustomerDetails): DetailSection[] {
  const billing = billingFields(customer);
  const shown = orders.length;
  const title = total !== undefined && total > shown ? `Orders (the newest ${shown} of ${total})` : 'Orders';
  return [
    section('Addresses', addressesOf(customer), addressColumns),
    ...(billing.length > 0 ? [fieldSection('Billing', billing)] : []),
    section(title, orders, customerOrderColumns),
  ];
}
