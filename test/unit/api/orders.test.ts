import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { OrderSchema } from '../../../src/api/orders.js';
import { parseRecords } from '../../../src/api/read.js';
import { customerDetails, orderItems, orderUpdate } from '../../../src/services/orders/orders.js';
import { orderFilters } from '../../../src/services/orders/order-listing.js';
import { orderRecordFields, paymentLabel, shippingLabel, totalLabel } from '../../../src/views/orders.js';

/** The order schema on the forms platform.md §0/§4 documents, and the checks of the order flags. */

const documented = {
  id: 450000123,
  token: '8b3f…',
  store_id: '1000001',
  number: '182',
  status: 'open',
  payment_status: 'authorized',
  shipping_status: 'unshipped',
  subtotal: '150.00',
  discount: null,
  total: '165.50',
  currency: 'BRL',
  gateway: 'pagseguro',
  gateway_name: null,
  payment_details: { method: 'credit_card', credit_card_company: 'visa', installments: '3' },
  paid_at: null,
  shipping: 'correios',
  shipping_option: 'PAC',
  shipping_option_code: null,
  shipping_cost_customer: '15.50',
  shipping_cost_owner: null,
  shipping_tracking_number: null,
  shipping_tracking_url: null,
  shipped_at: null,
  shipping_address: { city: 'São Paulo', zipcode: '01310-100' },
  customer: { id: '77012', name: 'Ana Lima', email: 'ana@example.com', phone: null, identification: null, default_address: null },
  products: [
    { id: '901', product_id: '1234', variant_id: '5678', name: 'Camisa (M)', quantity: '2', price: '75.00', variant_values: ['M'], image: null },
  ],
  note: null,
  owner_note: null,
  created_at: '2022-02-23T12:25:18+0000',
  updated_at: '2013-01-03T09:11:51-03:00',
  cancelled_at: null,
  billing_city: 'São Paulo',
  landing_url: 'https://example.com/?utm=x',
};

describe('OrderSchema (tolerant reader)', () => {
  it('reads numeric strings, nulls, both offset forms and a line without sku; keeps unknown fields', () => {
    const order = OrderSchema.parse(documented);
    expect(order).toMatchObject({ id: 450000123, number: 182, status: 'open', payment_status: 'authorized', shipping: 'correios' });
    expect(order.customer).toMatchObject({ id: 77012, name: 'Ana Lima' });
    expect(order.products).toEqual([expect.objectContaining({ id: 901, product_id: 1234, variant_id: 5678, quantity: 2, price: '75.00' })]);
    expect(order.products[0]!.sku).toBeUndefined();
    expect(order.payment_details?.installments).toBe(3);
    expect(order.created_at).toBe('2022-02-23T12:25:18+0000');
    expect(order.updated_at).toBe('2013-01-03T09:11:51-03:00');
    // Unknown fields pass through to --json untouched.
    expect(order.landing_url).toBe('https://example.com/?utm=x');
    expect(order.billing_city).toBe('São Paulo');
    expect(order.shipping_address).toEqual({ city: 'São Paulo', zipcode: '01310-100' });
  });

  it('reads the older single-order shape (price, no total) and the earlier sandbox shape ({method, cost} shipping, no lines)', () => {
    const older = OrderSchema.parse({ id: 123456789, number: 99, status: 'closed', price: '42.00', currency: 'ARS', products: null });
    expect(totalLabel(older)).toBe('42.00 ARS');
    expect(older.products).toEqual([]);
    const earlier = OrderSchema.parse({ id: 1000000001, number: 100, status: 'open', shipping: { method: 'OCA', cost: '3900.00' }, payments: [{ method: 'cash' }], total: 10 });
    expect(shippingLabel(earlier)).toBe('OCA 3900.00');
    expect(earlier.total).toBe('10');
    expect(earlier.payments).toEqual([{ method: 'cash' }]);
  });

  it('one odd record never fails the list: it is left out and warned about once', () => {
    const warnings: string[] = [];
    const orders = parseRecords(OrderSchema, [documented, { id: 'abc', number: 1 }, { ...documented, id: '450000124' }], 'order', (m) => warnings.push(m));
    expect(orders.map((o) => o.id)).toEqual([450000123, 450000124]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^1 order record could not be read and was left out \(record abc: .*at id\)\.$/);
  });

  it('shows payment from gateway and payment_details, shipping from the carrier code, option and cost', () => {
    const order = OrderSchema.parse(documented);
    expect(paymentLabel(order)).toBe('pagseguro, credit card visa, 3 installments');
    expect(shippingLabel(order)).toBe('PAC (correios), 15.50');
    const fields = Object.fromEntries(orderRecordFields(order));
    expect(fields).toMatchObject({ id: 450000123, number: 182, payment: 'authorized — pagseguro, credit card visa, 3 installments', total: '165.50 BRL' });
    expect(fields.shipping).toBe('unshipped — PAC (correios), 15.50');
  });
});

function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('order flags', () => {
  it('--status paid is read as --payment-status paid, with a note; a contradiction is refused', () => {
    const { filters, notes } = orderFilters({ status: 'paid' });
    expect(filters).toEqual({ payment_status: 'paid' });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('--payment-status paid');
    expect(orderFilters({ status: 'closed', shippingStatus: 'fulfilled', paymentStatus: 'any' })).toEqual({
      filters: { status: 'closed', shipping_status: 'fulfilled', payment_status: 'any' },
      notes: [],
    });
    expect(usage(() => orderFilters({ status: 'paid', paymentStatus: 'pending' }))).toContain('--payment-status pending');
  });

  it('--item VARIANT_ID=QTY: a numeric variant id and a positive whole quantity, at least one', () => {
    expect(orderItems(['123=2', ' 456 = 1 '])).toEqual([
      { variant_id: 123, quantity: 2 },
      { variant_id: 456, quantity: 1 },
    ]);
    expect(usage(() => orderItems([]))).toBe('--item is required: give at least one --item VARIANT_ID=QTY, such as --item 123456=2.');
    expect(usage(() => orderItems(['123']))).toBe('--item "123" is not VARIANT_ID=QTY; write it like --item 123456=2.');
    expect(usage(() => orderItems(['SKU-1=2']))).toContain('the variant id "SKU-1" is not a number');
    for (const qty of ['0', '-1', '1.5', 'two', '']) expect(usage(() => orderItems([`123=${qty}`]))).toContain('is not a whole number of at least 1');
  });

  it('customer details: email checked, empty name refused, nothing given is nothing to update', () => {
    expect(customerDetails({ name: ' Ana ', email: 'ana@example.com' })).toEqual({ name: 'Ana', email: 'ana@example.com' });
    expect(customerDetails({})).toBeUndefined();
    expect(usage(() => customerDetails({ email: 'ana' }))).toBe('--customer-email "ana" is not an email address.');
    expect(usage(() => customerDetails({ name: ' ' }))).toContain('--customer-name is empty');
    expect(orderUpdate({ customer: { phone: '+55 11 5555' } })).toEqual({ customer: { phone: '+55 11 5555' } });
    expect(usage(() => orderUpdate({ customer: {} }))).toMatch(/^Nothing to update/);
  });
});
