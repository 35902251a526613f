import { UsageError, ValidationError } from '../client/errors.js';
import type { StoreClient } from '../client/index.js';
import { getOrder } from '../api/orders.js';
import { createMetafield, findOrderMetafields, type Metafield, updateMetafield } from '../api/metafields.js';
import { UnexpectedReplyError } from '../api/reply.js';
import { accessKeyCheckDigit } from '../platform/invoice-key.js';
import { parseFulfillmentOrderRef, parseHttpUrl, parseOrderId } from './validate.js';
import { fulfillmentOrderIdOf } from './fulfillment-orders.js';
import { byIdOrNumber, type FoundOrder } from './order-lookup.js';
import { INVOICE_LIST_KEY, INVOICE_NAMESPACE, INVOICE_PAIR_KEYS } from '../platform/invoice-metafields.js';

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

export interface InvoiceRequest extends Invoice {
  orderId: number;
  /** The fulfillment order given by its number as listed (`191-1`): its id is looked up on the order before writing. */
  fulfillmentOrderNumber?: string;
}


/**
 * A fiscal access key: 44 digits, the last a mod-11 check digit. Keys are often printed in groups of four,
 * so spaces are dropped. A wrong check digit is told apart from a wrong length: it usually means one
 * mistyped digit.
 */
export function parseAccessKey(name: string, value: string): string {
  const key = value.replace(/\s+/g, '');
  if (!/^\d+$/.test(key)) throw new UsageError(`${name} "${value}" is not a fiscal access key; it must be 44 digits.`);
  if (key.length !== 44) throw new UsageError(`${name} has ${key.length} digits; a fiscal access key has 44.`);
  const expected = accessKeyCheckDigit(key.slice(0, 43));
  if (Number(key[43]) !== expected) {
    throw new UsageError(`${name} ${key} has a wrong check digit (${key[43]}, expected ${expected}); look for a mistyped digit.`);
  }
  return key;
}

export interface InvoiceFields {
  orderId: string;
  key: string;
  link: string;
  fulfillmentOrderId?: string;
}

/** Checks an invoice before anything is sent; `names` are how the user wrote each field (flag or column). */
export function invoiceRequest(
  fields: InvoiceFields,
  names: { orderId?: string; key: string; link: string; fulfillmentOrderId: string },
): InvoiceRequest {
  const request: InvoiceRequest = {
    orderId: parseOrderId(fields.orderId, names.orderId),
    key: parseAccessKey(names.key, fields.key),
    link: parseHttpUrl(names.link, fields.link, 'https://example.com/invoice.pdf'),
  };
  if (fields.fulfillmentOrderId !== undefined && fields.fulfillmentOrderId.trim() !== '') {
    const ref = parseFulfillmentOrderRef(fields.fulfillmentOrderId, names.fulfillmentOrderId);
    if ('id' in ref) request.fulfillment_order_id = ref.id;
    else request.fulfillmentOrderNumber = ref.number;
  }
  return request;
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

/** `invoices list ORDER`: ORDER is an id or, when the store has no such id, an order number. */
export async function invoicesOfOrder(client: StoreClient, idOrNumber: number): Promise<FoundOrder<OrderInvoices>> {
  return byIdOrNumber(client, idOrNumber, 'listing its invoices', (orderId) => readInvoices(client, orderId));
}

/** `invoices attach ORDER`: the order is found (by id, or by number after a 404) before anything is written. */
export async function attachInvoiceToOrder(client: StoreClient, request: InvoiceRequest): Promise<FoundOrder<AttachResult>> {
  return byIdOrNumber(client, request.orderId, 'attaching the invoice to it', (orderId) => attachInvoice(client, { ...request, orderId }));
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

export interface AttachResult {
  orderId: number;
  invoice: Invoice;
  /** false when the key was already attached to the order (of either kind): nothing was sent. */
  attached: boolean;
  /** Every invoice of the order after attaching, both kinds. */
  invoices: ShownInvoice[];
}

/**
 * Appends an invoice to the order's `nfe`/`list`, keeping every other entry: POST when the order has no list
 * yet, else PUT of the list plus the new entry. The older `nfe`/`key`+`link` pair is never touched. The same key
 * again (of either kind) changes nothing.
 */
export async function attachInvoice(
  client: StoreClient,
  request: InvoiceRequest,
  opts: { checkOrder?: boolean } = {},
): Promise<AttachResult> {
  const { orderId, fulfillmentOrderNumber, ...invoice } = request;
  if (fulfillmentOrderNumber !== undefined) {
    // A 404 here (no such order) comes before any write, so the order can still be looked up by its number.
    invoice.fulfillment_order_id = await fulfillmentOrderIdOf(client, orderId, { number: fulfillmentOrderNumber });
    request = { ...request, fulfillment_order_id: invoice.fulfillment_order_id };
    delete request.fulfillmentOrderNumber;
  }
  const current = await readInvoices(client, orderId, opts);
  const existing = current.invoices.find((i) => i.key === invoice.key);
  if (existing) return { orderId, invoice: existing, attached: false, invoices: current.invoices };
  const listed = [...current.listed, invoice];
  const invoices: ShownInvoice[] = [...current.invoices, { ...invoice, kind: 'nfe/list' }];
  if (current.metafield) {
    // Rewriting a list we could not read would drop what someone else stored there.
    if (current.unreadable) {
      throw new UnexpectedReplyError(
        `nfe/list metafield (id ${current.metafield.id})`,
        `its value ${current.unreadable}, so it was not changed`,
      );
    }
    await updateMetafield(client, current.metafield.id, { value: JSON.stringify(listed) }).catch((error) => {
      throw explainRefusal(error, request);
    });
    return { orderId, invoice, attached: true, invoices };
  }
  try {
    await createMetafield(client, {
      namespace: INVOICE_NAMESPACE,
      key: INVOICE_LIST_KEY,
      value: JSON.stringify(listed),
      description: 'Invoices (fiscal documents) of the order',
      owner_resource: 'Order',
      owner_id: orderId,
    });
  } catch (error) {
    // Another attach created the list since we read it (a second POST is a 422): append to that one.
    if (error instanceof ValidationError && (await readInvoices(client, orderId, { checkOrder: false })).metafield) {
      return attachInvoice(client, request, { checkOrder: false });
    }
    throw explainRefusal(error, request);
  }
  return { orderId, invoice, attached: true, invoices };
}

/**
 * The store reports problems by position in the whole list (`value.2.fulfillment_order_id`); the one a
 * person can act on is their fulfillment order not belonging to the order.
 */
function explainRefusal(error: unknown, request: InvoiceRequest): unknown {
  if (!(error instanceof ValidationError) || !request.fulfillment_order_id) return error;
  const fields = Object.keys(error.fieldErrors ?? {});
  if (!fields.some((f) => f.endsWith('fulfillment_order_id'))) return error;
  return new ValidationError(
    `Fulfillment order ${request.fulfillment_order_id} is not one of order ${request.orderId}; \`store fulfillment-orders list ${request.orderId}\` shows them.`,
    { status: error.status, method: error.method, url: error.url, description: error.description, fieldErrors: error.fieldErrors, body: error.body },
  );
}
