import { z } from 'zod';
import type { StoreClient, WriteRecord } from '../client/index.js';
import { Bool, Id, Money, parseRecords, Text, Timestamp } from './read.js';
import { parseReply } from './reply.js';

/**
 * Customers as the platform sends them (docs/platform.md §11). Only what the commands show is checked, the
 * tolerant way of read.ts: ids and `last_order_id` as numbers or numeric strings, `active` as a boolean or the
 * text "true"/"false", null for anything that is not an id, an address that cannot be read left out rather than
 * the customer. Every other field passes through to `--json`.
 */

/** One address of a customer (`default_address`, `addresses[]`); `default` may be absent. */
export const CustomerAddressSchema = z.looseObject({
  id: Id.nullish(),
  name: Text,
  address: Text,
  number: Text,
  floor: Text,
  locality: Text,
  city: Text,
  // A province or country may come as text or as {code, name}: kept as sent, read by fieldText.
  province: z.unknown().optional(),
  zipcode: Text,
  country: z.unknown().optional(),
  phone: Text,
  default: Bool,
});
export type CustomerAddress = z.infer<typeof CustomerAddressSchema>;

/** An address, or nothing when the store sent one that cannot be read (one odd address never hides a customer). */
const TolerantAddress = z.unknown().transform((value) => {
  const read = CustomerAddressSchema.safeParse(value);
  return read.success ? read.data : undefined;
});

export const CustomerSchema = z.looseObject({
  id: Id,
  name: Text,
  email: Text,
  phone: Text,
  identification: Text,
  note: Text,
  default_address: TolerantAddress,
  addresses: z
    .array(TolerantAddress)
    .nullish()
    .transform((list) => (list ?? []).filter((a): a is CustomerAddress => a !== undefined)),
  total_spent: Money,
  total_spent_currency: Text,
  last_order_id: Id.nullish().transform((v) => v ?? undefined),
  active: Bool,
  accepts_marketing: Bool,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Customer = z.infer<typeof CustomerSchema>;

/** Filters of GET /customers (docs/platform.md §11); `email` is the 2025-03 filter (an older store ignores it). */
export interface CustomerFilters {
  /** Text in the name, email or identification. */
  q?: string;
  email?: string;
  since_id?: number;
  created_at_min?: string;
  created_at_max?: string;
  updated_at_min?: string;
  updated_at_max?: string;
}

export interface CustomerPage {
  customers: Customer[];
  /** x-total-count: every customer matching the filters. */
  total?: number;
}

/** One page of customers; the empty-list 404 is an empty page. */
export async function listCustomersPage(client: StoreClient, filters: CustomerFilters, page: number, perPage: number): Promise<CustomerPage> {
  const res = await client.page<unknown>('/customers', { ...filters, page, per_page: perPage });
  return { customers: parseRecords(CustomerSchema, res.items, 'customer', (message) => client.warn(message)), total: res.total };
}

/** Every page of customers, at the largest page size unless told (following the Link header). */
export async function* customerPages(client: StoreClient, filters: CustomerFilters, perPage?: number): AsyncGenerator<CustomerPage> {
  for await (const page of client.paginate<unknown>('/customers', { ...filters }, { perPage })) {
    yield { customers: parseRecords(CustomerSchema, page.items, 'customer', (message) => client.warn(message)), total: page.total };
  }
}

export async function getCustomer(client: StoreClient, customerId: number): Promise<Customer> {
  const res = await client.request<unknown>({ method: 'GET', path: `/customers/${customerId}` });
  return parseReply(CustomerSchema, res.body, 'customer record');
}

/** The writable fields of a customer (docs/platform.md §11): POST takes them (name and email required), PUT any subset. */
export interface CustomerInput {
  name?: string;
  email?: string;
  phone?: string | null;
  identification?: string | null;
  note?: string | null;
  extra?: Record<string, unknown>;
}

export async function createCustomer(client: StoreClient, input: CustomerInput, record: WriteRecord): Promise<Customer> {
  const res = await client.request<unknown>({ method: 'POST', path: '/customers', body: input, record });
  return parseReply(CustomerSchema, res.body, 'customer record');
}

export async function updateCustomer(client: StoreClient, customerId: number, input: CustomerInput, record: WriteRecord): Promise<Customer> {
  const res = await client.request<unknown>({ method: 'PUT', path: `/customers/${customerId}`, body: input, record });
  return parseReply(CustomerSchema, res.body, 'customer record');
}

/** The store refuses (422) a customer with orders. */
export async function deleteCustomer(client: StoreClient, customerId: number, record: WriteRecord): Promise<void> {
  await client.request({ method: 'DELETE', path: `/customers/${customerId}`, record });
}
