import { NotFoundError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import { type FulfillmentOrder, fulfillmentShippingType, fulfillmentStatus, getFulfillmentOrder, listFulfillmentOrders } from '../../api/fulfillment-orders.js';
import { fulfillmentStage, type FulfillmentStatus } from '../../platform/fulfillment.js';
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
  // And `1` names the shipment `191-1` of order 191: its place among the order's shipments.
  const place = (fo: T) => String(fo.number ?? '').endsWith(`-${ref.number}`);
  return (
    shipments.find((fo) => fo.number === ref.number) ??
    shipments.find((fo) => position !== undefined && fo.number === position) ??
    (position === undefined ? shipments.find(place) : undefined)
  );
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

export function shipmentLabel(shipment: Pick<FulfillmentOrder, 'id' | 'number'>): string {
  return shipment.number ? String(shipment.number) : shipment.id;
}

/** The command that takes a shipment to `status`, written for this order and shipment. */
export function commandTo(order: string, label: string, status: FulfillmentStatus): string {
  switch (status) {
    case 'PACKED':
      return `\`store orders pack ${order} --fulfillment-order ${label}\``;
    case 'DISPATCHED':
      return `\`store orders ship ${order} --fulfillment-order ${label} --tracking CODE\``;
    case 'READY_FOR_PICKUP':
      return `\`store fulfillment-orders update ${order} ${label} --status ready-for-pickup\``;
    case 'DELIVERED':
      return `\`store orders deliver ${order} --fulfillment-order ${label}\``;
    case 'UNPACKED':
      return `\`store fulfillment-orders update ${order} ${label} --status unpacked\``;
  }
}

/**
 * Why a shipment takes no new tracking event yet, as one sentence with the command that would make it take one
 * (`fulfillment-orders tracking add`, refused before any request); undefined when it takes one.
 */
export function trackingEventRefusal(order: string, shipment: FulfillmentOrder, request: 'create' | 'change'): string | undefined {
  const status = fulfillmentStatus(shipment);
  const stage = fulfillmentStage(status);
  const label = shipmentLabel(shipment);
  if (stage === undefined || stage === 'dispatched' || (request === 'create' && stage === 'delivered')) return undefined;
  if (stage === 'delivered') return `Shipment ${label} of order ${order} is ${status}: its tracking events no longer change (only new ones are added).`;
  if (fulfillmentShippingType(shipment) !== 'ship') {
    return `Shipment ${label} of order ${order} (${status}) takes no tracking events: they start once a shipment is DISPATCHED, and a ${fulfillmentShippingType(shipment)} shipment never is.`;
  }
  return `Shipment ${label} of order ${order} is ${status}: tracking events start once it is DISPATCHED; ${commandTo(order, label, 'DISPATCHED')} dispatches it first.`;
}

