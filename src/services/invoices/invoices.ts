import { UsageError } from '../../errors.js';
import { ValidationError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import { createMetafield, updateMetafield } from '../../api/metafields.js';
import { UnexpectedReplyError } from '../../api/reply.js';
import { accessKeyCheckDigit } from '../../platform/invoice-key.js';
import { parseFulfillmentOrderRef, parseHttpUrl, parseOrderId } from '../common/validate.js';
import { fulfillmentOrderIdOf } from '../orders/fulfillment-orders.js';
import { byIdOrNumber, type FoundOrder } from '../orders/order-lookup.js';
import { INVOICE_LIST_KEY, INVOICE_NAMESPACE } from '../../platform/invoice-metafields.js';
import type { Recorder } from '../../ledger/recorder.js';
import { type Invoice, type OrderInvoices, type ShownInvoice, readInvoices } from '../orders/order-invoices.js';

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

/** `invoices list ORDER`: ORDER is an id or, when the store has no such id, an order number. */
export async function invoicesOfOrder(client: StoreClient, idOrNumber: number): Promise<FoundOrder<OrderInvoices>> {
  return byIdOrNumber(client, idOrNumber, 'listing its invoices', (orderId) => readInvoices(client, orderId));
}

/** `invoices attach ORDER`: the order is found (by id, or by number after a 404) before anything is written. */
export async function attachInvoiceToOrder(client: StoreClient, recorder: Recorder, request: InvoiceRequest): Promise<FoundOrder<AttachResult>> {
  return byIdOrNumber(client, request.orderId, 'attaching the invoice to it', (orderId) => attachInvoice(client, recorder, { ...request, orderId }));
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
  recorder: Recorder,
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
  // The ledger's change: the order's nfe/list as read and as written (undo takes the new entry out again).
  const change = { resource: 'invoice', parent: orderId, key: invoice.key, field: 'nfe/list', after: listed };
  if (current.metafield) {
    // Rewriting a list we could not read would drop what someone else stored there.
    if (current.unreadable) {
      throw new UnexpectedReplyError(
        `nfe/list metafield (id ${current.metafield.id})`,
        `its value ${current.unreadable}, so it was not changed`,
      );
    }
    const write = recorder.intend([{ ...change, id: current.metafield.id, kind: 'update', before: current.listed }]);
    await updateMetafield(client, current.metafield.id, { value: JSON.stringify(listed) }, write).catch((error) => {
      throw explainRefusal(error, request);
    });
    return { orderId, invoice, attached: true, invoices };
  }
  const write = recorder.intend([{ ...change, kind: 'create' }]);
  try {
    const metafield = await createMetafield(client, {
      namespace: INVOICE_NAMESPACE,
      key: INVOICE_LIST_KEY,
      value: JSON.stringify(listed),
      description: 'Invoices (fiscal documents) of the order',
      owner_resource: 'Order',
      owner_id: orderId,
    }, write);
    write.identify(metafield.id);
  } catch (error) {
    // Another attach created the list since we read it (a second POST is a 422): append to that one.
    if (error instanceof ValidationError && (await readInvoices(client, orderId, { checkOrder: false })).metafield) {
      return attachInvoice(client, recorder, request, { checkOrder: false });
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
