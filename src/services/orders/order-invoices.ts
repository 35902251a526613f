import { getOrder } from '../../api/orders.js';
import { findOrderMetafields, type Metafield } from '../../api/metafields.js';
import type { StoreClient } from '../../client/index.js';
import { INVOICE_LIST_KEY, INVOICE_NAMESPACE, INVOICE_PAIR_KEYS } from '../../platform/invoice-metafields.js';

/**
 * The invoices of an order as its metafields hold them (docs/platform.md §6), read for `orders get`, `orders
 * export` and the invoices commands alike; writing them is services/invoices/'s.
 */

/** An entry of the order's `nfe`/`list` metafield (docs/api-rules.md §5.16): how this CLI writes invoices. */
export interface Invoice {
  key: string;
  link: string;
  fulfillment_order_id?: string;
}

/**
 * Where an invoice is stored (docs/platform.md §6): `nfe/list`, an entry of the JSON list this CLI writes, or
 * `nfe/key+link`, the older documented way of two metafields per order (namespace `nfe`, keys `key` and `link`).
 */
export type InvoiceKind = 'nfe/list' | 'nfe/key+link';

/** An invoice as `invoices list` and `orders get` show it: both kinds, marked. */
export interface ShownInvoice extends Invoice {
  kind: InvoiceKind;
}

export interface OrderInvoices {
  orderId: number;
  /** Every invoice of the order, both kinds: the older pair first (it was there first), then the list's entries. */
  invoices: ShownInvoice[];
  /** The entries of the `nfe`/`list` metafield, the one this CLI appends to. */
  listed: Invoice[];
  /** The `nfe`/`list` metafield, absent until the first invoice is attached. */
  metafield?: Metafield;
  /** Why the `nfe`/`list` value could not be read; it is then left unchanged by attaching. */
  unreadable?: string;
}

/**
 * The invoices of an order, of both kinds (docs/platform.md §6). The order is fetched alongside (`checkOrder`, the
 * default) because the metafield search answers an unknown order with an empty list, which would hide a
 * mistyped id. A list value that cannot be read is reported (`unreadable`, and a warning) and never rewritten.
 */
export async function readInvoices(client: StoreClient, orderId: number, opts: { checkOrder?: boolean } = {}): Promise<OrderInvoices> {
  const [found] = await Promise.all([
    findOrderMetafields(client, { ownerId: orderId, namespace: INVOICE_NAMESPACE }),
    opts.checkOrder === false ? undefined : getOrder(client, orderId),
  ]);
  const metafield = found.find((m) => m.key === INVOICE_LIST_KEY);
  const invoices: ShownInvoice[] = [];
  const pair = olderPair(found);
  if (pair) invoices.push({ ...pair, kind: 'nfe/key+link' });
  let listed: Invoice[] = [];
  let unreadable: string | undefined;
  if (metafield) {
    const read = invoicesIn(metafield);
    listed = read.invoices;
    unreadable = read.problem;
    if (unreadable) client.warn(`The invoice list of order ${orderId} (metafield ${metafield.id}) ${unreadable}; the entries that could be read are shown.`);
  }
  invoices.push(...listed.map((invoice) => ({ ...invoice, kind: 'nfe/list' as const })));
  return { orderId, invoices, listed, metafield, unreadable };
}

/** The older documented way: `nfe`/`key` holds the access key and `nfe`/`link` the invoice's URL. */
function olderPair(metafields: Metafield[]): Invoice | undefined {
  const key = metafields.find((m) => m.key === INVOICE_PAIR_KEYS.key)?.value?.trim();
  const link = metafields.find((m) => m.key === INVOICE_PAIR_KEYS.link)?.value?.trim();
  if (!key && !link) return undefined;
  return { key: key ?? '', link: link ?? '' };
}

function invoicesIn(metafield: Metafield): { invoices: Invoice[]; problem?: string } {
  let value: unknown;
  try {
    value = JSON.parse(metafield.value ?? '');
  } catch {
    return { invoices: [], problem: 'is not JSON' };
  }
  const isInvoice = (v: unknown): v is Invoice =>
    typeof v === 'object' && v !== null && typeof (v as Invoice).key === 'string' && typeof (v as Invoice).link === 'string';
  if (!Array.isArray(value)) return { invoices: [], problem: 'is not a JSON list' };
  const invoices = value.filter(isInvoice);
  const odd = value.length - invoices.length;
  return odd ? { invoices, problem: `has ${odd} ${odd === 1 ? 'entry' : 'entries'} that ${odd === 1 ? 'is not an invoice' : 'are not invoices'}` } : { invoices };
}
