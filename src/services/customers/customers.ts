import { NotFoundError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import { UsageError } from '../../errors.js';
import { customerPages, getCustomer, listCustomersPage, type Customer, type CustomerFilters } from '../../api/customers.js';
import { listOrdersPage, type Order } from '../../api/orders.js';
import { type ListPage, listPages, type Paging } from '../common/paging.js';
import { isEmail } from '../common/validate.js';

/**
 * The customers of a store (docs/platform.md §11): `customers list`, `customers get ID|EMAIL`, and the customer
 * of `orders list --customer ID|EMAIL`.
 *
 * An email is looked up with the `email` filter of the 2025-03 API together with `q` (the same text): a store on
 * the v1 API ignores `email` (an unknown parameter), and `q` then narrows the list to customers whose name, email or
 * identification holds it. What comes back is kept only when its email is the one asked for (case aside), since
 * neither filter is documented to match exactly. One request, whichever the store does.
 */

/** What a customer lookup is given: a customer id, or an email. */
export type CustomerRef = { id: number } | { email: string };

/** `ID|EMAIL` of a command (`customers get`, `orders list --customer`), checked before any request. */
export function parseCustomerRef(text: string, name = 'CUSTOMER'): CustomerRef {
  const value = text.trim();
  if (/^[1-9]\d{0,15}$/.test(value)) return { id: Number(value) };
  if (isEmail(value)) return { email: value };
  throw new UsageError(`${name} "${text}" is neither a customer id (a whole number) nor an email address.`);
}

const sameEmail = (a: string | undefined, b: string) => (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

/** The flags of `customers list`. */
export interface CustomerListFlags {
  /** Text in the name, email or identification (the API's q). */
  search?: string;
  email?: string;
}

/** The filters of `customers list`, checked before anything is sent. */
export function customerFilters(flags: CustomerListFlags): CustomerFilters {
  const filters: CustomerFilters = {};
  if (flags.search !== undefined) {
    const q = flags.search.trim();
    if (q === '') throw new UsageError("--search is empty; give text of the customer's name, email or identification.");
    filters.q = q;
  }
  if (flags.email !== undefined) {
    const email = flags.email.trim();
    if (!isEmail(email)) throw new UsageError(`--email "${flags.email}" is not an email address.`);
    if (filters.q !== undefined) throw new UsageError('--email and --search both search the customers; give one of them.');
    filters.email = email;
    filters.q = email;
  }
  return filters;
}

/**
 * The customers of a listing, as the pages arrive (`customers list`). With an email, only the customers that have
 * it (see above): the store's count then says nothing of them, so no total is given.
 */
export async function* customerListPages(client: StoreClient, filters: CustomerFilters, paging: Paging): AsyncGenerator<ListPage<Customer>> {
  const email = filters.email;
  const keep = (customers: Customer[]) => (email === undefined ? customers : customers.filter((c) => sameEmail(c.email, email)));
  const totalOf = (total: number | undefined) => (email === undefined ? total : undefined);
  yield* listPages(
    {
      page: async (page, perPage) => {
        const { customers, total } = await listCustomersPage(client, filters, page, perPage);
        return { items: keep(customers), total: totalOf(total) };
      },
      pages: async function* (perPage) {
        for await (const { customers, total } of customerPages(client, filters, perPage)) yield { items: keep(customers), total: totalOf(total) };
      },
      id: (customer) => customer.id,
    },
    paging,
  );
}

/** The customers whose email this is (case aside): one request. */
export async function customersWithEmail(client: StoreClient, email: string): Promise<Customer[]> {
  const { customers } = await listCustomersPage(client, { email, q: email }, 1, 50);
  return customers.filter((c) => sameEmail(c.email, email));
}

/** The one customer with this email; none, or several (a store's older data), is said in one sentence. */
async function customerWithEmail(client: StoreClient, email: string): Promise<Customer> {
  const found = await customersWithEmail(client, email);
  if (found.length === 0) throw new NotFoundError(`No customer of the store has the email ${email}.`);
  if (found.length > 1) {
    throw new UsageError(`${found.length} customers have the email ${email} (${found.map((c) => c.id).join(', ')}); give the id of the one you mean.`);
  }
  return found[0]!;
}

/**
 * The customer ids of `orders list --customer ID|EMAIL` (repeated or comma-separated): ids as given, each email
 * looked up (one request each), every one checked before the first request.
 */
export async function customerIdsOf(client: StoreClient, values: string[]): Promise<number[]> {
  const refs = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
    .map((v) => parseCustomerRef(v, '--customer'));
  const ids: number[] = [];
  for (const ref of refs) ids.push('id' in ref ? ref.id : (await customerWithEmail(client, ref.email)).id);
  return [...new Set(ids)];
}

/** `customers get`: the customer and their newest orders (at most `orders`; `orders_total` counts them all). */
export interface CustomerDetails {
  customer: Customer;
  orders: Order[];
  orders_total?: number;
}

/**
 * `customers get ID|EMAIL`: two requests — the customer (by id, or the email lookup) and the first page of
 * `GET /orders?customer_ids=ID` (what `orders list --customer ID` reads), side by side when the id is given.
 */
export async function customerWithOrders(client: StoreClient, ref: CustomerRef, orders: number): Promise<CustomerDetails> {
  const newest = async (id: number) => listOrdersPage(client, { customer_ids: String(id) }, 1, orders);
  if ('id' in ref) {
    const [customer, page] = await Promise.all([getCustomer(client, ref.id), newest(ref.id)]);
    return { customer, orders: page.orders, orders_total: page.total };
  }
  const customer = await customerWithEmail(client, ref.email);
  const page = await newest(customer.id);
  return { customer, orders: page.orders, orders_total: page.total };
}
