/**
 * The webhook events of DESIGN.md §5.17. Dependency-free, so that the client side (src/api/webhook-events.ts)
 * uses this same list rather than a copy, as it does for the invoice key check.
 */
export const WEBHOOK_EVENTS = [
  'order/created',
  'order/updated',
  'order/paid',
  'order/cancelled',
  'product/created',
  'product/updated',
  'product/deleted',
  'category/created',
  'category/updated',
  'category/deleted',
  'location/created',
  'location/updated',
  'location/deleted',
  'fulfillment_order/tracking_event_created',
  'fulfillment_order/tracking_event_updated',
  'fulfillment_order/tracking_event_deleted',
  'app/uninstalled',
] as const;
