import { NotFoundError } from '../../client/errors.js';
import type { StoreClient } from '../../client/index.js';
import { listOrdersPage, type Order } from '../../api/orders.js';

/**
 * The one way a command takes an order: its id or, after the store answered 404 for that id, the number the
 * customer sees (docs/platform.md §0: an id is never refused for its length; a short number may be an order
 * number, said only after the 404). Used by every command with an ORDER argument.
 */

/** An order found by its id or, after the store answered 404 for that id, by the number the customer sees. */
export interface FoundOrder<T> {
  value: T;
  /** The order's id, as given or as found by its number. */
  orderId: number;
  /** Set when the argument was not an id but an order number: the sentence that says which order was used. */
  notice?: string;
}

/**
 * The one order whose customer-facing `number` is this, found with the `q` filter (docs/platform.md §4); undefined
 * when none or several have it.
 */
export async function orderWithNumber(client: StoreClient, number: number): Promise<Order | undefined> {
  const { orders } = await listOrdersPage(client, { q: String(number) }, 1, 50);
  const matches = orders.filter((o) => o.number === number);
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * Runs `action` on the order with this id; when the store has no such id, on the order whose number it is,
 * with a notice naming the order used and what is done with it (`doing`: "showing it", "listing its invoices", …). Without such an order the store's
 * 404 stands. `action` must send nothing that changes the store before it has found the order (a 404 is
 * then safe to retry with the order's id).
 */
export async function byIdOrNumber<T>(
  client: StoreClient,
  idOrNumber: number,
  doing: string,
  action: (orderId: number) => Promise<T>,
): Promise<FoundOrder<T>> {
  try {
    return { value: await action(idOrNumber), orderId: idOrNumber };
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const order = await orderWithNumber(client, idOrNumber).catch(() => undefined);
    if (!order) throw error;
    const value = await action(order.id);
    return { value, orderId: order.id, notice: `Order number ${idOrNumber} is order ${order.id}; ${doing}.` };
  }
}
