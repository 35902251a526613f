import type { Collection, StoreData, Tx } from '../state.js';

/**
 * Customers as the platform documents them (docs/platform.md §11): a record per customer, with addresses, flat
 * billing fields, `extra`, and what their orders make of them (`total_spent`, `last_order_id`), which is derived
 * from the orders when the record is shown, so it is never out of date.
 *
 * Orders and customers: an order carries its customer's id (`order.customer.id`). An order created for an email
 * that no customer has makes a customer (as a checkout does); one for a known email (case aside) is that
 * customer's. A customer with orders cannot be deleted (422), so every customer id an order names has a record.
 *
 * This module reads orders through the few fields it needs (OrderFacts) instead of importing store/orders.ts,
 * which imports it (createOrder finds or makes the order's customer here).
 */

/** An address as orders and customers hold it (store/orders.ts's Address is this one). */
export type PostalAddress = {
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

export type CustomerAddress = PostalAddress & {
  id: number;
  created_at: number;
  updated_at: number;
};

export type CustomerRecord = {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  identification: string | null;
  /** The store owner's note about the customer. */
  note: string | null;
  /** The first is the default address. */
  addresses: CustomerAddress[];
  /** The flat `billing_*` fields; null: none given. */
  billing: PostalAddress | null;
  extra: Record<string, unknown>;
  active: boolean;
  accepts_marketing: boolean;
  created_at: number;
  updated_at: number;
};

/** What this module reads of an order (store/orders.ts's OrderRecord has these fields). */
export type OrderFacts = {
  id: number;
  created_at: number;
  total: string;
  payment_status: string;
  currency: string;
  customer: { id: number; email: string };
};

export function customersOf(store: StoreData): Collection<CustomerRecord> {
  return store.customers as unknown as Collection<CustomerRecord>;
}

function ordersOf(store: StoreData): Collection<OrderFacts> {
  return store.orders as unknown as Collection<OrderFacts>;
}

/** An email as customers are matched by it: trimmed, case aside. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The indexes a list of 50,000 orders needs (customer → orders, email → customer), each rebuilt on first use
 * after its collection changed: a burst of writes (a seed, an import) costs one rebuild, not one per write.
 */
interface CustomerIndexes {
  byEmail: Map<string, number> | undefined;
  ordersByCustomer: Map<number, OrderFacts[]> | undefined;
}
const indexes = new WeakMap<StoreData, CustomerIndexes>();

function indexesOf(store: StoreData): CustomerIndexes {
  let entry = indexes.get(store);
  if (!entry) {
    const created: CustomerIndexes = { byEmail: undefined, ordersByCustomer: undefined };
    customersOf(store).listen(() => (created.byEmail = undefined));
    ordersOf(store).listen(() => (created.ordersByCustomer = undefined));
    indexes.set(store, (entry = created));
  }
  return entry;
}

/** The customer with this email (case aside); of several (a store's older data), the first made. */
export function findCustomerByEmail(store: StoreData, email: string): CustomerRecord | undefined {
  const key = emailKey(email);
  if (key === '') return undefined;
  const index = indexesOf(store);
  if (!index.byEmail) {
    index.byEmail = new Map();
    for (const customer of customersOf(store).values()) {
      const k = emailKey(customer.email);
      const known = index.byEmail.get(k);
      if (k !== '' && (known === undefined || customer.id < known)) index.byEmail.set(k, customer.id);
    }
  }
  const id = index.byEmail.get(key);
  return id === undefined ? undefined : customersOf(store).get(id);
}

/** A customer's orders, newest first. */
export function ordersOfCustomer(store: StoreData, customerId: number): OrderFacts[] {
  const index = indexesOf(store);
  if (!index.ordersByCustomer) {
    const byCustomer = new Map<number, OrderFacts[]>();
    for (const order of ordersOf(store).values()) {
      const id = order.customer?.id;
      if (typeof id !== 'number') continue;
      let list = byCustomer.get(id);
      if (!list) byCustomer.set(id, (list = []));
      list.push(order);
    }
    for (const list of byCustomer.values()) list.sort((a, b) => b.created_at - a.created_at || b.id - a.id);
    index.ordersByCustomer = byCustomer;
  }
  return index.ordersByCustomer.get(customerId) ?? [];
}

/** What the orders make of a customer: the money of paid orders, and the newest order. */
export function orderSummary(store: StoreData, customerId: number): { total_spent: string; last_order_id: number | null } {
  const orders = ordersOfCustomer(store, customerId);
  // Cents as integers: money is never summed as floats.
  const cents = orders.filter((o) => o.payment_status === 'paid').reduce((sum, o) => sum + Math.round(Number(o.total) * 100), 0);
  return { total_spent: (cents / 100).toFixed(2), last_order_id: orders[0]?.id ?? null };
}

/** A new customer's fields; absent ones are empty. */
export interface NewCustomer {
  name: string;
  email: string;
  phone?: string | null;
  identification?: string | null;
  note?: string | null;
  addresses?: PostalAddress[];
  billing?: PostalAddress | null;
  extra?: Record<string, unknown>;
  accepts_marketing?: boolean;
}

const FIRST_CUSTOMER_ID = 70_000_001;

function addressRecords(tx: Tx, store: StoreData, addresses: PostalAddress[], at: number): CustomerAddress[] {
  return addresses.map((a) => ({ ...a, id: tx.nextId(store, 'customer_address'), created_at: at, updated_at: at }));
}

export function createCustomer(tx: Tx, store: StoreData, input: NewCustomer, at = tx.now()): CustomerRecord {
  return tx.put(customersOf(store), {
    id: tx.nextId(store, 'customer', FIRST_CUSTOMER_ID),
    name: input.name,
    email: input.email.trim(),
    phone: input.phone ?? null,
    identification: input.identification ?? null,
    note: input.note ?? null,
    addresses: addressRecords(tx, store, input.addresses ?? [], at),
    billing: input.billing ?? null,
    extra: { ...input.extra },
    active: false,
    accepts_marketing: input.accepts_marketing ?? false,
    created_at: at,
    updated_at: at,
  });
}

/** The changes of a PUT /customers/{id}: absent fields keep their value; `addresses` replaces the list. */
export type CustomerChanges = Partial<Omit<NewCustomer, 'name' | 'email'>> & { name?: string; email?: string };

export function updateCustomer(tx: Tx, store: StoreData, customer: CustomerRecord, changes: CustomerChanges): CustomerRecord {
  const at = tx.now();
  if (changes.name !== undefined) customer.name = changes.name;
  if (changes.email !== undefined) customer.email = changes.email.trim();
  if (changes.phone !== undefined) customer.phone = changes.phone;
  if (changes.identification !== undefined) customer.identification = changes.identification;
  if (changes.note !== undefined) customer.note = changes.note;
  if (changes.addresses !== undefined) customer.addresses = addressRecords(tx, store, changes.addresses, at);
  if (changes.billing !== undefined) customer.billing = changes.billing;
  if (changes.extra !== undefined) customer.extra = { ...changes.extra };
  if (changes.accepts_marketing !== undefined) customer.accepts_marketing = changes.accepts_marketing;
  customer.updated_at = at;
  return tx.put(customersOf(store), customer);
}

/** The same place (the name and phone on it aside). */
function sameAddress(a: PostalAddress, b: PostalAddress): boolean {
  const key = (x: PostalAddress) => [x.address, x.number, x.floor ?? '', x.city, x.zipcode, x.country].map((v) => v.trim().toLowerCase()).join('|');
  return key(a) === key(b);
}

/**
 * The customer of a new order: the one with its email, else a new customer made from the order's details
 * (`created` says which, for the customer/created webhook). An order without email always makes a new one. A known
 * customer's new address is added to their addresses.
 */
export function customerForOrder(
  tx: Tx,
  store: StoreData,
  details: { name: string; email: string; phone?: string | null; identification?: string | null; default_address?: PostalAddress | null },
  at: number,
): { customer: CustomerRecord; created: boolean } {
  const known = findCustomerByEmail(store, details.email);
  if (known) {
    // A checkout to an address the customer has not used before keeps it among their addresses.
    const address = details.default_address;
    if (address && !known.addresses.some((a) => sameAddress(a, address))) {
      known.addresses.push(...addressRecords(tx, store, [address], at));
      known.updated_at = Math.max(known.updated_at, at);
      tx.put(customersOf(store), known);
    }
    return { customer: known, created: false };
  }
  const customer = createCustomer(
    tx,
    store,
    {
      name: details.name,
      email: details.email,
      phone: details.phone || null,
      identification: details.identification ?? null,
      addresses: details.default_address ? [details.default_address] : [],
    },
    at,
  );
  return { customer, created: true };
}

/**
 * A state written before customers had records (docs/platform.md §11): each customer id its orders name gets a
 * record made from the newest of those orders. Returns how many were made.
 */
export function customersFromOrders(tx: Tx, store: StoreData): number {
  const customers = customersOf(store);
  const newest = new Map<number, OrderFacts>();
  for (const order of ordersOf(store).values()) {
    const id = order.customer?.id;
    if (typeof id !== 'number' || id < 1 || customers.has(id)) continue;
    const seen = newest.get(id);
    if (!seen || order.created_at > seen.created_at) newest.set(id, order);
  }
  const oldest = new Map<number, number>();
  for (const order of ordersOf(store).values()) {
    const id = order.customer?.id;
    if (typeof id === 'number' && newest.has(id)) oldest.set(id, Math.min(oldest.get(id) ?? order.created_at, order.created_at));
  }
  for (const [id, order] of newest) {
    const details = order.customer as OrderFacts['customer'] & {
      name?: string;
      phone?: string | null;
      identification?: string | null;
      default_address?: PostalAddress | null;
    };
    const at = oldest.get(id) ?? order.created_at;
    tx.put(customers, {
      id,
      name: details.name ?? '',
      email: details.email ?? '',
      phone: details.phone || null,
      identification: details.identification ?? null,
      note: null,
      addresses: details.default_address ? addressRecords(tx, store, [details.default_address], at) : [],
      billing: null,
      extra: {},
      active: false,
      accepts_marketing: false,
      created_at: at,
      updated_at: at,
    });
  }
  return newest.size;
}
