import type { StoreClient } from '../client/index.js';
import { type FulfillmentOrder, getFulfillmentOrder, listFulfillmentOrders } from '../api/fulfillment-orders.js';
import { storeMainLanguage } from './locations.js';

/** The fulfillment orders of an order, with the store's main language that names their source locations. */
export interface FulfillmentOrders {
  fulfillmentOrders: FulfillmentOrder[];
  /** The store's main language, to name the source location; undefined when the store did not say. */
  mainLanguage?: string;
}

export async function fulfillmentOrdersOf(client: StoreClient, orderId: number): Promise<FulfillmentOrders> {
  const [fulfillmentOrders, mainLanguage] = await Promise.all([listFulfillmentOrders(client, orderId), storeMainLanguage(client)]);
  return { fulfillmentOrders, mainLanguage };
}

export async function fulfillmentOrder(
  client: StoreClient,
  orderId: number,
  foId: string,
): Promise<{ fulfillmentOrder: FulfillmentOrder; mainLanguage?: string }> {
  const [fo, mainLanguage] = await Promise.all([getFulfillmentOrder(client, orderId, foId), storeMainLanguage(client)]);
  return { fulfillmentOrder: fo, mainLanguage };
}
