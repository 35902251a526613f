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

export const CANCEL_REASONS = ['customer', 'inventory', 'fraud', 'other'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
