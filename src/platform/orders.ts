/**
 * The states of an order and the reasons it can be cancelled with (docs/platform.md
 * §4 "Orders"). Status, payment and shipping are three separate states. Shared by the client (flags,
 * validation) and the sandbox (records, filters); dependency-free so command modules can list them in help.
 */

/** What `status` holds. */
export const ORDER_STATUSES = ['open', 'closed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** What a PUT and the `status` filter accept: the three states and the API seed's `paid`. */
export const ORDER_STATUS_INPUTS = [...ORDER_STATUSES, 'paid'] as const;
export type OrderStatusInput = (typeof ORDER_STATUS_INPUTS)[number];

export const PAYMENT_STATUSES = ['pending', 'authorized', 'paid', 'abandoned', 'refunded', 'voided'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The documented filter values are the first three; records also show `unshipped` and `shipped` for the last two. */
export const SHIPPING_STATUSES = ['unpacked', 'unfulfilled', 'fulfilled', 'unshipped', 'shipped'] as const;
export type ShippingStatus = (typeof SHIPPING_STATUSES)[number];

/**
 * Every `shipping_status` an order record may hold (docs/platform.md §10): the values that follow the order's
 * fulfillment orders (`unpacked`, `partially_packed`, `packed`, `partially_fulfilled`, `fulfilled`), the older
 * `unfulfilled`, and the 2025-03 names of the same ground (`unshipped`, `shipped`, `delivered`). Readers show any
 * other value as it comes.
 */
export const RECORD_SHIPPING_STATUSES = [
  'unpacked',
  'partially_packed',
  'packed',
  'unshipped',
  'unfulfilled',
  'partially_fulfilled',
  'fulfilled',
  'shipped',
  'delivered',
] as const;
export type RecordShippingStatus = (typeof RECORD_SHIPPING_STATUSES)[number];

export const CANCEL_REASONS = ['customer', 'inventory', 'fraud', 'other'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
