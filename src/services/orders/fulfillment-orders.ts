import { NotFoundError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import { type FulfillmentOrder, getFulfillmentOrder, listFulfillmentOrders } from '../../api/fulfillment-orders.js';
import { storeMainLanguage } from '../catalog/locations.js';
import { byIdOrNumber, type FoundOrder } from './order-lookup.js';
import type { FulfillmentOrderRef } from '../common/validate.js';

/** The fulfillment orders of an order, with the store's main language that names their source locations. */
export interface FulfillmentOrders {
  fulfillmentOrders: FulfillmentOrder[];
  /** The store's main language, to name the source location; undefined when the store did not say. */
  mainLanguage?: string;
}

/** `fulfillment-orders list ORDER`: ORDER is an id or, when the store has no such id, an order number. */
export async function fulfillmentOrdersOf(client: StoreClient, idOrNumber: number): Promise<FoundOrder<FulfillmentOrders>> {
  return byIdOrNumber(client, idOrNumber, 'listing its fulfillment orders', async (orderId) => {
    const [fulfillmentOrders, mainLanguage] = await Promise.all([listFulfillmentOrders(client, orderId), storeMainLanguage(client)]);
    return { fulfillmentOrders, mainLanguage };
  });
}

/**
 * The shipment of these a user names: by id, or by its number as listed (`191-1`); `191-1` also names the one
 * numbered `1`, as a store that numbers them per order shows it. Undefined when none is.
 */
export function findShipment<T extends Pick<FulfillmentOrder, 'id' | 'number'>>(shipments: readonly T[], ref: FulfillmentOrderRef): T | undefined {
  if ('id' in ref) return shipments.find((fo) => fo.id.toUpperCase() === ref.id);
  const position = ref.number.includes('-') ? ref.number.slice(ref.number.lastIndexOf('-') + 1) : undefined;
  return shipments.find((fo) => fo.number === ref.number) ?? shipments.find((fo) => position !== undefined && fo.number === position);
}

/** "Order 191 has no fulfillment order 191-3 (it has 191-1, 191-2); `store fulfillment-orders list 191` lists them." */
export function noSuchShipment(order: number | string, ref: FulfillmentOrderRef, shipments: readonly Pick<FulfillmentOrder, 'number'>[]): string {
  const numbers = shipments.map((fo) => fo.number).filter(Boolean);
  const named = 'id' in ref ? ref.id : ref.number;
  return `Order ${order} has no fulfillment order ${named}${numbers.length ? ` (it has ${numbers.join(', ')})` : ''}; \`store fulfillment-orders list ${order}\` lists them.`;
}

/**
 * The id of a fulfillment order of this order: the id given, or the one whose number (`191-1`) is given, found
 * among the order's fulfillment orders (a 404 when the order does not exist, so ORDER can still be a number).
 */
export async function fulfillmentOrderIdOf(client: StoreClient, orderId: number, ref: FulfillmentOrderRef): Promise<string> {
  if ('id' in ref) return ref.id;
  const all = await listFulfillmentOrders(client, orderId);
  const found = findShipment(all, ref);
  if (!found) {
    throw new NotFoundError(noSuchShipment(orderId, ref, all), { status: 404, method: 'GET', url: `/orders/${orderId}/fulfillment-orders` });
  }
  return found.id;
}

/** `fulfillment-orders get ORDER FULFILLMENT_ORDER`: by ids or numbers. */
export async function fulfillmentOrder(
  client: StoreClient,
  idOrNumber: number,
  ref: FulfillmentOrderRef,
): Promise<FoundOrder<{ fulfillmentOrder: FulfillmentOrder; mainLanguage?: string }>> {
  return byIdOrNumber(client, idOrNumber, 'showing its fulfillment order', async (orderId) => {
    const foId = await fulfillmentOrderIdOf(client, orderId, ref);
    const [fo, mainLanguage] = await Promise.all([getFulfillmentOrder(client, orderId, foId), storeMainLanguage(client)]);
    return { fulfillmentOrder: fo, mainLanguage };
  });
}
