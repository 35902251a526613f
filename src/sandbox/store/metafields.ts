import { isValidAccessKey } from '../../platform/invoice-key.js';
import { INVOICE_LIST_KEY, INVOICE_NAMESPACE } from '../../platform/invoice-metafields.js';
import type { FieldErrors } from '../http.js';
import type { Collection, StoreData, Tx } from '../state.js';
import { fulfillmentOrdersOf } from './fulfillment-orders.js';

/**
 * Metafields of orders (docs/api-rules.md §5.16), the carrier of invoices: namespace `nfe`, key `list`, value a JSON
 * array of `{key, link, fulfillment_order_id?}`. One metafield per (owner, namespace, key): a second POST is
 * a 422 that points at PUT. Every write of an `nfe`/`list` value is validated entry by entry.
 */

export type MetafieldRecord = {
  id: number;
  namespace: string;
  key: string;
  value: string;
  description: string;
  owner_resource: 'Order';
  owner_id: number;
  created_at: number;
  updated_at: number;
};

export function metafieldsOf(store: StoreData): Collection<MetafieldRecord> {
  return store.metafields as unknown as Collection<MetafieldRecord>;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Problems of an invoice list value, keyed by field (`value.1.key`), or undefined when it is valid.
 * A fulfillment order must belong to the owning order.
 */
function invoiceListErrors(store: StoreData, orderId: number, value: string): FieldErrors | undefined {
  let entries: unknown;
  try {
    entries = JSON.parse(value);
  } catch {
    return { value: ['must be a JSON array of {key, link, fulfillment_order_id}'] };
  }
  if (!Array.isArray(entries)) return { value: ['must be a JSON array of {key, link, fulfillment_order_id}'] };
  const errors: FieldErrors = {};
  const add = (field: string, problem: string) => (errors[field] ??= []).push(problem);
  const seen = new Set<string>();
  entries.forEach((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      add(`value.${i}`, 'must be an object with key, link and fulfillment_order_id');
      return;
    }
    const { key, link, fulfillment_order_id: foId } = entry as Record<string, unknown>;
    if (typeof key !== 'string' || !isValidAccessKey(key)) {
      add(`value.${i}.key`, 'must be a 44-digit access key with a valid check digit');
    } else if (seen.has(key)) {
      add(`value.${i}.key`, 'appears twice in the list');
    } else {
      seen.add(key);
    }
    if (typeof link !== 'string' || !isHttpUrl(link)) add(`value.${i}.link`, 'must be an http or https URL');
    if (foId !== undefined && foId !== null && foId !== '') {
      const fo = typeof foId === 'string' ? fulfillmentOrdersOf(store).get(foId) : undefined;
      if (!fo || fo.order_id !== orderId) {
        add(`value.${i}.fulfillment_order_id`, `is not a fulfillment order of order ${orderId}`);
      }
    }
  });
  return Object.keys(errors).length ? errors : undefined;
}

/** Problems of a metafield's value (only an invoice list has rules), or undefined when it may be stored. */
export function metafieldValueErrors(
  store: StoreData,
  m: { namespace: string; key: string; owner_id: number; value: string },
): FieldErrors | undefined {
  if (m.namespace === INVOICE_NAMESPACE && m.key === INVOICE_LIST_KEY) return invoiceListErrors(store, m.owner_id, m.value);
  return undefined;
}

/** The metafield of an order with this namespace and key (there is at most one). */
export function findMetafield(store: StoreData, ownerId: number, namespace: string, key: string): MetafieldRecord | undefined {
  return metafieldsOf(store)
    .list()
    .find((m) => m.owner_id === ownerId && m.namespace === namespace && m.key === key);
}

/** The store's metafields of orders, each criterion given narrowing the list. */
export function findMetafields(store: StoreData, filter: { ownerId?: number; namespace?: string; key?: string }): MetafieldRecord[] {
  const { ownerId, namespace, key } = filter;
  return metafieldsOf(store)
    .list()
    .filter(
      (m) =>
        (ownerId === undefined || m.owner_id === ownerId) &&
        (namespace === undefined || m.namespace === namespace) &&
        (key === undefined || m.key === key),
    );
}

export interface NewMetafield {
  namespace: string;
  key: string;
  value: string;
  description?: string | null;
  owner_id: number;
}

/** Stores a metafield of an order; its value must have passed `metafieldValueErrors`. */
export function createMetafield(tx: Tx, store: StoreData, input: NewMetafield, at = tx.now()): MetafieldRecord {
  return tx.put<MetafieldRecord>(metafieldsOf(store), {
    id: tx.nextId(store, 'metafield'),
    namespace: input.namespace,
    key: input.key,
    value: input.value,
    description: input.description ?? '',
    owner_resource: 'Order',
    owner_id: input.owner_id,
    created_at: at,
    updated_at: at,
  });
}

/** Changes the value and/or the description (a null description clears it). */
export function updateMetafield(
  tx: Tx,
  store: StoreData,
  metafield: MetafieldRecord,
  changes: { value?: string; description?: string | null },
): MetafieldRecord {
  if (changes.value !== undefined) metafield.value = changes.value;
  if (changes.description !== undefined) metafield.description = changes.description ?? '';
  metafield.updated_at = tx.now();
  return tx.put(metafieldsOf(store), metafield);
}
